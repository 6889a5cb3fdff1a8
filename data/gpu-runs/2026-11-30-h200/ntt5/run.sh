#!/usr/bin/env bash
# The ntt5 measurement on the GPU machine, one call, inside a ~120 s budget. Run 1 (27f3b56)
# ran an earlier version (gathered-DIT forward; fr_ntt_*forward_scratch_scatter rows; second
# bench with PRESTAGE_NTT_TUNING=9:1:2:2:0, files bench_group0.log gpu_bench_group0.json);
# run 2 runs this one:
#  1. gpu_ntt_test to 2^21 (every variant in place alone and with a scratch buffer; H both
#     reductions), gpu_ntt_arith_test;
#  2. gpu_bench --rows ntt,h --ntt-logs 20,24,26,27 (fr_ntt_*, fr_ntt_*_scratch rows;
#     groth16_h_circom/textbook at 2^27; groth16_h_input at each size); then the NTT rows at
#     2^27 with PRESTAGE_NTT_TUNING=9:1:2:2:3:1 (2 sub-problems per gathering tile, not 1);
#  3. compute-sanitizer racecheck (<= 2^11: the one-pass plans, the fused bit reversal in place
#     in one block) and memcheck (<= 2^12: also the first two-pass plan, scratch paths) of
#     gpu_ntt_test.
# Usage: run.sh OUTDIR COMMIT BINDIR  (BINDIR: gpu_ntt_test gpu_ntt_arith_test gpu_bench and
#   their libraries). Files (8): env.txt summary.txt tests.log sanitizer.log bench.log
#   gpu_bench.json bench_gather1.log gpu_bench_gather1.json.
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-120} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/summary.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, sm_90)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_ntt_test gpu_ntt_arith_test gpu_bench; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|fmt|cudart|boost"; done
} >"$out/env.txt" 2>&1

PRESTAGE_GPU_TEST_NTT_MAX_LOG=21 timeout 30 "$bin/gpu_ntt_test" --log_level=message \
  --report_level=short >"$out/tests.log" 2>&1
step TEST_NTT "rc=$? (<= 2^21)"
timeout 10 "$bin/gpu_ntt_arith_test" --log_level=message --report_level=short \
  >>"$out/tests.log" 2>&1
step TEST_ARITH "rc=$?"
timeout 50 "$bin/gpu_bench" --rows ntt,h --ntt-logs 20,24,26,27 --commit "$commit" \
  --out "$out/gpu_bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$?"
PRESTAGE_NTT_TUNING=9:1:2:2:3:1 timeout 25 "$bin/gpu_bench" --rows ntt --ntt-logs 27 \
  --commit "$commit" --out "$out/gpu_bench_gather1.json" >"$out/bench_gather1.log" 2>&1
step BENCH_GATHER1 "rc=$? (gather_group 1: 2 sub-problems per gathering tile)"
t=$(($(left) / 2)); [ $t -lt 5 ] && t=5
PRESTAGE_GPU_TEST_NTT_MAX_LOG=11 timeout $t compute-sanitizer --tool racecheck --error-exitcode 3 \
  "$bin/gpu_ntt_test" --log_level=error --report_level=short >"$out/sanitizer.log" 2>&1
step RACECHECK "rc=$? (<= 2^11)"
t=$(($(left) - 2)); [ $t -lt 5 ] && t=5
PRESTAGE_GPU_TEST_NTT_MAX_LOG=12 timeout $t compute-sanitizer --tool memcheck --error-exitcode 3 \
  "$bin/gpu_ntt_test" --log_level=error --report_level=short >>"$out/sanitizer.log" 2>&1
step MEMCHECK "rc=$? (<= 2^12)"
grep -hE "^(fr_ntt|groth16|fr )|ceilings|products" "$out/bench.log" "$out/bench_gather1.log" | head -70
cat "$summary"
