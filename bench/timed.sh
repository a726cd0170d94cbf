#!/usr/bin/env bash
# Shared by the benchmarks: runs `ckptlab-cli NAME-ARGS...` from the repository root, keeps its
# output in OUT_DIR/NAME.txt and appends the wall time. The CLI is the release build's unless
# CKPTLAB_CLI names another (it is built when missing).
# Usage: bench/timed.sh NAME OUT_DIR cli-args...
set -euo pipefail
name=$1 out=$2
shift 2
cd "$(dirname "$0")/.."
cli=${CKPTLAB_CLI:-build/release/app/ckptlab-cli}
[[ -x $cli ]] || ./ckptlab.sh build
mkdir -p "$out"
start=$(date +%s%N)
"$cli" "$@" | tee "$out/$name.txt"
end=$(date +%s%N)
echo "wall time: $(( (end - start) / 1000000 )) ms" | tee -a "$out/$name.txt"
