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
    # Bitwise on CPU: a recompute replays the forward's kernels on the same shapes.
    assert run["grad_check"]["max_abs_diff"] == 0, run["grad_check"]
    assert run["metrics"]["peak_bytes"] > 0
rows = list(csv.DictReader(open(f"{out}/r.csv")))
assert len(rows) == 3 and rows[1]["strategy"] == "full"
trace = json.load(open(f"{out}/t.json"))
kinds = {e["ph"] for e in trace["traceEvents"]}
assert "C" in kinds and "X" in kinds, kinds
print("tiny sweep files ok")
PY

# The default strategies (the seed-tradeoff preset) run at any depth: what a depth cannot take
# (from:10 needs 11 blocks) is left out and said in a note, in the table and the file.
for depth in 1 2 3 4; do
    "$cli" sweep --depth "$depth" --width 16 --seq 8 --batch 1 --warmup 0 --repeats 1 -q \
        --json "$out/default-$depth.json" > "$out/default-$depth.txt" ||
        { echo "FAIL: the default strategies at depth $depth"; cat "$out/default-$depth.txt"; exit 1; }
    grep -q "note: the seed-tradeoff preset runs without .*from:10" "$out/default-$depth.txt" ||
        { echo "FAIL: no note on what depth $depth left out"; cat "$out/default-$depth.txt"; exit 1; }
    python3 - "$out/default-$depth.json" "$depth" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
depth = int(sys.argv[2])
names = [run["strategy"] for run in r["runs"]]
assert names[:2] == ["none", "full"], names
assert "from:10" not in names and all(run["error"] is None for run in r["runs"]), names
assert any("from:10" in note for note in r.get("notes", [])), r.get("notes")
PY
done
echo "default strategies ok at depths 1-4"
