#!/usr/bin/env bash
# The format check can fail: a scratch copy of the sources passes as it is, and fails once a
# file in it is planted with a line the style would change.
set -eu
root=$1
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp "$root/.clang-format" "$scratch/"
for dir in core ui app tests bench; do cp -r "$root/$dir" "$scratch/"; done
if ! bash "$here/check_format.sh" "$scratch" > "$scratch/clean.log"; then
    cat "$scratch/clean.log"
    echo "FAIL: the clean copy does not pass"
    exit 1
fi
planted=$(find "$scratch/core/src" -name '*.cpp' | sort | head -n 1)
printf 'int   plantedBadlyFormatted( int x ){return x;}\n' >> "$planted"
if bash "$here/check_format.sh" "$scratch" > "$scratch/planted.log"; then
    echo "FAIL: a planted badly formatted line in ${planted#"$scratch"/} passed the check"
    exit 1
fi
grep -q "${planted#"$scratch"/}" "$scratch/planted.log" || {
    echo "FAIL: the check failed but did not name the planted file"
    exit 1
}
echo "format check fails on a planted violation and names the file"
