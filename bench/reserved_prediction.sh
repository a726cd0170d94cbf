#!/usr/bin/env bash
# Benchmark (not a test): how well the planner predicts the caching allocator's reserved bytes.
# Runs `ckptlab-cli sweep` (the seed-tradeoff strategies) on a few configs with the caching
# allocator (--allocator caching, the default), then prints per run the predicted reserved peak
# (PredictedMetrics::reserved_peak_bytes: predict.cpp's replay through CachingAllocatorModel)
# against the measured one (RunResult::allocator.reserved_peak: the CPU allocator that follows
# CUDA's rules, or CUDA's own on a GPU), both whole (parameters, input and optimizer state
# included), with the error in bytes and in % of the measured. Also the allocated peaks, so
# that an error in what the step allocates and one in how the allocator packs it can be told
# apart: "alloc pred" is the prediction's baseline + peak, "alloc meas" the allocator's
# allocated peak (its rounding included).
#
# Only the traced step matters here, so each strategy runs no warm-up and one timed step.
#
# Usage: bench/reserved_prediction.sh [OUT_DIR]     (default bench/results/reserved_prediction)
#        bench/reserved_prediction.sh --table FILE.json...   (the table of results already run)
# Environment: CKPTLAB_CLI (default build/release/app/ckptlab-cli), CONFIGS (names from the list
#   below, default all), DEVICE (default cpu).
set -euo pipefail
cd "$(dirname "$0")/.."

table() {
    python3 - "$@" <<'EOF'
import json
import sys

MiB = 1024 * 1024
print(f"{'config':<14} {'strategy':<12} {'pred MiB':>9} {'meas MiB':>9} {'err bytes':>12} "
      f"{'err %':>7} {'alloc pred':>10} {'alloc meas':>10} {'source':>13}")
for path in sys.argv[1:]:
    name = path.rsplit("/", 1)[-1].removesuffix(".json")
    runs = json.load(open(path))["runs"]
    errors = []
    for run in runs:
        pred = (run.get("prediction") or {})
        meas = run.get("allocator")
        predicted = pred.get("reserved_peak_bytes")
        if predicted is None or not meas:
            why = "no prediction" if predicted is None else "no allocator counts"
            print(f"{name:<14} {run['strategy']:<12} ({why})")
            continue
        measured = meas["reserved_peak"]
        err = predicted - measured
        errors.append(100.0 * err / measured)
        baseline = run["metrics"].get("baseline_bytes", 0)
        alloc_pred = (baseline + pred["peak_bytes"]) / MiB
        print(f"{name:<14} {run['strategy']:<12} {predicted / MiB:9.2f} {measured / MiB:9.2f} "
              f"{err:12d} {errors[-1]:7.1f} {alloc_pred:10.2f} "
              f"{meas['allocated_peak'] / MiB:10.2f} {meas['source']:>13}")
    if errors:
        worst = max(errors, key=abs)
        mean_abs = sum(abs(e) for e in errors) / len(errors)
        print(f"{name:<14} {'(all)':<12} mean |err| {mean_abs:.1f} %, worst {worst:+.1f} %")
EOF
}

if [[ ${1:-} == --table ]]; then
    shift
    table "$@"
    exit 0
fi

out=${1:-bench/results/reserved_prediction}
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
[[ -x $cli ]] || { echo "no $cli: build it first (./ckptlab.sh build)" >&2; exit 2; }
mkdir -p "$out"

declare -A config=(
    [ffn]="--block ffn"                                  # the default config
    [transformer]="--block transformer"                  # the default size, transformer block
    [ffn_adam]="--block ffn --optimizer adam"            # optimizer state and the step before
    [tutorial_like]="--block ffn --width 512 --seq 512"  # the tutorial's shape at half its d, S
)
names=(${CONFIGS:-ffn transformer ffn_adam tutorial_like})
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg); cli: $("$cli" --version 2>&1 | head -1)"
files=()
for name in "${names[@]}"; do
    [[ -n ${config[$name]:-} ]] || { echo "unknown config $name" >&2; exit 2; }
    # shellcheck disable=SC2086  # the options are words
    "$cli" sweep ${config[$name]} --device "${DEVICE:-cpu}" --warmup 0 --repeats 1 -q \
        --json "$out/$name.json" >"$out/$name.log" 2>&1 ||
        { echo "$name failed, see $out/$name.log" >&2; exit 1; }
    files+=("$out/$name.json")
done
table "${files[@]}" | tee "$out/table.txt"
