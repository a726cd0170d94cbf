#!/usr/bin/env bash
# Fallback for build_against_python_torch.sh when LibTorch's CMake package cannot be configured
# (its CUDA part looks for a CUDA toolkit, NVTX, cuDNN...): compiles the same sources
# (core/CMakeLists.txt's two libraries and ckptlab-cli without charts) with g++ directly against
# the headers and shared libraries of Python's torch. No PCH, so each LibTorch TU is slow; JOBS
# of them run at once.
#
# Usage: bench/gpu/build_direct.sh SRC_DIR BUILD_DIR
# Environment: PYTHON (python3), TORCH_DIR and HAS_CUDA (instead of asking Python), DEPS_DIR (prefix with include/nlohmann and include/CLI),
#   JOBS (nproc), ABI (torch.compiled_with_cxx11_abi()), STD (c++17), LOG_DIR (BUILD_DIR)
# Prints the path of ckptlab-cli on its last line and exits 0 when it was linked.
set -uo pipefail
src=$(cd "${1:?usage: build_direct.sh SRC_DIR BUILD_DIR}" && pwd)
build=${2:?usage: build_direct.sh SRC_DIR BUILD_DIR}
mkdir -p "$build/obj"
build=$(cd "$build" && pwd)
PYTHON=${PYTHON:-python3}
JOBS=${JOBS:-$(nproc)}
STD=${STD:-c++17}
LOG_DIR=${LOG_DIR:-$build}
mkdir -p "$LOG_DIR"
log() { printf '[direct %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# TORCH_DIR (with include/ and lib/) and HAS_CUDA override Python, for tests elsewhere.
torch_dir=${TORCH_DIR:-$("$PYTHON" -c 'import torch, os; print(os.path.dirname(torch.__file__))')} ||
    exit 3
ABI=${ABI:-$("$PYTHON" -c 'import torch; print(int(torch.compiled_with_cxx11_abi()))')}
has_cuda=${HAS_CUDA:-$("$PYTHON" -c 'import torch; print(int(torch.version.cuda is not None))')}
version=$(sed -n 's/^project(CheckpointLab VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
log "torch at $torch_dir, ABI $ABI, CUDA build $has_cuda, ckptlab $version, -std=$STD"

flags=(-std="$STD" -O2 -fPIC -pthread -D_GLIBCXX_USE_CXX11_ABI="$ABI"
       -DCKPTLAB_VERSION="\"$version\"" -Wno-unused-parameter
       -I"$src/core/include" -I"$src/core/src" -I"$src/app/cli"
       -isystem "$torch_dir/include" -isystem "$torch_dir/include/torch/csrc/api/include")
[[ -n ${DEPS_DIR:-} ]] && flags+=(-isystem "$(cd "$DEPS_DIR" && pwd)/include")
# A CUDA torch: the engine's CUDA parts (CUDA events, the caching allocator's statistics) as
# core/CMakeLists.txt compiles them, with the CUDA runtime headers of the toolkit (CUDA_HOME,
# else /usr/local/cuda) and of pip's nvidia-* packages.
if [[ $has_cuda == 1 ]]; then
    flags+=(-DCKPTLAB_WITH_CUDA=1)
    for inc in "${CUDA_HOME:-/usr/local/cuda}/include" "$torch_dir"/../nvidia/*/include \
               "$torch_dir"/../nvidia/*/*/include; do
        [[ -f $inc/cuda_runtime_api.h ]] && flags+=(-isystem "$inc")
    done
fi

sources=()
# The lists of core/CMakeLists.txt and app/CMakeLists.txt (cli_charts.cpp needs the GUI).
while read -r f; do sources+=("$src/core/$f"); done < <(
    sed -n 's/^ *\(src\/[a-z_/]*\.cpp\).*/\1/p' "$src/core/CMakeLists.txt")
while read -r f; do sources+=("$src/app/$f"); done < <(
    sed -n 's/^ *\(cli\/[a-z_]*\.cpp\).*/\1/p' "$src/app/CMakeLists.txt" | grep -v cli_charts)
log "${#sources[@]} sources, $JOBS jobs"

: >"$LOG_DIR/direct_build.log"
# One response file holds the flags, so that xargs only passes file names.
rsp="$build/flags.rsp"
: >"$rsp"
for f in "${flags[@]}"; do printf "'%s'\n" "$f" >>"$rsp"; done
export build src rsp
compile() {
    local f=$1 o
    o="$build/obj/$(echo "${f#"$src"/}" | tr / _).o"
    if g++ @"$rsp" -c "$f" -o "$o" >"$o.log" 2>&1; then echo "ok $f"; else echo "FAILED $f"; fi
    cat "$o.log"
}
export -f compile
start=$SECONDS
printf '%s\n' "${sources[@]}" | xargs -P "$JOBS" -n 1 bash -c 'compile "$0"' 2>&1 |
    tee -a "$LOG_DIR/direct_build.log"
log "compiled in $((SECONDS - start)) s"
if grep -q '^FAILED' "$LOG_DIR/direct_build.log"; then
    log "compile errors; see direct_build.log"
    exit 1
fi

# The CUDA libraries of pip's nvidia-* packages, for the linker to resolve libtorch_cuda's needs.
nv_dirs=$(ls -d "$torch_dir"/../nvidia/*/lib "$torch_dir"/../nvidia/*/*/lib 2>/dev/null | tr '\n' ':')
libs=(-L"$torch_dir/lib" -Wl,-rpath,"$torch_dir/lib" -Wl,-rpath-link,"$torch_dir/lib:$nv_dirs"
      -Wl,--allow-shlib-undefined -Wl,--no-as-needed)
[[ $has_cuda == 1 ]] && libs+=(-ltorch_cuda -lc10_cuda)
libs+=(-ltorch -ltorch_cpu -lc10 -Wl,--as-needed -ldl -pthread)
mkdir -p "$build/app"
if g++ -o "$build/app/ckptlab-cli" "$build"/obj/*.o "${libs[@]}" 2>&1 | tee -a "$LOG_DIR/direct_build.log" &&
   [[ -x $build/app/ckptlab-cli ]]; then
    log "linked $build/app/ckptlab-cli"
    echo "$build/app/ckptlab-cli"
    exit 0
fi
log "link failed; see direct_build.log"
exit 1
