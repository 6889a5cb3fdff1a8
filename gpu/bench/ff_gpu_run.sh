#!/usr/bin/env bash
# One GPU call for the field layer (issue 3, gpu/ff): the field tests, ff_bench (every candidate's
# rate), the SASS instruction counts of ff_bench's kernels, then the kernel tests and a short
# gpu_bench with the defaults as built, all into OUTDIR (8 files, so the device tool returns all):
#   env.txt        date, commit, GPU, driver, clocks (nvidia-smi)
#   tests.log      Boost.Test output of the GPU tests and of compute-sanitizer memcheck on
#                  gpu_ff_mont32, then a PASS/FAIL line per step
#   ff_bench.log / ff_bench.json   candidate rates (gpu/bench/ff_bench.cu)
#   ff_sass.txt    opcode counts per ff_bench kernel (gpu/bench/ff_sass_stats.sh)
#   gpu_bench.log / gpu_bench.json kernels at the new defaults (--quick, up to 2^27)
# Usage: gpu/bench/ff_gpu_run.sh BINDIR OUTDIR COMMIT
#   BINDIR holds gpu_ff_mont32 gpu_ptx_mul_test gpu_ff_device gpu_ntt_test gpu_msm_test ff_bench
#   gpu_bench (built with the same sources, preset ci or gpu, sm_90).
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:?usage: ff_gpu_run.sh BINDIR OUTDIR COMMIT}
out=${2:?usage: ff_gpu_run.sh BINDIR OUTDIR COMMIT}
commit=${3:-unknown}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
} >"$out/env.txt"
results=()
step() {
  results+=("$1 $2")
  echo "$1 $2"
}
: >"$out/tests.log"
for t in gpu_ff_mont32 gpu_ptx_mul_test gpu_ff_device; do
  echo "=== $t" >>"$out/tests.log"
  if timeout 60 "$bin/$t" --log_level=message --report_level=short >>"$out/tests.log" 2>&1; then
    step "TEST $t" PASS
  else
    step "TEST $t" "FAIL (rc $?)"
  fi
done
if timeout 90 "$bin/ff_bench" --out "$out/ff_bench.json" --commit "$commit" >"$out/ff_bench.log" 2>&1; then
  step BENCH_FF PASS
else
  step BENCH_FF "FAIL (rc $?)"
fi
gpu/bench/ff_sass_stats.sh "$bin/ff_bench" rate_kernel >"$out/ff_sass.txt" 2>&1 || step SASS FAIL
for t in gpu_ntt_test gpu_msm_test; do
  echo "=== $t" >>"$out/tests.log"
  if timeout 60 "$bin/$t" --log_level=message --report_level=short >>"$out/tests.log" 2>&1; then
    step "TEST $t" PASS
  else
    step "TEST $t" "FAIL (rc $?)"
  fi
done
if timeout 100 "$bin/gpu_bench" --out "$out/gpu_bench.json" --commit "$commit" --max-log 27 --quick \
     >"$out/gpu_bench.log" 2>&1; then
  step BENCH_KERNELS PASS
else
  step BENCH_KERNELS "FAIL (rc $?)"
fi
# compute-sanitizer memcheck of the field test (after the benchmarks: cannot cost the numbers).
echo "=== compute-sanitizer memcheck gpu_ff_mont32" >>"$out/tests.log"
if timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 "$bin/gpu_ff_mont32" \
     --log_level=message --report_level=short >>"$out/tests.log" 2>&1; then
  step "SANITIZER memcheck gpu_ff_mont32" PASS
else
  step "SANITIZER memcheck gpu_ff_mont32" "FAIL (rc $?)"
fi
printf '%s\n' "${results[@]}" >>"$out/tests.log"
echo "--- ff_bench"
cat "$out/ff_bench.log"
echo "--- gpu_bench"
tail -25 "$out/gpu_bench.log"
