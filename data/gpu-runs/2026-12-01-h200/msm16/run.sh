#!/usr/bin/env bash
# The msm16 run (fixed-base defaults: G1 slices of up to 2^28 pairs; round-0 knobs), one call
# inside BUDGET_S (default 270 s):
#  1. env.txt: date, commit, nvidia-smi (and the steps' summary);
#  2. gpu_msm_test, all cases, to 2^16 (G2 to 2^12), the fixed-base ones with msm16's paths;
#  3. gpu_bench --rows $ROWS (default msm_fixed16) --max-log 26: G2 2^20, G1 2^24 and 2^26, one
#     table each, the fixed-base option sets in 2 interleaved passes, beside the default gpu_msm
#     in the same process; exit 3 if a fixed-base result differs from the default's;
#  4. compute-sanitizer memcheck of the two fixed-base test cases (to 2^12), in the time left.
# Usage: run.sh OUTDIR COMMIT BINDIR (gpu_msm_test, gpu_bench and their shared libraries).
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-270} - ($(date +%s) - t0))); }
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
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  PRESTAGE_GPU_TEST_MSM_MAX_LOG=16 timeout 60 "$bin/gpu_msm_test" --log_level=message \
    --report_level=detailed >"$out/tests.log" 2>&1
  step TEST_MSM "rc=$? (<= 2^16)"
fi
timeout $(($(left) - ${MEMCHECK_S:-45})) "$bin/gpu_bench" --rows "${ROWS:-msm_fixed16}" \
  --max-log 26 --commit "$commit" --out "$out/bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$? ($(left) s left)"
if [ "${SKIP_TESTS:-0}" != 1 ] && [ "$(left)" -gt 15 ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  PRESTAGE_GPU_TEST_MSM_MAX_LOG=12 timeout $(($(left) - 5)) "$cs" --tool memcheck \
    "$bin/gpu_msm_test" --run_test=fixed_base_msm_contract,fixed_base_msm_matches_host_reference \
    --log_level=message >"$out/memcheck.log" 2>&1
  step MEMCHECK "rc=$? ($(left) s left)"
fi
