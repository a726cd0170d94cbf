#!/usr/bin/env bash
# Benchmark (not a test): the measured Pareto curve of optimal schedules at the default config
# beside the seed's hand-written strategies, timed end to end, with JSON/CSV and charts (the
# tradeoff chart draws the predicted frontier and the measured optimal curve).
# Usage: bench/pareto_default.sh [OUT_DIR] [extra cli args]
set -euo pipefail
out=${1:-bench/out}
shift || true
exec "$(dirname "$0")/timed.sh" pareto "$out" pareto --points 8 --json "$out/pareto.json" \
    --csv "$out/pareto.csv" --png "$out/pareto-charts" "$@"
