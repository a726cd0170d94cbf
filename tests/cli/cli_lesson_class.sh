#!/usr/bin/env bash
# ckptlab-cli lesson running a class: the small lesson of tests/data/lessons with a prediction,
# code and a quiz added, and a path. The prediction prints before the chart and the observe text,
# the quiz after the last step with its right choice from the recording; --no-answers hides
# answers, right choices, measured values and the machine; --paths and --path print the path;
# --check fails on an undecidable question and a broken path; the Chinese output's labels carry
# no English, and every lesson in resources/lessons is checked the same way.
set -u
cli=$1
data=$2
resources=$3
out=$4
rm -rf "$out" && mkdir -p "$out/class/paths"
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# The tiny lesson with the class fields; its recording is the data's.
python3 - "$data/01-tiny.json" "$out/class/01-tiny.json" <<'PY'
import json, sys
lesson = json.load(open(sys.argv[1]))
t = lambda en, zh: {"en": en, "zh_CN": zh}
compare, depth = lesson["steps"]
compare["predict"] = {"prompt": t("How much of the peak will full save?", "full 会节省多少峰值？"),
                      "measured": "saving_pct(full)", "unit": t("%", "%")}
compare["code"] = [{"caption": t("The loop", "循环"), "language": "python",
                    "text": "for block in blocks:\n    x = checkpoint(block, x)\n"}]
depth["predict"] = {"prompt": t("At 8 blocks, whose peak is higher?", "8 个块时，谁的峰值更高？"),
                    "choices": [{"text": t("none", "none"), "value": "peak_mib(none)@8"},
                                {"text": t("full", "full"), "value": "peak_mib(full)@8"}],
                    "pick": "largest"}
lesson["quiz"] = [{"step": "compare", "question": t("Whose peak is lower?", "谁的峰值更低？"),
                   "choices": [{"text": t("none", "none"), "value": "peak_mib(none)"},
                               {"text": t("full", "full"), "value": "peak_mib(full)"}],
                   "pick": "smallest",
                   "explanation": t("full peaks at {peak_mib(full)} MiB.",
                                    "full 的峰值只有 {peak_mib(full)} MiB。")}]
json.dump(lesson, open(sys.argv[2], "w"), ensure_ascii=False, indent=1)
PY
cat > "$out/class/paths/tiny-class.json" <<'JSON'
{"id": "tiny-class", "title": {"en": "A tiny class", "zh_CN": "一堂小课"},
 "summary": {"en": "Two steps.", "zh_CN": "两个环节。"},
 "entries": [{"lesson": "tiny", "step": "compare", "minutes": 5},
             {"lesson": "tiny", "step": "depth", "minutes": 10}]}
JSON
lessons=(--lessons "$out/class" --recordings "$data/recordings")

# The right choices, worked out here from the recording's peaks: the prediction picks the higher
# peak at 8 blocks, the quiz the lower one in step compare ("A. none" or "B. full").
read -r predicted quizzed < <(python3 - "$data/recordings/tiny" <<'PY'
import json, sys
def peak(step, strategy, depth=None):
    runs = json.load(open(f"{sys.argv[1]}/{step}.json"))["runs"]
    return next(r["metrics"]["peak_bytes"] for r in runs
                if r["strategy"] == strategy and depth in (None, r["config"]["depth"]))
higher = "A. none" if peak("depth", "none", 8) > peak("depth", "full", 8) else "B. full"
lower = "A. none" if peak("compare", "none") < peak("compare", "full") else "B. full"
print(higher.replace(" ", "_"), lower.replace(" ", "_"))
PY
)
predicted=${predicted/_/ }
quizzed=${quizzed/_/ }

# The line number of the first line matching PATTERN in TEXT (0 when none).
line_of() { grep -n -m1 -- "$2" <<<"$1" | cut -d: -f1 || true; }

text=$("$cli" lesson "${lessons[@]}" tiny 2>&1) || fail "lesson tiny exited $?: $text"
predict=$(line_of "$text" '^  Predict: How much of the peak will full save? (%)$')
chart=$(line_of "$text" '^  Chart: tradeoff (Focus: `full`)$')
observe=$(line_of "$text" '^  Observe: Compare the two peaks.$')
[[ -n $predict && -n $chart && -n $observe && $predict -lt $chart && $chart -lt $observe ]] ||
    fail "the prediction must come before the chart and observe ($predict, $chart, $observe): $text"
grep -q '^  Measured: -\?[0-9]*\.[0-9] %$' <<<"$text" || fail "no measured value: $text"
grep -qF '    | for block in blocks:' <<<"$text" || fail "no code: $text"
grep -qF '  Code: The loop (python)' <<<"$text" || fail "no code caption: $text"
grep -qx "  Right answer: $predicted" <<<"$text" || fail "the prediction's right choice: $text"
quiz=$(line_of "$text" '^Quiz$')
last=$(line_of "$text" '^Step 2/2: ')
[[ -n $quiz && -n $last && $quiz -gt $last ]] || fail "the quiz must follow the last step: $text"
grep -qx "     Right answer: $quizzed" <<<"$text" || fail "the quiz's right choice: $text"
grep -q '^     Why: full peaks at [0-9]*\.[0-9] MiB\.$' <<<"$text" || fail "no explanation: $text"
grep -qF '{' <<<"$text" && fail "a placeholder left in: $text"

# A student's copy: the questions, not the answers.
text=$("$cli" lesson "${lessons[@]}" tiny --no-answers 2>&1) || fail "--no-answers exited $?"
for hidden in '^  Answer:' 'Right answer' '^  Measured' '^Recorded on' '^     Why:'; do
    grep -q -- "$hidden" <<<"$text" && fail "--no-answers shows '$hidden': $text"
done
grep -qF '  Predict: At 8 blocks, whose peak is higher?' <<<"$text" || fail "--no-answers: $text"
grep -q '^     B\. full$' <<<"$text" || fail "--no-answers hides the quiz's choices: $text"
"$cli" lesson "${lessons[@]}" tiny --no-answers --json "$out/student.json" > /dev/null ||
    fail "--no-answers --json exited $?"
python3 - "$out/student.json" <<'PY' || fail "--no-answers JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["answers"] is False and d["machine"] == "", d["machine"]
assert all("answer" not in s and s["results"] is None for s in d["steps"])
assert "measured" not in d["steps"][0]["predict"]
assert "right_choice" not in d["quiz"][0] and d["quiz"][0]["choices"] == ["none", "full"]
PY
"$cli" lesson "${lessons[@]}" tiny --teacher --json "$out/teacher.json" > "$out/teacher.txt" ||
    fail "--teacher exited $?"
grep -q '^Recorded on: ' "$out/teacher.txt" || fail "--teacher: no machine"
python3 - "$out/teacher.json" "$quizzed" "$predicted" <<'PY' || fail "--teacher JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["quiz"][0]["right_choice"] == "AB".index(sys.argv[2][0]), d["quiz"][0]
assert d["steps"][1]["predict"]["right_choice"] == "AB".index(sys.argv[3][0])
assert isinstance(d["steps"][0]["predict"]["measured"], float)
PY
err=$("$cli" lesson "${lessons[@]}" tiny --teacher --no-answers 2>&1 >/dev/null)
[[ $? -eq 2 ]] && grep -qF -- '--no-answers and --teacher: give one' <<<"$err" ||
    fail "--teacher with --no-answers: $err"
err=$("$cli" lesson "${lessons[@]}" --list --no-answers 2>&1 >/dev/null)
[[ $? -eq 2 ]] || fail "--list --no-answers should exit 2: $err"

# Paths.
text=$("$cli" lesson "${lessons[@]}" --paths) || fail "--paths exited $?"
grep -qP '^tiny-class\tA tiny class\t15 min\t2 steps$' <<<"$text" || fail "--paths: $text"
text=$("$cli" lesson "${lessons[@]}" --paths --lang zh_CN) || fail "--paths zh_CN exited $?"
grep -qP '^tiny-class\t一堂小课\t15 分钟\t2 个环节$' <<<"$text" || fail "--paths zh_CN: $text"
text=$("$cli" lesson "${lessons[@]}" --path tiny-class) || fail "--path exited $?"
grep -qF '| 2 | 0:05 | 10 | A tiny lesson | Growing the depth | How fast? |' <<<"$text" ||
    fail "--path: $text"
text=$("$cli" lesson "${lessons[@]}" --path tiny-class --lang zh_CN) || fail "--path zh exited $?"
grep -qF '共 15 分钟，2 个环节。' <<<"$text" && grep -qF '| 1 | 0:00 | 5 | 一个小课程 |' <<<"$text" ||
    fail "--path zh_CN: $text"
err=$("$cli" lesson "${lessons[@]}" --path nope 2>&1 >/dev/null)
[[ $? -eq 2 ]] && grep -qF -- '--path: unknown path "nope" (valid: tiny-class)' <<<"$err" ||
    fail "--path nope: $err"

# --check: passes, then fails on a broken path and on a question the recording cannot decide.
"$cli" lesson "${lessons[@]}" --check > "$out/check.txt" || fail "--check: $(cat "$out/check.txt")"
grep -qF ', 1 path' "$out/check.txt" || fail "--check does not count the path: $(cat "$out/check.txt")"
cp -r "$out/class" "$out/badpath"
sed -i 's/"step": "depth"/"step": "deep"/' "$out/badpath/paths/tiny-class.json"
"$cli" lesson --lessons "$out/badpath" --recordings "$data/recordings" --check > "$out/badpath.txt" 2>&1
[[ $? -eq 1 ]] || fail "--check with a broken path should exit 1"
grep -qF 'tiny-class.json: entries[1].step: lesson "tiny" has no step "deep"' "$out/badpath.txt" ||
    fail "the broken path is not named: $(cat "$out/badpath.txt")"
cp -r "$out/class" "$out/tie"
sed -i 's/"value": "peak_mib(full)"/"value": "peak_mib(none)"/' "$out/tie/01-tiny.json"
"$cli" lesson --lessons "$out/tie" --recordings "$data/recordings" --check > "$out/tie.txt" 2>&1
[[ $? -eq 1 ]] || fail "--check with a tied quiz should exit 1"
grep -qF 'lesson tiny, quiz[0]: the right choice cannot be decided: choices 1 and 2 tie' \
    "$out/tie.txt" || fail "the tie is not named: $(cat "$out/tie.txt")"

# Chinese: no English left in the CLI's own words. In the tiny lesson (whose texts hold only
# strategy names and units), any word outside those is a leftover; the tutorial heading is
# the tutorial's own Chinese, without our English translation.
text=$("$cli" lesson "${lessons[@]}" tiny --lang zh_CN 2>&1) || fail "zh_CN exited $?"
grep -q '^教程原文: 第四步：使用梯度检查点$' <<<"$text" || fail "zh_CN tutorial line: $text"
grep -q '^  图表: 权衡图（关注: `full`）$' <<<"$text" || fail "zh_CN chart line: $text"
grep -q '^  图表: 规模扫描$' <<<"$text" || fail "zh_CN scaling chart line: $text"
grep -q '^小测验$' <<<"$text" || fail "zh_CN quiz heading: $text"
words=$(grep -v '^  运行: \|^    | \|^录制于: ' <<<"$text" | sed 's/`[^`]*`//g' |
    grep -oE '[A-Za-z][A-Za-z0-9_:.-]*' | sort -u |
    grep -vxE 'none|full|MiB|ms|[A-F]\.?|depth|k|python' || true)
[[ -z $words ]] || fail "English in the zh_CN output: $(tr '\n' ' ' <<<"$words")"

# Every lesson shipped: each line's label (before its first ': ') is Chinese.
for id in $("$cli" lesson --lessons "$resources" --list | cut -f1); do
    text=$("$cli" lesson --lessons "$resources" "$id" --lang zh_CN 2>/dev/null | sed '/^未解析的占位符/q')
    labels=$(grep -oP '^ *[^:：]+(?=: )' <<<"$text" | grep -v '^    ' | grep '[A-Za-z]' || true)
    [[ -z $labels ]] || fail "lesson $id: English labels in zh_CN: $(sort -u <<<"$labels" | tr '\n' ' ')"
    grep -qE '^  (Step|Chart|Predict|Quiz|Answer)' <<<"$text" && fail "lesson $id: English label"
done

if [[ $failures -gt 0 ]]; then exit 1; fi
echo "cli lesson class ok"
