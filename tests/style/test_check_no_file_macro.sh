#!/usr/bin/env bash
# The __FILE__ check can fail: a scratch copy of the sources passes as the tree does, then fails
# naming the file once a test is planted that finds its data beside its own source.
set -eu
root=$1
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for dir in core ui app tests bench; do
    [[ -d $root/$dir ]] && cp -r "$root/$dir" "$scratch/"
done
bash "$here/check_no_file_macro.sh" "$scratch" || { echo "FAIL: the tree's copy fails"; exit 1; }
printf '%s\n' '#include <QFileInfo>' \
    'const QString data = QFileInfo(QStringLiteral(__FILE__)).absolutePath();' \
    > "$scratch/tests/ui/test_planted_path.cpp"
if bash "$here/check_no_file_macro.sh" "$scratch" > "$scratch/planted.log" 2>&1; then
    echo "FAIL: a planted __FILE__ path in tests/ui/test_planted_path.cpp passed the check"
    exit 1
fi
grep -q "tests/ui/test_planted_path.cpp:2:" "$scratch/planted.log" || {
    cat "$scratch/planted.log"
    echo "FAIL: the check failed but did not name the planted line"
    exit 1
}
echo "ok: the tree passes, a planted __FILE__ path fails and is named"
