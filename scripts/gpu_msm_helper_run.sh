#!/usr/bin/env bash
# One device call of an MSM helper branch, inside a time budget:
#  1. env.txt: date, commit, host, nvidia-smi; then one line per step (name, rc, seconds);
#  2. gpu_msm_test at <= 2^TEST_MAX_LOG (G2 4 less), every case (tests.log); skipped with
#     --test-timeout 0;
#  3. gpu_bench --rows ROWS --max-log MAX_LOG, limited to the budget left less --bench-reserve
#     seconds (bench.log, bench.json; gpu_bench exits 3 when a row's result differs from the
#     default's);
#  4. compute-sanitizer memcheck of gpu_msm_test (memcheck.log), if more than --memcheck-min
#     seconds are left, limited to the budget left less --memcheck-margin: the whole binary, or
#     the cases of --memcheck-cases.
# It replaces the run.sh copies those helpers (G2 reduction, scalars converted once, fixed-base
# MSM: data/gpu-runs/2026-12-01-h200/msm12 to data/gpu-runs/2026-12-01-h200/msm16) kept in their
# record folders; each record's command.txt gives the line that reproduces its call.
# Usage: scripts/gpu_msm_helper_run.sh OUTDIR COMMIT BINDIR [options]
#   BINDIR: gpu_msm_test, gpu_bench and their shared libraries (prebuilt, carried to the device).
#   --budget S            seconds the whole call may take (required)
#   --test-timeout S      gpu_msm_test's limit; 0 skips the tests and the memcheck (default 60)
#   --test-max-log N      PRESTAGE_GPU_TEST_MSM_MAX_LOG of the tests (default 16)
#   --rows ROWS           gpu_bench --rows (required)
#   --max-log N           gpu_bench --max-log (required)
#   --bench-reserve S     seconds kept back from the bench for what follows (default 5)
#   --memcheck-cases L    comma-separated --run_test list; "all" = the whole binary; "none" = no
#                         memcheck (default none)
#   --memcheck-max-log N  PRESTAGE_GPU_TEST_MSM_MAX_LOG under memcheck (default: the test's own)
#   --memcheck-min S      run memcheck only with more than S seconds left (default 15)
#   --memcheck-margin S   memcheck's limit: the seconds left less S (default 5)
#   --memcheck-log-level L  gpu_msm_test --log_level under memcheck (default: none given)
set -uo pipefail
usage() { sed -n 's/^# \{0,1\}//; /^Usage:/,/^set /p' "$0" | sed '$d' >&2; exit 2; }
[ $# -ge 3 ] || usage
out=$1 commit=$2 bin=$3
shift 3
budget="" test_timeout=60 test_max_log=16 rows="" max_log="" bench_reserve=5
mc_cases=none mc_max_log="" mc_min=15 mc_margin=5 mc_log_level=""
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --budget) budget=$2 ;;
    --test-timeout) test_timeout=$2 ;;
    --test-max-log) test_max_log=$2 ;;
    --rows) rows=$2 ;;
    --max-log) max_log=$2 ;;
    --bench-reserve) bench_reserve=$2 ;;
    --memcheck-cases) mc_cases=$2 ;;
    --memcheck-max-log) mc_max_log=$2 ;;
    --memcheck-min) mc_min=$2 ;;
    --memcheck-margin) mc_margin=$2 ;;
    --memcheck-log-level) mc_log_level=$2 ;;
    *) echo "gpu_msm_helper_run: unknown option $1" >&2; usage ;;
  esac
  shift 2
done
[ -n "$budget" ] && [ -n "$rows" ] && [ -n "$max_log" ] || usage
. "$(dirname "$0")/gpu_run_common.sh"
summary="$out/env.txt"
gpu_run_begin "$out" "$bin" "$budget" "$summary"
gpu_run_env "$commit" >>"$summary" 2>&1
step ENV done
if [ "$test_timeout" != 0 ]; then
  PRESTAGE_GPU_TEST_MSM_MAX_LOG=$test_max_log timeout "$test_timeout" "$bin/gpu_msm_test" \
    --log_level=message --report_level=detailed >"$out/tests.log" 2>&1
  step TEST_MSM "rc=$? (<= 2^$test_max_log)"
fi
timeout $(($(left) - bench_reserve)) "$bin/gpu_bench" --rows "$rows" --max-log "$max_log" \
  --commit "$commit" --out "$out/bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$? ($(left) s left)"
if [ "$test_timeout" != 0 ] && [ "$mc_cases" != none ] && [ "$(left)" -gt "$mc_min" ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  args=()
  [ "$mc_cases" != all ] && args+=("--run_test=$mc_cases")
  [ -n "$mc_log_level" ] && args+=("--log_level=$mc_log_level")
  env ${mc_max_log:+PRESTAGE_GPU_TEST_MSM_MAX_LOG=$mc_max_log} timeout $(($(left) - mc_margin)) \
    "$cs" --tool memcheck "$bin/gpu_msm_test" "${args[@]}" >"$out/memcheck.log" 2>&1
  step MEMCHECK "rc=$? ($(left) s left)"
elif [ "$mc_cases" != none ]; then
  step MEMCHECK "skipped ($(left) s left)"
fi
