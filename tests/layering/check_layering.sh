#!/usr/bin/env bash
# The layering, enforced: only the engine (core/src/engine) may include LibTorch, and nothing
# in core may include Qt. Debian puts ATen/, c10/ and torch/ in /usr/include, so the compiler
# would not notice a stray include; this check does. Prints each offending line and fails.
set -u
root=$1
failures=0
report() {  # report DESCRIPTION PATTERN PATHS...
    local what=$1 pattern=$2
    shift 2
    local hits
    hits=$(grep -rnE --include='*.h' --include='*.cpp' "$pattern" "$@" 2> /dev/null)
    if [[ -n $hits ]]; then
        echo "$what:"
        echo "$hits"
        failures=$((failures + 1))
    fi
}
torch='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](ATen|c10|torch|caffe2)/'
qt='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]Q[A-Za-z]*(/|>)'
report "LibTorch included outside the engine" "$torch" \
    "$root/ui" "$root/app" "$root/core/include" "$root/core/src/data" "$root/core/src/teaching"
report "Qt included in core" "$qt" "$root/core"
if [[ $failures -gt 0 ]]; then exit 1; fi
echo "layering ok: LibTorch only in core/src/engine, no Qt in core"
