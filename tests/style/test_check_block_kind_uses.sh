#!/usr/bin/env bash
# The block-kind check can fail: a scratch copy of the sources passes as the tree does, then
# fails naming the line once a comparison on the enum is planted in the planner, and once a
# comparison on a kind's name is planted in the CLI.
set -eu
root=$1
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for dir in core ui app; do cp -r "$root/$dir" "$scratch/"; done
bash "$here/check_block_kind_uses.sh" "$scratch" > /dev/null || {
    echo "FAIL: the tree's copy fails"
    exit 1
}
plant() {  # FILE LINE: the planted line must fail the check and be named
    printf '%s\n' "$2" >> "$scratch/$1"
    if bash "$here/check_block_kind_uses.sh" "$scratch" > "$scratch/planted.log" 2>&1; then
        echo "FAIL: a planted comparison in $1 passed the check"
        exit 1
    fi
    grep -qF "$1:" "$scratch/planted.log" || {
        cat "$scratch/planted.log"
        echo "FAIL: the check failed but did not name $1"
        exit 1
    }
}
cp "$scratch/core/src/planning/flops.cpp" "$scratch/flops.cpp.orig"
plant core/src/planning/flops.cpp 'static bool planted(BlockKind b) { return b != BlockKind::Ffn; }'
cp "$scratch/flops.cpp.orig" "$scratch/core/src/planning/flops.cpp"
plant app/cli/cli_common.cpp 'static bool planted(const std::string& kind) { return kind == "llama"; }'
echo "ok: the tree passes; an enum comparison and a name comparison each fail and are named"
