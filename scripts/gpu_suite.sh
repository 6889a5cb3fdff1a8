#!/usr/bin/env bash
# The whole GPU kernel suite in one command (issue 3): builds (preset gpu), runs the GPU tests at
# full size, runs them again under compute-sanitizer memcheck and racecheck at small sizes, runs
# the benchmark, and writes everything to OUTDIR:
#   env.txt        date, commit, nvidia-smi -q excerpt (GPU, driver, clocks, memory)
#   build.log      configure + build output
#   tests.log      GPU tests (Boost.Test output)
#   sanitizer.log  compute-sanitizer memcheck + racecheck runs (parallel jobs, see step 3)
#   bench.log      benchmark table; gpu_bench.json its machine-readable results
#   prove_bench.log / .json  Groth16 proof time, host vs GPU prover (when prove_bench is built)
#   summary.txt    one line per step: PASS / FAIL / SKIP
# Usage: scripts/gpu_suite.sh OUTDIR [COMMIT]
#   COMMIT: the commit the tree was taken from (the GPU machine's copy has no .git).
#   PRESTAGE_PREBUILT=DIR  use test/bench executables already built in DIR (skip the build)
#   PRESTAGE_SUITE_BENCH_ARGS  extra gpu_bench arguments (e.g. "--max-log 24")
#   PRESTAGE_SUITE_SKIP_BENCH=1  tests and sanitizers only (a re-check after a test fix)
#   PRESTAGE_SUITE_SKIP_TESTS=1 / PRESTAGE_SUITE_SKIP_SANITIZERS=1  leave out step 1 / step 3
#     (the suite split over two device calls when the bench and the sanitizers together would
#     pass one call's 10 minutes)
#   PRESTAGE_SUITE_RACECHECK_LIMIT  seconds a racecheck job may take (default 360)
#   PRESTAGE_SUITE_MEMCHECK_LIMIT   seconds a memcheck job may take (default 300)
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
      gpu_inverse_bingcd gpu_msm_test gpu_groth16_test)
prebuilt_ok() {  # the test executables, and gpu_bench unless the bench is skipped
  local need=("${bins[@]}")
  [ "${PRESTAGE_SUITE_SKIP_BENCH:-0}" = 1 ] || need+=(gpu_bench)
  for b in "${need[@]}"; do
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
         --target "${bins[@]}" gpu_bench prove_bench; } >"$out/build.log" 2>&1; then
    mkdir -p "$bindir"
    for b in "${bins[@]}"; do cp "$(find build/gpu/tests -name "$b" -type f | head -1)" "$bindir/"; done
    cp build/gpu/gpu/gpu_bench build/gpu/gpu/prove_bench "$bindir/"
    step BUILD PASS
  else
    step BUILD FAIL
    tail -40 "$out/build.log"
    exit 1
  fi
fi

# 1. Tests at full size.
: >"$out/tests.log"
[ "${PRESTAGE_SUITE_SKIP_TESTS:-0}" = 1 ] && step TESTS "SKIP (PRESTAGE_SUITE_SKIP_TESTS)"
for b in "${bins[@]}"; do
  [ "${PRESTAGE_SUITE_SKIP_TESTS:-0}" = 1 ] && break
  echo "=== $b" >>"$out/tests.log"
  if timeout 120 "$bindir/$b" --log_level=message --report_level=short >>"$out/tests.log" 2>&1; then
    step "TEST $b" PASS
  else
    step "TEST $b" "FAIL (rc $?)"
  fi
done

# 2. Benchmark (before the sanitizers, so a slow sanitizer run cannot cost the numbers).
# shellcheck disable=SC2086
if [ "${PRESTAGE_SUITE_SKIP_BENCH:-0}" = 1 ]; then
  step BENCH "SKIP (PRESTAGE_SUITE_SKIP_BENCH)"
elif timeout 240 "$bindir/gpu_bench" --out "$out/gpu_bench.json" --commit "$commit" \
     ${PRESTAGE_SUITE_BENCH_ARGS:-} >"$out/bench.log" 2>&1; then
  step BENCH PASS
else
  step BENCH "FAIL (rc $?)"
fi
# 2b. The Groth16 prover end to end, host vs GPU (prove_bench; exits 3 when a GPU proof differs
# from the host proof): 2^16-2^20, ~50 s on the H200 (prover1, data/gpu-runs/2026-12-01-h200).
if [ "${PRESTAGE_SUITE_SKIP_BENCH:-0}" = 1 ]; then
  :
elif [ ! -x "$bindir/prove_bench" ]; then
  step PROVE_BENCH "SKIP (no prove_bench in $bindir)"
elif timeout 240 "$bindir/prove_bench" --log 16,18,20 --runs 3 --commit "$commit" \
     --out "$out/prove_bench.json" >"$out/prove_bench.log" 2>&1; then
  step PROVE_BENCH PASS
else
  step PROVE_BENCH "FAIL (rc $?)"
fi
# 3. compute-sanitizer at small sizes. Run 15 (2f0c6f7) ran the 16 runs one after another and
# gpu_msm_test's racecheck stopped at its 330 s limit after 4 of its 10 cases: now every
# (tool, binary) is one job, gpu_msm_test's racecheck one job per test case (--run_test), and the
# jobs run in parallel on the one GPU, each with
# its own limit. gpu_runtime_test provokes out-of-memory on purpose, so it runs alone, first.
# Run 17 (cd9d838): 10 of gpu_msm_test's 11 cases completed racecheck clean in parallel (the
# longest 299 s); memcheck of the whole binary was cut at 150 s: now one memcheck job a case too.
# Logs: one file per job, concatenated into sanitizer.log in a fixed order; summary lines too.
: >"$out/sanitizer.log"
san_dir=$(mktemp -d) || { echo "gpu_suite: cannot create a temporary folder" >&2; exit 1; }
san_jobs=()  # "tool bin case" (case "-" = the whole binary)
san_tools=(memcheck racecheck)
if [ "${PRESTAGE_SUITE_SKIP_SANITIZERS:-0}" = 1 ]; then
  step SANITIZERS "SKIP (PRESTAGE_SUITE_SKIP_SANITIZERS)"
  san_tools=()
fi
for tool in "${san_tools[@]}"; do
  for b in "${bins[@]}"; do
    if [ "$b" = gpu_msm_test ]; then
      cases=$("$bindir/$b" --list_content 2>&1 | sed -n 's/^ *\([A-Za-z0-9_]*\)\*$/\1/p')
      if [ -z "$cases" ]; then san_jobs+=("$tool $b -"); continue; fi
      for c in $cases; do san_jobs+=("$tool $b $c"); done
    else
      san_jobs+=("$tool $b -")
    fi
  done
done
san_run() {  # tool bin case -> exit status; log in $san_dir/tool.bin.case.log
  local tool=$1 b=$2 c=$3 ntt msm limit
  # memcheck: NTT 2^12, MSM 2^11, prover 2^10; racecheck: NTT 2^11, MSM 2^10, prover 2^7 (a case of
  # gpu_msm_test alone: session 6 needed 175 s for the whole binary at MSM 2^10).
  # memcheck of gpu_msm_test (one job a case from run 18 on): the whole binary took 27 s alone
  # (run 15) but was cut at 150 s among run 17's 23 parallel jobs.
  local prove
  if [ "$tool" = memcheck ]; then ntt=12 msm=11 prove=10 limit=${PRESTAGE_SUITE_MEMCHECK_LIMIT:-300}; else ntt=11 msm=10 prove=7 limit=${PRESTAGE_SUITE_RACECHECK_LIMIT:-360}; fi
  local log="$san_dir/$tool.$b.$c.log" sel=() api=()
  [ "$c" != - ] && sel=(--run_test="$c")
  # gpu_runtime_test provokes CUDA API errors on purpose (out of memory, invalid device) and
  # checks they become exceptions: memcheck would count those as errors (run 2 did), so API
  # error reports are off for it; memory-access checking stays on.
  [ "$b" = gpu_runtime_test ] && api=(--report-api-errors no)
  {
    echo "=== $tool $b${sel:+ ${sel[*]}} (NTT 2^$ntt, MSM 2^$msm, prover 2^$prove, limit $limit s)"
    local t0 rc
    t0=$(date +%s)
    PRESTAGE_GPU_TEST_NTT_MAX_LOG=$ntt PRESTAGE_GPU_TEST_MSM_MAX_LOG=$msm PRESTAGE_GPU_TEST_PROVE_MAX_LOG=$prove \
      timeout $limit compute-sanitizer --tool "$tool" "${api[@]}" --error-exitcode 3 \
      "$bindir/$b" "${sel[@]}" --log_level=message --report_level=short 2>&1
    rc=$?
    echo "--- rc $rc after $(($(date +%s) - t0)) s"
    return $rc
  } >"$log" 2>&1
}
# All jobs at once by default (40 in run 18: gpu_msm_test has 13 cases), so the
# step takes at most one job's limit and the suite stays inside one 10-minute call.
san_parallel=${PRESTAGE_SUITE_SANITIZER_JOBS:-${#san_jobs[@]}}
for job in "${san_jobs[@]}"; do
  read -r tool b c <<<"$job"
  if [ "$b" = gpu_runtime_test ]; then
    san_run "$tool" "$b" "$c"
    echo $? >"$san_dir/$tool.$b.$c.rc"
  fi
done
for job in "${san_jobs[@]}"; do
  read -r tool b c <<<"$job"
  [ "$b" = gpu_runtime_test ] && continue
  while [ "$(jobs -rp | wc -l)" -ge "$san_parallel" ]; do wait -n; done
  (san_run "$tool" "$b" "$c"; echo $? >"$san_dir/$tool.$b.$c.rc") &
done
wait
for job in "${san_jobs[@]}"; do
  read -r tool b c <<<"$job"
  cat "$san_dir/$tool.$b.$c.log" >>"$out/sanitizer.log"
  rc=$(cat "$san_dir/$tool.$b.$c.rc" 2>/dev/null || echo missing)
  name="SANITIZER $tool $b"
  [ "$c" != - ] && name="$name:$c"
  if [ "$rc" = 0 ]; then step "$name" PASS; else step "$name" "FAIL (rc $rc)"; fi
done
rm -rf "${san_dir:?}"  # its own mktemp -d folder

tail -40 "$out/bench.log"
cat "$summary"
