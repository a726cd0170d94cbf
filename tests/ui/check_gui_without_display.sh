#!/usr/bin/env bash
# ckptlab --version and --help as a user runs them over ssh or in a packaging check: no display,
# no QT_QPA_PLATFORM. They print and exit 0 (without a display the app itself cannot start).
set -u
app=$1
version=$2
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
bare() { env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$app" "$@"; }

out=$(bare --version 2>&1)
code=$?
[[ $code -eq 0 ]] || fail "--version exited $code: $out"
grep -qx "ckptlab $version" <<<"$out" || fail "--version printed: $out"
for help in --help -h; do
    out=$(bare "$help" 2>&1)
    code=$?
    [[ $code -eq 0 ]] || fail "$help exited $code: $out"
    grep -q -- '--lesson <id>' <<<"$out" && grep -q -- '--lang <code>' <<<"$out" ||
        fail "$help printed: $out"
done
if [[ $failures -gt 0 ]]; then exit 1; fi
echo "ckptlab --version and --help ok without a display"
