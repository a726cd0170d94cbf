#!/usr/bin/env bash
# A block kind is a row of blockKinds() (core/src/model/block_kinds.cpp): production code asks
# the row (units, attention, norms, the fields it reads), or handles each kind in an exhaustive
# `switch`, which -Werror=switch makes a new kind's build name. What it may not do is compare
# the enum or a kind's name: such a test silently sends a new kind down one side of it.
# Allowed outside the table: `case BlockKind::X:` and a default or an assignment (`= BlockKind::X`).
#
#   check_block_kind_uses.sh ROOT
set -eu
root=$1
found=$(cd "$root" && grep -rnE --include='*.cpp' --include='*.h' \
    'BlockKind::[A-Za-z]+|"(ffn|transformer|llama)" *[=!]=|[=!]= *"(ffn|transformer|llama)"' \
    core ui app 2>/dev/null |
    grep -v '^core/src/model/block_kinds.cpp:' |
    grep -vE ':[0-9]+:[[:space:]]*case BlockKind::[A-Za-z]+:' |
    grep -vE '[^=!<>]= BlockKind::[A-Za-z]+;' || true)
if [[ -n $found ]]; then
    echo "a block kind compared outside blockKinds(); ask its row or switch over every kind:"
    echo "$found"
    exit 1
fi
echo "ok: block kinds are read from blockKinds() or switched over exhaustively"
