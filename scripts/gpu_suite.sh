#!/usr/bin/env bash
# The whole GPU kernel suite in one command (issue 3): builds (preset gpu), runs the GPU tests at
# full size, runs them again under compute-sanitizer memcheck and racecheck at small sizes, runs
# the benchmark, and writes everything to OUTDIR:
#   env.txt        date, commit, nvidia-smi -q excerpt (GPU, driver, clocks, memory)
#   build.log      configure + build output
#   tests.log      GPU tests (Boost.Test output)
#   sanitizer.log  compute-sanitizer memcheck + racecheck runs
#   bench.log      benchmark table; gpu_bench.json its machine-readable results
#   summary.txt    one line per step: PASS / FAIL / SKIP
# Usage: scripts/gpu_suite.sh OUTDIR [COMMIT]
#   COMMIT: the commit the tree was taken from (the GPU machine's copy has no .git).
#   PRESTAGE_PREBUILT=DIR  use test/bench executables already built in DIR (skip the build)
#   PRESTAGE_SUITE_BENCH_ARGS  extra gpu_bench arguments (e.g. "--max-log 24")
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu_suite.sh OUTDIR [COMMIT]}
commit=${2:-unknown}
mkdir -p "$out"
out=$(cd "$out" && pwd)
summary="$out/summary.txt"
: >"$summary"
t_start=$(date +%s)
step() { echo "$1 $2 (t=$(($(date +%s) - t_start)) s)" | tee -a "$summary"; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  nvidia-smi -q 2>&1 | grep -E -A0 "Driver Version|CUDA Version|Product Name|Product Architecture|Persistence Mode|MIG Mode|Current  |Pending  |Max Clocks|Total|Used|Free|Temp|Power Draw|Graphics|SM   |Memory   " | head -60
} >"$out/env.txt" 2>&1

export PATH=/usr/local/cuda/bin:$PATH
bins=(gpu_ff_device gpu_ff_mont32 gpu_ptx_mul_test gpu_ntt_arith_test gpu_runtime_test gpu_ntt_test
      gpu_inverse_bingcd gpu_msm_test)
prebuilt_ok() {
  for b in "${bins[@]}" gpu_bench; do
    [ -x "$1/$b" ] || return 1
    if ldd "$1/$b" | grep -q "not found"; then return 1; fi
  done
}
if [ -n "${PRESTAGE_PREBUILT:-}" ] && prebuilt_ok "$PRESTAGE_PREBUILT"; then
  bindir=$PRESTAGE_PREBUILT
  echo "prebuilt executables from $bindir (built elsewhere with the same sources)" >"$out/build.log"
  step BUILD "SKIP (prebuilt)"
else
  bindir=build/gpu/bin
  if { cmake --preset gpu && cmake --build --preset gpu -j "$(nproc)" \
         --target "${bins[@]}" gpu_bench; } >"$out/build.log" 2>&1; then
    mkdir -p "$bindir"
    for b in "${bins[@]}"; do cp "$(find build/gpu/tests -name "$b" -type f | head -1)" "$bindir/"; done
    cp build/gpu/gpu/gpu_bench "$bindir/"
    step BUILD PASS
  else
    step BUILD FAIL
    tail -40 "$out/build.log"
    exit 1
  fi
fi

# 1. Tests at full size.
: >"$out/tests.log"
for b in "${bins[@]}"; do
  echo "=== $b" >>"$out/tests.log"
  if timeout 120 "$bindir/$b" --log_level=message --report_level=short >>"$out/tests.log" 2>&1; then
    step "TEST $b" PASS
  else
    step "TEST $b" "FAIL (rc $?)"
  fi
done

# 2. Benchmark (before the sanitizers, so a slow sanitizer run cannot cost the numbers).
# shellcheck disable=SC2086
if timeout 240 "$bindir/gpu_bench" --out "$out/gpu_bench.json" --commit "$commit" \
     ${PRESTAGE_SUITE_BENCH_ARGS:-} >"$out/bench.log" 2>&1; then
  step BENCH PASS
else
  step BENCH "FAIL (rc $?)"
fi
# 3. compute-sanitizer at small sizes.
: >"$out/sanitizer.log"
for tool in memcheck racecheck; do
  # racecheck of gpu_msm_test at MSM 2^10 took 175 s in session 6 (s6-persist-8d473e5), over
  # run 13's 150 s cut: racecheck gets 330 s per binary.
  if [ $tool = memcheck ]; then ntt=12 msm=11 limit=150; else ntt=11 msm=10 limit=330; fi
  for b in "${bins[@]}"; do
    echo "=== $tool $b (NTT 2^$ntt, MSM 2^$msm)" >>"$out/sanitizer.log"
    # gpu_runtime_test provokes CUDA API errors on purpose (out of memory, invalid device) and
    # checks they become exceptions: memcheck would count those as errors (run 2 did), so API
    # error reports are off for it; memory-access checking stays on.
    api=()
    [ "$b" = gpu_runtime_test ] && api=(--report-api-errors no)
    if PRESTAGE_GPU_TEST_NTT_MAX_LOG=$ntt PRESTAGE_GPU_TEST_MSM_MAX_LOG=$msm \
       timeout $limit compute-sanitizer --tool $tool "${api[@]}" --error-exitcode 3 "$bindir/$b" --log_level=message \
       --report_level=short >>"$out/sanitizer.log" 2>&1; then
      step "SANITIZER $tool $b" PASS
    else
      step "SANITIZER $tool $b" "FAIL (rc $?)"
    fi
  done
done

tail -40 "$out/bench.log"
cat "$summary"
