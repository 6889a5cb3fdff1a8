#!/usr/bin/env bash
# A/B of the NTT and H rows at 2^27: run 7's code (536c9d3, session 2) against this session's
# (7845276 = 2a8dbb9's kernels), alternating in one call, same GPU.
set -u
out=$1; d=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$d
for round in 1 2; do
  for v in old new; do
    "$d/$v/gpu_bench" --rows ntt,h --ntt-logs 27 --commit "$v" --out "$out/${v}_$round.json" > "$out/${v}_$round.log" 2>&1
    echo "$v round $round rc=$?"
  done
done
