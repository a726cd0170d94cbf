#!/usr/bin/env bash
# One-shot driver for a GPU machine reached through the device tool: diagnostics, a build of
# ckptlab-cli against the machine's Python torch, the full-size sweep, and an independent
# measurement in plain PyTorch. Everything is logged into $OUT (at most 8 files come back).
#
# Prepare on the development machine (from the repository root), then run with
#   carry: ["build/gpu-src", "build/gpu-deps"], command: bash bench/gpu/device_run.sh
#     rm -rf build/gpu-src && mkdir -p build/gpu-src && git archive HEAD | tar -x -C build/gpu-src
#     mkdir -p build/gpu-deps/include build/gpu-deps/share/cmake
#     cp -r /usr/include/nlohmann /usr/include/CLI build/gpu-deps/include/
#     cp -r /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 build/gpu-deps/share/cmake/
# Environment: OUT (default build/gpu-out), BUDGET_S (seconds the whole script may take,
#   default 500; later optional steps are skipped to stay inside it), SRC (default build/gpu-src).
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
OUT=${OUT:-$repo/build/gpu-out}
mkdir -p "$OUT"
BUDGET_S=${BUDGET_S:-500}
t0=$(date +%s)
DEADLINE=$((t0 + BUDGET_S))
export DEADLINE
SRC=${SRC:-$repo/build/gpu-src}
DEPS=$repo/build/gpu-deps
work=/tmp/ckptlab-gpu
rm -rf "$work"
mkdir -p "$work/results/cli"
res=$work/results
export PYTHONUNBUFFERED=1
left() { echo $((DEADLINE - $(date +%s))); }
say() { printf '\n=== [%s, +%ss, %ss left] %s\n' "$(date +%H:%M:%S)" $(($(date +%s) - t0)) "$(left)" "$*"; }

main() {
say "diagnostics"
timeout 60 bash -c '
uname -a; cat /etc/os-release 2>/dev/null | head -2; nproc; free -g | head -2
nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version,clocks.sm,clocks.max.sm --format=csv
for t in cmake ninja g++ gcc c++ nvcc make python3 timeout; do printf "%-8s %s\n" $t "$(command -v $t)"; done
g++ --version | head -1; cmake --version | head -1; ninja --version; nvcc --version | tail -2
echo "CUDA_HOME=${CUDA_HOME:-} LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
ls -d /usr/local/cuda* 2>/dev/null; ls /usr/local/cuda/include/nvtx3 2>/dev/null | head -3
ls /usr/local/cuda/lib64 2>/dev/null | grep -E "libcudart.so|libcublas.so|libnvrtc.so|libcupti" | head
python3 - <<EOF
import torch, os
print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())
print("cuda available", torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")
print("cmake_prefix_path", torch.utils.cmake_prefix_path)
print("cxx11 abi", torch.compiled_with_cxx11_abi())
print("torch dir", os.path.dirname(torch.__file__))
print("torch/lib", sorted(os.listdir(os.path.join(os.path.dirname(torch.__file__), "lib")))[:40])
print(torch.__config__.show()[:1500])
EOF
grep -n -i -E "nvtx|CUDAToolkit|enable_language|find_package" \
  "$(python3 -c "import torch;print(torch.utils.cmake_prefix_path)")"/Caffe2/public/cuda.cmake | head -40
python3 -c "import cmake; print(\"pip cmake\", cmake.__version__)" 2>&1 | tail -1
'

say "plain-PyTorch reference, in the background while the build uses the CPUs"
(timeout -k 10 170 python3 bench/gpu/torch_reference.py "$res/torch_reference.json" \
    >"$res/torch_reference.log" 2>&1; echo "rc $?" >>"$res/torch_reference.log") &
ref_pid=$!

say "build (CMake, against Python's LibTorch)"
cli=""
if timeout -k 10 300 env DEPS_DIR="$DEPS" LOG_DIR="$res" JOBS=16 \
        bash bench/gpu/build_against_python_torch.sh "$SRC" /tmp/ckptlab-gpu-build; then
    cli=$(ls /tmp/ckptlab-gpu-build*/app/ckptlab-cli 2>/dev/null | head -1)
else
    echo "CMake build failed (rc $?)"
    # A direct g++ build helps only when nothing failed to compile (configure or link problems).
    if ! grep -q -E '\.(cpp|h|hpp):[0-9]+:[0-9]+: error:|#error' "$res/build.log" 2>/dev/null &&
       (($(left) > 240)); then
        say "fallback: direct g++ build"
        if timeout -k 10 240 env DEPS_DIR="$DEPS" LOG_DIR="$res" JOBS=16 \
                bash bench/gpu/build_direct.sh "$SRC" /tmp/ckptlab-gpu-direct; then
            cli=/tmp/ckptlab-gpu-direct/app/ckptlab-cli
        fi
    fi
fi
say "cli: ${cli:-none}"
if [[ -n $cli ]]; then
    # Run the CLI with the CUDA libraries that Python's torch uses (pip's nvidia-* packages),
    # not the toolkit's copies that CMake's CUDA::cudart may have put on the RUNPATH.
    nv_libs=$(python3 -c '
import glob, os, torch
site = os.path.dirname(os.path.dirname(torch.__file__))
print(":".join(sorted(d for d in glob.glob(os.path.join(site, "nvidia", "**", "lib"), recursive=True))))' 2>/dev/null)
    export LD_LIBRARY_PATH="${nv_libs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
    ldd "$cli" | grep -E 'torch|c10|cuda|cublas|stdc|not found' || true
fi

say "waiting for the PyTorch reference"
wait "$ref_pid"
cat "$res/torch_reference.log"

if [[ -n $cli ]]; then
    say "ckptlab-cli runs"
    EXTRAS=1 FULL_TIMEOUT=$(( $(left) > 300 ? 240 : $(left) - 60 )) \
        bash bench/gpu/run_seed_full_size.sh "$cli" "$res/cli"
fi

if (($(left) > 80)); then
    say "plain-PyTorch reference again, alone on the machine (timings)"
    timeout -k 10 $(( $(left) - 30 )) python3 bench/gpu/torch_reference.py \
        "$res/torch_reference_alone.json" >"$res/torch_reference_alone.log" 2>&1
    echo "rc $?" >>"$res/torch_reference_alone.log"
    cat "$res/torch_reference_alone.log"
fi

say "collecting"
nvidia-smi --query-gpu=name,memory.used,clocks.sm --format=csv 2>/dev/null
cp "$res/build.log" "$OUT/build.log" 2>/dev/null
[[ -s $res/direct_build.log ]] && cat "$res/direct_build.log" >>"$OUT/build.log"
cp "$res/build_errors.log" "$OUT/build_errors.log" 2>/dev/null
cp "$res/cli/full_size_sweep.json" "$OUT/full_size_sweep.json" 2>/dev/null
cp "$res/torch_reference.json" "$OUT/torch_reference.json" 2>/dev/null
cp "$res/torch_reference_alone.json" "$OUT/torch_reference_alone.json" 2>/dev/null
tar -czf "$OUT/results.tgz" -C "$work" results 2>/dev/null
ls -la "$OUT"
say "done"
}

main 2>&1 | tee -a "$OUT/device_run.log"
