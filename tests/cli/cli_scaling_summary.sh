#!/usr/bin/env bash
# A real tiny scaling sweep over depth 2 and 4: the table, the CSV and the JSON agree that each
# size is compared with the `none` of its own size (each none saves 0 % and adds 0 %), and the
# table shows the size of every row.
set -eu
cli=$1
out=$2
rm -rf "$out" && mkdir -p "$out"
"$cli" scaling --vary depth --values 2,4 --strategies none,full --width 16 --seq 8 --batch 1 \
    --warmup 0 --repeats 1 -q --csv "$out/s.csv" --json "$out/s.json" > "$out/stdout.txt"
cat "$out/stdout.txt"
python3 - "$out" <<'PY'
import csv, json, re, sys
out = sys.argv[1]
runs = json.load(open(f"{out}/s.json"))["runs"]
rows = list(csv.DictReader(open(f"{out}/s.csv")))
assert [(r["strategy"], r["depth"]) for r in rows] == [
    ("none", "2"), ("full", "2"), ("none", "4"), ("full", "4")], rows
none_peak = {r["config"]["depth"]: r["metrics"]["peak_bytes"]
             for r in runs if r["strategy"] == "none"}
for row, run in zip(rows, runs):
    depth = int(row["depth"])
    saved = float(row["memory_saved_pct"])
    if row["strategy"] == "none":
        assert saved == 0 and float(row["time_added_pct"]) == 0, row
    # Against the none of the same depth, from the JSON's peaks.
    expected = (1 - run["metrics"]["peak_bytes"] / none_peak[depth]) * 100
    assert abs(saved - expected) < 0.006, (row["strategy"], depth, saved, expected)

# The table: a depth column after the strategy, and each none's saving 0.0.
lines = open(f"{out}/stdout.txt").read().splitlines()
header = next(l for l in lines if l.startswith("strategy"))
assert header.split()[1] == "depth", header
table = [l.split() for l in lines if re.match(r"^(none|full) ", l)]
assert [(t[0], t[1]) for t in table] == [("none", "2"), ("full", "2"), ("none", "4"),
                                         ("full", "4")], table
for t, row in zip(table, rows):
    # The CSV's saving rounded as the table prints it appears in the row.
    assert f"{float(row['memory_saved_pct']):.1f}" in t, (t, row["memory_saved_pct"])
    if t[0] == "none":
        assert float(row["memory_saved_pct"]) == 0, row
print("scaling summary ok: each size against its own none")
PY
