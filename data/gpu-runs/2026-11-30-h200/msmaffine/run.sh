#!/usr/bin/env bash
# The msmaffine measurement on the GPU machine, one call, inside a time budget (BUDGET_S, 330 s):
#  1. gpu_msm_test to 2^16 (G1; G2 to 2^12): every case by XYZZ only, batch-affine all rounds and
#     the default options, against the host reference;
#  2. gpu_bench --rows g1_msm,g2_msm --max-log 26 (each size batch-affine and *_xyzz, same
#     process), then --rows msm_affine_min,msm_affine_k,g1_window,g2_window --max-log 24 (the threshold and
#     the window sizes around the rule, with the new default path);
#  3. compute-sanitizer racecheck (MSM 2^10) and memcheck (2^11) of gpu_msm_test;
#  4. when nsys is there: per-kernel device times of gpu_bench --rows g1_msm,g2_msm --max-log 22
#     (nsys.log), and the kernels' registers/spills by cuobjdump (in env.txt).
# Usage: run.sh OUTDIR COMMIT BINDIR  (BINDIR: gpu_msm_test gpu_bench and their libraries).
# Files (8): env.txt summary.txt tests.log (also the sanitizers') bench.log gpu_bench.json sweep.log
#   gpu_bench_sweep.json nsys.log.
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-330} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH=/usr/local/cuda/bin:$PATH
summary="$out/summary.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, sm_90)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_msm_test gpu_bench; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|fmt|cudart|boost"; done
  echo "== cuobjdump --dump-resource-usage gpu_bench (MSM kernels)"
  cuobjdump --dump-resource-usage "$bin/gpu_bench" 2>&1 | grep -A1 -E "affine|accumulate_points|paircount" | grep -oE "Function [^:]{0,90}|REG:[0-9]+|STACK:[0-9]+|LOCAL:[0-9]+" | paste - - - - | head -30
} >"$out/env.txt" 2>&1

PRESTAGE_GPU_TEST_MSM_MAX_LOG=16 timeout 100 "$bin/gpu_msm_test" --log_level=message \
  --report_level=detailed >"$out/tests.log" 2>&1
step TEST_MSM "rc=$? (<= 2^16)"
timeout 100 "$bin/gpu_bench" --rows g1_msm,g2_msm --max-log 26 --commit "$commit" \
  --out "$out/gpu_bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$?"
t=$(($(left) - 170)); [ $t -lt 10 ] && t=10
timeout $t "$bin/gpu_bench" --rows msm_affine_min,msm_affine_k,g1_window,g2_window --max-log 24 \
  --commit "$commit" --out "$out/gpu_bench_sweep.json" >"$out/sweep.log" 2>&1
step SWEEP "rc=$? (limit $t s)"
if command -v nsys >/dev/null && [ $(left) -gt 150 ]; then
  timeout 60 nsys profile --stats=false -o /tmp/msm_prof "$bin/gpu_bench" --rows g1_msm,g2_msm \
    --max-log 22 --out /tmp/prof.json >/tmp/prof.log 2>&1
  nsys stats --report cuda_gpu_kern_sum --format csv /tmp/msm_prof.nsys-rep >"$out/nsys.log" 2>&1
  step NSYS "rc=$?"
else
  step NSYS "skipped (nsys: $(command -v nsys || echo none), $(left) s left)"
fi
t=$(($(left) / 2)); [ $t -lt 5 ] && t=5
PRESTAGE_GPU_TEST_MSM_MAX_LOG=10 timeout $t compute-sanitizer --tool racecheck --error-exitcode 3 \
  "$bin/gpu_msm_test" --log_level=error --report_level=short >>"$out/tests.log" 2>&1
step RACECHECK "rc=$? (MSM <= 2^10, limit $t s)"
t=$(($(left) - 3)); [ $t -lt 5 ] && t=5
PRESTAGE_GPU_TEST_MSM_MAX_LOG=11 timeout $t compute-sanitizer --tool memcheck --error-exitcode 3 \
  "$bin/gpu_msm_test" --log_level=error --report_level=short >>"$out/tests.log" 2>&1
step MEMCHECK "rc=$? (MSM <= 2^11, limit $t s)"
grep -hE "^(g1|g2)_msm|ceilings|products|phases|error|fail" "$out/bench.log" "$out/sweep.log" | head -80
grep -E "passed|failed|error" "$out/tests.log" | head -20
cat "$summary"
