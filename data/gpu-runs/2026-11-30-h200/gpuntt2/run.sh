#!/usr/bin/env bash
# The gpuntt2 measurement on the GPU machine, one call, inside a ~75 s budget:
#  1. tuning sweep (PRESTAGE_NTT_TUNING=row_log:radix:low:blocks, gpu/ntt/gpu_ntt.cu): for each,
#     gpu_ntt_test up to 2^13 (one- and two-pass plans, every variant and H), then the forward
#     NTT at 2^27 (gpu_bench --ntt-logs 27 --forward-only);
#  2. the fastest tuning of the sweep: gpu_ntt_test up to 2^21 (three-pass plans), the butterfly
#     test, and gpu_bench --rows ntt,h (every NTT row and both H reductions at 2^27);
#  3. compute-sanitizer racecheck of gpu_ntt_test at <= 2^10 with that tuning, if time is left.
# Usage: run.sh OUTDIR COMMIT BINDIR   (BINDIR: gpu_ntt_test, gpu_ntt_arith_test, gpu_bench, libs)
# Files (<= 8): env.txt summary.txt sweep.log tests.log bench.log gpu_bench.json sweep_json.tar
# sanitizer.log.
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-75} - ($(date +%s) - t0))); }
mkdir -p "$out" "$out/sweep"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/summary.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, sm_90)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_ntt_test gpu_bench; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|fmt|cudart|boost"; done
} >"$out/env.txt" 2>&1

best="" best_ms=1e9
for t in ${PRESTAGE_RUN_TUNINGS:-9:1:1:2 9:1:2:2 9:1:1:1 9:1:2:1 9:1:3:1 9:2:2:1 8:1:2:2}; do
  [ "$(left)" -lt 40 ] && { step "SKIP $t" "no time"; continue; }
  echo "=== tuning $t" >>"$out/sweep.log"
  PRESTAGE_NTT_TUNING=$t PRESTAGE_GPU_TEST_NTT_MAX_LOG=13 timeout 20 "$bin/gpu_ntt_test" \
    --log_level=error --report_level=short >>"$out/sweep.log" 2>&1
  rc_t=$?
  PRESTAGE_NTT_TUNING=$t timeout 20 "$bin/gpu_bench" --rows ntt --ntt-logs 27 --forward-only \
    --commit "$commit tuning $t" --out "$out/sweep/gpu_bench_${t//:/_}.json" \
    >>"$out/sweep.log" 2>&1
  rc_b=$?
  ms=$(grep -h "^fr_ntt_forward .*n=2^27" "$out/sweep.log" | tail -1 | awk '{print $4}')
  step "TUNE $t" "test rc=$rc_t bench rc=$rc_b forward 2^27 ${ms:-none} ms"
  if [ $rc_t -eq 0 ] && [ $rc_b -eq 0 ] && [ -n "$ms" ] &&
    awk -v a="$ms" -v b="$best_ms" 'BEGIN{exit !(a < b)}'; then
    best=$t best_ms=$ms
  fi
done
(cd "$out" && tar cf sweep_json.tar sweep && rm -rf sweep)
step BEST "${best:-none} $best_ms ms"
[ -n "$best" ] && export PRESTAGE_NTT_TUNING=$best

PRESTAGE_GPU_TEST_NTT_MAX_LOG=21 timeout 30 "$bin/gpu_ntt_test" --log_level=message \
  --report_level=short >"$out/tests.log" 2>&1
step TEST "rc=$? tuning ${best:-default}"
timeout 10 "$bin/gpu_ntt_arith_test" --log_level=message --report_level=short \
  >>"$out/tests.log" 2>&1
step TEST_ARITH "rc=$?"
timeout 30 "$bin/gpu_bench" --rows ntt,h --commit "$commit tuning ${best:-default}" \
  --out "$out/gpu_bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$?"
if [ "$(left)" -gt 12 ]; then
  PRESTAGE_GPU_TEST_NTT_MAX_LOG=10 timeout $(($(left) - 3)) compute-sanitizer --tool racecheck \
    --error-exitcode 3 "$bin/gpu_ntt_test" --log_level=error --report_level=short \
    >"$out/sanitizer.log" 2>&1
  step RACECHECK "rc=$? (<= 2^10, tuning ${best:-default})"
else
  step RACECHECK "skipped: no time"
fi
grep -hE "^(fr_ntt|groth16)|ceilings|products" "$out/bench.log"
cat "$summary"
