#!/usr/bin/env bash
# The gpuntt measurement on the GPU machine, one call: NTT/H tests, the NTT and H benchmark rows
# (this branch, then the baseline kernels of 073ab11 with the same driver), the kernel tunings,
# then compute-sanitizer racecheck and memcheck of the NTT test at small sizes. Each step has a
# time limit so the whole call fits its device-time share.
# Usage: run.sh OUTDIR COMMIT BINDIR   (BINDIR: gpu_ntt_test, gpu_bench, gpu_bench_old, libs)
set -uo pipefail
out=$1 commit=$2 bin=$3
mkdir -p "$out" "$out/tune"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/summary.txt"
step() { echo "$1 $2" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, sm_90)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_ntt_test gpu_bench; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|fmt|cudart|boost"; done
} >"$out/env.txt" 2>&1

PRESTAGE_GPU_TEST_NTT_MAX_LOG=21 timeout 90 "$bin/gpu_ntt_test" --log_level=message \
  --report_level=short >"$out/tests.log" 2>&1
step TEST "rc=$?"
if [ -x "$bin/gpu_ntt_arith_test" ]; then
  timeout 30 "$bin/gpu_ntt_arith_test" --log_level=message --report_level=short \
    >>"$out/tests.log" 2>&1
  step TEST_ARITH "rc=$?"
fi
timeout 50 "$bin/gpu_bench" --rows ntt,h --commit "$commit" --out "$out/gpu_bench.json" \
  >"$out/bench.log" 2>&1
step BENCH "rc=$?"
if [ -x "$bin/gpu_bench_old" ]; then
  timeout 50 "$bin/gpu_bench_old" --rows ntt,h --commit "073ab11 (baseline kernels)" \
    --out "$out/gpu_bench_old.json" >"$out/bench_old.log" 2>&1
  step BENCH_OLD "rc=$?"
fi
# Kernel tunings (PRESTAGE_NTT_TUNING=row_log:radix, gpu/ntt/gpu_ntt.cu): test at 2^16, bench.
for t in ${PRESTAGE_RUN_TUNINGS:-9:2 9:3}; do
  echo "=== tuning $t" >>"$out/tuning.log"
  PRESTAGE_NTT_TUNING=$t PRESTAGE_GPU_TEST_NTT_MAX_LOG=16 timeout 30 "$bin/gpu_ntt_test" \
    --log_level=message --report_level=short >>"$out/tuning.log" 2>&1
  step "TUNE_TEST $t" "rc=$?"
  PRESTAGE_NTT_TUNING=$t timeout 30 "$bin/gpu_bench" --rows ${PRESTAGE_RUN_TUNING_ROWS:-ntt} \
    --commit "$commit tuning $t" \
    --out "$out/tune/gpu_bench_${t/:/_}.json" >>"$out/tuning.log" 2>&1
  step "TUNE $t" "rc=$?"
done
(cd "$out" && tar cf tuning_json.tar tune && rm -rf tune)
{
  for tool in racecheck memcheck; do
    echo "=== $tool (PRESTAGE_GPU_TEST_NTT_MAX_LOG=11)"
    PRESTAGE_GPU_TEST_NTT_MAX_LOG=11 timeout 40 compute-sanitizer --tool $tool \
      --error-exitcode 3 "$bin/gpu_ntt_test" --log_level=message --report_level=short 2>&1 | tail -25
    echo "rc=${PIPESTATUS[0]}"
  done
} >"$out/sanitizer.log" 2>&1
step SANITIZER "$(grep -c '^rc=0' "$out/sanitizer.log")/2 passed"
grep -hE "^(fr_ntt|groth16)|ceilings|===" "$out/bench.log" "$out/tuning.log"
cat "$summary"
