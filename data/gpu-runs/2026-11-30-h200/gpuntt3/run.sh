#!/usr/bin/env bash
# The gpuntt3 measurement on the GPU machine, one call, inside a ~60 s budget:
#  1. gpu_ff_mont32 (every device product candidate against the host, Fr and Fq);
#  2. ff_bench --fields fr (Fr rows: the new default mul_eo / sqr_sos, with inv from constant
#     memory, beside mul_eo_imm / sqr_sos_imm, the previous immediate form) and the SASS opcode
#     counts of its Fr kernels (gpu/bench/ff_sass_stats.sh);
#  3. NTT tuning sweep (PRESTAGE_NTT_TUNING): per tuning gpu_ntt_test to 2^13, then forward 2^27;
#  4. the fastest: gpu_ntt_test to 2^21, gpu_ntt_arith_test, gpu_bench --rows ntt,h --ntt-logs 24,27.
# Usage: run.sh OUTDIR COMMIT BINDIR  (BINDIR: gpu_ff_mont32 ff_bench gpu_ntt_test
#   gpu_ntt_arith_test gpu_bench and their libraries)
# Files (8): env.txt summary.txt tests.log ff_bench.json ff_sass.txt sweep.log bench.log
#   gpu_bench.json (bench.log holds ff_bench's and gpu_bench's stdout).
set -uo pipefail
out=$1 commit=$2 bin=$3
here=$(cd "$(dirname "$0")" && pwd)
t0=$(date +%s)
left() { echo $((${BUDGET_S:-58} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/summary.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, sm_90)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_ff_mont32 ff_bench gpu_ntt_test gpu_bench; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|fmt|cudart|boost"; done
} >"$out/env.txt" 2>&1

timeout 30 "$bin/gpu_ff_mont32" --log_level=message --report_level=short >"$out/tests.log" 2>&1
step TEST_FF "rc=$?"
timeout 30 "$bin/ff_bench" --fields fr --out "$out/ff_bench.json" --commit "$commit" \
  >"$out/bench.log" 2>&1
step BENCH_FF "rc=$?"
PATH=/usr/local/cuda/bin:$PATH timeout 10 "$here/../../../../gpu/bench/ff_sass_stats.sh" \
  "$bin/ff_bench" 'rate_kernel.*FrConfig' >"$out/ff_sass.txt" 2>&1
step SASS "rc=$?"

best="" best_ms=1e9
for t in ${PRESTAGE_RUN_TUNINGS:-9:1:2:2 9:1:1:2 9:2:2:1}; do
  [ "$(left)" -lt 30 ] && { step "SKIP $t" "no time"; continue; }
  echo "=== tuning $t" >>"$out/sweep.log"
  PRESTAGE_NTT_TUNING=$t PRESTAGE_GPU_TEST_NTT_MAX_LOG=13 timeout 20 "$bin/gpu_ntt_test" \
    --log_level=error --report_level=short >>"$out/sweep.log" 2>&1
  rc_t=$?
  PRESTAGE_NTT_TUNING=$t timeout 20 "$bin/gpu_bench" --rows ntt --ntt-logs 27 --forward-only \
    --commit "$commit tuning $t" --out /dev/null >>"$out/sweep.log" 2>&1
  rc_b=$?
  ms=$(grep -h "^fr_ntt_forward .*n=2^27" "$out/sweep.log" | tail -1 | awk '{print $4}')
  step "TUNE $t" "test rc=$rc_t bench rc=$rc_b forward 2^27 ${ms:-none} ms"
  if [ $rc_t -eq 0 ] && [ $rc_b -eq 0 ] && [ -n "$ms" ] &&
    awk -v a="$ms" -v b="$best_ms" 'BEGIN{exit !(a < b)}'; then
    best=$t best_ms=$ms
  fi
done
step BEST "${best:-none} $best_ms ms"
[ -n "$best" ] && export PRESTAGE_NTT_TUNING=$best

PRESTAGE_GPU_TEST_NTT_MAX_LOG=21 timeout 20 "$bin/gpu_ntt_test" --log_level=message \
  --report_level=short >>"$out/tests.log" 2>&1
step TEST_NTT "rc=$? tuning ${best:-default}"
timeout 10 "$bin/gpu_ntt_arith_test" --log_level=message --report_level=short \
  >>"$out/tests.log" 2>&1
step TEST_ARITH "rc=$?"
timeout $(($(left) > 5 ? $(left) : 5)) "$bin/gpu_bench" --rows ntt,h --ntt-logs 24,27 \
  --commit "$commit tuning ${best:-default}" --out "$out/gpu_bench.json" >>"$out/bench.log" 2>&1
step BENCH "rc=$?"
grep -hE "^(fr_ntt|groth16|fr )|ceilings|products|mul_eo|sqr_sos" "$out/bench.log" | head -40
cat "$summary"
