#!/usr/bin/env bash
# The ntt9 measurement on the GPU machine, one call, inside a time budget (BUDGET_S, 170 s):
#  1. env.txt: date, commit, nvidia-smi, ldd;
#  2. tests.log: gpu_ntt_test with PRESTAGE_GPU_TEST_NTT_MAX_LOG=22 (every transform 2^1-2^22 in
#     place and with scratch; the coset transforms at 2^21-2^22 with split tables, the default, and
#     with hi * lo; the H computation to 2^22, both reductions, against the host reference); then
#     its in-place case at PRESTAGE_GPU_TEST_NTT_LARGE_LOGS (27), expecting the fused last pass;
#  3. A/B, alternating the base gpu_bench (BINDIR/gpu_bench_base: ea03a08, main before ntt9,
#     built here with the same preset) and this branch's, each `--rows ntt,h,coset_hilo
#     --ntt-logs 24,27 --max-log 27` (coset_hilo: the branch also times its coset rows with the
#     old hi * lo tables, *_hilo, in the same process; the base ignores the token), A B A B (a
#     third pair while the budget lasts), so machine drift shows as A-vs-A.
# Usage: run.sh OUTDIR COMMIT BINDIR (gpu_ntt_test gpu_bench gpu_bench_base + shared libraries).
# Files back (<= 8): env.txt (with the steps' summary) tests.log bench_base.log
#   gpu_bench_base.json bench_ab.log gpu_bench_ab.json (JSON documents one after another).
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-170} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/env.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the helper machine, nvcc 13.0, preset gpu, sm_90)"
  echo "gpu_bench_base: ea03a08 (main before ntt9), same preset and machine"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_ntt_test gpu_bench gpu_bench_base; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|cudart"; done
  # Registers, stack and spills of the NTT pass kernels in both builds (cuobjdump, if present).
  cod=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
  for b in gpu_bench_base gpu_bench; do
    echo "== resource usage $b (pass_kernel, mirror_pass_kernel)"
    [ -n "$cod" ] && timeout 20 "$cod" --dump-resource-usage "$bin/$b" 2>&1 |
      grep -A1 -E "pass_kernel|mirror_pass" | grep -oE "_Z[^ ]*|REG:[0-9]+|STACK:[0-9]+|LOCAL:[0-9]+" | paste -sd' ' |
      sed 's/ _Z/\n_Z/g'
  done
} >>"$out/env.txt" 2>&1
step ENV "done"
echo "== gpu_ntt_test, PRESTAGE_GPU_TEST_NTT_MAX_LOG=22" >>"$out/tests.log"
PRESTAGE_GPU_TEST_NTT_MAX_LOG=22 timeout ${TEST_S:-45} "$bin/gpu_ntt_test" \
  --run_test=ntt_all_variants_match_host_reference,ntt_small_domains_match_host_reference,h_computation_matches_host_reference \
  --log_level=message --report_level=short >>"$out/tests.log" 2>&1
step TEST_NTT "rc=$? (<= 2^22, both modes, split and hi*lo coset, H)"
t=$(($(left) - ${BENCH_RESERVE_S:-60})); [ $t -gt 70 ] && t=70; [ $t -lt 10 ] && t=10
echo "== gpu_ntt_test in place at 2^${LARGE:-27}, limit $t s" >>"$out/tests.log"
PRESTAGE_GPU_TEST_NTT_LARGE_LOGS=${LARGE:-27} PRESTAGE_GPU_TEST_NTT_EXPECT_MIRROR=1 timeout $t \
  "$bin/gpu_ntt_test" --run_test=ntt_large_sizes_in_place_match_host_reference \
  --log_level=message --report_level=short >>"$out/tests.log" 2>&1
step TEST_LARGE "rc=$? (2^${LARGE:-27} in place, limit $t s)"
for ab in A B A B A B; do
  t=$(($(left) - 2)); [ $t -gt 30 ] && t=30
  [ $t -lt ${BENCH_MIN_S:-16} ] && { step "BENCH_$ab" "skipped (budget)"; continue; }
  if [ $ab = A ]; then
    timeout $t "$bin/gpu_bench_base" --rows ntt,h,coset_hilo --ntt-logs 24,27 --max-log 27 \
      --commit base-ea03a08 --out /tmp/base.json >>"$out/bench_base.log" 2>&1
    rc=$?; cat /tmp/base.json >>"$out/gpu_bench_base.json" 2>/dev/null
  else
    timeout $t "$bin/gpu_bench" --rows ntt,h,coset_hilo --ntt-logs 24,27 --max-log 27 \
      --commit "$commit" --out /tmp/branch.json >>"$out/bench_ab.log" 2>&1
    rc=$?; cat /tmp/branch.json >>"$out/gpu_bench_ab.json" 2>/dev/null
  fi
  rm -f /tmp/base.json /tmp/branch.json
  step "BENCH_$ab" "rc=$rc (limit $t s)"
done
grep -E "failure|error|in-place path|SKIP|passed|failed" "$out/tests.log" | head -20
grep -hE "^(fr_ntt|groth16_h)" "$out/bench_ab.log" "$out/bench_base.log" | head -80
