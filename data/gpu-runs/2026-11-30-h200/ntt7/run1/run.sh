#!/usr/bin/env bash
# The ntt7 measurement on the GPU machine, one call (BUDGET_S, default 280 s); ntt6/run2/run.sh
# with builds AND tunings as variants:
#  1. gpu_ntt_test to 2^21 (includes 2^20, whose column pass has the 4-column tiles of 2^26-2^27)
#     and gpu_ntt_arith_test of the candidate build ($bin), once per tuning in TEST_TUNINGS
#     ("default" = no PRESTAGE_NTT_TUNING), and gpu_ntt_test of each "dir@tuning" in TEST_VARIANTS;
#  2. the variants in VARIANTS ("name=dir@tuning": $bin/dir/gpu_bench, dir "." = $bin, tuning
#     "default" or a PRESTAGE_NTT_TUNING value) alternated in one call so machine drift cancels:
#     gpu_bench --rows ntt,h --ntt-logs 27, ROUNDS rounds;
#  3. the candidate's full rows (PRESTAGE_NTT_TUNING=$FULL_TUNING unless "default"):
#     gpu_bench --rows ntt,h --ntt-logs 20,24,26,27;
#  4. a forward-only sweep (2^27) of the tunings in SWEEP on $bin;
#  5. compute-sanitizer racecheck (<= 2^11) and memcheck (<= 2^12) of the candidate's
#     gpu_ntt_test, once per tuning in SAN_TUNINGS.
# Usage: run.sh OUTDIR COMMIT BINDIR. Files (8): env.txt summary.txt tests.log ab.log
#   ab_json.tar.gz bench.log gpu_bench.json sanitizer.log (the sweep goes into ab.log).
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-280} - ($(date +%s) - t0))); }
mkdir -p "$out" "$out/ab"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/summary.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
# wt TUNING CMD...: CMD with PRESTAGE_NTT_TUNING=TUNING, or unset for "default" (an empty value
# is an error in gpu_ntt.cu's parser).
wt() {
  local t=$1; shift
  if [ "$t" = default ]; then env -u PRESTAGE_NTT_TUNING "$@"; else PRESTAGE_NTT_TUNING=$t "$@"; fi
}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, sm_90)"
  echo "variants: ${VARIANTS:-}; tested: ${TEST_TUNINGS:-} / ${TEST_VARIANTS:-}"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_ntt_test gpu_ntt_arith_test gpu_bench; do
    echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|cudart"; done
} >"$out/env.txt" 2>&1

: >"$out/tests.log"
for t in ${TEST_TUNINGS:-default}; do
  echo "== . @ $t" >>"$out/tests.log"
  wt "$t" env PRESTAGE_GPU_TEST_NTT_MAX_LOG=21 timeout 40 "$bin/gpu_ntt_test" \
    --log_level=message --report_level=short >>"$out/tests.log" 2>&1
  step TEST_NTT "$t rc=$? (<= 2^21)"
done
timeout 15 "$bin/gpu_ntt_arith_test" --log_level=message --report_level=short \
  >>"$out/tests.log" 2>&1
step TEST_ARITH "rc=$?"
for v in ${TEST_VARIANTS:-}; do
  d=${v%@*} t=${v#*@}
  echo "== $d @ $t" >>"$out/tests.log"
  wt "$t" env PRESTAGE_GPU_TEST_NTT_MAX_LOG=21 timeout 40 \
    "$bin/$d/gpu_ntt_test" --log_level=message --report_level=short >>"$out/tests.log" 2>&1
  step TEST_NTT_$d "$t rc=$? (<= 2^21)"
done

for round in $(seq 1 "${ROUNDS:-3}"); do
  for v in ${VARIANTS:-}; do
    name=${v%%=*} rest=${v#*=}
    d=${rest%@*} t=${rest#*@}
    wt "$t" env timeout 40 "$bin/$d/gpu_bench" --rows ntt,h --ntt-logs 27 \
      --commit "$name" --out "$out/ab/${name}_$round.json" >"$out/ab/${name}_$round.log" 2>&1
    step AB "$name round $round rc=$?"
    grep -hE "^(fr_ntt|groth16)" "$out/ab/${name}_$round.log" | sed "s/^/$name $round /" >>"$out/ab.log"
  done
done

wt "${FULL_TUNING:-default}" env timeout 60 "$bin/gpu_bench" --rows ntt,h \
  --ntt-logs 20,24,26,27 --commit "$commit" --out "$out/gpu_bench.json" >"$out/bench.log" 2>&1
step BENCH "${FULL_TUNING:-default} rc=$?"

for t in ${SWEEP:-}; do
  PRESTAGE_NTT_TUNING=$t timeout 30 "$bin/gpu_bench" --rows ntt --ntt-logs 27 --forward-only \
    --commit "$commit" --out "$out/ab/sweep_$t.json" >"$out/ab/sweep_$t.log" 2>&1
  step SWEEP "$t rc=$?"
  grep -hE "^fr_ntt" "$out/ab/sweep_$t.log" | sed "s/^/sweep $t /" >>"$out/ab.log"
done
tar -czf "$out/ab_json.tar.gz" -C "$out" ab && rm -rf "$out/ab"

: >"$out/sanitizer.log"
for t in ${SAN_TUNINGS:-default}; do
  echo "== racecheck @ $t" >>"$out/sanitizer.log"
  wt "$t" env PRESTAGE_GPU_TEST_NTT_MAX_LOG=11 timeout 60 compute-sanitizer \
    --tool racecheck --error-exitcode 3 "$bin/gpu_ntt_test" --log_level=error \
    --report_level=short >>"$out/sanitizer.log" 2>&1
  step RACECHECK "$t rc=$? (<= 2^11)"
  echo "== memcheck @ $t" >>"$out/sanitizer.log"
  wt "$t" env PRESTAGE_GPU_TEST_NTT_MAX_LOG=12 timeout 60 compute-sanitizer \
    --tool memcheck --error-exitcode 3 "$bin/gpu_ntt_test" --log_level=error \
    --report_level=short >>"$out/sanitizer.log" 2>&1
  step MEMCHECK "$t rc=$? (<= 2^12)"
done
grep -hE "^(fr_ntt|groth16)" "$out/bench.log" | head -40
cat "$summary"
