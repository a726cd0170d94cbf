#!/usr/bin/env bash
# Ctrl+C at each phase of each measuring command, with results files from an earlier run in
# place: the command stops with exit 130 and says so; a file is replaced only by finished runs,
# never by an empty one; an inherited SIG_IGN is kept. And a layer too large to measure is
# refused before anything is built.
set -eu
set -m # job control: a background job gets SIGINT as in a terminal, not an inherited SIG_IGN
cli=$1
out=$2
python=${PYTHON:-python3}
rm -rf "$out" && mkdir -p "$out"
fail() {
    echo "FAIL: $*"
    exit 1
}

# Until file $2 holds text $3 while process $1 runs; false when it ended first.
waitFor() {
    local pid=$1 file=$2 text=$3
    for ((i = 0; i < 3000; ++i)); do
        grep -q -- "$text" "$file" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}
# Until process $1 catches SIGINT (its handler installed: bit 2 of SigCgt); false when it ended.
waitCatching() {
    local pid=$1 mask
    for ((i = 0; i < 3000; ++i)); do
        mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || return 1
        [[ -n $mask ]] || return 1
        ((16#$mask & 2)) && return 0
        sleep 0.02
    done
    return 1
}
old() { for f in "$@"; do echo "old $(basename "$f")" >"$f"; done; }
kept() {
    for f in "$@"; do
        [[ $(cat "$f") == "old $(basename "$f")" ]] || fail "$label: $(basename "$f") was replaced"
    done
}

# interrupt LABEL WHEN -- COMMAND...: runs COMMAND, sends SIGINT when WHEN holds (`catching`:
# its handler is installed; any other text: its stderr shows it) and sets `code`.
interrupt() {
    label=$1
    local when=$2
    shift 3
    "$@" >"$out/$label.out" 2>"$out/$label.err" &
    local pid=$!
    if [[ $when == catching ]]; then
        waitCatching "$pid" || fail "$label: ended before it caught SIGINT: $(tail -3 "$out/$label.err")"
    else
        waitFor "$pid" "$out/$label.err" "$when" ||
            fail "$label: ended before \"$when\": $(tail -3 "$out/$label.err")"
    fi
    kill -INT "$pid" 2>/dev/null || true # ended already: its exit code says so
    set +e
    wait "$pid"
    code=$?
    set -e
}
stopped() {
    [[ $code -eq 130 ]] || fail "$label: exit $code, not 130: $(tail -3 "$out/$label.err")"
    grep -q "interrupted" "$out/$label.err" || fail "$label: says nothing: $(tail -3 "$out/$label.err")"
}

# A first run that takes seconds, so that Ctrl+C as the handler is installed comes before it ends.
slow=(--depth 4 --width 1024 --seq 512 --batch 4 --warmup 0 --repeats 1)
files=("$out/r.json" "$out/r.csv" "$out/r.trace.json")
outputs=(--json "${files[0]}" --csv "${files[1]}" --trace "${files[2]}")

# sweep, run, pareto: before the first run finishes, nothing is written.
old "${files[@]}"
interrupt sweep catching -- "$cli" sweep "${slow[@]}" --strategies none,full "${outputs[@]}"
stopped
kept "${files[@]}"
grep -q "before any run finished; nothing written" "$out/sweep.err" || fail "sweep: $(cat "$out/sweep.err")"
interrupt run catching -- "$cli" run "${slow[@]}" --strategy full "${outputs[@]}"
stopped
kept "${files[@]}"
interrupt pareto catching -- "$cli" pareto "${slow[@]}" --points 2 "${outputs[@]}"
stopped
kept "${files[@]}"

# scaling: before its first size ends nothing is written; after it, that size's runs are.
scaled=(--depth 4 --width 1024 --batch 4 --warmup 0 --repeats 1 --strategies none,full)
interrupt scaling-first catching -- "$cli" scaling --vary seq --values 512,1024 "${scaled[@]}" \
    "${outputs[@]}"
stopped
kept "${files[@]}"
interrupt scaling-later "measured full" -- "$cli" scaling --vary seq --values 8,1024 \
    "${scaled[@]}" "${outputs[@]}"
stopped
"$python" - "${files[0]}" <<'EOF' || fail "scaling-later: the finished runs were not written"
import json, sys
data = json.load(open(sys.argv[1]))
assert data["cancelled"] is True, data["cancelled"]
assert [r["strategy"] for r in data["runs"]] == ["none", "full"], [r["strategy"] for r in data["runs"]]
EOF
grep -q '^strategy' "${files[1]}" || fail "scaling-later: the CSV of its runs was not written"

# plan --capacity: while measuring and while planning (optimal:1000 on 100 layers plans for
# seconds), nothing is written.
capacity=(--depth 100 --width 32 --seq 16 --capacity 80GB --strategies optimal:1000,none)
old "${files[0]}"
interrupt capacity-measuring "measuring shape 3 of" -- "$cli" plan "${capacity[@]}" --json "${files[0]}"
stopped
kept "${files[0]}"
grep -q "interrupted while measuring" "$out/capacity-measuring.err" || fail "$label: $(cat "$out/$label.err")"
interrupt capacity-planning "planning 1 of" -- "$cli" plan "${capacity[@]}" --json "${files[0]}"
stopped
kept "${files[0]}"
grep -q "interrupted while planning" "$out/capacity-planning.err" || fail "$label: $(cat "$out/$label.err")"

# plan without --capacity: Ctrl+C while it measures or plans its budgets.
interrupt plan catching -- "$cli" plan --depth 100 --width 32 --seq 16 --points 4
stopped

# lesson --live: a lesson whose step takes seconds; its --json is not written.
mkdir -p "$out/lessons"
"$python" - "$(dirname "$0")/../data/lessons/01-tiny.json" "$out/lessons/01-tiny.json" <<'EOF'
import json, sys
lesson = json.load(open(sys.argv[1]))
step = lesson["steps"][0]
step["experiment"]["config"].update({"depth": 4, "width": 1024, "seq": 512, "batch": 4})
lesson["steps"] = [step]
json.dump(lesson, open(sys.argv[2], "w"))
EOF
old "$out/lesson.json"
interrupt lesson catching -- "$cli" lesson --lessons "$out/lessons" tiny --live --json "$out/lesson.json"
stopped
kept "$out/lesson.json"

# SIGINT ignored when the command starts (a background job without job control, nohup): it stays
# ignored, and the command ends as it would have.
trap '' INT
interrupt ignored "measuring shape 2 of" -- "$cli" plan --depth 4 --width 512 --seq 256 \
    --capacity 80GB --strategies none,full --json "${files[0]}"
trap - INT
[[ $code -eq 0 ]] || fail "ignored: exit $code: $(tail -3 "$out/ignored.err")"
grep -q '"capacity_bytes"' "${files[0]}" || fail "ignored: its --json was not written"

# One layer of a Llama 3.1 405B shape (3.2 billion parameters) under an address-space limit a
# few GB above what the CLI takes to start: refused with exit 2 by the memory check before
# anything is built, not by the allocator. The limit starts at 2.4 GiB and doubles until the
# CLI starts at all (a build against PyPI's CUDA torch maps several GB of CUDA libraries: its
# `import torch` needs more than 2.4 GiB and less than 4.8), then 2.4 GiB more to work in.
# AddressSanitizer reserves terabytes of shadow at start, so its build cannot start at all
# under ulimit -v: that case is left to the other builds.
if ldd "$cli" 2>/dev/null | grep -q libasan; then
    echo "interrupts ok: every phase stops with 130 and keeps the files from before" \
        "(the ulimit -v case skipped: AddressSanitizer build)"
    exit 0
fi
limit_kib=2500000
until (ulimit -v "$limit_kib" && "$cli" --version >/dev/null 2>&1); do
    limit_kib=$((limit_kib * 2))
    ((limit_kib <= 40000000)) || fail "the CLI does not start under ulimit -v 40000000"
done
limit_kib=$((limit_kib + 2500000)) # room to work in beyond starting: threads, arenas
set +e
err=$( (
    ulimit -v "$limit_kib"
    "$cli" plan --block llama --depth 126 --width 16384 --ffn-width 53248 --heads 128 \
        --kv-heads 8 --vocab 128256 --seq 64 --capacity 141GB --optimizer adam 2>&1 >/dev/null
))
code=$?
set -e
[[ $code -eq 2 ]] || fail "405B layer under ulimit -v $limit_kib: exit $code ($err)"
grep -q "one layer needs .* GB to measure, .* GB are available" <<<"$err" || fail "405B: $err"
echo "interrupts ok: every phase stops with 130 and keeps the files from before"
