#!/usr/bin/env bash
# ckptlab-cli compare on two real tiny sweeps that differ in --threads, and one in --seq: the
# ratio columns, the config differences and the notes; then bad input, each exit 2 with one line
# naming the file or field; then two full-size plans compared by their configs and predicted
# rows, and plot refusing a plan's file.
set -eu
cli=$1
out=$2
rm -rf "$out" && mkdir -p "$out"
sweep() {  # sweep FILE OPTIONS...
    local file=$1
    shift
    "$cli" sweep -q --strategies none,full,every:2 --depth 4 --width 16 --batch 1 --warmup 0 \
        --repeats 1 --json "$file" "$@" > /dev/null
}
sweep "$out/a.json" --seq 8 --threads 1
sweep "$out/b.json" --seq 8 --threads 2
sweep "$out/c.json" --seq 16 --threads 1

fail() {
    echo "FAIL: $*"
    exit 1
}

# Same work, other thread count: ratios are numbers, the exact peaks are equal.
"$cli" compare "$out/a.json" "$out/b.json" > "$out/ab.txt"
cat "$out/ab.txt"
grep -q "B/A peak" "$out/ab.txt" || fail "no B/A peak column"
grep -q "B/A step" "$out/ab.txt" || fail "no B/A step column"
grep -q "A peak MiB" "$out/ab.txt" || fail "no A peak column"
grep -q -- "- threads: A 1, B 2" "$out/ab.txt" || fail "threads difference not listed"
grep -Eq "^none .* 1\.00x +[0-9.]+x$" "$out/ab.txt" || fail "none's peak ratio is not 1.00x"
grep -Eq "^every:2 " "$out/ab.txt" || fail "no every:2 row"
grep -q "the step-time ratios include the thread count" "$out/ab.txt" || fail "no threads note"
if grep -q "n/c" "$out/ab.txt"; then fail "same work marked not comparable"; fi

# Other sequence length: each shown, not divided, and said why.
"$cli" compare "$out/a.json" "$out/c.json" > "$out/ac.txt"
cat "$out/ac.txt"
grep -q -- "- seq: A 8, B 16 (changes the work" "$out/ac.txt" || fail "seq difference not listed"
grep -q "n/c" "$out/ac.txt" || fail "no n/c ratio"
grep -q "memory and time not comparable between B and A: their runs differ in seq (16 vs 8)" \
    "$out/ac.txt" || fail "no note on the seq difference"

# Three files, JSON and CSV.
"$cli" compare -q "$out/a.json" "$out/b.json" "$out/c.json" --json "$out/cmp.json" \
    --csv "$out/cmp.csv" > "$out/abc.txt"
grep -q "C/A step" "$out/abc.txt" || fail "no C/A column"
if grep -q "^Sources" "$out/abc.txt"; then fail "-q still lists the sources"; fi
python3 - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
c = json.load(open(f"{out}/cmp.json"))
assert c["schema"] == "ckptlab.comparison/1", c["schema"]
assert c["reference"] == "A"
assert [s["letter"] for s in c["sources"]] == ["A", "B", "C"]
assert [r["strategy"] for r in c["rows"]] == ["none", "full", "every:2"], c["rows"]
for row in c["rows"]:
    a, b, cc = row["cells"]
    assert a["state"] == b["state"] == cc["state"] == "measured", row
    assert a["peak_ratio"] is None
    # The tracker's peaks are exact: the same work on the same machine gives the same bytes.
    assert b["peak_ratio"] == 1.0, b
    assert b["step_ratio"] > 0
    assert cc["same_work"] is False and cc["peak_ratio"] is None and cc["step_ratio"] is None
    assert cc["peak_mib"] > a["peak_mib"], (cc, a)  # seq 16 holds more than seq 8
fields = {d["field"]: d["values"] for d in c["differences"]}
assert fields["seq"] == {"A": "8", "B": "8", "C": "16"}, fields
assert fields["threads"] == {"A": "1", "B": "2", "C": "1"}, fields
kinds = [n["kind"] for n in c["notes"]]
assert "work_differs" in kinds and "threads_differ" in kinds, kinds
rows = list(csv.DictReader(open(f"{out}/cmp.csv")))
assert len(rows) == 9, len(rows)
assert rows[1]["source"] == "B" and rows[1]["peak_ratio"] == "1.0000", rows[1]
assert rows[2]["same_work"] == "no" and rows[2]["peak_ratio"] == "", rows[2]
print("compare files ok")
PY

# Bad input: exit 2, one line on stderr containing the expected text.
expect_bad() {  # expect_bad TEXT ARGS...
    local text=$1
    shift
    set +e
    "$cli" compare "$@" > "$out/bad.out" 2> "$out/bad.err"
    local code=$?
    set -e
    [[ $code -eq 2 ]] || fail "compare $* exited $code, not 2: $(cat "$out/bad.err")"
    grep -qF -- "$text" "$out/bad.err" || fail "compare $*: no \"$text\" in: $(cat "$out/bad.err")"
    [[ $(wc -l < "$out/bad.err") -eq 1 ]] || fail "compare $*: not one line: $(cat "$out/bad.err")"
    [[ ! -s "$out/bad.out" ]] || fail "compare $*: printed a table"
}
echo '{"schema": "ckptlab.results/1", "runs": [' > "$out/broken.json"
expect_bad "compare needs at least two results files (got 1)" "$out/a.json"
expect_bad "is given twice (files 1 and 2)" "$out/a.json" "$out/a.json"
expect_bad "are the same file" "$out/a.json" "$out/./a.json"
expect_bad "$out/missing.json" "$out/a.json" "$out/missing.json"
expect_bad "$out/broken.json" "$out/a.json" "$out/broken.json"
expect_bad "--json" "$out/a.json" "$out/b.json" --json "$out/no/such/dir/c.json"
expect_bad "--csv" "$out/a.json" "$out/b.json" --csv "$out"
expect_bad "would be overwritten" "$out/a.json" "$out/b.json" --json "$out/b.json"
expect_bad "files is required" 
[[ ! -e "$out/no" ]] || fail "a refused output created a folder"
# plan --capacity --json's object is not a results file: said as what it is.
echo '{"model": "m", "capacity_bytes": 80000000000, "strategies": []}' > "$out/cli_plan.json"
expect_bad "the full-size plan that plan --capacity --json writes" "$out/a.json" "$out/cli_plan.json"

# Two full-size plans (lessons' plan steps, results files with a plan and no runs): the configs
# differ and are listed, the rows are the plans' predictions, not divided across other work.
root=$(cd "$(dirname "$0")/../.." && pwd)
rec="$root/resources/lessons/recordings"
"$cli" compare "$rec/when-necessary/llama-70b.json" "$rec/a-real-model/bfloat16.json" \
    --json "$out/plans.json" > "$out/plans.txt"
cat "$out/plans.txt"
if grep -q "the same in every file" "$out/plans.txt"; then fail "two plans of other models read the same"; fi
grep -q -- "- depth: A 80, B 32 (changes the work" "$out/plans.txt" || fail "plans' depth not listed"
grep -q -- "- precision: A mixed-bf16, B bfloat16 (changes the work" "$out/plans.txt" ||
    fail "plans' precision not listed"
grep -q "a full-size plan of llama-3.1-70b for 85.90 GB at B=1 S=8192 (predicted, not measured)" \
    "$out/plans.txt" || fail "the plan's source line"
grep -q "their configs differ in depth (32 vs 80)" "$out/plans.txt" || fail "no work note"
python3 - "$out" "$rec" <<'PY'
import json, sys
out, rec = sys.argv[1:]
c = json.load(open(f"{out}/plans.json"))
a = json.load(open(f"{rec}/when-necessary/llama-70b.json"))["plan"]
assert c["sources"][0]["plan"].startswith("a full-size plan of llama-3.1-70b"), c["sources"][0]
assert c["sources"][0]["runs"] == 0
by = {s["strategy"]: s for s in a["strategies"]}
assert [r["strategy"] for r in c["rows"]] == list(by), c["rows"]
for row in c["rows"]:
    x, y = row["cells"]
    assert x["state"] == y["state"] == "planned", row
    assert abs(x["peak_mib"] - by[row["strategy"]]["peak_bytes"] / 2**20) < 1e-6, (row, by)
    assert abs(x["reserved_peak_mib"] - by[row["strategy"]]["reserved_bytes"] / 2**20) < 1e-6
    assert y["same_work"] is False and y["peak_ratio"] is None, y
print("compare plans ok")
PY

# A plan beside itself under another name: the same work, so the ratios are 1.
cp "$rec/a-real-model/bfloat16.json" "$out/again.json"
"$cli" compare "$rec/a-real-model/bfloat16.json" "$out/again.json" > "$out/same_plan.txt"
grep -q "Config: the same in every file" "$out/same_plan.txt" || fail "one plan twice differs"
grep -Eq "^full .* 1\.00x +1\.00x +1\.00x$" "$out/same_plan.txt" || fail "a plan's own ratios"

# plot draws runs: a plan's file is refused naming what it holds, and nothing is written.
expect_plot_refusal() {  # TEXT FILE
    local code=0
    "$cli" plot "$2" --svg "$out/charts" > "$out/plot.out" 2> "$out/plot.err" || code=$?
    [[ $code -eq 2 ]] || fail "plot $2 exited $code, not 2: $(cat "$out/plot.err")"
    grep -qF -- "$1" "$out/plot.err" || fail "plot $2: no \"$1\" in: $(cat "$out/plot.err")"
    [[ ! -e "$out/charts" ]] || fail "plot $2 wrote $(ls "$out/charts")"
}
expect_plot_refusal "holds a full-size plan of llama-3.1-70b, not runs" \
    "$rec/when-necessary/llama-70b.json"
echo "cli compare ok"
