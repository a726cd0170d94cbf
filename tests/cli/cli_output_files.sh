#!/usr/bin/env bash
# How outputs land on disk: a symbolic link is written through (the link stays a link), a
# replaced file keeps its permission bits, a new file honours the umask, no temporary file is
# left behind, and a name that is not UTF-8 is kept byte for byte (JSON, CSV, trace) or
# refused (the Qt-written charts and PDF), never rewritten.
set -eu
cli=$1
out=$2
rm -rf "$out" && mkdir -p "$out/real" "$out/links"
tiny=(--strategies none,full --depth 2 --width 16 --seq 8 --batch 1 --warmup 0 --repeats 1 -q)
fail() {
    echo "FAIL: $*"
    exit 1
}
mode() { stat -c %a "$1"; }

# Existing targets behind links (one relative, one absolute, one dangling) and a file whose
# owner chose 0640.
echo old > "$out/real/r.json"
echo old > "$out/real/s.csv"
ln -s ../real/r.json "$out/links/r.json"
ln -s "$out/real/s.csv" "$out/links/s.csv"
ln -s ../real/new-trace.json "$out/links/t.json"
chmod 0640 "$out/real/r.json"
chmod 0604 "$out/real/s.csv"
"$cli" sweep "${tiny[@]}" --json "$out/links/r.json" --csv "$out/links/s.csv" \
    --trace "$out/links/t.json" > /dev/null
for name in r.json s.csv t.json; do
    [[ -L $out/links/$name ]] || fail "$name is no longer a symbolic link"
done
grep -q '"schema"' "$out/real/r.json" || fail "the link's target r.json was not written"
grep -q '^strategy,' "$out/real/s.csv" || fail "the link's target s.csv was not written"
grep -q traceEvents "$out/real/new-trace.json" || fail "the dangling link's target not created"
[[ $(mode "$out/real/r.json") == 640 ]] || fail "r.json's 0640 became $(mode "$out/real/r.json")"
[[ $(mode "$out/real/s.csv") == 604 ]] || fail "s.csv's 0604 became $(mode "$out/real/s.csv")"

# New files: 0666 less the umask.
(umask 027 && "$cli" sweep "${tiny[@]}" --json "$out/new.json" > /dev/null)
[[ $(mode "$out/new.json") == 640 ]] || fail "new file under umask 027 is $(mode "$out/new.json")"
(umask 002 && "$cli" sweep "${tiny[@]}" --csv "$out/new.csv" > /dev/null)
[[ $(mode "$out/new.csv") == 664 ]] || fail "new file under umask 002 is $(mode "$out/new.csv")"

# No temporary file left anywhere.
if find "$out" -name '*.tmp*' | grep -q .; then fail "temporary files left: $(find "$out" -name '*.tmp*')"; fi

# A name that is not UTF-8 (Latin-1 "é" is the byte 0xE9): written under exactly that name.
latin=$'caf\xe9'
"$cli" sweep "${tiny[@]}" --json "$out/$latin.json" --csv "$out/$latin.csv" > /dev/null
[[ -f "$out/$latin.json" && -f "$out/$latin.csv" ]] || fail "the non-UTF-8 names were not kept: $(ls "$out")"
if ls "$out" | grep -q $'\xef\xbf\xbd'; then fail "a name was rewritten to U+FFFD"; fi

# Charts and the PDF go through Qt, which cannot keep such a name: refused before any work.
for args in "sweep --png" "sweep --svg" "plot $out/new.json --png"; do
    # shellcheck disable=SC2086
    set +e
    err=$("$cli" $args "$out/$latin" 2>&1 >/dev/null)
    code=$?
    set -e
    [[ $code -eq 2 ]] || fail "$args with a non-UTF-8 name: exit $code ($err)"
    grep -q "not valid UTF-8" <<<"$err" || fail "$args: $err"
    [[ ! -e "$out/$latin" ]] || fail "$args created the folder"
done
echo "output files ok"
