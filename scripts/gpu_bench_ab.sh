#!/usr/bin/env bash
# A/B of two gpu_bench builds in one device call: ROUNDS rounds, each running build A then
# build B with the same gpu_bench arguments, so machine drift shows as A-vs-A. Per run
# OUTDIR/PREFIX<label>_<round>.json (gpu_bench --out) and .log (its stdout and stderr); --commit
# is the label. One line per run on stdout: "PREFIX<label> round <k> rc=<exit status>".
# It replaces the ab.sh copies of data/gpu-runs/2026-11-30-h200/run10-ntt-ab (their command.txt
# gives the lines). The builds' shared libraries come from LD_LIBRARY_PATH (set by the caller).
# Usage: scripts/gpu_bench_ab.sh OUTDIR ROUNDS PREFIX LABEL_A=BIN_A LABEL_B=BIN_B -- GPU_BENCH_ARGS...
#   e.g. scripts/gpu_bench_ab.sh out 2 ab_ old=old/gpu_bench new=bin/gpu_bench -- --rows ntt,h --ntt-logs 27
set -u
if [ $# -lt 6 ] || [ "$6" != -- ] || [[ $4 != *=* ]] || [[ $5 != *=* ]]; then
  sed -n 's/^# \{0,1\}//; /^Usage:/,/^  e\.g\./p' "$0" >&2
  exit 2
fi
out=$1 rounds=$2 prefix=$3 a=$4 b=$5
shift 6
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  for v in "$a" "$b"; do
    label=${v%%=*} exe=${v#*=}
    "$exe" "$@" --commit "$label" --out "$out/${prefix}${label}_$round.json" \
      >"$out/${prefix}${label}_$round.log" 2>&1
    echo "${prefix}$label round $round rc=$?"
  done
done
