#!/usr/bin/env bash
# Benchmark (not a test): minor page faults per step and step times of `none` and `full` under
# the two CPU allocators (--allocator system: glibc's malloc, which gives freed memory back and
# faults it in again; --allocator caching: CUDA's caching allocator's rules, whose segments stay
# mapped), and the time `full` adds over `none` under each. Sweeps alternate system, caching,
# ROUNDS times (default 3), so a slow period of a shared machine hits both; each sweep times its
# two strategies in interleaved rounds (--repeats, default 12).
#
# Usage: bench/allocator_faults.sh [OUT_DIR] [config args]
#   default OUT_DIR bench/results/allocator_faults; default config: the kept-block backward's
#   (docs/MEASUREMENTS.md), i.e. the default model (L=20, d=256, S=256, B=2) on 2 threads.
#   bench/allocator_faults.sh --table OUT_DIR   (the summary of sweeps already run)
# Environment: CKPTLAB_CLI (default build/release/app/ckptlab-cli), ROUNDS, REPEATS.
set -euo pipefail
cd "$(dirname "$0")/.."

summary() {
    python3 - "$@" <<'EOF'
import glob, json, os, sys

out = sys.argv[1]
files = sorted(glob.glob(os.path.join(out, "round*-*.json")))
print(f"{'sweep':<16} {'strategy':<8} {'step ms [95% CI]':<28} {'faults/step':>11} "
      f"{'time added by full [range]':<30} {'load':>5}")
for path in files:
    doc = json.load(open(path))
    runs = {r["strategy"]: r for r in doc["runs"]}
    load = doc["environment"].get("load", {}).get("load_during_max", float("nan"))
    name = os.path.basename(path).removesuffix(".json")
    none = runs["none"]["metrics"]
    for strategy in ("none", "full"):
        m = runs[strategy]["metrics"]
        lo, hi = m["step_ms_ci"]
        ci = f"{m['step_ms']:.1f} [{lo:.1f}, {hi:.1f}]" + ("" if m["step_ms_ci_95"] else "*")
        faults = m.get("minor_faults_per_step")
        added = ""
        if strategy == "full":
            n_lo, n_hi = none["step_ms_ci"]
            pct = lambda x: 100 * x / none["step_ms"]
            added = (f"{pct(m['step_ms'] - none['step_ms']):+.1f} % "
                     f"[{pct(lo - n_hi):+.1f}, {pct(hi - n_lo):+.1f}]")
        print(f"{name:<16} {strategy:<8} {ci:<28} {faults if faults is not None else '-':>11} "
              f"{added:<30} {load:>5}")
EOF
}

if [[ ${1:-} == --table ]]; then
    summary "${2:-bench/results/allocator_faults}"
    exit 0
fi
out=${1:-bench/results/allocator_faults}
shift || true
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
[[ -x $cli ]] || ./ckptlab.sh build
mkdir -p "$out"
config=("$@")
[[ ${#config[@]} -gt 0 ]] || config=(--threads 2)
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
        "$(nproc) CPUs; $(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown) (with local changes)"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "command: $cli sweep --strategies none,full --repeats ${REPEATS:-12} --allocator A ${config[*]}"
} | tee "$out/machine.txt"
for round in $(seq "${ROUNDS:-3}"); do
    for allocator in system caching; do
        echo "== round $round, --allocator $allocator"
        "$cli" sweep --strategies none,full --repeats "${REPEATS:-12}" --allocator "$allocator" \
            "${config[@]}" --json "$out/round$round-$allocator.json" |
            tee "$out/round$round-$allocator.txt"
    done
done
summary "$out" | tee "$out/summary.txt"
