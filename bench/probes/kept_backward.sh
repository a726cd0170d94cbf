#!/usr/bin/env bash
# The kept-block backward probe with glibc's default malloc and with the lab's tuning
# (CKPTLAB_MALLOC_TUNING=1: trim threshold 1 GiB, mmap threshold 32 MiB), alternately, ROUNDS
# times each, so a slow period of a shared machine hits both. Arguments go to the probe.
#   bench/probes/kept_backward.sh [width seq batch depth repeats]
set -euo pipefail
probe=${PROBE:-build/release/bench/probes/kept_backward_probe}
for round in $(seq "${ROUNDS:-2}"); do
  echo "== round $round"
  CKPTLAB_MALLOC_TUNING=0 "$probe" "$@"
  CKPTLAB_MALLOC_TUNING=1 "$probe" "$@"
done
