#!/usr/bin/env bash
# The layering, enforced (docs/ARCHITECTURE.md, "Layers"). The rooms are read from the tree
# (every directory of core/src and of ui/), so a new room is checked from its first file:
#
#  1. LibTorch (ATen/, c10/, torch/, caffe2/) only in core/src/engine: not in another core room,
#     core/include, ui/ or app/. Debian puts LibTorch's headers in /usr/include, so the compiler
#     would not notice a stray include; this check does.
#  2. No Qt anywhere in core/.
#  3. Floors: a file in a room includes ("room/file.h") only rooms on its own floor or below,
#     and two rooms sharing a floor never include each other: a floor is a set of siblings, each
#     standing only on the floors below it.
#       core/src: model < planning < formats < teaching < engine   (their private headers)
#       ui:       base < charts < document < controllers, playback < panels < window < teaching
#     A room in the tree that has no floor here, or a floor naming a room the tree lacks, fails:
#     the list and the tree stay the same. Core's public headers live in the same rooms
#     (core/include/ckptlab/ROOM/, included as "ckptlab/ROOM/file.h"), one folder per room of
#     core/src and no header outside them, and count as that room: a planning file including
#     "ckptlab/engine/runner.h" is a floor up, as is a public model header including a
#     formats one.
#  4. ui/ includes ui rooms and core's public headers (ckptlab/) only, never core/src.
#  5. app/ includes core's public headers and ui rooms only; the CLI (app/cli) reaches nothing
#     of the interactive window (ui/window, panels, controllers, playback), not even through
#     another header.
#
# Usage: check_layering.sh ROOT. Prints each offending include and fails.
set -u
root=${1:?usage: check_layering.sh ROOT}
cd "$root" || exit 2

# shellcheck disable=SC2034  # read through the namerefs of check_floors_match and check_room
declare -A core_floor=([model]=1 [planning]=2 [formats]=3 [teaching]=4 [engine]=5)
declare -A ui_floor=([base]=0 [charts]=1 [document]=2 [controllers]=3 [playback]=3 [panels]=4
    [window]=5 [teaching]=6)
cli_forbidden=(window panels controllers playback)

failures=0
problem() {  # problem HEADING LINES: prints both, counts one failure
    echo "$1:"
    echo "$2" | sed 's/^/  /'
    failures=$((failures + 1))
}

sources() {  # sources DIR...: the C++ files under them
    find "$@" -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' \) \
        2> /dev/null | sort
}

# file:line:text of every quoted include with a folder ("room/file.h") under DIR.
quoted_includes() {
    local files
    files=$(sources "$1")
    [[ -z $files ]] && return
    # shellcheck disable=SC2086
    grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"/]+/[^"]*"' $files
}

# --- the tree: rooms and floors -------------------------------------------------------------
for area in core/src ui; do
    if [[ ! -d $area ]]; then
        problem "No $area" "the check found nothing to check under $root"
    fi
done
core_rooms=$(find core/src -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2> /dev/null | sort)
ui_rooms=$(find ui -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2> /dev/null | sort)

check_floors_match() {  # check_floors_match AREA ROOMS FLOOR-ARRAY-NAME
    local area=$1 rooms=$2
    local -n floor=$3
    local room missing="" absent=""
    for room in $rooms; do
        [[ -n ${floor[$room]+x} ]] || missing+="$area/$room"$'\n'
    done
    for room in "${!floor[@]}"; do
        grep -qxF "$room" <<< "$rooms" || absent+="$area/$room"$'\n'
    done
    [[ -n $missing ]] && problem "Rooms without a floor (give each one in tests/layering/check_layering.sh and docs/ARCHITECTURE.md)" "${missing%$'\n'}"
    [[ -n $absent ]] && problem "Floors naming a room the tree lacks (update tests/layering/check_layering.sh)" "${absent%$'\n'}"
}
check_floors_match core/src "$core_rooms" core_floor
check_floors_match ui "$ui_rooms" ui_floor

loose=$(find core/src ui core/include/ckptlab -maxdepth 1 -type f \( -name '*.h' -o -name '*.cpp' \) \
    2> /dev/null)
[[ -n $loose ]] && problem "Sources outside any room" "$loose"
public_rooms=$(find core/include/ckptlab -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2> /dev/null |
    sort)
check_floors_match core/include/ckptlab "$public_rooms" core_floor

# --- 1 and 2: LibTorch and Qt -------------------------------------------------------------
torch='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](ATen|c10|torch|caffe2)/'
qt='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]Q[A-Za-z]*(/|>)'
# shellcheck disable=SC2046
hits=$(grep -HnE "$torch" $(sources core ui app) /dev/null | grep -v '^core/src/engine/')
[[ -n $hits ]] && problem "LibTorch included outside the engine (core/src/engine)" "$hits"
# shellcheck disable=SC2046
hits=$(grep -HnE "$qt" $(sources core) /dev/null)
[[ -n $hits ]] && problem "Qt included in core" "$hits"

# --- 3 and 4: floors ------------------------------------------------------------------------
check_room() {  # check_room AREA ROOM FLOOR-ARRAY-NAME: prints the room's wrong includes
    local area=$1 room=$2
    local -n floor=$3
    [[ -n ${floor[$room]+x} ]] || return  # reported above
    local hit name target
    while IFS= read -r hit; do
        [[ -z $hit ]] && continue
        name=${hit#*\"} && name=${name%%\"*}
        target=${name%%/*}
        # Core's public headers count as their room, for core's rooms and the public headers.
        if [[ $target == ckptlab && $area != ui ]]; then
            target=${name#ckptlab/} && target=${target%%/*}
        fi
        if [[ -n ${floor[$target]+x} ]]; then
            if ((floor[$target] > floor[$room])); then
                echo "$hit   ($room may not include $target, a floor up)"
            elif ((floor[$target] == floor[$room])) && [[ $target != "$room" ]]; then
                echo "$hit   ($room and $target share a floor: neither includes the other)"
            fi
        elif [[ $area == ui && $target != ckptlab ]]; then
            echo "$hit   (ui includes ui rooms and core's public ckptlab/ headers only)"
        fi
    done < <(quoted_includes "$area/$room")
}
for room in $core_rooms; do
    hits=$(check_room core/src "$room" core_floor)
    [[ -n $hits ]] && problem "core/src/$room includes a room above it" "$hits"
done
for room in $public_rooms; do
    hits=$(check_room core/include/ckptlab "$room" core_floor)
    [[ -n $hits ]] && problem "core/include/ckptlab/$room includes a room above it" "$hits"
done
for room in $ui_rooms; do
    hits=$(check_room ui "$room" ui_floor)
    [[ -n $hits ]] && problem "ui/$room includes what its floor may not" "$hits"
done

# --- 5: app ---------------------------------------------------------------------------------
hits=$(
    while IFS= read -r hit; do
        [[ -z $hit ]] && continue
        name=${hit#*\"} && name=${name%%\"*}
        [[ ${name%%/*} == ckptlab || -n ${ui_floor[${name%%/*}]+x} ]] && continue
        echo "$hit   (app includes ckptlab/ and ui rooms only)"
    done < <(quoted_includes app)
)
[[ -n $hits ]] && problem "app includes what it may not" "$hits"

# The CLI's reach: every header its files include, and theirs in turn. The include paths of
# app/ are ui/ and core/include/ (which includes nothing of ui), besides the file's own folder.
declare -A parent=() includers=()  # the first file to include each one, and all that do
queue=()
while IFS= read -r file; do
    [[ -n $file ]] || continue
    parent[$file]=""
    queue+=("$file")
done < <(sources app/cli)
for ((i = 0; i < ${#queue[@]}; i++)); do
    file=${queue[$i]}
    while IFS= read -r name; do
        [[ -z $name ]] && continue
        if [[ $name == */* ]]; then next=ui/$name; else next=$(dirname "$file")/$name; fi
        [[ -f $next ]] || continue
        includers[$next]+=" $file"
        [[ -z ${parent[$next]+x} ]] || continue
        parent[$next]=$file
        queue+=("$next")
    done < <(grep -hE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" |
        sed -E 's/^[^"]*"([^"]*)".*$/\1/')
done
hits=$(
    for file in "${queue[@]}"; do
        for room in "${cli_forbidden[@]}"; do
            [[ $file == ui/$room/* ]] || continue
            chain=$file
            step=$file
            while [[ -n ${parent[$step]} ]]; do
                step=${parent[$step]}
                chain="$step -> $chain"
            done
            echo "$chain   (included by:${includers[$file]})"
        done
    done
)
[[ -n $hits ]] && problem "The CLI (app/cli) reaches the interactive window" "$hits"

if ((failures > 0)); then
    echo "layering: $failures rule(s) broken (docs/ARCHITECTURE.md, Layers)"
    exit 1
fi
echo "layering ok: $(wc -w <<< "$core_rooms") core rooms, $(wc -w <<< "$ui_rooms") ui rooms;" \
    "LibTorch only in core/src/engine, no Qt in core, floors kept, the CLI clear of the window"
