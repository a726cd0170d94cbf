#!/usr/bin/env bash
# Benchmark (not a test): the seed's tradeoff sweep at the default config, timed end to end,
# with the results kept as JSON/CSV and charts. Usage: bench/seed_tradeoff.sh [OUT_DIR] [extra cli args]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/out}
shift || true
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}  # or another build's binary
[[ -x $cli ]] || ./ckptlab.sh build
mkdir -p "$out"
start=$(date +%s%N)
"$cli" sweep --preset seed-tradeoff --json "$out/seed-tradeoff.json" --csv "$out/seed-tradeoff.csv" \
    --trace "$out/seed-tradeoff.trace.json" "$@" | tee "$out/seed-tradeoff.txt"
end=$(date +%s%N)
echo "wall time: $(( (end - start) / 1000000 )) ms" | tee -a "$out/seed-tradeoff.txt"
