#!/usr/bin/env bash
# The time-check audit can fail: a scratch copy of the tests passes or fails as the tree does,
# then fails naming the file once a test is planted with a new wall-clock bound, and once an
# allow-listed line is gone (a stale entry).
set -eu
root=$1
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/tests/style"
for dir in core ui cli fuzz side_by_side numerics locale support layering docs style; do
    [[ -d $root/tests/$dir ]] && cp -r "$root/tests/$dir" "$scratch/tests/"
done
bash "$here/check_time_checks.sh" "$scratch" > "$scratch/clean.log" 2>&1 && clean=0 || clean=1
planted="$scratch/tests/core/test_planted_timing.cpp"
printf '%s\n' '#include <chrono>' 'void planted() {' \
    '    const auto start = std::chrono::steady_clock::now();' '}' > "$planted"
if bash "$here/check_time_checks.sh" "$scratch" > "$scratch/planted.log" 2>&1; then
    echo "FAIL: a planted wall-clock read in tests/core/test_planted_timing.cpp passed the check"
    exit 1
fi
grep -q "tests/core/test_planted_timing.cpp:3: const auto start" "$scratch/planted.log" || {
    cat "$scratch/planted.log"
    echo "FAIL: the check failed but did not name the planted line"
    exit 1
}
rm "$planted"
# An allow-listed line removed: its entry is stale and named.
entry=$(grep -v '^#' "$here/time_checks_allowed.txt" | grep 'test_step_clock.cpp' | head -n 1)
file=$(cut -f1 <<< "$entry")
sed -i '/sleep_for(std::chrono::milliseconds(20));/d' "$scratch/$file"
if bash "$here/check_time_checks.sh" "$scratch" > "$scratch/stale.log" 2>&1; then
    echo "FAIL: a stale allow-list entry passed the check"
    exit 1
fi
grep -q "matches no line (remove it): $file" "$scratch/stale.log" || {
    cat "$scratch/stale.log"
    echo "FAIL: the stale entry was not named"
    exit 1
}
echo "time-check audit fails on a planted wall-clock read and on a stale entry (clean copy: exit $clean)"
