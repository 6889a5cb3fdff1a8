#!/usr/bin/env bash
# One device call of an NTT measurement, inside a time budget:
#  1. env.txt: date, commit, host, nvidia-smi, the executables' libraries; summary.txt: one line
#     per step (name, rc, seconds);
#  2. gpu_ntt_test at <= 2^TEST_MAX_LOG and gpu_ntt_arith_test (tests.log);
#  3. gpu_bench --rows ntt,h --ntt-logs LOGS (bench.log, gpu_bench.json); optionally a second
#     bench of the NTT rows under PRESTAGE_NTT_TUNING=T (bench_NAME.log, gpu_bench_NAME.json);
#  4. compute-sanitizer racecheck of gpu_ntt_test at <= 2^RACE_MAX_LOG in half the budget left,
#     then memcheck at <= 2^MEM_MAX_LOG in the rest (sanitizer.log).
# It replaces the run.sh copies those measurements (the fused bit reversal:
# data/gpu-runs/2026-11-30-h200/gpuntt4, data/gpu-runs/2026-11-30-h200/ntt5) kept in their record
# folders; each record's command.txt gives the line that reproduces its call.
# Usage: scripts/gpu_ntt_run.sh OUTDIR COMMIT BINDIR [options]
#   BINDIR: gpu_ntt_test, gpu_ntt_arith_test, gpu_bench and their shared libraries (carried).
#   --budget S            seconds the whole call may take (required)
#   --test-max-log N      PRESTAGE_GPU_TEST_NTT_MAX_LOG of the tests (default 21)
#   --test-timeout S      gpu_ntt_test's limit (default 25)
#   --bench-logs L        gpu_bench --ntt-logs (default 24,27)
#   --bench-timeout S     gpu_bench's limit (default 30)
#   --tuning-bench T:LOGS:S:NAME  the second bench: tuning T, --ntt-logs LOGS, limit S, files
#                         named NAME (default: none)
#   --race-max-log N      racecheck's PRESTAGE_GPU_TEST_NTT_MAX_LOG (default 11)
#   --mem-max-log N       memcheck's PRESTAGE_GPU_TEST_NTT_MAX_LOG (default 12)
set -uo pipefail
usage() { sed -n 's/^# \{0,1\}//; /^Usage:/,/^set /p' "$0" | sed '$d' >&2; exit 2; }
[ $# -ge 3 ] || usage
out=$1 commit=$2 bin=$3
shift 3
budget="" test_max_log=21 test_timeout=25 bench_logs=24,27 bench_timeout=30 tuning_bench=""
race_max_log=11 mem_max_log=12
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --budget) budget=$2 ;;
    --test-max-log) test_max_log=$2 ;;
    --test-timeout) test_timeout=$2 ;;
    --bench-logs) bench_logs=$2 ;;
    --bench-timeout) bench_timeout=$2 ;;
    --tuning-bench) tuning_bench=$2 ;;
    --race-max-log) race_max_log=$2 ;;
    --mem-max-log) mem_max_log=$2 ;;
    *) echo "gpu_ntt_run: unknown option $1" >&2; usage ;;
  esac
  shift 2
done
[ -n "$budget" ] || usage
. "$(dirname "$0")/gpu_run_common.sh"
summary="$out/summary.txt"
gpu_run_begin "$out" "$bin" "$budget" "$summary"
{
  gpu_run_env "$commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, sm_90)"
  for b in gpu_ntt_test gpu_ntt_arith_test gpu_bench; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|fmt|cudart|boost"; done
} >"$out/env.txt" 2>&1

PRESTAGE_GPU_TEST_NTT_MAX_LOG=$test_max_log timeout "$test_timeout" "$bin/gpu_ntt_test" \
  --log_level=message --report_level=short >"$out/tests.log" 2>&1
step TEST_NTT "rc=$? (<= 2^$test_max_log)"
timeout 10 "$bin/gpu_ntt_arith_test" --log_level=message --report_level=short \
  >>"$out/tests.log" 2>&1
step TEST_ARITH "rc=$?"
timeout "$bench_timeout" "$bin/gpu_bench" --rows ntt,h --ntt-logs "$bench_logs" --commit "$commit" \
  --out "$out/gpu_bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$?"
logs=("$out/bench.log")
if [ -n "$tuning_bench" ]; then
  IFS=: read -r -a tb <<<"$tuning_bench"
  # T itself holds colons: the last three fields are LOGS, S and NAME.
  n=${#tb[@]}
  name=${tb[n - 1]} secs=${tb[n - 2]} tlogs=${tb[n - 3]}
  tuning=$(IFS=:; echo "${tb[*]:0:n-3}")
  PRESTAGE_NTT_TUNING=$tuning timeout "$secs" "$bin/gpu_bench" --rows ntt --ntt-logs "$tlogs" \
    --commit "$commit" --out "$out/gpu_bench_$name.json" >"$out/bench_$name.log" 2>&1
  step "BENCH_${name^^}" "rc=$? (PRESTAGE_NTT_TUNING=$tuning)"
  logs+=("$out/bench_$name.log")
fi
t=$(($(left) / 2)); [ $t -lt 5 ] && t=5
PRESTAGE_GPU_TEST_NTT_MAX_LOG=$race_max_log timeout $t compute-sanitizer --tool racecheck \
  --error-exitcode 3 "$bin/gpu_ntt_test" --log_level=error --report_level=short \
  >"$out/sanitizer.log" 2>&1
step RACECHECK "rc=$? (<= 2^$race_max_log)"
t=$(($(left) - 2)); [ $t -lt 5 ] && t=5
PRESTAGE_GPU_TEST_NTT_MAX_LOG=$mem_max_log timeout $t compute-sanitizer --tool memcheck \
  --error-exitcode 3 "$bin/gpu_ntt_test" --log_level=error --report_level=short \
  >>"$out/sanitizer.log" 2>&1
step MEMCHECK "rc=$? (<= 2^$mem_max_log)"
grep -hE "^(fr_ntt|groth16|fr )|ceilings|products" "${logs[@]}" | head -70
cat "$summary"
