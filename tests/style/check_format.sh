#!/usr/bin/env bash
# The C++ sources follow .clang-format, checked with clang-format 14 (Debian 12's package
# clang-format-14, pinned: another major version formats some constructs differently).
# Usage: check_format.sh ROOT — checks every .h/.cpp under ROOT's core, ui, app, tests and
# bench; prints each file that differs and how to fix it, and fails.
set -u
root=$1
formatter=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$formatter" > /dev/null; then
    echo "$formatter not found (Debian package clang-format-14)" >&2
    exit 1
fi
version=$("$formatter" --version)
if [[ $version != *"version 14."* ]]; then
    echo "clang-format 14 is required, found: $version" >&2
    exit 1
fi
bad=()
while IFS= read -r -d '' file; do
    if ! "$formatter" --style=file --dry-run --Werror "$file" > /dev/null 2>&1; then
        bad+=("${file#"$root"/}")
    fi
done < <(find "$root/core" "$root/ui" "$root/app" "$root/tests" "$root/bench" \
    \( -name '*.h' -o -name '*.cpp' \) -print0 2> /dev/null | sort -z)
if [[ ${#bad[@]} -gt 0 ]]; then
    echo "not formatted as .clang-format says (${#bad[@]} files):"
    printf '  %s\n' "${bad[@]}"
    echo "fix: clang-format-14 -i FILE..."
    exit 1
fi
echo "format ok: every C++ file follows .clang-format"
