#!/usr/bin/env bash
# The screenshots check can fail: on a scratch copy of what decides the pictures, it passes
# right after the hashes are recorded, and fails, naming the file, when a window source
# changes, a source is added, a picture is replaced or the record is missing.
#
#   tests/docs/test_check_screenshots.sh REPO_ROOT
set -euo pipefail
root=$(cd "${1:?usage: test_check_screenshots.sh REPO_ROOT}" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

copy() { mkdir -p "$scratch/$(dirname "$1")" && cp "$root/$1" "$scratch/$1"; }
mkdir -p "$scratch/tools/screenshots" "$scratch/docs/images"
cp "$root"/tools/screenshots/*.sh "$scratch/tools/screenshots/"
while read -r file; do copy "$file"; done < <("$root/tools/screenshots/screenshot_inputs.sh" "$root")
# Stand-in pictures: the check hashes bytes, it does not look at them.
echo main > "$scratch/docs/images/main_window.png"
echo lesson > "$scratch/docs/images/lesson.png"
check="$scratch/tools/screenshots/check_screenshots_current.sh"

record() { "$scratch/tools/screenshots/screenshot_inputs.sh" "$scratch" --hashes > "$scratch/docs/images/screenshots.sha256"; }
failures=0
expect() {  # expect pass|fail WHAT [TEXT THE OUTPUT MUST HOLD]
    local want=$1 what=$2 text=${3:-} output status=0
    output=$("$check" "$scratch" 2>&1) || status=$?
    if [[ $want == pass && $status -ne 0 ]] || [[ $want == fail && $status -eq 0 ]]; then
        echo "FAIL: $what: expected $want, exit $status:"
        echo "$output"
        failures=$((failures + 1))
    elif [[ -n $text && $output != *"$text"* ]]; then
        echo "FAIL: $what: the output does not say \"$text\":"
        echo "$output"
        failures=$((failures + 1))
    else
        echo "ok: $what"
    fi
}

record
expect pass "just recorded"

source_file=$(cd "$scratch" && find ui -name "*.cpp" | LC_ALL=C sort | head -1)
cp "$scratch/$source_file" "$scratch/saved.cpp"
echo "// a visible change" >> "$scratch/$source_file"
expect fail "a window source changed" "changed: $source_file"
cp "$scratch/saved.cpp" "$scratch/$source_file"
expect pass "the change undone"

echo "// new" > "$scratch/ui/window/new_panel.h"
expect fail "a window source added" "new:     ui/window/new_panel.h"
rm "$scratch/ui/window/new_panel.h"

echo other > "$scratch/docs/images/lesson.png"
expect fail "a picture replaced" "changed: docs/images/lesson.png"
echo lesson > "$scratch/docs/images/lesson.png"

echo "zh" >> "$scratch/translations/ckptlab_zh_CN.ts"
expect fail "a translation changed" "changed: translations/ckptlab_zh_CN.ts"
record
expect pass "recorded again"

rm "$scratch/docs/images/screenshots.sha256"
expect fail "no record" "take_screenshots.sh"

[[ $failures -eq 0 ]] || exit 1
echo "screenshots check: fails when it should"
