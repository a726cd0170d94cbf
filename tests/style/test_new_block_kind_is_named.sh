#!/usr/bin/env bash
# "Add a block kind", followed on a copy: a kind added to the enum but to no switch fails the
# build of every plain core file that switches over the kinds (-Werror=switch,
# core/CMakeLists.txt), each naming the new kind; the same files compile as they are. (Its row
# in blockKinds() is data: blockKind() throws for a kind without one.) (The engine's switch, core/src/engine/model.cpp, builds with the same
# flag; it needs LibTorch's headers, so it is left out here.)
#
#   test_new_block_kind_is_named.sh ROOT CXX
set -eu
root=$1
cxx=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$root/core" "$scratch/"
mapfile -t switching < <(cd "$scratch" && grep -rlE 'case BlockKind::' core/src --include='*.cpp' |
                         grep -v '^core/src/engine/' | sort)
if (( ${#switching[@]} < 2 )); then
    echo "FAIL: expected the estimate's and the parameter count's switches, found: ${switching[*]:-none}"
    exit 1
fi
compile() {  # FILE: syntax only, as core builds it
    "$cxx" -std=c++17 -fsyntax-only -Wall -Wextra -Werror=switch -DCKPTLAB_VERSION='"0"' \
        -I "$scratch/core/include" -I "$scratch/core/src" "$scratch/$1"
}
for file in "${switching[@]}"; do
    compile "$file" || { echo "FAIL: $file does not compile as it is"; exit 1; }
done
# The new kind: a value, nothing else.
sed -i 's/^enum class BlockKind { \(.*\) };/enum class BlockKind { \1, Planted };/' \
    "$scratch/core/include/ckptlab/model/config.h"
grep -q 'Planted };' "$scratch/core/include/ckptlab/model/config.h" || {
    echo "FAIL: could not add a kind to BlockKind in config.h"
    exit 1
}
for file in "${switching[@]}"; do
    if compile "$file" > "$scratch/out.log" 2>&1; then
        echo "FAIL: $file builds with a kind it does not handle"
        exit 1
    fi
    grep -q "Planted" "$scratch/out.log" || {
        cat "$scratch/out.log"
        echo "FAIL: $file failed, but not by naming the new kind"
        exit 1
    }
    echo "named: $file"
done
echo "ok: a new kind fails the build of each of the ${#switching[@]} plain switches over the kinds"
