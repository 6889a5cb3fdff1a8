#!/usr/bin/env bash
# The msm12 measurement on the GPU machine, one call inside BUDGET_S (default 255 s):
#  1. env.txt: date, commit, nvidia-smi (and the steps' summary);
#  2. gpu_msm_test to 2^16 (G2 to 2^12): both reduction schemes, both host steps; correct first;
#  3. gpu_bench --rows msm_g2_ab12 --max-log 24 (old vs new defaults alternated in one process,
#     the knobs at G2 2^20, G1 2^20 / 2^24 against the old host step);
#  4. with the budget left: compute-sanitizer memcheck of gpu_msm_test at <= 2^11.
# Usage: run.sh OUTDIR COMMIT BINDIR (gpu_msm_test, gpu_bench and their shared libraries).
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-255} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH=/usr/local/cuda/bin:$PATH
summary="$out/env.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built with preset gpu, nvcc 13.0, sm_90)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
} >>"$summary" 2>&1
step ENV done
PRESTAGE_GPU_TEST_MSM_MAX_LOG=16 timeout 90 "$bin/gpu_msm_test" --log_level=message \
  --report_level=detailed >"$out/tests.log" 2>&1
rc=$?
step TEST_MSM "rc=$rc (<= 2^16)"
timeout $(($(left) - 45)) "$bin/gpu_bench" --rows msm_g2_ab12 --max-log 24 --commit "$commit" \
  --out "$out/bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$? (limit $(left) s left)"
lim=$(($(left) - 5))
if [ "$lim" -gt 20 ] && command -v compute-sanitizer >/dev/null; then
  PRESTAGE_GPU_TEST_MSM_MAX_LOG=11 timeout $lim compute-sanitizer --tool memcheck \
    "$bin/gpu_msm_test" >"$out/memcheck.log" 2>&1
  step MEMCHECK "rc=$? (<= 2^11, limit $lim s)"
else
  step MEMCHECK "skipped ($lim s left)"
fi
