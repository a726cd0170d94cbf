#!/usr/bin/env bash
# Benchmark (not a test): how close a training step comes to this machine's matmul limit.
#   1. bench/roofline/roofline times the LibTorch products one block's step runs (forward and
#      both backward products of each linear), alone, at the config's shapes: the limit.
#   2. ckptlab-cli sweep --strategies none,full at the same config: each run's achieved
#      GFLOP/s (metrics.gflop_per_s: the step's matmul FLOPs over its median step time).
#   3. roofline again, so the limit brackets the sweep on a machine whose load changes.
# Prints, for none and full, the step's GFLOP/s (median step and fastest step) as a fraction
# of the limit (the median rate of the whole product mix, into preallocated outputs).
#
# Usage: bench/roofline.sh [OUT_DIR] [extra ckptlab-cli/roofline config args, e.g. --seq 512]
#   Config args understood by both: --block --width --seq --batch --heads --threads.
# Environment: CKPTLAB_CLI, ROOFLINE (the binaries; default build/release/...), REPEATS (the
#   sweep's timed steps, default 7), WARMUP (1), MIX_REPEATS (roofline repeats, 50).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/out/roofline}
shift || true
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
roofline=${ROOFLINE:-build/release/bench/roofline/roofline}
for bin in "$cli" "$roofline"; do
    [[ -x $bin ]] || { echo "no $bin: cmake --build --preset release --target ckptlab-cli roofline" >&2; exit 2; }
done
mkdir -p "$out"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" |
    tee "$out/machine.txt"
"$roofline" "$@" --repeats "${MIX_REPEATS:-50}" | tee "$out/roofline_before.txt"
"$cli" sweep "$@" --strategies none,full --warmup "${WARMUP:-1}" --repeats "${REPEATS:-7}" \
    --json "$out/sweep.json" --csv "$out/sweep.csv" -q | tee "$out/sweep.txt"
"$roofline" "$@" --repeats "${MIX_REPEATS:-50}" | tee "$out/roofline_after.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"

python3 - "$out" <<'EOF' | tee "$out/summary.txt"
import json, statistics, sys
out = sys.argv[1]
def limit(name):
    for line in open(f"{out}/{name}"):
        if line.startswith("RESULT mix_out_gflops"):
            return [float(x) for x in line.split()[2:5]]  # median, slowest, fastest repeat
before, after = limit("roofline_before.txt"), limit("roofline_after.txt")
lim = (before[0] + after[0]) / 2
best = max(before[2], after[2])
print(f"matmul limit (mix median, into preallocated outputs): {before[0]:.1f} before, "
      f"{after[0]:.1f} after the sweep; {lim:.1f} GFLOP/s used; fastest mix {best:.1f}")
runs = json.load(open(f"{out}/sweep.json"))["runs"]
print(f"{'run':6} {'GFLOP/step':>10} {'median ms':>10} {'GFLOP/s':>8} {'of limit':>8} "
      f"{'fastest ms':>10} {'GFLOP/s':>8} {'of fastest mix':>14}")
for r in runs:
    m = r["metrics"]
    if "gflop_per_s" not in m:
        print(f"{r['strategy']:6} no gflop_per_s (CLI older than flops.h?)")
        continue
    fastest = min(m["step_samples_ms"])
    at_fastest = m["step_gflop"] / (fastest * 1e-3)
    print(f"{r['strategy']:6} {m['step_gflop']:10.2f} {m['step_ms']:10.1f} {m['gflop_per_s']:8.1f} "
          f"{100 * m['gflop_per_s'] / lim:7.0f}% {fastest:10.1f} {at_fastest:8.1f} "
          f"{100 * at_fastest / best:13.0f}%")
EOF
