#!/usr/bin/env bash
# The ntt8 measurement on the GPU machine, one call, inside a time budget (BUDGET_S, 190 s):
#  1. env.txt: date, commit, nvidia-smi, ldd;
#  2. tests.log: gpu_ntt_arith_test (butterflies, 1/n scaling on the device); gpu_ntt_test with
#     PRESTAGE_GPU_TEST_NTT_MAX_LOG=22 (every transform 2^1-2^22 in place and with scratch, the
#     H computation to 2^22, against the host reference); then its in-place case at
#     PRESTAGE_GPU_TEST_NTT_LARGE_LOGS (24,27), expecting the fused in-place last pass there;
#  3. A/B, alternating main's gpu_bench (BINDIR/gpu_bench_main, 4b664b5) and this branch's, each
#     `--rows ntt,h --ntt-logs 24,27 --max-log 27`, A B A B (A B a third time while the budget
#     lasts, keeping MEMCHECK_S), so machine drift shows as A-vs-A;
#  4. compute-sanitizer memcheck of gpu_ntt_test at <= 2^14 (the fused in-place last pass at
#     2^12 and 2^14) with what is left.
# Usage: run.sh OUTDIR COMMIT BINDIR (gpu_ntt_test gpu_ntt_arith_test gpu_bench gpu_bench_main
#   libcudart.so.13 libyaml-cpp.so.0.7). Files back (<= 8): env.txt (with the steps' summary)
#   tests.log bench_main.log gpu_bench_main.json bench_ab.log gpu_bench_ab.json (JSON documents
#   one after another).
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-190} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/env.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, preset ci, sm_90)"
  echo "gpu_bench_main: main's ci build of 4b664b5 (/work/briefs/s7/gpu_bench_main_4b664b5)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_ntt_test gpu_bench gpu_bench_main; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|cudart"; done
} >>"$out/env.txt" 2>&1
step ENV "done"
timeout 20 "$bin/gpu_ntt_arith_test" --log_level=message --report_level=short >"$out/tests.log" 2>&1
step TEST_ARITH "rc=$?"
echo "== gpu_ntt_test, PRESTAGE_GPU_TEST_NTT_MAX_LOG=22" >>"$out/tests.log"
PRESTAGE_GPU_TEST_NTT_MAX_LOG=22 timeout ${TEST_S:-45} "$bin/gpu_ntt_test" \
  --run_test=ntt_all_variants_match_host_reference,ntt_small_domains_match_host_reference,h_computation_matches_host_reference \
  --log_level=message --report_level=short >>"$out/tests.log" 2>&1
step TEST_NTT "rc=$? (<= 2^22, both modes, H)"
t=$(($(left) - ${BENCH_RESERVE_S:-75})); [ $t -lt 10 ] && t=10
echo "== gpu_ntt_test in place at 2^${LARGE:-24,27}, limit $t s" >>"$out/tests.log"
PRESTAGE_GPU_TEST_NTT_LARGE_LOGS=${LARGE:-24,27} PRESTAGE_GPU_TEST_NTT_EXPECT_MIRROR=1 timeout $t \
  "$bin/gpu_ntt_test" --run_test=ntt_large_sizes_in_place_match_host_reference \
  --log_level=message --report_level=short >>"$out/tests.log" 2>&1
step TEST_LARGE "rc=$? (2^${LARGE:-24,27} in place, limit $t s)"
for ab in A B A B A B; do
  t=$(($(left) - ${MEMCHECK_S:-12})); [ $t -gt 40 ] && t=40
  [ $t -lt ${BENCH_MIN_S:-14} ] && { step "BENCH_$ab" "skipped (budget)"; continue; }
  if [ $ab = A ]; then
    timeout $t "$bin/gpu_bench_main" --rows ntt,h --ntt-logs 24,27 --max-log 27 --commit main-4b664b5 \
      --out /tmp/main.json >>"$out/bench_main.log" 2>&1
    rc=$?; cat /tmp/main.json >>"$out/gpu_bench_main.json" 2>/dev/null
  else
    timeout $t "$bin/gpu_bench" --rows ntt,h --ntt-logs 24,27 --max-log 27 --commit "$commit" \
      --out /tmp/branch.json >>"$out/bench_ab.log" 2>&1
    rc=$?; cat /tmp/branch.json >>"$out/gpu_bench_ab.json" 2>/dev/null
  fi
  rm -f /tmp/main.json /tmp/branch.json
  step "BENCH_$ab" "rc=$rc (limit $t s)"
done
t=$(($(left) - 2))
if [ $t -ge 5 ]; then
  echo "== memcheck, PRESTAGE_GPU_TEST_NTT_MAX_LOG=14, limit $t s" >>"$out/tests.log"
  PRESTAGE_GPU_TEST_NTT_MAX_LOG=14 timeout $t compute-sanitizer --tool memcheck --error-exitcode 3 \
    "$bin/gpu_ntt_test" --run_test=ntt_all_variants_match_host_reference \
    --log_level=error --report_level=short >>"$out/tests.log" 2>&1
  step MEMCHECK "rc=$? (<= 2^14, limit $t s)"
fi
grep -E "failure|error|No errors|in-place path|SKIP|passed|failed" "$out/tests.log" | head -20
grep -hE "^(fr_ntt|groth16_h)" "$out/bench_ab.log" "$out/bench_main.log" | head -60
