#!/usr/bin/env bash
# The full-size plan on a GPU: Llama-3.1-8B's layer shape at depth 4 (its embedding and LM head
# whole), S=8192, batch 1, mixed-bf16, Adam, sdpa attention, on CUDA. The plan is fitted from
# costs measured on this GPU (`plan --capacity 141GB --device cuda`); a real sweep of the same
# model (none, full and the plan's fastest schedule) then says how close its predicted
# allocated and reserved peaks and step times are (bench/full_size/compare_plan.py).
# One-shot driver; prepared on the development machine, NOT run there (no GPU). Everything is
# logged into $OUT (default bench/gpu/results/full_size_check).
#
# Prepare on the development machine (from the repository root), then run with
#   carry: ["build/gpu-src", "build/gpu-deps"], command: bash bench/gpu/full_size_check.sh
#     rm -rf build/gpu-src && mkdir -p build/gpu-src && git archive HEAD | tar -x -C build/gpu-src
#     mkdir -p build/gpu-deps/include build/gpu-deps/share/cmake
#     cp -r /usr/include/nlohmann /usr/include/CLI build/gpu-deps/include/
#     cp -r /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 build/gpu-deps/share/cmake/
# (git archive HEAD: commit the plan's code first, or copy the working tree instead.)
# Environment: OUT, BUDGET_S (default 540: later steps are skipped to stay inside it), SRC
#   (default build/gpu-src), DEPS (default build/gpu-deps), PYTHON (default python3), PREBUILT
#   (an app/ckptlab-cli built already: no build), DRY_RUN=1 (CPU, a small model: the script's
#   logic only, no finding comes of it). Exit 0 when the steps ran, 3 without CUDA, 4 without a
#   build.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
repo=$(pwd)
OUT=${OUT:-$repo/bench/gpu/results/full_size_check}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BUDGET_S=${BUDGET_S:-540}
t0=$(date +%s)
DEADLINE=$((t0 + BUDGET_S))
SRC=${SRC:-$repo/build/gpu-src}
DEPS=${DEPS:-$repo/build/gpu-deps}
PYTHON=${PYTHON:-python3}
DRY_RUN=${DRY_RUN:-0}
work=${WORK:-/tmp/ckptlab-full-size}
rm -rf "$work"
res=$work/results
mkdir -p "$res"
# The presets (resources/models) of the sources the CLI was built from.
export CKPTLAB_MODELS_DIR=${CKPTLAB_MODELS_DIR:-$SRC/resources/models}
[[ -d $CKPTLAB_MODELS_DIR ]] || export CKPTLAB_MODELS_DIR=$repo/resources/models

if [[ $DRY_RUN == 1 ]]; then
    DEVICE=cpu
    MODEL=(--block llama --width 256 --heads 4 --kv-heads 2 --vocab 4096 --depth 4
           --attention memory-efficient --seq 1024)
    CAPACITY=24GB
else
    DEVICE=cuda
    MODEL=(--model llama-3.1-8b --depth 4 --attention sdpa --seq 8192)
    CAPACITY=141GB
fi
COMMON=(--batch 1 --precision mixed-bf16 --optimizer adam --device "$DEVICE")

left() { echo $((DEADLINE - $(date +%s))); }
say() { printf '\n=== [%s, +%ss, %ss left] %s\n' "$(date +%H:%M:%S)" $(($(date +%s) - t0)) "$(left)" "$*"; }
at_most() {
    local n=$1 l
    l=$(($(left) - 30))
    echo $((l < n ? l : n))
}

main() {
    say "diagnostics (DRY_RUN=$DRY_RUN, device $DEVICE, budget ${BUDGET_S}s)"
    nproc; free -g | head -2
    nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv 2>&1 | head -3
    "$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())' 2>&1

    cli=${PREBUILT:+$PREBUILT/app/ckptlab-cli}
    if [[ -z $cli ]]; then
        say "build ckptlab-cli against $PYTHON's LibTorch"
        cli=$(timeout -k 10 "$(at_most 330)" env PYTHON="$PYTHON" DEPS_DIR="$DEPS" LOG_DIR="$res" \
            bash bench/gpu/build_against_python_torch.sh "$SRC" "$work/build" | tail -1)
    fi
    if [[ ! -x $cli ]]; then
        echo "FAIL: ckptlab-cli was not built (build.log)"
        return 4
    fi
    local nv_libs
    nv_libs=$("$PYTHON" -c '
import glob, os, torch
site = os.path.dirname(os.path.dirname(torch.__file__))
print(":".join(sorted(glob.glob(os.path.join(site, "nvidia", "**", "lib"), recursive=True))))' 2>/dev/null)
    export LD_LIBRARY_PATH="${nv_libs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    if [[ $DRY_RUN != 1 ]] &&
        ! "$PYTHON" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)'; then
        echo "FAIL: no CUDA device (torch.cuda.is_available() is False); DRY_RUN=1 runs on the CPU"
        return 3
    fi

    say "plan: costs measured on $DEVICE, the model at its size against $CAPACITY"
    timeout -s INT -k 15 "$(at_most 200)" "$cli" plan "${MODEL[@]}" "${COMMON[@]}" \
        --capacity "$CAPACITY" --json "$res/plan.json" >"$res/plan.txt" 2>"$res/plan.err"
    echo "rc $?"
    cat "$res/plan.txt" "$res/plan.err"
    local fastest=""
    [[ -s $res/plan.json ]] && fastest=$("$PYTHON" -c 'import json, sys
f = json.load(open(sys.argv[1]))["fastest"]
print(f["strategy"] if f else "")' "$res/plan.json")

    say "sweep of the same model on $DEVICE: none, full${fastest:+, $fastest}"
    timeout -s INT -k 15 "$(at_most 240)" "$cli" sweep "${MODEL[@]}" "${COMMON[@]}" \
        --strategies "none,full${fastest:+,$fastest}" --warmup 1 --repeats 3 \
        --json "$res/sweep.json" >"$res/sweep.txt" 2>&1
    echo "rc $?"
    cat "$res/sweep.txt"

    say "predicted against measured"
    if [[ -s $res/plan.json && -s $res/sweep.json ]]; then
        "$PYTHON" bench/full_size/compare_plan.py "$res/plan.json" "$res/sweep.json" \
            --json "$res/compare.json" | tee "$res/compare.txt"
    else
        echo "nothing to compare: plan.json or sweep.json missing"
    fi
    return 0
}

collect() {
    say "collecting into $OUT"
    cp "$res"/plan.json "$res"/plan.txt "$res"/plan.err "$res"/compare.txt "$res"/compare.json \
        "$OUT/" 2>/dev/null
    [[ -s $res/sweep.json ]] &&
        "$PYTHON" bench/gpu/summarize.py trim "$res/sweep.json" "$OUT/sweep.json"
    [[ -s $res/build.log ]] && tail -200 "$res/build.log" >"$OUT/build_tail.log"
    ls -la "$OUT"
}

{
    main
    rc=$?
    collect
    echo "full_size_check.sh: exit $rc"
    exit "$rc"
} 2>&1 | tee "$OUT/full_size_check.log"
exit "${PIPESTATUS[0]}"
