#!/usr/bin/env bash
# Takes the README's screenshots from the real app under Xvfb, at a fixed window size:
#
#   tools/screenshots/take_screenshots.sh [BUILD_DIR]      (default: build/release)
#
# docs/images/main_window.png  the app opened on a recorded tradeoff sweep (real measurements)
# docs/images/lesson.png       the app opened straight into a lesson, on its recording
# docs/images/screenshots.sha256  the hashes of what decides the pictures and of the pictures;
#                              the ctest screenshots_current fails when they no longer match,
#                              so a visible change and its new pictures land together.
#
# Needs: xvfb, xauth, xdotool, imagemagick (import, identify). About 15 s. Each picture starts
# the app with empty settings in English, so a saved layout or language does not leak in.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
readonly width=1280 height=800 dpi=96
settle_s=${CKPTLAB_SCREENSHOT_SETTLE_S:-5}  # the forecast's first measurement, then charts

# The part that runs inside Xvfb: shoot NAME APP ARGS... writes $scratch/NAME.png.
if [[ ${1:-} == --under-xvfb ]]; then
    scratch=$2 app=$3 results=$4 lesson=$5
    shoot() {
        local name=$1 pid wid geometry
        shift
        rm -rf "${scratch:?}/home"
        mkdir -p "$scratch/home/.config" "$scratch/home/.local/share"
        "$app" --lang en "$@" > "$scratch/$name.log" 2>&1 &
        pid=$!
        if ! wid=$(timeout 60 xdotool search --sync --all --onlyvisible --pid "$pid" \
            --name 'Checkpoint Lab' | head -1) || [[ -z $wid ]]; then
            echo "take_screenshots: the app showed no window for $name:" >&2
            cat "$scratch/$name.log" >&2
            kill "$pid" 2> /dev/null || true
            exit 1
        fi
        xdotool windowmove "$wid" 0 0 windowsize "$wid" "$width" "$height"
        sleep "$settle_s"
        geometry=$(xdotool getwindowgeometry "$wid" | sed -n 's/^ *Geometry: //p')
        if [[ $geometry != "${width}x${height}" ]]; then
            echo "take_screenshots: $name window is $geometry, not ${width}x${height}" >&2
            kill "$pid"
            exit 1
        fi
        # No timestamps in the file, so the same pixels give the same bytes.
        import -window "$wid" -strip -define png:exclude-chunks=date,time "png:$scratch/$name.png"
        kill "$pid"
        wait "$pid" 2> /dev/null || true
    }
    export HOME=$scratch/home XDG_CONFIG_HOME=$scratch/home/.config
    export XDG_DATA_HOME=$scratch/home/.local/share XDG_RUNTIME_DIR=$scratch
    export LANG=C.UTF-8 LC_ALL=C.UTF-8 QT_QPA_PLATFORM=xcb
    unset QT_SCALE_FACTOR QT_SCREEN_SCALE_FACTORS QT_AUTO_SCREEN_SCALE_FACTOR
    shoot main_window "$results"
    shoot lesson --lesson "$lesson"
    exit 0
fi

cd "$root"
build=${1:-build/release}
app=$(realpath -m "$build/app/ckptlab")
if [[ ! -x $app ]]; then
    echo "take_screenshots: no app at $app; build it first:" >&2
    echo "  cmake --build $build --target ckptlab" >&2
    exit 2
fi
missing=()
for tool in xvfb-run xauth xdotool import identify; do
    command -v "$tool" > /dev/null || missing+=("$tool")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "take_screenshots: missing ${missing[*]}; install them with" >&2
    echo "  apt-get install xvfb xauth xdotool imagemagick" >&2
    exit 2
fi

read -r results lesson < <("$here/screenshot_inputs.sh" "$root" --what)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
xvfb-run -a -s "-screen 0 ${width}x${height}x24 -dpi $dpi" \
    "$here/take_screenshots.sh" --under-xvfb "$scratch" "$app" "$root/$results" "$lesson"

for name in main_window lesson; do
    size=$(identify -format '%wx%h' "$scratch/$name.png")
    if [[ $size != "${width}x${height}" ]]; then
        echo "take_screenshots: $name.png is $size, not ${width}x${height}" >&2
        exit 1
    fi
done
mkdir -p docs/images
cp "$scratch/main_window.png" docs/images/main_window.png
cp "$scratch/lesson.png" docs/images/lesson.png
{
    echo "# What decides docs/images/main_window.png and lesson.png, and the pictures themselves."
    echo "# Written by tools/screenshots/take_screenshots.sh; the ctest screenshots_current compares."
    "$here/screenshot_inputs.sh" "$root" --hashes
} > docs/images/screenshots.sha256
echo "take_screenshots: wrote docs/images/main_window.png, docs/images/lesson.png and"
echo "docs/images/screenshots.sha256 (${width}x${height}); look at them before committing."
