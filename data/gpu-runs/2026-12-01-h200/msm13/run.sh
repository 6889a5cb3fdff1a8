#!/usr/bin/env bash
# The msm13 measurement on the GPU machine, one call inside BUDGET_S (default 145 s):
#  1. env.txt: date, commit, nvidia-smi (and the steps' summary);
#  2. gpu_msm_test to 2^16 (G2 to 2^12): scalars converted once per call (odd paths' several
#     window groups) and per group (path 3); correct first;
#  3. gpu_bench --rows msm_ab13 --max-log 27: scalars once per call (default) vs per window group
#     (_conv13), alternated in one process, G1 2^24 (twice) / 2^26 / 2^27, G2 2^22; PoRep-shaped
#     G1 2^27 under Auto, Auto per group and XYZZ. Exit 3 if a row's result differs from XYZZ's.
# Usage: run.sh OUTDIR COMMIT BINDIR (gpu_msm_test, gpu_bench and their shared libraries).
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-145} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/env.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built with preset gpu, nvcc 13.0, sm_90)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
} >>"$summary" 2>&1
step ENV done
PRESTAGE_GPU_TEST_MSM_MAX_LOG=16 timeout 40 "$bin/gpu_msm_test" --log_level=message \
  --report_level=detailed >"$out/tests.log" 2>&1
step TEST_MSM "rc=$? (<= 2^16)"
timeout $(($(left) - 3)) "$bin/gpu_bench" --rows msm_ab13 --max-log 27 --commit "$commit" \
  --out "$out/bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$? ($(left) s left)"
