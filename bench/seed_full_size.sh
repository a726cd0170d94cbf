#!/usr/bin/env bash
# Benchmark (not a test): the tutorial's own test size on this CPU, headless.
#   ffn block, L=20, d=2048, S=2048, B=2, float32: none, full and optimal:<middle budget>,
#   with measured and predicted peaks and the gradient check against none.
# One step takes minutes on a 2-core CPU, so by default every strategy runs its traced step
# (memory, gradients) and ONE timed step (--warmup 0 --repeats 1): a single sample, no spread.
# Change with WARMUP/REPEATS. On the 2-core development machine the whole script took 34 min
# (plan 2 min; docs/MEASUREMENTS.md, "The tutorial's own size on this CPU"), with other builds
# beside it.
#
# The middle budget: `ckptlab-cli plan --points 3` at the same config measures the cost model
# and prints the planner's feasible range, from the smallest feasible peak (here that of `full`,
# set by the parameter gradients) to the no-checkpoint peak; its middle budget (the second of
# the three) is halfway between them. BUDGET_MIB=X skips that and uses X.
#
# Usage: bench/seed_full_size.sh [OUT_DIR]        (default bench/results/full_size)
# Environment: CKPTLAB_CLI (default build/release/app/ckptlab-cli), WARMUP (0), REPEATS (1),
#   BUDGET_MIB, THREADS (0 = LibTorch's default). Run it niced on a shared machine:
#   nice -n 10 bench/seed_full_size.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/results/full_size}
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
[[ -x $cli ]] || { echo "no $cli: build it first (./ckptlab.sh build)" >&2; exit 2; }
mkdir -p "$out"
log="$out/seed_full_size.log"
: >"$log"
say() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$log"; }

size=(--block ffn --depth 20 --width 2048 --seq 2048 --batch 2 --precision float32
      --threads "${THREADS:-0}")
timing=(--warmup "${WARMUP:-0}" --repeats "${REPEATS:-1}")

say "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs," \
    "$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
say "cli: $cli ($("$cli" --version 2>&1 | head -1))"
start=$SECONDS

budget=${BUDGET_MIB:-}
if [[ -z $budget ]]; then
    say "plan --points 3 (measures the cost model on one block)"
    "$cli" plan "${size[@]}" --points 3 2>&1 | tee "$out/plan.txt" | tee -a "$log"
    # "20 units; smallest feasible peak X MiB, no-checkpoint peak Y MiB (Z ms) predicted"
    range=$(sed -n 's/.*smallest feasible peak \([0-9.]*\) MiB, no-checkpoint peak \([0-9.]*\) MiB.*/\1 \2/p' \
            "$out/plan.txt")
    [[ -n $range ]] || { say "could not read the feasible range from plan's output"; exit 1; }
    budget=$(awk -v r="$range" 'BEGIN { split(r, a, " "); printf "%.1f", (a[1] + a[2]) / 2 }')
    say "feasible range $range MiB; middle budget $budget MiB ($((SECONDS - start)) s so far)"
fi

say "sweep none,full,optimal:$budget ${timing[*]}"
/usr/bin/time -v -o "$out/sweep.time.txt" \
    "$cli" sweep "${size[@]}" "${timing[@]}" --strategies "none,full,optimal:$budget" \
    --json "$out/full_size.json" --csv "$out/full_size.csv" 2>&1 | tee -a "$log"
rc=${PIPESTATUS[0]}
say "sweep exit code $rc; max RSS $(awk -F': ' '/Maximum resident/ {printf "%.2f GiB", $2/1048576}' \
    "$out/sweep.time.txt"); wall $((SECONDS - start)) s in all"
exit "$rc"
