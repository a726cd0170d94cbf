#!/usr/bin/env bash
# The timing claims that tests no longer hold (tests/style/time_checks_allowed.txt): they
# depend on the machine and its load, so they are measured here, with the load named.
#  1. a timed step's thread CPU time against its wall time (step_cpu_ms / step_ms per run), on
#     a tiny FFN chain at 1 and 2 intra-op threads, quiet and beside two busy loops;
#  2. how long a sweep takes to end after SIGINT in its timed rounds (the runner's cancel; the
#     Runner test holds that no timed step starts after it);
#  3. how long a refusal of bad input takes, wall clock and CPU;
#  4. the GUI thread's largest event-loop gap during a sweep (tests/ui test_responsiveness with
#     CKPTLAB_BENCH_RESPONSIVENESS=1, which holds both gaps under 100 ms), when it is built.
# Usage: bench/timing_claims.sh [OUT]   (default bench/out/timing_claims)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/out/timing_claims}
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
[[ -x $cli ]] || ./ckptlab.sh build
mkdir -p "$out"
report="$out/report.txt"
: > "$report"
say() { echo "$*" | tee -a "$report"; }
busy=()
load_on() { for _ in 1 2; do (while :; do :; done) & busy+=($!); done; }
load_off() { for pid in "${busy[@]}"; do kill "$pid"; done; busy=(); }
trap '[[ ${#busy[@]} -gt 0 ]] && load_off' EXIT

say "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores," \
    "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo); $(git log -1 --format=%h)"
model=(--device cpu --depth 4 --width 64 --seq 32 --batch 2 --warmup 1 --repeats 20 -q)

say ""
say "1. step_cpu_ms / step_ms per run (none, full, every:2), 20 timed rounds"
for load in quiet busy; do
    [[ $load == busy ]] && load_on
    for threads in 1 2; do
        json="$out/cpu-$load-$threads.json"
        OMP_NUM_THREADS=$threads "$cli" sweep --strategies none,full,every:2 --threads "$threads" \
            "${model[@]}" --json "$json" > /dev/null
        ratios=$(python3 -c 'import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
print(" ".join("%s %.3f" % (r["strategy"], r["metrics"]["step_cpu_ms"] / r["metrics"]["step_ms"])
               for r in runs))' "$json")
        say "  $load, $threads thread(s): $ratios (load $(cut -d' ' -f1 /proc/loadavg))"
    done
    [[ $load == busy ]] && load_off
done

say ""
say "2. SIGINT in the timed rounds to the sweep's exit, ms (three tries)"
cancel=(sweep --strategies none,full,every:2 --device cpu --depth 8 --width 128 --seq 128 --batch 2
    --warmup 1 --repeats 200 -q --json "$out/cancel.json")
# A background job of a script starts with SIGINT ignored, which the CLI keeps: give it back.
# exec, so that $! is the CLI itself and not a subshell that ignores the signal.
sigint() { exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"; }
start=$(date +%s%N)
"$cli" "${cancel[@]}" > /dev/null
whole_ms=$((($(date +%s%N) - start) / 1000000))
say "  the whole sweep, quiet: $whole_ms ms; SIGINT at 60 % of it, in the rounds"
for load in quiet busy; do
    [[ $load == busy ]] && load_on
    times=()
    for _ in 1 2 3; do
        sigint "$cli" "${cancel[@]}" > /dev/null 2>&1 &
        pid=$!
        sleep "$(awk -v ms="$whole_ms" 'BEGIN {printf "%.3f", ms * 0.6 / 1000}')"
        start=$(date +%s%N)
        if kill -INT "$pid" 2> /dev/null; then
            code=0
            wait "$pid" || code=$?
            times+=("$((($(date +%s%N) - start) / 1000000))(exit $code)")
        else
            times+=(ended-before)
        fi
    done
    say "  $load: ${times[*]}"
    [[ $load == busy ]] && load_off
done

say ""
say "3. a refusal (sweep --json into a missing folder), wall ms and CPU ms"
for load in quiet busy; do
    [[ $load == busy ]] && load_on
    TIMEFORMAT='%3R %3U %3S'
    { time "$cli" sweep --json /nonexistent-dir/x/out.json > /dev/null 2>&1 || true; } \
        2> "$out/refusal.txt"
    say "  $load: $(awk '{gsub(",", "."); printf "wall %d, cpu %d", $1 * 1000, ($2 + $3) * 1000}' \
        "$out/refusal.txt")"
    [[ $load == busy ]] && load_off
done

say ""
say "4. GUI event-loop gaps during a sweep (test_responsiveness)"
binary=build/release/tests/ui/test_responsiveness
if [[ -x $binary ]]; then
    for load in quiet busy; do
        [[ $load == busy ]] && load_on
        line=$(CKPTLAB_BENCH_RESPONSIVENESS=1 QT_QPA_PLATFORM=offscreen "$binary" 2>&1 |
            grep -E 'largest event-loop gap|FAIL!|Totals' | tr '\n' ' ' || true)
        say "  $load: $line"
        [[ $load == busy ]] && load_off
    done
else
    say "  skipped: $binary is not built"
fi
