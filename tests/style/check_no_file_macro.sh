#!/usr/bin/env bash
# No path derived from __FILE__: under ccache's CCACHE_BASEDIR (as CI builds) the compiler sees
# sources by relative paths, so __FILE__ names a file relative to the build folder and a test
# that finds its data beside it looks in the wrong place. Data folders come in by a compile
# definition (CKPTLAB_TEST_DATA_DIR and the like) instead.
#
#   check_no_file_macro.sh ROOT
set -eu
root=$1
found=$(cd "$root" && grep -rn --include='*.cpp' --include='*.h' '__FILE__' \
    core ui app tests bench 2>/dev/null | grep -v '^tests/style/' || true)
if [[ -n $found ]]; then
    echo "__FILE__ is relative under ccache; take the path from a compile definition:"
    echo "$found"
    exit 1
fi
