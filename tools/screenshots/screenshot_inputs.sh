#!/usr/bin/env bash
# What decides the README's screenshots, for take_screenshots.sh (which records it) and
# check_screenshots_current.sh (which compares it), so the two always agree:
#
#   screenshot_inputs.sh ROOT            the input files, one a line, sorted, relative to ROOT:
#                                        the window's sources, the app's entry point, the
#                                        translations, the compiled-in resources, the results
#                                        file and the lesson the pictures open, and the script
#   screenshot_inputs.sh ROOT --what     "RESULTS_FILE LESSON_ID": what the pictures open
#   screenshot_inputs.sh ROOT --hashes   sha256sum lines of the inputs, then of the pictures
set -euo pipefail
root=${1:?usage: screenshot_inputs.sh ROOT [--what|--hashes]}
cd "$root"

results_file=resources/lessons/recordings/tradeoff/tutorial-model.json
lesson_id=where-memory-goes
pictures=(docs/images/main_window.png docs/images/lesson.png)

inputs() {
    {
        find ui app/gui -type f \( -name '*.cpp' -o -name '*.h' \)
        find translations -type f -name '*.ts'
        find resources/icons -type f
        echo resources/resources.qrc
        echo "$results_file"
        ls resources/lessons/*-"$lesson_id".json
        find "resources/lessons/recordings/$lesson_id" -type f
        echo tools/screenshots/take_screenshots.sh
    } | LC_ALL=C sort
}

case ${2:-} in
    --what) echo "$results_file $lesson_id" ;;
    --hashes)
        inputs | while read -r file; do sha256sum "$file"; done
        for picture in "${pictures[@]}"; do
            if [[ -f $picture ]]; then sha256sum "$picture"; else echo "missing  $picture"; fi
        done
        ;;
    "") inputs ;;
    *)
        echo "usage: screenshot_inputs.sh ROOT [--what|--hashes]" >&2
        exit 2
        ;;
esac
