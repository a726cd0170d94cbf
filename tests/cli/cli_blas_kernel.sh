#!/usr/bin/env bash
# The OpenBLAS kernels a run used are in its results and its header line: left to itself, the
# CLI never runs OpenBLAS's generic kernels on a CPU that has better ones (it switches and, with
# --verbose, says so); the user's OPENBLAS_CORETYPE is kept as given, recorded and warned about.
set -eu
cli=$1
out=$2
rm -rf "$out" && mkdir -p "$out"
tiny=(run --strategy none --depth 1 --width 8 --seq 4 --batch 1 --warmup 0 --repeats 1)

# Left to itself (the variables unset, whatever the caller's shell had).
env -u OPENBLAS_CORETYPE -u CKPTLAB_KEEP_BLAS_KERNEL -u CKPTLAB_BLAS_KERNEL_REPLACED \
    "$cli" --verbose "${tiny[@]}" --json "$out/own.json" > "$out/own.txt" 2> "$out/own.err" ||
    { echo "FAIL: the tiny run"; cat "$out/own.txt" "$out/own.err"; exit 1; }
if ! grep -q OpenBLAS "$out/own.txt"; then
    echo "skipped: LibTorch's BLAS is not OpenBLAS here"
    head -1 "$out/own.txt"
    exit 0
fi
python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
env = json.load(open(f"{out}/own.json"))["environment"]
kernel = env.get("blas_kernel")
assert kernel and kernel["name"], f"no kernel recorded: {env}"
assert kernel["chosen_by"] in ("openblas", "lab"), kernel
# The point of the switch: never the generic kernels on a CPU with better ones.
assert "better" not in kernel, f"generic kernels on a CPU with {kernel['better']}: {kernel}"
header = open(f"{out}/own.txt").read().splitlines()[0]
assert f"{kernel['name']} kernels" in header, header
err = open(f"{out}/own.err").read()
switched = re.search(r"switched to (\w+)", err)
if kernel["chosen_by"] == "lab":
    assert kernel.get("replaced"), kernel
    assert switched and switched.group(1) == kernel["name"], f"--verbose did not say: {err!r}"
    assert kernel["replaced"] in err, err
else:
    assert not switched and "replaced" not in kernel, (kernel, err)
print(f"own choice ok: {kernel}")
PY

# The user's choice is kept (no exec), recorded as theirs, and warned about when the CPU has more.
OPENBLAS_CORETYPE=Prescott "$cli" --verbose "${tiny[@]}" --json "$out/user.json" \
    > "$out/user.txt" 2> "$out/user.err" ||
    { echo "FAIL: the tiny run under OPENBLAS_CORETYPE=Prescott"; cat "$out/user.err"; exit 1; }
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
kernel = json.load(open(f"{out}/user.json"))["environment"].get("blas_kernel")
assert kernel and kernel["name"] == "Prescott" and kernel["chosen_by"] == "user", kernel
assert "replaced" not in kernel, kernel
err = open(f"{out}/user.err").read()
assert "switched" not in err, err
flags = next((l for l in open("/proc/cpuinfo") if l.startswith("flags")), "").split()
text = open(f"{out}/user.txt").read()
if "avx" in flags:
    assert kernel.get("better"), f"the CPU has AVX but no better kernel is named: {kernel}"
    assert "warning: OpenBLAS ran its generic Prescott kernels" in text, text
else:
    assert "better" not in kernel and "generic Prescott" not in text, (kernel, text)
print(f"user's choice ok: {kernel}")
PY

# Opted out: OpenBLAS's own choice, whatever it is.
CKPTLAB_KEEP_BLAS_KERNEL=1 env -u OPENBLAS_CORETYPE "$cli" "${tiny[@]}" -q \
    --json "$out/keep.json" > /dev/null
python3 - "$out/keep.json" <<'PY'
import json, sys
kernel = json.load(open(sys.argv[1]))["environment"]["blas_kernel"]
assert kernel["chosen_by"] == "openblas", kernel
print(f"kept OpenBLAS's choice: {kernel}")
PY
