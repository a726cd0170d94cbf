#!/usr/bin/env bash
# The results MIME type as a desktop installs it: the XML is well formed, update-mime-database
# takes it without a complaint, and the database it builds maps *.ckptlab.json to the type, makes
# the type a subclass of application/json, recognises a results file by its first bytes and
# leaves plain *.json to application/json.
set -u
xml=$1
type=application/x-checkpoint-lab-results+json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

xmllint --noout "$xml" || fail "$xml is not well-formed XML"
mkdir -p "$work/mime/packages"
# The system's types, for the parent application/json.
cp /usr/share/mime/packages/freedesktop.org.xml "$work/mime/packages/" 2>/dev/null
cp "$xml" "$work/mime/packages/"
errors=$(XDG_DATA_DIRS=$work update-mime-database "$work/mime" 2>&1 >/dev/null)
[[ -z $errors ]] || fail "update-mime-database: $errors"
grep -qx "60:$type:\*.ckptlab.json" "$work/mime/globs2" || fail "no *.ckptlab.json glob"
grep -q ":$type:\*.json$" "$work/mime/globs2" && fail "the type claims every *.json"
grep -qx "$type application/json" "$work/mime/subclasses" || fail "not a subclass of application/json"
grep -qa 'ckptlab.results/' "$work/mime/magic" || fail "no magic for the schema line"
if [[ $failures -gt 0 ]]; then exit 1; fi
echo "mime info ok"
