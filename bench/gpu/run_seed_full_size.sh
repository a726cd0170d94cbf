#!/usr/bin/env bash
# The tutorial's full-size tradeoff sweep on a GPU (ffn block, d=2048, L=20, B=2, S=2048,
# float32), plus the default config on CUDA and `run -s none` / `run -s full` with --json.
# Every step runs under `timeout -s INT` (the CLI then keeps and writes the finished runs and
# exits 130), logs to OUT_DIR/NAME.log and appends "rc" and the wall time.
#
# Usage: bench/gpu/run_seed_full_size.sh CLI OUT_DIR
# Environment:
#   DEVICE      default cuda
#   STRATEGIES  default none,full,every:2,every:4,segments:4,from:10,sqrt
#   WARMUP, REPEATS  default 2 and 5 for the full-size sweep
#   FULL_TIMEOUT     seconds for the full-size sweep (default 240)
#   FULL_ARGS   the full size's options (default "--width 2048 --depth 20 --batch 2 --seq 2048";
#               a smaller size for a dry run on a CPU)
#   SMOKE=0     skip --version, sweep --help and the default-config runs (default 1: run them)
#   EXTRAS=1    afterwards also: the full-size sweep in bfloat16 and `pareto --points 4` at full
#               size (each skipped when DEADLINE, a date +%s, is less than its timeout away)
set -uo pipefail
cli=${1:?usage: run_seed_full_size.sh CLI OUT_DIR}
out=${2:?usage: run_seed_full_size.sh CLI OUT_DIR}
mkdir -p "$out"
DEVICE=${DEVICE:-cuda}
STRATEGIES=${STRATEGIES:-none,full,every:2,every:4,segments:4,from:10,sqrt}
WARMUP=${WARMUP:-2}
REPEATS=${REPEATS:-5}
FULL_TIMEOUT=${FULL_TIMEOUT:-240}
read -r -a full <<<"${FULL_ARGS:---width 2048 --depth 20 --batch 2 --seq 2048}"
SMOKE=${SMOKE:-1}

# step NAME TIMEOUT_S cli-args...
step() {
    local name=$1 limit=$2
    shift 2
    if ((limit < 10)) || { [[ -n ${DEADLINE:-} ]] && (($(date +%s) + limit > DEADLINE)); }; then
        echo "[run] skip $name: less than ${limit}s left before the deadline" | tee "$out/$name.log"
        return 0
    fi
    echo "[run $(date +%H:%M:%S)] $name: ckptlab-cli $*"
    local start
    start=$(date +%s%N)
    timeout -s INT -k 15 "$limit" "$cli" "$@" >"$out/$name.log" 2>&1
    local rc=$?
    local ms=$((($(date +%s%N) - start) / 1000000))
    echo "rc $rc, wall $ms ms" >>"$out/$name.log"
    cat "$out/$name.log"
    echo "[run] $name: rc $rc, wall $ms ms"
    return 0
}

if [[ $SMOKE == 1 ]]; then
    step version 20 --version
    step sweep_help 20 sweep --help
    # Smoke test at the default config (d=256, S=256) on the GPU: seconds.
    step default_sweep 90 sweep --device "$DEVICE" --preset seed-tradeoff \
        --json "$out/default_sweep.json" --csv "$out/default_sweep.csv"
fi
# The tutorial's full size.
step full_size_sweep "$FULL_TIMEOUT" sweep --device "$DEVICE" "${full[@]}" \
    --strategies "$STRATEGIES" --warmup "$WARMUP" --repeats "$REPEATS" \
    --json "$out/full_size_sweep.json" --csv "$out/full_size_sweep.csv"
if [[ $SMOKE == 1 ]]; then
    # The README's check of the backward spans, on the GPU (default config).
    step default_run_none 60 run --device "$DEVICE" -s none --json "$out/default_run_none.json"
    step default_run_full 60 run --device "$DEVICE" -s full --json "$out/default_run_full.json"
fi

if [[ ${EXTRAS:-0} == 1 ]]; then
    step full_size_sweep_bf16 120 sweep --device "$DEVICE" "${full[@]}" --precision bfloat16 \
        --strategies "$STRATEGIES" --warmup "$WARMUP" --repeats "$REPEATS" \
        --json "$out/full_size_sweep_bf16.json" --csv "$out/full_size_sweep_bf16.csv"
    step full_size_pareto 150 pareto --device "$DEVICE" "${full[@]}" --points 4 \
        --warmup 1 --repeats 3 --json "$out/full_size_pareto.json" --csv "$out/full_size_pareto.csv"
fi
