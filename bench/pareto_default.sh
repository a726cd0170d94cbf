#!/usr/bin/env bash
# Benchmark (not a test): the measured Pareto curve of optimal schedules at the default config
# beside the seed's hand-written strategies, timed end to end, with JSON/CSV and charts (the
# tradeoff chart draws the predicted frontier and the measured optimal curve).
# Usage: bench/pareto_default.sh [OUT_DIR] [extra cli args]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/out}
shift || true
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}  # or another build's binary
[[ -x $cli ]] || ./ckptlab.sh build
mkdir -p "$out"
start=$(date +%s%N)
"$cli" pareto --points 8 --json "$out/pareto.json" --csv "$out/pareto.csv" --png "$out/pareto-charts" \
    "$@" | tee "$out/pareto.txt"
end=$(date +%s%N)
echo "wall time: $(( (end - start) / 1000000 )) ms" | tee -a "$out/pareto.txt"
