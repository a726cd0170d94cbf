#!/usr/bin/env bash
# Tests that fail by chance: every place under tests/ that reads a clock, sleeps, or holds a
# measured time or CPU time against a bound must be on the allow-list beside this script
# (time_checks_allowed.txt), with the reason it cannot fail on a loaded machine: a watchdog
# against a hang, an order that holds by construction, a CPU-time limit, a time only printed.
# A new time comparison fails this check until it is made deterministic (counts, order,
# finiteness, an injected clock) or moved to a benchmark under bench/, or argued onto the list.
#
#   check_time_checks.sh ROOT
set -eu
root=$1
allowed="$(cd "$(dirname "$0")" && pwd)/time_checks_allowed.txt"
python3 - "$root" "$allowed" <<'PY'
import os, re, sys
root, allowed_path = sys.argv[1], sys.argv[2]
# Clock reads, sleeps and bounds on measured times, in C++, shell and Python tests.
pattern = re.compile(
    r"steady_clock|system_clock|high_resolution_clock|QElapsedTimer|clock_gettime|getrusage"
    r"|\bclock\(\)|date \+%s|\$SECONDS|\bSECONDS=|time\.(time|monotonic|perf_counter)\("
    r"|TIMEFORMAT|\.elapsed\(|elapsedSeconds|sleep_for|usleep\(|QTest::qWait\("
    r"|\bstep_cpu_ms\b.*[<>]|(EXPECT|ASSERT)_(LT|LE|GT|GE|NEAR)\(.*(\.seconds|elapsed|cpu_ms|wall)")
allowed = {}
for number, line in enumerate(open(allowed_path, encoding="utf-8"), 1):
    if not line.strip() or line.startswith("#"):
        continue
    parts = line.rstrip("\n").split("\t")
    if len(parts) != 3 or not parts[2].strip():
        sys.exit(f"{allowed_path}:{number}: expected PATH<TAB>LINE<TAB>REASON")
    allowed[(parts[0], parts[1])] = False
found = []
for top, dirs, files in os.walk(os.path.join(root, "tests")):
    dirs[:] = sorted(d for d in dirs if d != "data")
    for name in sorted(files):
        if not name.endswith((".cpp", ".h", ".sh", ".py")):
            continue
        path = os.path.join(top, name)
        rel = os.path.relpath(path, root)
        if rel == "tests/style/check_time_checks.sh" or rel.startswith("tests/style/test_check_time"):
            continue
        for number, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            text = line.strip()
            if text.startswith(("//", "#")) or not pattern.search(text):
                continue
            key = (rel, text)
            if key in allowed:
                allowed[key] = True
            else:
                found.append(f"{rel}:{number}: {text}")
for line in found:
    print("time check not on the allow-list:", line)
stale = [f"{p}: {t}" for (p, t), used in allowed.items() if not used]
for line in stale:
    print("allow-list entry that matches no line (remove it):", line)
if found or stale:
    print(f"{len(found)} unlisted, {len(stale)} stale: make each deterministic or a benchmark "
          f"under bench/, or add it with its reason to {os.path.basename(allowed_path)}")
    sys.exit(1)
print(f"time checks: every one of {len(allowed)} is on the allow-list")
PY
