#!/usr/bin/env bash
# Reserved bytes on a GPU: the caching allocator model (the CPU allocator with CUDA's caching
# rules, --allocator caching) and the planner's prediction (prediction.reserved_peak_bytes)
# against CUDA's own caching allocator and plain PyTorch, for the same chain. One-shot driver
# for a GPU machine; everything is logged into $OUT (at most 8 files come back).
#
#   1. diagnostics (GPU, torch, CUDA, tools)
#   2. plain PyTorch (torch_reference.py: allocated and reserved bytes under ckptlab's protocol)
#      at the medium size and the full size, in the background while the build uses the CPUs
#   3. build ckptlab-cli and the GoogleTest binaries that touch the CUDA build
#      (build_against_python_torch.sh with TEST_TARGETS; GoogleTest from build/gpu-deps/src)
#   4. fail fast when there is no CUDA (torch.cuda.is_available(), ckptlab-cli --device cuda),
#      unless DRY_RUN=1, which runs every step on the CPU at small sizes (the script's logic only)
#   5. medium size (ffn d=1024 L=8 B=2 S=1024): sweep on CUDA, then on the CPU with
#      --allocator caching; compare_reserved.py (written at once, rewritten after each step)
#   6. the tutorial's full size on CUDA (run_seed_full_size.sh: d=2048 L=20 B=2 S=2048,
#      none,full,every:2,segments:4,sqrt, warm-up 1, 3 repeats); compared with the prediction and
#      PyTorch
#   7. the GoogleTest binaries (CPU tests, run against the CUDA build)
#   8. optional, when time is left: the model at full size on the CPU; the torch_peers ctests
#      (ckptlab against plain PyTorch on the CPU, with this machine's torch)
#   9. collect: reserved_compare.txt, reserved_compare.json, full_size_sweep.json,
#      medium_cuda.json, medium_model.json (the three trimmed: no timeline), build.log,
#      reserved_check.log (the whole console) and results.tgz (everything, untrimmed)
#
# Prepare on the development machine (from the repository root), then run with
#   carry: ["build/gpu-src", "build/gpu-deps"], command: bash bench/gpu/reserved_check.sh
#     rm -rf build/gpu-src && mkdir -p build/gpu-src && git archive HEAD | tar -x -C build/gpu-src
#     mkdir -p build/gpu-deps/include build/gpu-deps/share/cmake build/gpu-deps/src
#     cp -r /usr/include/nlohmann /usr/include/CLI build/gpu-deps/include/
#     cp -r /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 build/gpu-deps/share/cmake/
#     cp -r /usr/src/googletest build/gpu-deps/src/          # Debian's package googletest
# Environment: OUT (default build/gpu-out), BUDGET_S (seconds the whole script may take,
#   default 480; optional steps are skipped to stay inside it), SRC (default build/gpu-src),
#   DEPS (default build/gpu-deps), PYTHON (default python3: the torch to build against and to
#   compare with), JOBS (default nproc), PREBUILT (a build folder holding app/ckptlab-cli and
#   tests/test_*: skips the build), DRY_RUN=1 (no GPU needed: CPU, small sizes), WORK (scratch,
#   default /tmp/ckptlab-reserved). Exit 0 when the steps ran (the verdicts are in the table),
#   3 when there is no CUDA (after the build), 4 when nothing was built.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
repo=$(pwd)
OUT=${OUT:-$repo/build/gpu-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BUDGET_S=${BUDGET_S:-480}
t0=$(date +%s)
DEADLINE=$((t0 + BUDGET_S))
export DEADLINE
SRC=${SRC:-$repo/build/gpu-src}
DEPS=${DEPS:-$repo/build/gpu-deps}
PYTHON=${PYTHON:-python3}
JOBS=${JOBS:-$(nproc)}
DRY_RUN=${DRY_RUN:-0}
PREBUILT=${PREBUILT:-}
work=${WORK:-/tmp/ckptlab-reserved}
rm -rf "$work"
res=$work/results
mkdir -p "$res/cli" "$res/tests"
export PYTHONUNBUFFERED=1

STRATEGIES=none,full,every:2,segments:4,sqrt
TEST_TARGETS="test_step_clock test_cuda_allocator_io test_caching_cpu_allocator
  test_caching_allocator test_runner test_sdpa_available"
if [[ $DRY_RUN == 1 ]]; then
    DEVICE=cpu
    MEDIUM="--width 64 --depth 8 --batch 2 --seq 64"
    FULL="--width 128 --depth 20 --batch 2 --seq 128"
else
    DEVICE=cuda
    MEDIUM="--width 1024 --depth 8 --batch 2 --seq 1024"
    FULL="--width 2048 --depth 20 --batch 2 --seq 2048"
fi
read -r -a medium <<<"$MEDIUM"
read -r -a full <<<"$FULL"

left() { echo $((DEADLINE - $(date +%s))); }
say() { printf '\n=== [%s, +%ss, %ss left] %s\n' "$(date +%H:%M:%S)" $(($(date +%s) - t0)) "$(left)" "$*"; }
# at_most N: N, or what is left before the deadline less a reserve for collecting, if less
at_most() {
    local n=$1 l
    l=$(($(left) - 30))
    echo $((l < n ? l : n))
}

# cli_step NAME LIMIT_S ARGS...: ckptlab-cli under `timeout -s INT` (the CLI then writes the
# runs it finished and exits 130), logged to $res/cli/NAME.log; skipped when time is short.
cli_step() {
    local name=$1 limit=$2
    shift 2
    if ((limit < 10)); then
        echo "[step] skip $name: $(left)s left" | tee "$res/cli/$name.log"
        return 0
    fi
    echo "[step $(date +%H:%M:%S)] $name: ckptlab-cli $* (limit ${limit}s)"
    local start rc
    start=$(date +%s%N)
    timeout -s INT -k 15 "$limit" "$cli" "$@" >"$res/cli/$name.log" 2>&1
    rc=$?
    echo "rc $rc, wall $((($(date +%s%N) - start) / 1000000)) ms" >>"$res/cli/$name.log"
    cat "$res/cli/$name.log"
}

compare() {
    local full_model=-
    [[ -s $res/cli/full_model.json ]] && full_model=$res/cli/full_model.json
    "$PYTHON" bench/gpu/compare_reserved.py --json "$res/reserved_compare.json" \
        "medium,model=$res/cli/medium_model.json,cuda=$res/cli/medium_cuda.json,torch=$res/torch_medium.json" \
        "full,model=$full_model,cuda=$res/cli/full_size_sweep.json,torch=$res/torch_full.json" \
        >"$res/reserved_compare.txt" 2>&1
    echo "compare_reserved.py: rc $?"
    cp "$res/reserved_compare.txt" "$res/reserved_compare.json" "$OUT/" 2>/dev/null
}

main() {
say "diagnostics (DRY_RUN=$DRY_RUN, device $DEVICE, budget ${BUDGET_S}s)"
# shellcheck disable=SC2016  # expanded by the inner bash ($1 = PYTHON)
timeout 60 bash -c '
uname -a; nproc; free -g | head -2
nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv 2>&1 | head -3
for t in cmake ninja g++ nvcc python3; do printf "%-8s %s\n" $t "$(command -v $t)"; done
g++ --version | head -1; nvcc --version 2>/dev/null | tail -1
"$1" - <<EOF
import torch
print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())
ok = torch.cuda.is_available()
print("cuda available", ok, torch.cuda.get_device_name(0) if ok else "")
print("cxx11 abi", torch.compiled_with_cxx11_abi(), "cmake prefix", torch.utils.cmake_prefix_path)
print("PYTORCH_CUDA_ALLOC_CONF", __import__("os").environ.get("PYTORCH_CUDA_ALLOC_CONF"))
EOF
' diagnostics "$PYTHON"

say "plain PyTorch, medium and full size, in the background"
local tdev=cuda
[[ $DRY_RUN == 1 ]] && tdev=cpu
(
    timeout -k 10 120 "$PYTHON" bench/gpu/torch_reference.py "$res/torch_medium.json" --device "$tdev" \
        "${medium[@]}" --strategies "$STRATEGIES,full/reentrant" --warmup 0 --repeats 1
    echo "rc $?"
    timeout -k 10 150 "$PYTHON" bench/gpu/torch_reference.py "$res/torch_full.json" --device "$tdev" \
        "${full[@]}" --strategies "$STRATEGIES,full/reentrant" --warmup 1 --repeats 3
    echo "rc $?"
) >"$res/torch_reference.log" 2>&1 &
local ref_pid=$!

cli=""
local build=""
if [[ -n $PREBUILT ]]; then
    say "prebuilt: $PREBUILT (no build)"
    build=$(cd "$PREBUILT" && pwd)
    [[ -x $build/app/ckptlab-cli ]] && cli=$build/app/ckptlab-cli
else
    say "build ckptlab-cli and the tests against $PYTHON's LibTorch"
    local built
    built=$(timeout -k 10 "$(at_most 330)" env PYTHON="$PYTHON" DEPS_DIR="$DEPS" LOG_DIR="$res" \
        JOBS="$JOBS" TEST_TARGETS="$TEST_TARGETS" \
        bash bench/gpu/build_against_python_torch.sh "$SRC" "$work/build" | tee /dev/stderr | tail -1)
    if [[ -x $built ]]; then
        cli=$built
        build=$(dirname "$(dirname "$cli")")
    else
        echo "CMake build failed"
        # A direct g++ build helps only when nothing failed to compile (configure or link problems).
        if ! grep -q -E '\.(cpp|h|hpp):[0-9]+:[0-9]+: error:|#error' "$res/build.log" 2>/dev/null &&
           (($(left) > 240)); then
            say "fallback: direct g++ build of ckptlab-cli (no tests)"
            if timeout -k 10 200 env PYTHON="$PYTHON" DEPS_DIR="$DEPS" LOG_DIR="$res" JOBS="$JOBS" \
                    bash bench/gpu/build_direct.sh "$SRC" "$work/direct"; then
                cli=$work/direct/app/ckptlab-cli
            fi
        fi
    fi
fi
say "cli: ${cli:-none}; build folder: ${build:-none}"
if [[ -z $cli ]]; then
    echo "FAIL: ckptlab-cli was not built (build.log, build_errors.log)"
    wait "$ref_pid"
    return 4
fi
# The CUDA libraries Python's torch uses (pip's nvidia-* packages), as device_run.sh does.
local nv_libs
nv_libs=$("$PYTHON" -c '
import glob, os, torch
site = os.path.dirname(os.path.dirname(torch.__file__))
print(":".join(sorted(glob.glob(os.path.join(site, "nvidia", "**", "lib"), recursive=True))))' 2>/dev/null)
export LD_LIBRARY_PATH="${nv_libs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ldd "$cli" | grep -E 'torch|c10|cudart|not found' || true

say "CUDA here?"
if [[ $DRY_RUN == 1 ]]; then
    echo "DRY RUN: every 'CUDA' step runs on the CPU at a small size; no finding comes of it"
else
    local why=""
    "$PYTHON" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' ||
        why="torch.cuda.is_available() is False in $PYTHON"
    if [[ -z $why ]]; then
        timeout -s INT -k 10 120 "$cli" run -s none --device cuda --width 64 --depth 2 --seq 8 \
            --batch 1 --warmup 0 --repeats 1 --json "$res/cli/cuda_smoke.json" >"$res/cli/cuda_smoke.log" 2>&1 ||
            why="ckptlab-cli run --device cuda failed: $(tail -3 "$res/cli/cuda_smoke.log")"
        cat "$res/cli/cuda_smoke.log"
    fi
    if [[ -n $why ]]; then
        echo "FAIL: no CUDA device to check: $why. Stopping after the build (DRY_RUN=1 runs the"
        echo "      script's steps on the CPU instead)."
        wait "$ref_pid"
        cat "$res/torch_reference.log"
        return 3
    fi
fi

say "waiting for plain PyTorch"
wait "$ref_pid"
cat "$res/torch_reference.log"

say "medium size on $DEVICE, then the model on the CPU (--allocator caching)"
cli_step medium_cuda "$(at_most 120)" sweep --device "$DEVICE" "${medium[@]}" \
    --strategies "$STRATEGIES" --warmup 0 --repeats 1 --json "$res/cli/medium_cuda.json"
cli_step medium_model "$(at_most 150)" sweep --device cpu --allocator caching "${medium[@]}" \
    --strategies "$STRATEGIES" --warmup 0 --repeats 1 --json "$res/cli/medium_model.json"
compare

say "the tutorial's full size on $DEVICE"
local full_timeout
full_timeout=$(at_most 180)
if ((full_timeout >= 30)); then
    DEVICE=$DEVICE STRATEGIES=$STRATEGIES WARMUP=1 REPEATS=3 FULL_TIMEOUT=$full_timeout \
        FULL_ARGS="$FULL" SMOKE=$((DRY_RUN == 1 ? 0 : 1)) \
        bash bench/gpu/run_seed_full_size.sh "$cli" "$res/cli"
else
    echo "skip: ${full_timeout}s left"
fi
compare

say "GoogleTest binaries (CPU tests, against the CUDA build)"
local t bin rc
for t in $TEST_TARGETS; do
    bin=$build/tests/$t
    if [[ ! -x $bin ]]; then
        echo "$t: not built" | tee -a "$res/tests_summary.txt"
        continue
    fi
    local limit
    limit=$(at_most 90)
    if ((limit < 15)); then
        echo "$t: skipped, $(left)s left" | tee -a "$res/tests_summary.txt"
        continue
    fi
    # Line-buffered, so that a test stopped by the timeout leaves its name in the log.
    (cd "$res/tests" && CKPTLAB_TIME_SCALE=${CKPTLAB_TIME_SCALE:-1} timeout -k 5 "$limit" \
        stdbuf -oL -eL "$bin" >"$res/tests/$t.log" 2>&1)
    rc=$?
    local verdict
    verdict=$(grep -E '^\[  (PASSED|FAILED|SKIPPED) *\] [0-9]+ test' "$res/tests/$t.log" | tr '\n' ' ')
    ((rc == 124)) && verdict="timed out after ${limit}s in $(grep -E '^\[ RUN' "$res/tests/$t.log" |
        tail -1 | sed 's/.*\] //')"
    echo "$t: rc $rc, $verdict" | tee -a "$res/tests_summary.txt"
    grep -E '^\[  FAILED  \]|Failure$' "$res/tests/$t.log" | head -20
done

if (($(left) > 200)); then
    say "optional: the model at full size on the CPU (--allocator caching)"
    cli_step full_model "$(at_most 240)" sweep --device cpu --allocator caching "${full[@]}" \
        --strategies "$STRATEGIES" --warmup 0 --repeats 1 --json "$res/cli/full_model.json"
    compare
else
    say "skip: the model at full size on the CPU ($(left)s left)"
fi

if [[ -n $build && -f $build/CTestTestfile.cmake ]] && (($(left) > 90)); then
    say "optional: torch_peers ctests (ckptlab against plain PyTorch on the CPU, this torch)"
    timeout -k 10 "$(at_most 200)" ctest --test-dir "$build" -L torch_peers --output-on-failure \
        >"$res/tests/torch_peers.log" 2>&1
    echo "torch_peers: rc $?, $(grep -E 'tests passed|tests failed|No tests were found' "$res/tests/torch_peers.log")" |
        tee -a "$res/tests_summary.txt"
    grep -E 'Test +#|FAIL ' "$res/tests/torch_peers.log" | head -20
else
    say "skip: torch_peers ctests ($(left)s left)"
fi

say "the comparison"
compare
cat "$res/reserved_compare.txt"
return 0
}

collect() {
    say "collecting into $OUT"
    nvidia-smi --query-gpu=name,memory.used --format=csv 2>/dev/null
    local f
    for f in medium_cuda medium_model; do
        [[ -s $res/cli/$f.json ]] &&
            "$PYTHON" bench/gpu/summarize.py trim "$res/cli/$f.json" "$OUT/$f.json"
    done
    [[ -s $res/cli/full_size_sweep.json ]] &&
        "$PYTHON" bench/gpu/summarize.py trim "$res/cli/full_size_sweep.json" "$OUT/full_size_sweep.json"
    cp "$res/reserved_compare.txt" "$res/reserved_compare.json" "$OUT/" 2>/dev/null
    cp "$res/build.log" "$OUT/build.log" 2>/dev/null
    [[ -s $res/direct_build.log ]] && cat "$res/direct_build.log" >>"$OUT/build.log"
    tar -czf "$OUT/results.tgz" -C "$work" results 2>/dev/null
    ls -la "$OUT"
    say "done"
}

{
    main
    rc=$?
    collect
    echo "reserved_check.sh: exit $rc"
    exit "$rc"
} 2>&1 | tee -a "$OUT/reserved_check.log"
exit "${PIPESTATUS[0]}"
