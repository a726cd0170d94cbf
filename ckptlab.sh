#!/usr/bin/env bash
# Checkpoint Lab quick start on Debian 12:
#   ./ckptlab.sh          install what is missing, build, start the app
#   ./ckptlab.sh test     install what is missing, build, run every test (ctest)
#   ./ckptlab.sh build    install what is missing and build only
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libtorch-dev libopenblas0-openmp           # without OpenBLAS LibTorch runs ~20x slower
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev libxkbcommon-dev
  qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
  fonts-noto-cjk                             # Chinese (--lang zh_CN) renders, not boxes
  googletest libgtest-dev nlohmann-json3-dev libcli11-dev
  xvfb xauth appstream desktop-file-utils python3
  libxml2-utils shared-mime-info             # the MIME type test (xmllint, update-mime-database)
  locales                                    # de_DE/fr_FR: the tests under decimal commas
  clang-format-14                            # the style check (tests/style), version pinned
)

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

build() {
  cmake --preset release
  cmake --build --preset release
}

install_missing
build
case "${1:-app}" in
  test)
    generate_test_locales
    ctest --preset release
    ;;
  build)
    ;;
  app)
    if [[ -x build/release/app/ckptlab && ( -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ) ]]; then
      exec build/release/app/ckptlab
    elif [[ -x build/release/app/ckptlab ]]; then
      echo "No display: starting the app under Xvfb (xvfb-run)."
      exec xvfb-run -a -s "-screen 0 1600x1000x24" build/release/app/ckptlab
    else
      exec build/release/app/ckptlab-cli sweep --preset seed-tradeoff
    fi
    ;;
  *)
    echo "usage: $0 [app|test|build]" >&2
    exit 2
    ;;
esac
