#!/usr/bin/env bash
# Benchmark (not a test): what --loss-chunks saves on a llama chain with its LM head. One
# `ckptlab-cli sweep --strategies none,full` per chunk count (default 1 2 4 8, in that order);
# the summary gives each run's peak, the breakdown's logits (the head's and loss's tensors
# alive at the peak) and activations, the step time with its interval, and the logits' size
# worked out by hand (B x S x V x 4 bytes, fp32) to compare them with.
#
# Usage: bench/loss_chunks.sh [OUT_DIR] [config args]
#   default OUT_DIR bench/results/loss_chunks; default config: llama L=4 d=256 H=4 KV=2
#   S=512 B=2 V=32000 on 2 threads (the logits: 2 x 512 x 32000 x 4 B = 125 MiB).
#   bench/loss_chunks.sh --table OUT_DIR   (the summary of sweeps already run)
# Environment: CKPTLAB_CLI (default build/release/app/ckptlab-cli), CHUNKS, REPEATS.
set -euo pipefail
cd "$(dirname "$0")/.."

summary() {
    python3 - "$@" <<'EOF'
import glob, json, os, re, sys

out = sys.argv[1]
mib = lambda b: b / 2**20
files = sorted(glob.glob(os.path.join(out, "chunks*.json")),
               key=lambda p: int(re.search(r"chunks(\d+)", p).group(1)))
print(f"{'chunks':>6} {'strategy':<8} {'peak MiB':>9} {'logits MiB':>10} {'activ. MiB':>10} "
      f"{'step ms [95% CI]':<28} {'grad check':<10} {'load':>5}")
analytic = None
for path in files:
    doc = json.load(open(path))
    load = doc["environment"].get("load", {}).get("load_during_max", float("nan"))
    for run in doc["runs"]:
        c, m, b = run["config"], run["metrics"], run["breakdown"]
        analytic = c["batch"] * c["seq"] * c["vocab"] * 4
        lo, hi = m["step_ms_ci"]
        ci = f"{m['step_ms']:.0f} [{lo:.0f}, {hi:.0f}]" + ("" if m["step_ms_ci_95"] else "*")
        check = "ok" if run["grad_check"].get("passed") else "FAILED"
        print(f"{c.get('loss_chunks', 1):>6} {run['strategy']:<8} {mib(m['peak_bytes']):>9.2f} "
              f"{mib(b.get('logits', 0)):>10.2f} {mib(b['activations']):>10.2f} {ci:<28} "
              f"{check:<10} {load:>5}")
if analytic is not None:
    print(f"logits B x S x V x 4 = {analytic} B = {mib(analytic):.2f} MiB"
          " (*: min-max range of fewer than 6 samples)")
EOF
}

if [[ ${1:-} == --table ]]; then
    summary "${2:-bench/results/loss_chunks}"
    exit 0
fi
out=${1:-bench/results/loss_chunks}
shift || true
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
if [[ ! -x $cli ]]; then
    echo "loss_chunks: $cli is missing; build it first (./ckptlab.sh build)" >&2
    exit 2
fi
mkdir -p "$out"
config=("$@")
[[ ${#config[@]} -gt 0 ]] || config=(--block llama --depth 4 --width 256 --heads 4 --kv-heads 2
    --seq 512 --batch 2 --vocab 32000 --threads 2)
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
        "$(nproc) CPUs; $(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown) (with local changes)"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "command: $cli sweep --strategies none,full --repeats ${REPEATS:-6} --loss-chunks N" \
        "${config[*]}   (N in ${CHUNKS:-1 2 4 8})"
} | tee "$out/machine.txt"
for chunks in ${CHUNKS:-1 2 4 8}; do
    echo "== --loss-chunks $chunks"
    "$cli" sweep --strategies none,full --repeats "${REPEATS:-6}" --loss-chunks "$chunks" \
        "${config[@]}" --json "$out/chunks$chunks.json" | tee "$out/chunks$chunks.txt"
done
summary "$out" | tee "$out/summary.txt"
