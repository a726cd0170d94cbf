#!/usr/bin/env bash
# Builds the core library and ckptlab-cli (no Qt; tests on request: TEST_TARGETS) against the
# LibTorch inside a Python torch installation, e.g. on a GPU machine whose only LibTorch is pip's
# torch.
#
# Usage: bench/gpu/build_against_python_torch.sh [SRC_DIR] [BUILD_DIR]
#   SRC_DIR    the project's sources (default: the repository this script is in). On a shared
#              checkout, build a clean snapshot instead:
#                rm -rf build/gpu-src && mkdir -p build/gpu-src &&
#                git archive HEAD | tar -x -C build/gpu-src
#   BUILD_DIR  default: build/gpu-torch (under the repository, git-ignored)
# Environment:
#   PYTHON       the Python that holds torch (default: python3)
#   DEPS_DIR     extra CMake prefix with nlohmann_json and CLI11 (include/ + share/cmake/),
#                for machines without them; bench/gpu/device_run.sh fills build/gpu-deps
#   JOBS         parallel compile jobs (default: nproc)
#   CXX20        auto (default): build as the project says (C++17) and, only if LibTorch's
#                headers refuse C++17 ("C++20 or later compatible compiler is required"),
#                again as C++20; 0: never; 1: C++20 from the start. C++20 is forced without
#                touching the sources: a CMAKE_PROJECT_INCLUDE file maps the -std=c++17 flag of
#                CMAKE_CXX_STANDARD 17 to -std=gnu++20.
#   TORCH_PREFIX a Torch CMake prefix to use instead of asking Python (e.g. a plain LibTorch)
#   ABI          0 or 1 to override torch.compiled_with_cxx11_abi()
#   LOG_DIR      where configure.log, build.log and build_errors.log go (default: BUILD_DIR)
#   TEST_TARGETS GoogleTest targets to build after ckptlab-cli (e.g. "test_step_clock
#                test_cuda_allocator_io"); empty (default): no tests, as before. With targets the
#                build configures CKPTLAB_BUILD_TESTS=ON (GUI off, as the preset core-only) and
#                CKPTLAB_PEER_PYTHON=PYTHON (the torch_peers ctests use this torch). A target
#                whose tests/core/NAME.cpp is not in SRC is skipped; a test that fails to build
#                is logged and does not fail the script (ckptlab-cli decides).
#   GTEST_SRC    GoogleTest's sources (Debian's /usr/src/googletest, carried in
#                DEPS_DIR/src/googletest), built and installed into BUILD_DIR/googletest with the
#                same compiler and ABI flag, for machines without GTest (default: DEPS_DIR's
#                copy when TEST_TARGETS is set and it exists)
# Prints the path of the built ckptlab-cli on its last line and exits 0 when it was built.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
src=$(cd "${1:-$repo}" && pwd) || { echo "no source dir ${1:-}" >&2; exit 2; }
build=${2:-$repo/build/gpu-torch}
mkdir -p "$build"
build=$(cd "$build" && pwd)
PYTHON=${PYTHON:-python3}
JOBS=${JOBS:-$(nproc)}
CXX20=${CXX20:-auto}
LOG_DIR=${LOG_DIR:-$build}
mkdir -p "$LOG_DIR"

log() { printf '[build %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# --- LibTorch from Python -------------------------------------------------------------------
if [[ -z ${TORCH_PREFIX:-} ]]; then
    TORCH_PREFIX=$("$PYTHON" -c 'import torch; print(torch.utils.cmake_prefix_path)') || {
        log "cannot import torch with $PYTHON"; exit 3; }
fi
if [[ -z ${ABI:-} ]]; then
    ABI=$("$PYTHON" -c 'import torch; print(int(torch.compiled_with_cxx11_abi()))' 2>/dev/null ||
          echo 1)
fi
torch_version=$("$PYTHON" -c 'import torch; print(torch.__version__)' 2>/dev/null || echo "?")
torch_cuda=$("$PYTHON" -c 'import torch; print(torch.version.cuda)' 2>/dev/null || echo "?")
log "torch $torch_version (CUDA $torch_cuda), cmake prefix $TORCH_PREFIX, -D_GLIBCXX_USE_CXX11_ABI=$ABI"

# --- tools ------------------------------------------------------------------------------------
cmake_bin=$(command -v cmake || true)
if [[ -z $cmake_bin ]]; then
    cmake_bin=$("$PYTHON" -c 'import cmake, os; print(os.path.join(cmake.CMAKE_BIN_DIR, "cmake"))' \
                2>/dev/null || true)
fi
[[ -n $cmake_bin && -x $cmake_bin ]] || { log "no cmake (neither on PATH nor Python's cmake)"; exit 3; }
ninja_bin=$(command -v ninja || true)
if [[ -z $ninja_bin ]]; then
    ninja_bin=$("$PYTHON" -c 'import ninja, os; print(os.path.join(ninja.BIN_DIR, "ninja"))' \
                2>/dev/null || true)
fi
if [[ -n $ninja_bin && -x $ninja_bin ]]; then
    generator=(-G Ninja -DCMAKE_MAKE_PROGRAM="$ninja_bin")
else
    ninja_bin=""
    generator=(-G "Unix Makefiles")
fi
log "cmake: $cmake_bin ($("$cmake_bin" --version | head -1)); ninja: ${ninja_bin:-none, make}"
log "c++: $(command -v c++ || command -v g++ || echo none) $(c++ --version 2>/dev/null | head -1)"

cuda_args=()
nvcc_bin=$(command -v nvcc || true)
[[ -z $nvcc_bin && -x /usr/local/cuda/bin/nvcc ]] && nvcc_bin=/usr/local/cuda/bin/nvcc
if [[ -n $nvcc_bin && $torch_cuda != None && $torch_cuda != "?" ]]; then
    cuda_root=$(cd "$(dirname "$nvcc_bin")/.." && pwd)
    # USE_SYSTEM_NVTX: LibTorch's cuda.cmake otherwise looks for nvtx3 in its own source tree,
    # then for nvToolsExt, which CUDA >= 12.9 no longer ships.
    cuda_args=(-DCMAKE_CUDA_COMPILER="$nvcc_bin" -DCUDAToolkit_ROOT="$cuda_root"
               -DCUDA_TOOLKIT_ROOT_DIR="$cuda_root" -DUSE_SYSTEM_NVTX=ON
               -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}")
    export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}
    log "nvcc: $nvcc_bin ($("$nvcc_bin" --version | tail -1)); TORCH_CUDA_ARCH_LIST=$TORCH_CUDA_ARCH_LIST"
fi

# The package's own folder first (TORCH_PREFIX/../..: its lib/), or TorchConfig's find_library(c10)
# takes a system copy first, e.g. Debian's libtorch-dev's /usr/lib/*/libc10.so.
prefix_path="$(cd "$TORCH_PREFIX/../.." && pwd);$TORCH_PREFIX"
[[ -n ${DEPS_DIR:-} ]] && prefix_path="$prefix_path;$(cd "$DEPS_DIR" && pwd)"

# --- tests (TEST_TARGETS): GoogleTest from sources when carried -------------------------------
TEST_TARGETS=${TEST_TARGETS:-}
test_args=(-DCKPTLAB_BUILD_TESTS=OFF)
if [[ -n $TEST_TARGETS ]]; then
    test_args=(-DCKPTLAB_BUILD_TESTS=ON -DCKPTLAB_PEER_PYTHON="$(command -v "$PYTHON")")
    if [[ -z ${GTEST_SRC:-} && -n ${DEPS_DIR:-} && -f $DEPS_DIR/src/googletest/CMakeLists.txt ]]; then
        GTEST_SRC=$DEPS_DIR/src/googletest
    fi
    if [[ -n ${GTEST_SRC:-} ]]; then
        log "GoogleTest from $GTEST_SRC into $build/googletest"
        gtest_start=$SECONDS
        if "$cmake_bin" -S "$GTEST_SRC" -B "$build/googletest-build" "${generator[@]}" \
                -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$build/googletest" \
                -DCMAKE_CXX_FLAGS="-D_GLIBCXX_USE_CXX11_ABI=$ABI" -DBUILD_GMOCK=ON \
                -DCMAKE_POLICY_VERSION_MINIMUM=3.5 >>"$LOG_DIR/configure.log" 2>&1 &&
           "$cmake_bin" --build "$build/googletest-build" -j "$JOBS" >>"$LOG_DIR/configure.log" 2>&1 &&
           "$cmake_bin" --install "$build/googletest-build" >>"$LOG_DIR/configure.log" 2>&1; then
            prefix_path="$prefix_path;$build/googletest"
            log "GoogleTest built in $((SECONDS - gtest_start)) s"
        else
            log "GoogleTest did not build (see configure.log); CMake looks for a system GTest"
        fi
    fi
fi

cxx20_include="$build/force_cxx20.cmake"
cat >"$cxx20_include" <<'EOF'
# Maps CMAKE_CXX_STANDARD 17 to C++20 for LibTorch versions whose headers require it.
set(CMAKE_CXX17_STANDARD_COMPILE_OPTION "-std=c++20")
set(CMAKE_CXX17_EXTENSION_COMPILE_OPTION "-std=gnu++20")
EOF

# configure_and_build DIR CXX20(0|1) -> 0 when ckptlab-cli was built
configure_and_build() {
    local dir=$1 cxx20=$2 extra=()
    [[ $cxx20 == 1 ]] && extra=(-DCMAKE_PROJECT_INCLUDE="$cxx20_include")
    mkdir -p "$dir"
    log "configure $dir (C++20 forced: $cxx20)"
    # CMAKE_CXX_FLAGS carries the ABI flag so that every target (ckptlab_plain too, which does
    # not see TORCH_CXX_FLAGS) agrees with LibTorch on std::string. --no-as-needed keeps
    # libtorch_cuda.so linked although no symbol of it is used (Ubuntu's gcc links --as-needed;
    # without it CUDA is not registered and --device cuda is refused); --allow-shlib-undefined
    # because the linker may not find the pip nvidia-* libraries that LibTorch's own RUNPATH
    # names (the loader does).
    "$cmake_bin" -S "$src" -B "$dir" "${generator[@]}" \
        -DCMAKE_BUILD_TYPE=Release \
        -DCKPTLAB_BUILD_GUI=OFF "${test_args[@]}" \
        -DCMAKE_PREFIX_PATH="$prefix_path" \
        -DCMAKE_CXX_FLAGS="-D_GLIBCXX_USE_CXX11_ABI=$ABI" \
        -DCMAKE_EXE_LINKER_FLAGS="-Wl,--no-as-needed -Wl,--allow-shlib-undefined" \
        -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
        "${cuda_args[@]}" "${extra[@]}" 2>&1 | tee -a "$LOG_DIR/configure.log"
    local rc=${PIPESTATUS[0]}
    if [[ $rc != 0 ]]; then
        log "configure failed (rc $rc); see configure.log"
        return 1
    fi
    log "build ckptlab-cli with $JOBS jobs, keep going"
    local start=$SECONDS
    if [[ -n $ninja_bin ]]; then
        "$ninja_bin" -C "$dir" -k 0 -j "$JOBS" ckptlab-cli 2>&1 | tee -a "$LOG_DIR/build.log"
    else
        make -C "$dir" -k -j "$JOBS" ckptlab-cli 2>&1 | tee -a "$LOG_DIR/build.log"
    fi
    rc=${PIPESTATUS[0]}
    log "build rc $rc after $((SECONDS - start)) s"
    [[ $rc == 0 && -x $dir/app/ckptlab-cli ]] || return 1
    build_tests "$dir"
    return 0
}

# build_tests DIR: TEST_TARGETS whose sources SRC has, keep going; logged, never fatal.
build_tests() {
    local dir=$1 wanted=() t
    for t in $TEST_TARGETS; do
        if [[ -f $src/tests/core/$t.cpp ]]; then
            wanted+=("$t")
        else
            log "test $t: no tests/core/$t.cpp in $src, skipped"
        fi
    done
    ((${#wanted[@]})) || return 0
    log "build tests with $JOBS jobs, keep going: ${wanted[*]}"
    local start=$SECONDS rc built=()
    if [[ -n $ninja_bin ]]; then
        "$ninja_bin" -C "$dir" -k 0 -j "$JOBS" "${wanted[@]}" 2>&1 | tee -a "$LOG_DIR/build.log"
        rc=${PIPESTATUS[0]}
    else
        make -C "$dir" -k -j "$JOBS" "${wanted[@]}" 2>&1 | tee -a "$LOG_DIR/build.log"
        rc=${PIPESTATUS[0]}
    fi
    for t in "${wanted[@]}"; do [[ -x $dir/tests/$t ]] && built+=("$t"); done
    log "tests build rc $rc after $((SECONDS - start)) s; built ${#built[@]} of ${#wanted[@]}: ${built[*]}"
}

: >"$LOG_DIR/configure.log"
: >"$LOG_DIR/build.log"
ok=1
case $CXX20 in
    1) configure_and_build "$build" 1 && ok=0 ;;
    *) configure_and_build "$build" 0 && ok=0 ;;
esac
if [[ $ok != 0 && $CXX20 == auto ]] &&
   grep -q 'C++20 or later compatible compiler is required' "$LOG_DIR/build.log"; then
    log "LibTorch's headers require C++20: building again with C++20 forced"
    configure_and_build "$build-cxx20" 1 && { ok=0; build="$build-cxx20"; }
fi

# Compiler and linker errors with their context, for reports.
grep -n -E -B2 -A6 'error:|Error [0-9]|undefined reference|FAILED:|#error|CMake Error' \
    "$LOG_DIR/configure.log" "$LOG_DIR/build.log" >"$LOG_DIR/build_errors.log" 2>/dev/null || true

if [[ $ok == 0 ]]; then
    log "built: $build/app/ckptlab-cli"
    echo "$build/app/ckptlab-cli"
    exit 0
fi
log "FAILED; $(grep -c 'error:' "$LOG_DIR/build.log") 'error:' lines in build.log; see build_errors.log"
exit 1
