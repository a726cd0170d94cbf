#!/usr/bin/env bash
# ckptlab-cli under a decimal-comma locale (de_DE.UTF-8: printf and strtod write and read
# "0,5" there): real-valued options given with dots are taken exactly, the results JSON and
# CSV carry dots, and the CLI reads its own file back to the same numbers (merge rewrites it;
# compare and plot open it).
#
#   tests/locale/cli_decimal_comma.sh CLI OUT_DIR [plot|no-plot]
#
# no-plot: the CLI was built without the GUI's chart builders (the sanitizer preset), so it has
# no `plot` to open the file with.
#
# Exits 77 (skipped) when the locale is not installed (run_suite_in_locale.sh says how to
# make it).
set -eu
cli=$1
out=$2
plot=${3:-plot}
locale=de_DE.UTF-8
rm -rf "$out" && mkdir -p "$out"

want=$(echo "$locale" | tr '[:upper:]' '[:lower:]' | tr -d '-')
if ! locale -a 2>/dev/null | tr '[:upper:]' '[:lower:]' | tr -d '-' | grep -qxF "$want"; then
    echo "SKIP: locale $locale is not installed (localedef -i de_DE -f UTF-8 $locale)"
    exit 77
fi
export LANG=$locale LC_ALL=$locale
fail() {
    echo "FAIL: $*"
    exit 1
}
# The locale really writes commas (coreutils' printf follows it), so a pass means something.
[[ $(env printf '%.1f' 0.5) == "0,5" ]] || fail "$locale does not write decimal commas here"

# A small llama chain with its ends, mixed precision, two real-valued options whose digits
# a comma-reading strtod would cut short (500000.5 -> 500000, 1e-6 -> 1). One shard of one,
# so that merge reads the file back and writes it again.
"$cli" sweep -q --block llama --depth 2 --width 64 --heads 4 --kv-heads 2 --seq 32 --batch 2 \
    --vocab 512 --precision mixed-bf16 --rope-theta 500000.5 --rms-norm-eps 1e-6 \
    --strategies none,full --threads 1 --warmup 0 --repeats 1 --shard 0/1 \
    --json "$out/sweep.json" --csv "$out/sweep.csv" > /dev/null
"$cli" merge -q "$out/sweep.json" --json "$out/merged.json" > /dev/null
"$cli" compare -q "$out/sweep.json" "$out/merged.json" > "$out/compare.txt"
if [[ $plot == plot ]]; then
    "$cli" plot "$out/merged.json" --svg "$out/svg" > /dev/null 2>&1 || fail "plot could not open it"
fi

LC_ALL=C python3 - "$out" << 'EOF' || fail "numbers not written with dots or not read back equal"
import csv, json, math, re, sys
out = sys.argv[1]
raw = open(f"{out}/sweep.json").read()
written, merged = json.loads(raw), json.load(open(f"{out}/merged.json"))
problems = []
for key, value in (("rope_theta", 500000.5), ("rms_norm_eps", 1e-6)):
    for run in written["runs"]:
        if run["config"][key] != value:
            problems.append(f"{key} written as {run['config'][key]!r}, given {value!r}")
if '"rope_theta": 500000.5' not in raw:
    problems.append("rope_theta not written as 500000.5")
# Every value the file gave, read back by the CLI and written again: equal, not close.
for a, b in zip(written["runs"], merged["runs"]):
    for part in ("config", "metrics", "breakdown", "prediction", "grad_check"):
        if a.get(part) != b.get(part):
            problems.append(f"{a['strategy']}: {part} differs after merge")
if len(written["runs"]) != len(merged["runs"]):
    problems.append("merge lost runs")
# The CSV: the header's column count on every line, every number with a dot and finite.
rows = list(csv.reader(open(f"{out}/sweep.csv")))
for row in rows[1:]:
    if len(row) != len(rows[0]):
        problems.append(f"CSV line has {len(row)} fields, the header {len(rows[0])}: {row}")
    for cell in row:
        if re.fullmatch(r"-?\d+,\d+", cell):
            problems.append(f"decimal comma in CSV cell {cell!r}")
        if re.fullmatch(r"-?\d+(\.\d+)?(e[-+]?\d+)?", cell) and not math.isfinite(float(cell)):
            problems.append(f"CSV cell {cell!r} is not finite")
print("\n".join(problems) or "numbers written with dots and read back equal")
sys.exit(1 if problems else 0)
EOF
grep -q "Config: the same in every file" "$out/compare.txt" || fail "compare saw other configs"
grep -q "1.00x" "$out/compare.txt" || fail "compare printed no 1.00x peak ratio"
if grep -qE '[0-9],[0-9]+x' "$out/compare.txt"; then fail "compare printed a decimal comma"; fi
echo "PASS"
