#!/usr/bin/env bash
# A/B of the NTT and H rows at 2^27 in one call: old = 536c9d3 (run 7, session 2's NTT),
# new = this commit's gpu_bench; two alternating rounds.
out=$1; d=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$d/bin
for round in 1 2; do
  for v in old new; do
    if [ $v = old ]; then b=$d/old/gpu_bench; else b=$d/bin/gpu_bench; fi
    "$b" --rows ntt,h --ntt-logs 27 --commit "$v" --out "$out/ab_${v}_$round.json" > "$out/ab_${v}_$round.log" 2>&1
    echo "ab $v round $round rc=$?"
  done
done
