#!/usr/bin/env bash
# The doc-paths check can fail: in a scratch tree it passes on Markdown naming files that
# exist and fails, naming the line, on a moved source file, a bare file name that no longer
# exists anywhere, a stale link, a link to a heading that is not there and one out of the
# tree.
#
#   tests/docs/test_check_doc_paths.sh REPO_ROOT
set -euo pipefail
root=$(cd "${1:?usage: test_check_doc_paths.sh REPO_ROOT}" && pwd)
check=$root/tests/docs/check_doc_paths.py
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/core/src/planning" "$scratch/docs" "$scratch/ui/charts"
touch "$scratch/core/src/planning/predict.cpp" "$scratch/ckptlab.sh"

failures=0
expect() {  # expect pass|fail WHAT [TEXT THE OUTPUT MUST HOLD]
    local want=$1 what=$2 text=${3:-} output status=0
    output=$(python3 "$check" "$scratch" 2>&1) || status=$?
    if [[ $want == pass && $status -ne 0 ]] || [[ $want == fail && $status -eq 0 ]]; then
        echo "FAIL: $what: expected $want, exit $status:"
        echo "$output"
        failures=$((failures + 1))
    elif [[ -n $text && $output != *"$text"* ]]; then
        echo "FAIL: $what: the output does not say \"$text\":"
        echo "$output"
        failures=$((failures + 1))
    else
        echo "ok: $what"
    fi
}

cat > "$scratch/README.md" << 'MD'
The replay (`core/src/planning/predict.cpp`, `predict.cpp`), [the docs](docs/GUIDE.md#peak-memory-against-pytorchs-torchutilscheckpoint),
`./ckptlab.sh test`, `ckptlab-cli sweep --json results.json --png charts/`, a new
`ui/charts/x_chart.cpp`, `core/src/planning/predict.{cpp}`, `build/release/app/ckptlab`.
MD
printf '%s\n' "[back](../README.md)" "## Peak memory against PyTorch's \`torch.utils.checkpoint\`" \
    "[above](#peak-memory-against-pytorchs-torchutilscheckpoint)" > "$scratch/docs/GUIDE.md"
expect pass "every named path exists"

echo "Stale: \`core/src/data/predict.cpp\`." >> "$scratch/README.md"
expect fail "a moved source file" "README.md:4: core/src/data/predict.cpp does not exist"
sed -i '$d' "$scratch/README.md"

echo "See \`estimate_old.cpp\`." >> "$scratch/README.md"
expect fail "a bare name gone from the tree" "no file named estimate_old.cpp"
sed -i '$d' "$scratch/README.md"

echo "[gone](MEASUREMENTS.md)" >> "$scratch/docs/GUIDE.md"
expect fail "a link to a missing page" "docs/GUIDE.md:4"
sed -i '$d' "$scratch/docs/GUIDE.md"

echo "[there](docs/GUIDE.md#peak-memory)" >> "$scratch/README.md"
expect fail "a link to a missing heading" "no heading #peak-memory in docs/GUIDE.md"
sed -i '$d' "$scratch/README.md"

echo "[up](../README.md)" >> "$scratch/README.md"
expect fail "a link out of the tree" "README.md:4: ../README.md does not exist"

[[ $failures -eq 0 ]] || exit 1
echo "doc paths check: fails when it should"
