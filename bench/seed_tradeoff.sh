#!/usr/bin/env bash
# Benchmark (not a test): the seed's tradeoff sweep at the default config, timed end to end,
# with the results kept as JSON/CSV and Chrome trace.
# Usage: bench/seed_tradeoff.sh [OUT_DIR] [extra cli args]
set -euo pipefail
out=${1:-bench/out}
shift || true
exec "$(dirname "$0")/timed.sh" seed-tradeoff "$out" sweep --preset seed-tradeoff \
    --json "$out/seed-tradeoff.json" --csv "$out/seed-tradeoff.csv" \
    --trace "$out/seed-tradeoff.trace.json" "$@"
