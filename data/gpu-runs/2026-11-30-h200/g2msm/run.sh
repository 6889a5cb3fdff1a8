#!/usr/bin/env bash
# The g2msm measurement on the GPU machine, one call, inside a ~290 s budget (run 1 ran the
# version of c77c60d/e786c6b: staged-level-0 test cases, no SASS step, summary.txt):
#  1. gpu_msm_test (to 2^16 G1 / 2^12 G2: every case by four paths; the reduction's launch
#     variants over several window groups);
#  2. main's gpu_bench (BINDIR/gpu_bench_main), `--rows g2_msm --max-log 22`; this branch's
#     gpu_bench `--rows g2_variants,g1_msm,g2_msm,g2_window --max-log 24` (g2_variants alternates
#     main's kernels, *_main rows, with the new default in the same process); main's again,
#     `--rows g1_msm,g2_msm --max-log 24`: machine drift shows up as main-vs-main differences;
#  3. SASS opcode counts of the level-0 and reduction kernels (sass_hist.sh over
#     BINDIR/msm_kernels.o: sass_kernels.cu.txt here (a .cu kept as text so no build or format glob takes it), nvcc -x cu -O3 -DNDEBUG sm_90 -lineinfo, as the build);
#  4. compute-sanitizer memcheck (<= 2^11) of gpu_msm_test and racecheck (<= 2^9) of its G2
#     and reduction cases.
# Usage: run.sh OUTDIR COMMIT BINDIR (gpu_msm_test gpu_bench gpu_bench_main libcudart.so.13
#   libyaml-cpp.so.0.7 msm_kernels.o sass_hist.sh). Files (8): env.txt
#   tests.log (the step summary at its end) bench.log gpu_bench.json bench_main.log
#   gpu_bench_main_a.json gpu_bench_main_b.json sass.txt.
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-290} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary=$(mktemp)
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, preset ci, sm_90, stripped)"
  echo "gpu_bench_main: main's build/ci/gpu/gpu_bench (built 17:43 from 496c54c; ac0a427 differs only in data/)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_msm_test gpu_bench gpu_bench_main; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|cudart"; done
} >"$out/env.txt" 2>&1

timeout 60 "$bin/gpu_msm_test" --log_level=message --report_level=short >"$out/tests.log" 2>&1
step TEST "rc=$?"
timeout 40 "$bin/gpu_bench_main" --rows g2_msm --max-log 22 --commit main-ac0a427 \
  --out "$out/gpu_bench_main_a.json" >"$out/bench_main.log" 2>&1
step BENCH_MAIN_A "rc=$?"
timeout 120 "$bin/gpu_bench" --rows g2_variants,g1_msm,g2_msm,g2_window --max-log 24 \
  --commit "$commit" --out "$out/gpu_bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$?"
timeout 50 "$bin/gpu_bench_main" --rows g1_msm,g2_msm --max-log 24 --commit main-ac0a427 \
  --out "$out/gpu_bench_main_b.json" >>"$out/bench_main.log" 2>&1
step BENCH_MAIN_B "rc=$?"
for f in accumulate_points_kernel bucket_reduce_kernel dev_add; do
  timeout 20 "$bin/sass_hist.sh" "$bin/msm_kernels.o" "$f" >>"$out/sass.txt" 2>&1
done
step SASS "rc=$?"
t=$(($(left) / 2)); [ $t -lt 5 ] && t=5
echo "== memcheck, PRESTAGE_GPU_TEST_MSM_MAX_LOG=11" >>"$out/tests.log"
PRESTAGE_GPU_TEST_MSM_MAX_LOG=11 timeout $t compute-sanitizer --tool memcheck --error-exitcode 3 \
  "$bin/gpu_msm_test" --log_level=error --report_level=short >>"$out/tests.log" 2>&1
step MEMCHECK "rc=$? (<= 2^11)"
t=$(($(left) - 3)); [ $t -lt 5 ] && t=5
echo "== racecheck, PRESTAGE_GPU_TEST_MSM_MAX_LOG=9, G2 cases" >>"$out/tests.log"
PRESTAGE_GPU_TEST_MSM_MAX_LOG=9 timeout $t compute-sanitizer --tool racecheck --error-exitcode 3 \
  "$bin/gpu_msm_test" --run_test=msm_reduction_variants,g2_msm_matches_host_reference \
  --log_level=error --report_level=short >>"$out/tests.log" 2>&1
step RACECHECK "rc=$? (<= 2^9, G2 and reduction cases)"
grep -hE "^g[12]_msm" "$out/bench.log" | grep -v affine | head -40
grep -hE "^g[12]_msm" "$out/bench_main.log" | grep -v affine | head -12
{ echo "== steps"; cat "$summary"; } >>"$out/tests.log"
rm -f "$summary"
