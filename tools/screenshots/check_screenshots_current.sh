#!/usr/bin/env bash
# The ctest screenshots_current: the README's screenshots are current when what decides them
# (screenshot_inputs.sh: the window's sources, translations, resources, the results file and
# lesson they open) and the pictures themselves still have the hashes take_screenshots.sh
# recorded in docs/images/screenshots.sha256. Names every file that differs and says how to
# refresh. Needs no display: it only hashes files.
#
#   tools/screenshots/check_screenshots_current.sh REPO_ROOT
set -euo pipefail
root=${1:?usage: check_screenshots_current.sh REPO_ROOT}
here=$(cd "$(dirname "$0")" && pwd)
recorded_file=$root/docs/images/screenshots.sha256
if [[ ! -f $recorded_file ]]; then
    echo "screenshots: $recorded_file is missing; run tools/screenshots/take_screenshots.sh"
    exit 1
fi

recorded=$(grep -v '^#' "$recorded_file")
current=$("$here/screenshot_inputs.sh" "$root" --hashes)
if [[ $recorded == "$current" ]]; then
    echo "screenshots current: $(wc -l <<< "$current") files hash as recorded"
    exit 0
fi

# Which files differ: "hash  path" lines present on one side only, by path.
declare -A before after
while read -r hash path; do before[$path]=$hash; done <<< "$recorded"
while read -r hash path; do after[$path]=$hash; done <<< "$current"
echo "screenshots out of date: what decides the pictures changed since they were taken:"
for path in $(printf '%s\n' "${!before[@]}" "${!after[@]}" | LC_ALL=C sort -u); do
    if [[ -z ${after[$path]:-} ]]; then
        echo "  gone:    $path"
    elif [[ -z ${before[$path]:-} ]]; then
        echo "  new:     $path"
    elif [[ ${before[$path]} != "${after[$path]}" ]]; then
        echo "  changed: $path"
    fi
done
echo "Refresh them with tools/screenshots/take_screenshots.sh (xvfb, xdotool, imagemagick;"
echo "about 15 s), look at docs/images/main_window.png and lesson.png, and commit them with"
echo "the change."
exit 1
