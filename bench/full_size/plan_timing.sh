#!/usr/bin/env bash
# How long the full-size plan takes and how much memory it needs on this machine: Llama-3.1-8B
# at S=8192 and Llama-3.1-70B at S=4096 (batch 1, mixed-bf16, Adam, capacity 80GB), each under
# /usr/bin/time -v (wall time and maximum resident set). The plan measures one layer at small
# shapes, so neither model is ever built whole.
# Usage: bench/full_size/plan_timing.sh [OUT] (default bench/results/full_size_plan_timing).
# Environment: CKPTLAB_CLI (default build/release/app/ckptlab-cli), PLANS (default "8b 70b").
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-bench/results/full_size_plan_timing}
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
mkdir -p "$out"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GiB"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

timed() {  # NAME args...
    local name=$1
    shift
    echo "== $name: ckptlab-cli plan $*" | tee -a "$out/machine.txt"
    /usr/bin/time -v "$cli" plan "$@" --json "$out/$name.json" > "$out/$name.txt" \
        2> "$out/$name.err"
    cat "$out/$name.txt"
    grep -E "Elapsed \(wall|Maximum resident" "$out/$name.err" | tee -a "$out/machine.txt"
}

common=(--batch 1 --precision mixed-bf16 --optimizer adam --capacity 80GB)
for plan in ${PLANS:-8b 70b}; do
    case $plan in
        8b) timed llama-3.1-8b --model llama-3.1-8b --seq 8192 "${common[@]}" ;;
        70b) timed llama-3.1-70b --model llama-3.1-70b --seq 4096 "${common[@]}" ;;
        *) echo "unknown plan $plan (8b, 70b)"; exit 2 ;;
    esac
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
