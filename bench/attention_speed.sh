#!/usr/bin/env bash
# Benchmark (not a test): the CPU step of a chain with eager attention against memory-efficient
# attention (engine/chunked_attention.cpp), which computes the scores twice to keep no S x S
# tensor. The attention kind is part of the model, so one sweep times one kind: sweeps alternate
# eager, memory-efficient, ROUNDS times (default 4), so a slow period of a shared machine hits
# both; each times `none` over --repeats (default 6) steps. The summary gives each kind's median
# step over all its samples with the 95 % order-statistic interval of that median, and the
# ratio memory-efficient / eager per round with its median and range.
#
# Usage: bench/attention_speed.sh [OUT_DIR] [config args]
#   default OUT_DIR bench/results/attention_speed/llama; default config: a Llama chain (causal,
#   grouped-query attention when --kv-heads is given), depth 2, width 512, 8 heads, S = 1024,
#   batch 1, 1 thread. For the transformer block give `--block transformer --dropout 0 ...`
#   (memory-efficient attention has no dropout).
#   bench/attention_speed.sh --table OUT_DIR   (the summary of sweeps already run)
# Environment: CKPTLAB_CLI (default build/release/app/ckptlab-cli), ROUNDS, REPEATS.
set -euo pipefail
cd "$(dirname "$0")/.."

summary() {
    python3 - "$@" <<'EOF'
import glob, json, math, os, statistics, sys

out = sys.argv[1]
samples, medians = {}, {}
for path in sorted(glob.glob(os.path.join(out, "round*-*.json"))):
    name = os.path.basename(path).removesuffix(".json")
    rnd, kind = name.split("-", 1)
    run = json.load(open(path))["runs"][0]
    m = run["metrics"]
    samples.setdefault(kind, []).extend(m["step_samples_ms"])
    medians.setdefault(rnd, {})[kind] = m["step_ms"]

def interval(values):
    """The median's 95 % interval from order statistics (binomial(n, 1/2), normal approx.)."""
    v = sorted(values)
    n = len(v)
    half = 1.96 * math.sqrt(n) / 2
    lo, hi = max(0, math.floor(n / 2 - half)), min(n - 1, math.ceil(n / 2 + half) - 1)
    return v[lo], v[hi]

print(f"{'attention':<18} {'samples':>7} {'median step ms [95% CI]':<28}")
for kind in ("eager", "memory-efficient"):
    if kind in samples:
        lo, hi = interval(samples[kind])
        print(f"{kind:<18} {len(samples[kind]):>7} "
              f"{statistics.median(samples[kind]):.1f} [{lo:.1f}, {hi:.1f}]")
ratios = [r["memory-efficient"] / r["eager"] for r in medians.values()
          if "eager" in r and "memory-efficient" in r]
if ratios:
    print(f"memory-efficient / eager, per round: median {statistics.median(ratios):.2f}, "
          f"range [{min(ratios):.2f}, {max(ratios):.2f}] over {len(ratios)} rounds")
EOF
}

if [[ ${1:-} == --table ]]; then
    summary "${2:-bench/results/attention_speed/llama}"
    exit 0
fi
out=${1:-bench/results/attention_speed/llama}
shift || true
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
[[ -x $cli ]] || ./ckptlab.sh build
mkdir -p "$out"
config=("$@")
[[ ${#config[@]} -gt 0 ]] ||
    config=(--block llama --depth 2 --width 512 --heads 8 --seq 1024 --batch 1 --threads 1)
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
        "$(nproc) CPUs; $(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown) (with local changes)"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "command: $cli sweep --strategies none --repeats ${REPEATS:-6} --attention A ${config[*]}"
} | tee "$out/machine.txt"
for round in $(seq "${ROUNDS:-4}"); do
    for attention in eager memory-efficient; do
        echo "== round $round, --attention $attention"
        "$cli" sweep --strategies none --repeats "${REPEATS:-6}" --attention "$attention" \
            "${config[@]}" --json "$out/round$round-$attention.json" |
            tee "$out/round$round-$attention.txt"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
summary "$out" | tee "$out/summary.txt"
