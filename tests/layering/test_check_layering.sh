#!/usr/bin/env bash
# The layering check can fail: on a scratch copy of the sources it passes, and each bad include
# planted in the copy, one at a time, makes it fail and name the planted file under the rule it
# breaks. Includes the floors allow, planted the same way, keep it passing.
# Usage: test_check_layering.sh ROOT
set -u
root=${1:?usage: test_check_layering.sh ROOT}
check=$root/tests/layering/check_layering.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$root/core" "$root/ui" "$root/app" "$scratch/"
cd "$scratch" || exit 2

failed=0
first_in() {  # first_in DIR PATTERN: the first source of a room, so a real file is planted in
    find "$1" -maxdepth 1 -name "$2" | sort | head -n 1
}

# plant FILE INCLUDE...: appends the includes to FILE (a new file, and its room, when missing);
# unplant restores every planted file.
planted=()
plant() {
    local file=$1
    shift
    if [[ -f $file ]]; then
        cp "$file" "$file.orig"
    else
        mkdir -p "$(dirname "$file")"
    fi
    planted+=("$file")
    printf '\n%s\n' "$@" >> "$file"
}
unplant() {
    local file
    for file in "${planted[@]}"; do
        if [[ -f $file.orig ]]; then
            mv "$file.orig" "$file"
        else
            rm -f "$file"
            rmdir --ignore-fail-on-non-empty -p "$(dirname "$file")" 2> /dev/null
        fi
    done
    planted=()
}

# expect_fail WHAT RULE NAMED: the check fails, and its report has RULE and, under it, NAMED.
expect_fail() {
    local what=$1 rule=$2 named=$3 output rc
    output=$(bash "$check" "$scratch" 2>&1)
    rc=$?
    if ((rc == 0)); then
        echo "FAIL: $what: the check passed"
        failed=$((failed + 1))
    elif ! grep -qF "$rule" <<< "$output" ||
        ! sed -n "/^$(sed 's/[][\/.*^$]/\\&/g' <<< "$rule")/,/^[^ ]/p" <<< "$output" |
        grep -qF "$named"; then
        echo "FAIL: $what: the check failed (rc $rc) but not under \"$rule\" naming $named:"
        sed 's/^/    /' <<< "$output"
        failed=$((failed + 1))
    else
        echo "ok: $what: fails (rc $rc), naming $named"
    fi
    unplant
}
expect_pass() {
    local what=$1 output
    if output=$(bash "$check" "$scratch" 2>&1); then
        echo "ok: $what: passes"
    else
        echo "FAIL: $what: the check failed:"
        sed 's/^/    /' <<< "$output"
        failed=$((failed + 1))
    fi
    unplant
}

expect_pass "the clean copy"

torch_rule="LibTorch included outside the engine"
file=$(first_in core/src/planning '*.cpp')
plant "$file" '#include <torch/torch.h>'
expect_fail "LibTorch in core/src/planning" "$torch_rule" "$file:"

file=core/src/planted_room/planted.cpp
plant "$file" '#include <ATen/ATen.h>'
expect_fail "LibTorch in a new core room" "$torch_rule" "$file:"

file=ui/planted_room/planted.cpp
plant "$file" '#include <c10/core/Device.h>'
expect_fail "LibTorch in a new ui room" "$torch_rule" "$file:"

file=$(first_in core/include/ckptlab/model '*.h')
plant "$file" '#include <caffe2/core/macros.h>'
expect_fail "LibTorch in a public core header" "$torch_rule" "$file:"

file=app/gui/main_gui.cpp
plant "$file" '#include <torch/torch.h>'
expect_fail "LibTorch in the app" "$torch_rule" "$file:"

file=$(first_in core/src/model '*.cpp')
plant "$file" '#include <QString>'
expect_fail "Qt in core/src/model" "Qt included in core" "$file:"

file=$(first_in core/include/ckptlab/model '*.h')
plant "$file" '#include <QtCore/QObject>'
expect_fail "Qt in a public core header" "Qt included in core" "$file:"

file=$(first_in core/src/planning '*.cpp')
plant "$file" '#include "engine/step.h"'
expect_fail "core/src/planning including the engine's private header" \
    "core/src/planning includes a room above it" "$file:"

file=$(first_in core/src/planning '*.cpp')
plant "$file" '#include "ckptlab/engine/runner.h"'
expect_fail "core/src/planning including the engine's public header" \
    "core/src/planning includes a room above it" "$file:"

file=$(first_in core/include/ckptlab/model '*.h')
plant "$file" '#include "ckptlab/planning/planner.h"'
expect_fail "a public model header including a planning one" \
    "core/include/ckptlab/model includes a room above it" "$file:"

file=core/include/ckptlab/planted_flat.h
plant "$file" '#pragma once'
expect_fail "a public header outside the rooms" "Sources outside any room" "$file"

file=core/include/ckptlab/planted_room/planted.h
plant "$file" '#pragma once'
expect_fail "a public header folder that is no room" "Rooms without a floor" \
    "core/include/ckptlab/planted_room"

file=$(first_in ui/panels '*.cpp')
plant "$file" '#include "window/main_window.h"'
expect_fail "ui/panels including ui/window" "ui/panels includes what its floor may not" "$file:"

file=$(first_in ui/charts '*.cpp')
plant "$file" '#include "document/results_document.h"'
expect_fail "ui/charts including ui/document" "ui/charts includes what its floor may not" "$file:"

file=$(first_in ui/controllers '*.cpp')
plant "$file" '#include "playback/step_playback.h"'
expect_fail "ui/controllers including ui/playback, its floor's sibling" \
    "ui/controllers includes what its floor may not" "$file:"

file=$(first_in ui/window '*.cpp')
plant "$file" '#include "teaching/lesson_mode.h"'
expect_fail "ui/window including ui/teaching" "ui/window includes what its floor may not" "$file:"

file=$(first_in ui/base '*.cpp')
plant "$file" '#include "charts/chart_style.h"'
expect_fail "ui/base including ui/charts" "ui/base includes what its floor may not" "$file:"

file=$(first_in ui/document '*.cpp')
plant "$file" '#include "engine/step.h"'
expect_fail "ui including core/src" "ui/document includes what its floor may not" "$file:"

file=ui/planted_room/planted.cpp
plant "$file" '#include <vector>'
expect_fail "a new ui room without a floor" "Rooms without a floor" "ui/planted_room"

file=$(first_in app/cli '*.cpp')
plant "$file" '#include "window/main_window.h"'
expect_fail "app/cli including ui/window" "The CLI (app/cli) reaches the interactive window" \
    "$file -> ui/window/main_window.h"

bridge=ui/teaching/planted_bridge.h
file=$(first_in app/cli '*.cpp')
plant "$bridge" '#include "window/main_window.h"'
plant "$file" '#include "teaching/planted_bridge.h"'
expect_fail "app/cli reaching ui/window through a teaching header" \
    "The CLI (app/cli) reaches the interactive window" "$file -> $bridge -> ui/window/main_window.h"

file=$(first_in app/cli '*.cpp')
plant "$file" '#include "formats/file_io.h"'
expect_fail "app including core/src" "app includes what it may not" "$file:"

# What the floors allow: down, within a room, and the app's window at the top.
plant "$(first_in ui/teaching '*.cpp')" '#include "window/main_window.h"'
plant "$(first_in ui/panels '*.cpp')" '#include "controllers/live_prediction.h"' \
    '#include "playback/playback_bar.h"'
plant "$(first_in ui/document '*.cpp')" '#include "charts/chart_style.h"' '#include "base/messages.h"'
plant "$(first_in core/src/teaching '*.cpp')" '#include "formats/file_io.h"' \
    '#include "ckptlab/formats/results_io.h"'
plant "$(first_in core/include/ckptlab/planning '*.h')" '#include "ckptlab/model/config.h"'
plant app/gui/main_gui.cpp '#include "panels/charts_panel.h"'
plant "$(first_in app/cli '*.cpp')" '#include "charts/chart_export.h"' '#include "base/messages.h"'
expect_pass "includes the floors allow"

expect_pass "the copy after every plant was taken out"
if ((failed > 0)); then
    echo "$failed case(s) wrong"
    exit 1
fi
echo "the layering check failed on every planted violation and passed on the clean copy"
