#!/usr/bin/env bash
# The numerical tests (ctest label `numerics`) under several CPU kernels, as other machines
# would run them: OpenBLAS's cores (OPENBLAS_CORETYPE, LibTorch's float32 matmuls), ATen's
# vector kernels (ATEN_CPU_CAPABILITY) and oneDNN's ISA (ONEDNN_MAX_CPU_ISA, the bfloat16
# matmuls). A tolerance tuned to one CPU fails here first. Fails if any row fails.
#
#   tests/numerics/run_kernel_matrix.sh [BUILD_DIR [REGEX]]   (default: build/release, built)
#
# REGEX keeps only the test binaries whose names match (Python's re.search), e.g.
# 'test_chain_ends|test_precision' after adding those, to try them without the whole matrix.
#
# A row whose instructions this CPU lacks is skipped and said so (OpenBLAS and oneDNN would
# quietly run another kernel); a row whose kernels do not take effect on a CPU that has them
# fails. About half a minute a row on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
export CKPTLAB_NUMERICS_ONLY=${2:-}
report=$build/tests/numerics/numerics_kernel_report
if [[ ! -x $report ]]; then
    echo "kernel matrix: $report is missing; build the tests first" >&2
    exit 2
fi

# The tests labelled numerics, one command per binary (one process each rather than one per
# test: LibTorch takes a second or two to load on a busy machine).
commands=$(ctest --test-dir "$build" -N -L numerics --show-only=json-v1 | python3 -c '
import json, os, re, sys
only = os.environ["CKPTLAB_NUMERICS_ONLY"]
tests = {}
for test in json.load(sys.stdin)["tests"]:
    binary, *args = test["command"]
    if only and not re.search(only, os.path.basename(binary)):
        continue
    tests.setdefault(binary, []).extend(a.split("=", 1)[1] for a in args
                                        if a.startswith("--gtest_filter="))
for binary, names in tests.items():
    print(binary, "--gtest_filter=" + ":".join(names))
')
if [[ -z $commands ]]; then
    echo "kernel matrix: no tests labelled numerics in $build" >&2
    exit 2
fi

flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
has() { [[ $flags == *" $1 "* ]]; }

# OpenBLAS core, ATen capability, oneDNN ISA ("-": its own choice), the CPU flag they need
# (pni is SSE3). Each core and each capability once; old and new kernels are mixed on purpose,
# since each pair sums in its own orders (Sandybridge's BLAS with AVX2's ATen is where nested
# double backward once failed).
rows=(
    "Prescott    default -           pni"
    "Sandybridge avx2    -           avx2"
    "Haswell     default -           avx2"
    "Zen         avx2    -           avx2"
    "SkylakeX    avx512  AVX512_CORE avx512bw"
)

lower() { tr '[:upper:]' '[:lower:]' <<< "$1"; }
failed=() ran=0
for row in "${rows[@]}"; do
    read -r core capability isa needs <<< "$row"
    name="OPENBLAS_CORETYPE=$core ATEN_CPU_CAPABILITY=$capability"
    [[ $isa != - ]] && name+=" ONEDNN_MAX_CPU_ISA=$isa"
    if ! has "$needs"; then
        echo "== skipped: $name (this CPU lacks $needs)"
        continue
    fi
    environment=(OPENBLAS_CORETYPE="$core" ATEN_CPU_CAPABILITY="$capability")
    [[ $isa != - ]] && environment+=(ONEDNN_MAX_CPU_ISA="$isa")
    # Both libraries fall back silently on a name they do not take: check what ran.
    kernels=$(env "${environment[@]}" "$report" 2>&1)
    usedCore=$(sed -n 's/^openblas_core: //p' <<< "$kernels")
    usedCapability=$(sed -n 's/^aten_capability: //p' <<< "$kernels")
    usedIsa=$(sed -n 's/^onednn_isa: //p' <<< "$kernels")
    problem=
    if [[ $(lower "$usedCore") != $(lower "$core") ]]; then
        problem="asked for OpenBLAS core $core, ran ${usedCore:-nothing}"
    elif [[ $(lower "$usedCapability") != $(lower "$capability") ]]; then
        problem="asked for ATen capability $capability, ran ${usedCapability:-nothing}"
    elif [[ $isa != - && $(lower "$usedIsa") != $(lower "$isa") ]]; then
        problem="asked for oneDNN ISA $isa, ran ${usedIsa:-nothing}"
    elif ! grep -q '^sgemm_check: ok' <<< "$kernels"; then
        problem="a 64x64 matmul gave a wrong sum"
    fi
    if [[ -n $problem ]]; then
        echo "== FAILED: $name: $problem"
        echo "$kernels"
        failed+=("$name ($problem)")
        continue
    fi
    echo "== $name"
    start=$(date +%s)
    rowFailed=0
    while IFS= read -r command; do
        read -r -a argv <<< "$command"
        if ! output=$(env "${environment[@]}" timeout 300 "${argv[@]}" 2>&1); then
            # The failures if gtest reported any, else how it ended (a crash, a timeout).
            grep -E 'Failure|FAILED|max \|diff\||Expected|Actual|Which is' <<< "$output" |
                head -40 | grep . || tail -20 <<< "$output"
            echo "== failed: ${argv[0]##*/}"
            rowFailed=1
        fi
    done <<< "$commands"
    if [[ $rowFailed -eq 0 ]]; then
        echo "== passed in $(($(date +%s) - start)) s: $name"
    else
        failed+=("$name")
    fi
    ran=$((ran + 1))
done

if [[ $ran -eq 0 && ${#failed[@]} -eq 0 ]]; then
    echo "kernel matrix: no row could run on this CPU" >&2
    exit 1
fi
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "kernel matrix: failed under"
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
echo "kernel matrix: $ran rows passed"
