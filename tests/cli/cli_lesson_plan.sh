#!/usr/bin/env bash
# A lesson's plan step (docs/LESSONS.md, "Plan steps") as a user runs it: a small preset at a
# short sequence recorded with `lesson --record` (one layer at small shapes, then the plan), its
# recording a results file with "plan" and no runs, the same rows as `plan --capacity --json`,
# its placeholders filled in both languages, shown live, and --check telling a changed step.
set -u
cli=$1
out=$2
rm -rf "$out" && mkdir -p "$out/lessons"
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

python3 - "$out/lessons/01-plan-demo.json" <<'PY'
import json, sys
def text(en, zh): return {"en": en, "zh_CN": zh}
step = {
    "id": "fit",
    "title": text("Does it fit?", "装得下吗？"),
    "experiment": {
        # float32: LibTorch 1.13's bf16 matmul on a CPU without AVX-512 takes about 15 times
        # as long, and mixed-bf16 plans are covered by cli_plan_full_size.
        "config": {"seq": 64, "batch": 2, "optimizer": "adam", "dtype": "float32"},
        "strategies": ["none", "full", "sqrt"],
        "plan": {"model": "smollm2-135m", "capacity_gib": 2},
    },
    "chart": "breakdown",
    "observe": text("The plan of {plan(parameters_billion)} billion parameters.",
                    "{plan(parameters_billion)} 十亿参数的计划。"),
    "question": text("What fits in {plan(capacity_gib)} GiB of {term(memory)}?",
                     "{plan(capacity_gib)} GiB {term(memory)}装得下什么？"),
    "answer": text("none fits: {plan_fits(none)}; full reserves {plan_reserved_gib(full)} GiB "
                   "at {plan_tokens_per_s(full)} tokens/s; fastest: {plan(fastest)}; "
                   "state {plan(state_gib)} GiB; {plan(fits_count)} fit.",
                   "none 装得下：{plan_fits(none)}；full 预留 {plan_reserved_gib(full)} GiB，"
                   "每秒 {plan_tokens_per_s(full)} 个词元；最快：{plan(fastest)}；"
                   "状态 {plan(state_gib)} GiB；{plan(fits_count)} 个装得下。"),
}
lesson = {"id": "plan-demo", "order": 1, "title": text("Plan", "计划"),
          "summary": text("A plan step.", "一个计划步骤。"), "tutorial": [], "steps": [step]}
json.dump(lesson, open(sys.argv[1], "w"), ensure_ascii=False, indent=2)
PY
lessons=(--lessons "$out/lessons" --recordings "$out/rec")

# Recorded: progress on stderr, a results file with the plan and no runs.
"$cli" lesson --lessons "$out/lessons" --record "$out/rec" plan-demo > /dev/null \
    2> "$out/record.err" || fail "--record exited $?: $(cat "$out/record.err")"
grep -qF 'lesson plan-demo, step fit' "$out/record.err" || fail "no progress: $(cat "$out/record.err")"
recording="$out/rec/plan-demo/fit.json"
[[ -f $recording ]] || fail "no recording at $recording"

# The same plan as `plan --capacity --json` for that config: the bytes are exact fits, so equal.
"$cli" plan --model smollm2-135m --seq 64 --batch 2 --optimizer adam --precision float32 \
    --capacity 2GiB \
    --strategies none,full,sqrt --json "$out/plan.json" -q > /dev/null 2>&1 ||
    fail "plan --capacity exited $?"
python3 - "$recording" "$out/plan.json" <<'PY' || fail "the recording is not the CLI's plan"
import json, sys
rec = json.load(open(sys.argv[1]))
cli = json.load(open(sys.argv[2]))
assert rec["schema"] == "ckptlab.results/1" and rec["runs"] == [], "runs in a plan recording"
assert rec["environment"]["device"] == "cpu", rec["environment"]
plan = rec["plan"]
assert plan["model"] == "smollm2-135m" and plan["capacity_bytes"] == 2 * 2**30, plan["model"]
assert plan["run_config"]["seq"] == 64 and plan["run_config"]["optimizer"] == "adam"
assert plan["config"] == cli["config"], (plan["config"], cli["config"])
assert plan["parameters"] == cli["parameters"] == 134515008, plan["parameters"]
assert plan["state_bytes"] == cli["state_bytes"]
keys = ["strategy", "allocated_bytes", "reserved_bytes", "peak_bytes", "split", "fits",
        "largest_batch", "longest_seq"]
rows = [{k: r[k] for k in keys} for r in plan["strategies"]]
want = [{k: r[k] for k in keys} for r in cli["strategies"]]
assert rows == want, (rows, want)
assert [r["strategy"] for r in rows] == ["none", "full", "sqrt"]
assert set(plan) - {"run_config"} == set(cli), set(plan) ^ set(cli)
PY

# Shown from the recording: every placeholder filled, with the recording's values.
text=$("$cli" lesson "${lessons[@]}" plan-demo 2>&1) || fail "lesson plan-demo exited $?: $text"
grep -qF '{' <<<"$text" && fail "a placeholder left in: $text"
python3 - "$recording" "$text" <<'PY' || fail "answer does not read the recording"
import json, re, sys
plan = json.load(open(sys.argv[1]))["plan"]
text = sys.argv[2]
row = {r["strategy"]: r for r in plan["strategies"]}
fits = "yes" if row["none"]["fits"] else "no"
reserved = "%.1f" % (row["full"]["reserved_bytes"] / 2**30)
m = re.search(r"none fits: (\w+); full reserves ([0-9.]+) GiB at ([0-9.]+) tokens/s; "
              r"fastest: ([\w:.]+); state ([0-9.]+) GiB; (\d) fit\.", text)
assert m, text
assert m.group(1) == fits and m.group(2) == reserved, (m.groups(), fits, reserved)
tokens = 2 * 64 / (row["full"]["step_ms"] / 1000)
assert abs(float(m.group(3)) - tokens) <= 0.01 * tokens, (m.group(3), tokens)
assert int(m.group(6)) == sum(r["fits"] for r in plan["strategies"]), m.group(6)
assert "What fits in 2.0 GiB of memory?" in text, text
PY
text=$("$cli" lesson "${lessons[@]}" plan-demo --lang zh_CN 2>&1) || fail "zh_CN exited $?"
grep -qF '2.0 GiB 显存装得下什么？' <<<"$text" || fail "zh_CN: the plan's memory is a GPU's: $text"
grep -qE 'none 装得下：(能|不能)；' <<<"$text" || fail "zh_CN yes/no: $text"

"$cli" lesson "${lessons[@]}" --check > "$out/check.txt" 2>&1 ||
    fail "--check of the recorded plan step: $(cat "$out/check.txt")"

# Live: measured and planned again on this machine.
text=$("$cli" lesson "${lessons[@]}" plan-demo --live -q 2>&1) || fail "--live exited $?: $text"
grep -qE 'none fits: (yes|no); full reserves' <<<"$text" || fail "--live: $text"

# The step changed after it was recorded: --check names what differs.
sed -i 's/"capacity_gib": 2/"capacity_gib": 80/' "$out/lessons/01-plan-demo.json"
"$cli" lesson "${lessons[@]}" --check > "$out/changed.txt" 2>&1 &&
    fail "--check passed a plan recorded at another capacity"
grep -qF "the plan's capacity is 2147483648 bytes, the step's 85899345920" "$out/changed.txt" ||
    fail "the changed capacity is not named: $(cat "$out/changed.txt")"

if [[ $failures -gt 0 ]]; then exit 1; fi
echo "cli lesson plan ok"
