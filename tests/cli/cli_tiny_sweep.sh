#!/usr/bin/env bash
# A tiny sweep end to end: table on stdout, JSON/CSV/trace files that parse, exit 0.
set -eu
cli=$1
out=$2
rm -rf "$out" && mkdir -p "$out"
"$cli" sweep --strategies none,full,every:2 --depth 4 --width 16 --seq 8 --batch 1 \
    --warmup 0 --repeats 1 --json "$out/r.json" --csv "$out/r.csv" --trace "$out/t.json" \
    > "$out/stdout.txt"
grep -q "every:2" "$out/stdout.txt"
grep -q "ok " "$out/stdout.txt"
python3 - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
r = json.load(open(f"{out}/r.json"))
assert r["schema"] == "ckptlab.results/1", r["schema"]
assert [run["strategy"] for run in r["runs"]] == ["none", "full", "every:2"]
for run in r["runs"]:
    assert run["error"] is None
    assert run["grad_check"]["max_abs_diff"] == 0, run["grad_check"]
    assert run["metrics"]["peak_bytes"] > 0
rows = list(csv.DictReader(open(f"{out}/r.csv")))
assert len(rows) == 3 and rows[1]["strategy"] == "full"
trace = json.load(open(f"{out}/t.json"))
kinds = {e["ph"] for e in trace["traceEvents"]}
assert "C" in kinds and "X" in kinds, kinds
print("tiny sweep files ok")
PY
