#!/usr/bin/env bash
# ckptlab-cli lesson as a user runs it, on the small lesson in tests/data/lessons (its recording
# was made with `lesson --record`): bad input exits 2 with one line naming the option and its
# allowed values; a lesson prints from its recording or live, in both languages, and as JSON;
# --check fails on a missing recording and on an unresolved placeholder.
set -u
cli=$1
data=$2
out=$3
rm -rf "$out" && mkdir -p "$out"
lessons=(--lessons "$data" --recordings "$data/recordings")
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# --check on a lesson just recorded here: passes, or fails only on times that disagree with the
# cost model's forecast, which a tiny step on a slow build (sanitizers) may; the structure is
# what these checks are about.
check_passes() {
    local text
    text=$("$cli" lesson "$@" --check 2>&1) && return 0
    ! grep -v -e 're-record on a quiet machine' -e 'lesson check failed' <<<"$text" | grep -q .
}

expect() {  # expect CODE PATTERN -- ARGS...: the exit code, and PATTERN in stderr
    local code=$1 pattern=$2
    shift 3
    local err got lines
    err=$("$cli" lesson "$@" 2>&1 >/dev/null)
    got=$?
    lines=$(printf '%s' "$err" | grep -c '')
    if [[ $got -ne $code ]] || ! grep -qF -- "$pattern" <<<"$err" || [[ $code -eq 2 && $lines -ne 1 ]]; then
        fail "ckptlab-cli lesson $* -> exit $got, stderr: $err (wanted exit $code and '$pattern')"
    fi
}

# Bad input: exit 2, one line naming the field and its allowed values.
expect 2 'unknown lesson "nope" (valid: tiny)' -- "${lessons[@]}" nope
expect 2 '--lang must be en or zh_CN (got "fr")' -- "${lessons[@]}" tiny --lang fr
expect 2 '--json: ' -- "${lessons[@]}" tiny --json /nonexistent/dir/out.json
expect 2 '--record: ' -- "${lessons[@]}" --record /nonexistent/dir/rec
expect 2 'unknown lesson "nope" (valid: tiny)' -- "${lessons[@]}" --record "$out/rec" nope
expect 2 'give one of ID, --list, --check or --record DIR' -- "${lessons[@]}"
expect 2 'give one of ID, --list, --check or --record DIR' -- "${lessons[@]}" --list --check
expect 2 '--live: only when showing a lesson' -- "${lessons[@]}" --list --live
expect 2 'does not exist' -- --lessons "$out/absent" tiny
expect 2 '--lessons: folder' -- --lessons "$out/absent" --check

# A broken lesson file is refused with its file, step and field.
mkdir -p "$out/broken"
sed 's/"depth": 4,/"depth": 0,/' "$data/01-tiny.json" > "$out/broken/01-tiny.json"
expect 2 'step "compare": experiment.config.depth: expected a whole number in [1, 512], got 0' \
    -- --lessons "$out/broken" tiny
expect 1 'lesson check failed' -- --lessons "$out/broken" --check
# Beside a good lesson, the broken file is named and left out; the good one still lists and shows.
mkdir -p "$out/mixed"
cp "$data/01-tiny.json" "$out/mixed/"
sed 's/"id": "tiny"/"id": "other"/; s/"depth": 4,/"depth": 0,/' "$data/01-tiny.json" \
    > "$out/mixed/02-other.json"
text=$("$cli" lesson --lessons "$out/mixed" --list 2> "$out/mixed.err") ||
    fail "--list with one broken file exited $?: $(cat "$out/mixed.err")"
grep -qP '^tiny\tA tiny lesson\t2 steps$' <<<"$text" || fail "--list beside a broken file: $text"
grep -qF 'left out: ' "$out/mixed.err" && grep -qF '02-other.json' "$out/mixed.err" ||
    fail "the broken file is not named: $(cat "$out/mixed.err")"
"$cli" lesson --lessons "$out/mixed" --recordings "$data/recordings" tiny > /dev/null 2>&1 ||
    fail "a lesson beside a broken file does not show"
expect 1 'lesson check failed' -- --lessons "$out/mixed" --recordings "$data/recordings" --check

# From the recording, in English and Chinese, and as JSON.
text=$("$cli" lesson "${lessons[@]}" tiny 2>&1) || fail "lesson tiny exited $?: $text"
grep -q '^Recorded on: .*([a-z]*), 20' <<<"$text" || fail "no machine line: $text"
grep -q '^  Answer: -\?[0-9]*\.[0-9] % of [0-9]*\.[0-9] MiB; the gradients passed\.$' <<<"$text" ||
    fail "answer not filled: $text"
grep -qF '{' <<<"$text" && fail "a placeholder left in: $text"
text=$("$cli" lesson "${lessons[@]}" tiny --lang zh_CN 2>&1) || fail "zh_CN exited $?"
grep -q '^  答案: [0-9.]* MiB 中的 -\?[0-9.]* %；梯度检查通过。$' <<<"$text" || fail "zh_CN: $text"
grep -q '^录制于: ' <<<"$text" || fail "zh_CN machine line: $text"
"$cli" lesson "${lessons[@]}" tiny --json "$out/tiny.json" > /dev/null || fail "--json exited $?"
python3 - "$out/tiny.json" <<'PY' || fail "--json content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["id"] == "tiny" and d["lang"] == "en" and d["source"] == "recording", d
assert d["unresolved"] == [] and len(d["steps"]) == 2
assert d["steps"][0]["results"]["schema"] == "ckptlab.results/1"
assert "{" not in d["steps"][1]["answer"], d["steps"][1]["answer"]
PY
text=$("$cli" lesson "${lessons[@]}" --list) && grep -qP '^tiny\tA tiny lesson\t2 steps$' <<<"$text" ||
    fail "--list: $text"

# Live: measured now, the JSON says so.
"$cli" lesson "${lessons[@]}" tiny --live -q --time-limit 1 --json "$out/live.json" > "$out/live.txt" ||
    fail "--live exited $?"
grep -q '^Measured live on: ' "$out/live.txt" || fail "--live machine line: $(cat "$out/live.txt")"
grep -q '"source": "live"' "$out/live.json" || fail "--live JSON source"

# --check: passes on the data, fails naming a missing recording and an unresolved placeholder.
"$cli" lesson "${lessons[@]}" --check > "$out/check.txt" || fail "--check: $(cat "$out/check.txt")"
mkdir -p "$out/stale/recordings/tiny"
cp "$data/01-tiny.json" "$out/stale/"
cp "$data/recordings/tiny/compare.json" "$out/stale/recordings/tiny/"
"$cli" lesson --lessons "$out/stale" --check > "$out/stale.txt" 2>&1
[[ $? -eq 1 ]] || fail "--check with a recording missing should exit 1"
grep -q 'depth.json: no recording for step "depth"' "$out/stale.txt" || fail "$(cat "$out/stale.txt")"
grep -qF 'step depth, answer (zh_CN): {peak_exponent(none)}: no results for step "depth"' \
    "$out/stale.txt" || fail "unresolved not listed: $(cat "$out/stale.txt")"
# Recording into a fresh folder makes the same lesson pass.
"$cli" lesson --lessons "$out/stale" --record "$out/stale/recordings" -q --time-limit 1 > /dev/null ||
    fail "--record exited $?"
check_passes --lessons "$out/stale" || fail "--check after --record"

# Two steps with the same experiment are recorded as one measurement (adaptive repeats, all
# their strategies), and --check fails once their recordings are two.
mkdir -p "$out/twice/recordings"
python3 - "$data/01-tiny.json" "$out/twice/01-tiny.json" <<'PY'
import copy, json, sys
lesson = json.load(open(sys.argv[1]))
again = copy.deepcopy(lesson["steps"][0])
again["id"] = "again"
again["experiment"]["strategies"] = ["none", "full", "every:2"]
again.pop("focus", None)
lesson["steps"].append(again)
json.dump(lesson, open(sys.argv[2], "w"), ensure_ascii=False, indent=2)
PY
"$cli" lesson --lessons "$out/twice" --record "$out/twice/recordings" -q --time-limit 1 \
    > /dev/null || fail "--record of two same steps exited $?"
python3 - "$out/twice/recordings/tiny" <<'PY' || fail "the two same steps are not one measurement"
import json, sys
a = json.load(open(sys.argv[1] + "/compare.json"))
b = json.load(open(sys.argv[1] + "/again.json"))
assert a == b, "two recordings"
runs = sorted(r["strategy"] for r in a["runs"])
assert runs == ["every:2", "full", "none"], runs
assert all(r["config"].get("repeats_auto") for r in a["runs"]), "not timed adaptively"
PY
check_passes --lessons "$out/twice" || fail "--check of one measurement"
sed -i 's/"created_utc": "[^"]*"/"created_utc": "2026-01-01T00:00:00Z"/' \
    "$out/twice/recordings/tiny/again.json"
"$cli" lesson --lessons "$out/twice" --check > "$out/twice.txt" 2>&1 &&
    fail "--check passed two measurements of one experiment"
grep -qF 'steps compare and again run the same experiment' "$out/twice.txt" ||
    fail "two measurements not named: $(cat "$out/twice.txt")"

if [[ $failures -gt 0 ]]; then exit 1; fi
echo "cli lesson ok"
