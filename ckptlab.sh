#!/usr/bin/env bash
# Checkpoint Lab quick start on Debian 12:
#   ./ckptlab.sh          install what is missing, build, start the app
#   ./ckptlab.sh test     install what is missing, build, run every test
#                         (tests/run_suite_grouped.py: each GoogleTest binary started once)
#   ./ckptlab.sh build    install what is missing and build only
# Which LibTorch, before the command (--torch system|python):
#   system  Debian's libtorch-dev 1.13 (CPU): preset `release`, build/release
#   python  the CUDA flavour: PyPI's torch pinned in packaging/torch-python/requirements.txt,
#           in a venv under ${XDG_CACHE_HOME:-~/.cache}/ckptlab/ (about 4.7 GB, made once):
#           preset `cuda`, build/cuda. Needs the CUDA toolkit torch was built with (nvcc: in
#           CUDA_HOME, /usr/local/cuda-X.Y or /usr/local/cuda); runs on a machine without a GPU
#           too (CUDA is then unavailable at run time).
# Without --torch: python when `nvidia-smi -L` lists a GPU, system otherwise.
set -euo pipefail
shopt -s inherit_errexit  # a failing step inside $(...) stops the script too
cd "$(dirname "$0")"

usage() {
  echo "usage: $0 [--torch system|python] [app|test|build]" >&2
  exit 2
}

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev libxkbcommon-dev
  qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
  fonts-noto-cjk                             # Chinese (--lang zh_CN) renders, not boxes
  googletest libgtest-dev nlohmann-json3-dev libcli11-dev
  xvfb xauth appstream desktop-file-utils python3
  libxml2-utils shared-mime-info             # the MIME type test (xmllint, update-mime-database)
  locales                                    # de_DE/fr_FR: the tests under decimal commas
  clang-format-14                            # the style check (tests/style), version pinned
)
SYSTEM_TORCH_PACKAGES=(
  libtorch-dev libopenblas0-openmp           # without OpenBLAS LibTorch runs ~20x slower
  python3-torch                              # PyTorch 1.13.1 beside it: tests/side_by_side
)
PYTHON_TORCH_PACKAGES=(
  python3-venv                               # Debian's python3 makes no venv without it
)
TORCH_REQUIREMENTS=packaging/torch-python/requirements.txt
PYTHON=${CKPTLAB_PYTHON:-python3}            # the Python whose venv holds PyPI's torch

torch_flavour=""
command=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --torch) [[ $# -ge 2 ]] || usage; torch_flavour=$2; shift 2 ;;
    --torch=*) torch_flavour=${1#--torch=}; shift ;;
    app | test | build) [[ -z $command ]] || usage; command=$1; shift ;;
    *) usage ;;
  esac
done
command=${command:-app}
case $torch_flavour in
  "" | system | python) ;;
  *) echo "$0: --torch must be system or python (got '$torch_flavour')" >&2; exit 2 ;;
esac

# "cu130" -> "13.0"
cuda_of_tag() {
  local n=${1#cu}
  echo "${n:0:${#n}-1}.${n: -1}"
}
torch_pin=$(sed -n 's/^torch==\([0-9][0-9.]*\).*/\1/p' "$TORCH_REQUIREMENTS")
torch_tag=$(sed -n 's/^# ckptlab-cuda: *\(cu[0-9][0-9]*\).*/\1/p' "$TORCH_REQUIREMENTS")
if [[ -z $torch_pin || -z $torch_tag ]]; then
  echo "$0: $TORCH_REQUIREMENTS must say torch==X.Y.Z and '# ckptlab-cuda: cuNNN'" >&2
  exit 1
fi
torch_cuda=$(cuda_of_tag "$torch_tag")

if [[ -z $torch_flavour ]]; then
  if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU [0-9]'; then
    torch_flavour=python
    echo "nvidia-smi lists a GPU: building the CUDA flavour against PyPI's torch $torch_pin" \
      "into build/cuda (--torch system builds Debian's CPU LibTorch 1.13 into build/release)."
  else
    torch_flavour=system
  fi
fi
if [[ $torch_flavour == python ]]; then
  PACKAGES+=("${PYTHON_TORCH_PACKAGES[@]}")
  preset=cuda
else
  PACKAGES+=("${SYSTEM_TORCH_PACKAGES[@]}")
  preset=release
fi

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  [[ ${#missing[@]} -eq 0 ]] && return
  echo "Installing: ${missing[*]}"
  local sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
}

# The locale tests need a decimal-comma locale; Debian ships its sources, not the compiled one.
generate_test_locales() {
  local sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  for name in de_DE fr_FR; do
    locale -a 2>/dev/null | grep -qix "$name.utf8" && continue
    echo "Generating the $name.UTF-8 locale for the tests"
    $sudo localedef -i "$name" -f UTF-8 "$name.UTF-8"
  done
}

# The CUDA toolkit of torch's CUDA version (same major; the exact one preferred), for
# LibTorch's CMake files, which enable the CUDA language and look for the toolkit.
find_cuda_toolkit() {
  local dir version found="" candidates=()
  [[ -n ${CUDA_HOME:-} ]] && candidates+=("$CUDA_HOME")
  candidates+=("/usr/local/cuda-$torch_cuda" /usr/local/cuda)
  command -v nvcc >/dev/null && candidates+=("$(dirname "$(dirname "$(command -v nvcc)")")")
  for dir in "${candidates[@]}"; do
    [[ -x $dir/bin/nvcc ]] || continue
    version=$("$dir/bin/nvcc" --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')
    [[ $version == "$torch_cuda" ]] && { echo "$dir"; return; }
    [[ -z $found && ${version%%.*} == "${torch_cuda%%.*}" ]] && found=$dir
  done
  [[ -n $found ]] && { echo "$found"; return; }
  echo "$0: the CUDA flavour needs the CUDA $torch_cuda toolkit (nvcc) that PyPI's torch" \
    "$torch_pin is built with; none in CUDA_HOME, /usr/local/cuda-$torch_cuda," \
    "/usr/local/cuda or PATH (NVIDIA's apt package cuda-toolkit-${torch_cuda/./-})" >&2
  return 1
}

# PyPI's torch in its own venv, made once: the marker, written last, holds the pins it was
# installed from, so an interrupted install or another pin makes the venv again.
python_torch_venv() {
  local cache=${XDG_CACHE_HOME:-$HOME/.cache}/ckptlab
  local venv=$cache/torch-$torch_pin-$torch_tag
  local marker=$venv/.ckptlab-complete pins
  pins=$(grep -v '^[[:space:]]*\(#\|$\)' "$TORCH_REQUIREMENTS")
  mkdir -p "$cache"
  exec 9>"$cache/torch-$torch_pin-$torch_tag.lock"
  flock 9  # two builds at once: the second waits for the first's install
  if [[ -f $marker && $(cat "$marker") == "$pins" ]] && "$venv/bin/python" -c '' 2>/dev/null; then
    echo "PyPI's torch $torch_pin: $venv" >&2
  else
    if [[ -e $venv ]]; then
      echo "$venv is incomplete (an interrupted install?): making it again" >&2
      rm -rf "$venv"
    fi
    echo "Installing PyPI's torch $torch_pin ($torch_tag, about 4.7 GB) into $venv" >&2
    local start=$SECONDS
    "$PYTHON" -m venv "$venv" >&2
    local quiet=()
    [[ -t 2 ]] || quiet=(--progress-bar off)  # CI logs: no progress bars
    # No pip cache: the wheels would take another 3 GB beside the venv.
    "$venv/bin/python" -m pip install --no-input --no-cache-dir "${quiet[@]}" -r "$TORCH_REQUIREMENTS" >&2
    local got
    got=$("$venv/bin/python" -W ignore -c 'import torch; print(torch.__version__, torch.version.cuda)')
    if [[ $got != "$torch_pin"* || ${got#* } != "$torch_cuda" ]]; then
      echo "$0: pip installed torch $got, not $torch_pin with CUDA $torch_cuda" \
        "(see $TORCH_REQUIREMENTS)" >&2
      return 1
    fi
    echo "$pins" >"$marker"
    echo "Installed torch $got in $((SECONDS - start)) s" >&2
  fi
  exec 9>&-
  echo "$venv"
}

configure() {
  if [[ $preset == cuda ]]; then
    local venv cuda_root
    venv=$(python_torch_venv)
    cuda_root=$(find_cuda_toolkit)
    # The preset reads these (CMakePresets.json, `cuda`). The prefix is torch's package folder
    # (its lib/ and share/cmake/), not only torch.utils.cmake_prefix_path (share/cmake): so
    # TorchConfig's find_library(c10) finds torch's lib/ before Debian's libc10.so in /usr/lib.
    CKPTLAB_TORCH_DIR=$("$venv/bin/python" -W ignore -c \
      'import os, torch.utils; print(os.path.dirname(os.path.dirname(torch.utils.cmake_prefix_path)))')
    CKPTLAB_TORCH_CXX11_ABI=$("$venv/bin/python" -W ignore -c \
      'import torch; print(int(torch.compiled_with_cxx11_abi()))')
    CKPTLAB_CUDA_ROOT=$cuda_root
    export CKPTLAB_TORCH_DIR CKPTLAB_TORCH_CXX11_ABI CKPTLAB_CUDA_ROOT
    # The PyTorch peers (tests/side_by_side) run against the same torch the flavour links.
    cmake --preset "$preset" -DCKPTLAB_PEER_PYTHON="$venv/bin/python"
    return
  fi
  cmake --preset "$preset"
}

build() {
  configure
  cmake --build --preset "$preset"
}

install_missing
build
case "$command" in
  test)
    generate_test_locales
    # pip's torch finds its nvidia-* libraries through its own RUNPATH, as the programs do.
    # The preset's tests, each GoogleTest binary in one process rather than one per case: a
    # process linking LibTorch takes most of a second to start. `ctest --preset NAME` runs them
    # one case per process, `-R` picks some.
    env -u LD_LIBRARY_PATH python3 tests/run_suite_grouped.py --preset "$preset"
    ;;
  build)
    ;;
  app)
    app=build/$preset/app
    if [[ -x $app/ckptlab && ( -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ) ]]; then
      exec "$app/ckptlab"
    elif [[ -x $app/ckptlab ]]; then
      echo "No display: starting the app under Xvfb (xvfb-run)."
      exec xvfb-run -a -s "-screen 0 1600x1000x24" "$app/ckptlab"
    else
      exec "$app/ckptlab-cli" sweep --preset seed-tradeoff
    fi
    ;;
esac
