#!/usr/bin/env bash
# The full-size plan against real runs of the whole model on this machine: for SmolLM2-135M at
# S=2048 and for Llama-3.2-1B's layer shape at depth 2 (its embedding and head whole), the plan
# (`plan --capacity 24GB`, fitted from one layer at small shapes) beside a sweep of the whole
# model at the same size (none, full, attn, every:2 and the plan's fastest schedule as
# optimal:MiB): each predicted allocated peak against the measured one (expected within 8 B),
# the reserved peaks, and the predicted step times against the measured medians.
# Usage: bench/full_size/exactness.sh [OUT] (default bench/results/full_size_exactness).
# Environment: CKPTLAB_CLI (default build/release/app/ckptlab-cli), REPEATS (timed steps per
# strategy, default 3), MODELS (default "smollm2 llama1b").
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-bench/results/full_size_exactness}
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
repeats=${REPEATS:-3}
mkdir -p "$out"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GiB"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

# one NAME model-args...: the plan, then the sweep of the whole model, then the comparison.
one() {
    local name=$1
    shift
    echo "== $name: ckptlab-cli plan $* --capacity 24GB" | tee -a "$out/machine.txt"
    /usr/bin/time -v "$cli" plan "$@" --capacity 24GB --json "$out/$name.plan.json" \
        > "$out/$name.plan.txt" 2> "$out/$name.plan.err"
    cat "$out/$name.plan.txt"
    grep -E "Elapsed \(wall|Maximum resident" "$out/$name.plan.err"
    local fastest
    fastest=$(python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))["fastest"]
print(f["strategy"] if f else "")' "$out/$name.plan.json")
    local strategies="none,full,attn,every:2${fastest:+,$fastest}"
    echo "== $name: ckptlab-cli sweep $* --strategies $strategies" | tee -a "$out/machine.txt"
    /usr/bin/time -v "$cli" sweep "$@" --strategies "$strategies" --warmup 1 \
        --repeats "$repeats" --json "$out/$name.sweep.json" > "$out/$name.sweep.txt" \
        2> "$out/$name.sweep.err"
    cat "$out/$name.sweep.txt"
    grep -E "Elapsed \(wall|Maximum resident" "$out/$name.sweep.err"
    python3 bench/full_size/compare_plan.py "$out/$name.plan.json" "$out/$name.sweep.json" \
        --json "$out/$name.compare.json" | tee "$out/$name.compare.txt" || true
}

common=(--seq 2048 --batch 1 --precision mixed-bf16 --optimizer adam)
for model in ${MODELS:-smollm2 llama1b}; do
    case $model in
        smollm2) one smollm2-135m --model smollm2-135m "${common[@]}" ;;
        llama1b) one llama-3.2-1b-depth2 --model llama-3.2-1b --depth 2 "${common[@]}" ;;
        *) echo "unknown model $model (smollm2, llama1b)"; exit 2 ;;
    esac
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
