#!/usr/bin/env bash
# The ntt6 measurement on the GPU machine, one call (BUDGET_S, default 200 s). Run 1 ran
# run1/run.sh (five fixed builds); run 2 runs this one:
#  1. gpu_ntt_test to 2^21 (includes 2^20, whose column pass has the 4-column tiles of 2^26-2^27)
#     and gpu_ntt_arith_test (device butterflies, the lazy DIF among them, against the host) of
#     the candidate build ($bin), and gpu_ntt_test of each build in TEST_VARIANTS;
#  2. the builds in VARIANTS alternated in one call so machine drift cancels: gpu_bench --rows
#     ntt,h --ntt-logs 27 of $bin/<variant>/gpu_bench, ROUNDS rounds;
#  3. the candidate's full rows: gpu_bench --rows ntt,h --ntt-logs 20,24,26,27;
#  4. a sweep (forward only, 2^27) of PRESTAGE_NTT_TUNING values in SWEEP for each variant in
#     SWEEP_VARIANTS;
#  5. compute-sanitizer racecheck (<= 2^11) and memcheck (<= 2^12) of the candidate's gpu_ntt_test.
# Usage: run.sh OUTDIR COMMIT BINDIR. Files (8): env.txt summary.txt tests.log ab.log
#   ab_json.tar.gz bench.log gpu_bench.json sanitizer.log (the sweep goes into ab.log).
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-200} - ($(date +%s) - t0))); }
mkdir -p "$out" "$out/ab"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/summary.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, sm_90)"
  echo "variants: ${VARIANTS:-}; tested: ${TEST_VARIANTS:-}"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_ntt_test gpu_ntt_arith_test gpu_bench; do
    echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|cudart"; done
} >"$out/env.txt" 2>&1

PRESTAGE_GPU_TEST_NTT_MAX_LOG=21 timeout 40 "$bin/gpu_ntt_test" --log_level=message \
  --report_level=short >"$out/tests.log" 2>&1
step TEST_NTT "rc=$? (<= 2^21)"
timeout 15 "$bin/gpu_ntt_arith_test" --log_level=message --report_level=short \
  >>"$out/tests.log" 2>&1
step TEST_ARITH "rc=$?"
for v in ${TEST_VARIANTS:-}; do
  echo "== $v" >>"$out/tests.log"
  PRESTAGE_GPU_TEST_NTT_MAX_LOG=21 timeout 40 "$bin/$v/gpu_ntt_test" --log_level=message \
    --report_level=short >>"$out/tests.log" 2>&1
  step TEST_NTT_$v "rc=$? (<= 2^21)"
done

for round in $(seq 1 "${ROUNDS:-3}"); do
  for v in ${VARIANTS:-}; do
    timeout 40 "$bin/$v/gpu_bench" --rows ntt,h --ntt-logs 27 --commit "$v" \
      --out "$out/ab/${v}_$round.json" >"$out/ab/${v}_$round.log" 2>&1
    step AB "$v round $round rc=$?"
    grep -hE "^(fr_ntt|groth16)" "$out/ab/${v}_$round.log" | sed "s/^/$v $round /" >>"$out/ab.log"
  done
done

timeout 60 "$bin/gpu_bench" --rows ntt,h --ntt-logs 20,24,26,27 --commit "$commit" \
  --out "$out/gpu_bench.json" >"$out/bench.log" 2>&1
step BENCH "rc=$?"

for v in ${SWEEP_VARIANTS:-}; do
  for tun in ${SWEEP:-}; do
    PRESTAGE_NTT_TUNING=$tun timeout 30 "$bin/$v/gpu_bench" --rows ntt --ntt-logs 27 \
      --forward-only --commit "$v" --out "$out/ab/sweep_${v}_$tun.json" \
      >"$out/ab/sweep_${v}_$tun.log" 2>&1
    step SWEEP "$v $tun rc=$?"
    grep -hE "^fr_ntt" "$out/ab/sweep_${v}_$tun.log" | sed "s/^/sweep $v $tun /" >>"$out/ab.log"
  done
done
tar -czf "$out/ab_json.tar.gz" -C "$out" ab && rm -rf "$out/ab"

t=$(($(left) / 2)); [ $t -lt 10 ] && t=10
PRESTAGE_GPU_TEST_NTT_MAX_LOG=11 timeout $t compute-sanitizer --tool racecheck --error-exitcode 3 \
  "$bin/gpu_ntt_test" --log_level=error --report_level=short >"$out/sanitizer.log" 2>&1
step RACECHECK "rc=$? (<= 2^11)"
t=$(($(left) - 2)); [ $t -lt 10 ] && t=10
PRESTAGE_GPU_TEST_NTT_MAX_LOG=12 timeout $t compute-sanitizer --tool memcheck --error-exitcode 3 \
  "$bin/gpu_ntt_test" --log_level=error --report_level=short >>"$out/sanitizer.log" 2>&1
step MEMCHECK "rc=$? (<= 2^12)"
grep -hE "^(fr_ntt|groth16)" "$out/bench.log" | head -40
cat "$out/ab.log" "$summary"
