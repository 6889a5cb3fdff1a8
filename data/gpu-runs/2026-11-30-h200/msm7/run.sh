#!/usr/bin/env bash
# The msm7 measurement on the GPU machine, one call, inside a time budget (BUDGET_S, 240 s):
#  1. env.txt: date, commit, nvidia-smi, ldd; cuobjdump --dump-resource-usage of the MSM kernels
#     of both gpu_bench binaries (registers, stack);
#  2. gpu_msm_test (to 2^16 G1, 2^12 G2; six paths a case, two of them this branch's non-default
#     batch-affine kernels);
#  3. A/B, alternating main's gpu_bench (BINDIR/gpu_bench_main, 1382f3b) and this branch's, each
#     `--rows g1_msm,g2_msm --max-log 24`, twice (A B A B), so machine drift shows as A-vs-A;
#  4. this branch's `--rows msm_affine_ab --max-log 24` (each change undone alone, same process)
#     and, while the budget lasts, `--rows msm_affine_min,msm_affine_k --max-log 24`;
#  5. compute-sanitizer memcheck (<= 2^11) and racecheck (<= 2^10) of gpu_msm_test.
# Usage: run.sh OUTDIR COMMIT BINDIR (gpu_msm_test gpu_bench gpu_bench_main libcudart.so.13
#   libyaml-cpp.so.0.7). Files (8): env.txt summary.txt tests.log bench_ab.log gpu_bench_ab.json
#   (this branch's runs and the A/B rows, JSON lines: one document per run) bench_main.log
#   gpu_bench_main.json (likewise) sweep.log.
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-240} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH=/usr/local/cuda/bin:$PATH
summary="$out/summary.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, preset ci, sm_90)"
  echo "gpu_bench_main: main's ci build of 1382f3b (/work/briefs/s5/gpu_bench_main_1382f3b)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_msm_test gpu_bench gpu_bench_main; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|cudart"; done
  for b in gpu_bench gpu_bench_main; do
    echo "== cuobjdump --dump-resource-usage $b (MSM batch-affine and level-0 kernels)"
    cuobjdump --dump-resource-usage "$bin/$b" 2>&1 | grep -A1 -E "affine_|accumulate_points" |
      grep -oE "Function [^:]{0,110}|REG:[0-9]+|STACK:[0-9]+|LOCAL:[0-9]+" | paste - - - - | head -40
  done
} >"$out/env.txt" 2>&1
step ENV "done"

PRESTAGE_GPU_TEST_MSM_MAX_LOG=16 timeout 90 "$bin/gpu_msm_test" --log_level=message \
  --report_level=detailed >"$out/tests.log" 2>&1
step TEST_MSM "rc=$? (<= 2^16)"
for ab in A B A B; do
  if [ $ab = A ]; then
    timeout 40 "$bin/gpu_bench_main" --rows g1_msm,g2_msm --max-log 24 --commit main-1382f3b \
      --out /tmp/main.json >>"$out/bench_main.log" 2>&1
    rc=$?; cat /tmp/main.json >>"$out/gpu_bench_main.json"
  else
    timeout 40 "$bin/gpu_bench" --rows g1_msm,g2_msm --max-log 24 --commit "$commit" \
      --out /tmp/branch.json >>"$out/bench_ab.log" 2>&1
    rc=$?; cat /tmp/branch.json >>"$out/gpu_bench_ab.json"
  fi
  step "BENCH_$ab" "rc=$rc"
done
timeout 70 "$bin/gpu_bench" --rows msm_affine_ab --max-log 24 --commit "$commit" \
  --out /tmp/ab.json >>"$out/bench_ab.log" 2>&1
rc=$?; cat /tmp/ab.json >>"$out/gpu_bench_ab.json"
step BENCH_AB_ROWS "rc=$rc"
t=$(($(left) - 50)); [ $t -lt 5 ] && t=5
timeout $t "$bin/gpu_bench" --rows msm_affine_min,msm_affine_k --max-log 24 --commit "$commit" \
  --out /tmp/sweep.json >"$out/sweep.log" 2>&1
rc=$?; cat /tmp/sweep.json >>"$out/gpu_bench_ab.json" 2>/dev/null
step SWEEP "rc=$rc (limit $t s)"
t=$(($(left) / 2)); [ $t -lt 10 ] && t=10
echo "== memcheck, PRESTAGE_GPU_TEST_MSM_MAX_LOG=11" >>"$out/tests.log"
PRESTAGE_GPU_TEST_MSM_MAX_LOG=11 timeout $t compute-sanitizer --tool memcheck --error-exitcode 3 \
  "$bin/gpu_msm_test" --log_level=error --report_level=short >>"$out/tests.log" 2>&1
step MEMCHECK "rc=$? (<= 2^11, limit $t s)"
t=$(($(left) - 3)); [ $t -lt 10 ] && t=10
echo "== racecheck, PRESTAGE_GPU_TEST_MSM_MAX_LOG=10" >>"$out/tests.log"
PRESTAGE_GPU_TEST_MSM_MAX_LOG=10 timeout $t compute-sanitizer --tool racecheck --error-exitcode 3 \
  "$bin/gpu_msm_test" --log_level=error --report_level=short >>"$out/tests.log" 2>&1
step RACECHECK "rc=$? (<= 2^10, limit $t s)"
grep -hE "^g[12]_msm" "$out/bench_ab.log" | head -60
grep -hE "^g[12]_msm" "$out/bench_main.log" | head -24
