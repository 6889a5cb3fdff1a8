#!/usr/bin/env bash
# The msm8 measurement on the GPU machine, one call, inside a time budget (BUDGET_S, 300 s):
#  1. env.txt: date, commit, nvidia-smi, ldd;
#  2. gpu_msm_test (to 2^MAXLOG G1, default 16; G2 up to 4 less): nine paths a case;
#  3. A/B, alternating main's gpu_bench (BINDIR/gpu_bench_main, 8d473e5) and this branch's, each
#     `--rows g1_msm,g2_msm --max-log 24`, twice (A B A B), so machine drift shows as A-vs-A;
#  4. while the budget lasts (keeping MEMCHECK_S for step 5): this branch's `--rows AB8_ROWS
#     --max-log AB8_LOG` (msm_affine_ab8, 26; run 2: msm_affine_ab8b);
#  5. MEMCHECK=1: compute-sanitizer memcheck of gpu_msm_test at <= 2^11.
# Usage: run.sh OUTDIR COMMIT BINDIR (gpu_msm_test gpu_bench gpu_bench_main libcudart.so.13
#   libyaml-cpp.so.0.7). Files (at most 8 come back from the device machine; runs 1 and 2 wrote
#   9 and lost tests.log): env.txt (with the steps' summary) tests.log bench_main.log
#   gpu_bench_main.json bench_ab.log gpu_bench_ab.json (JSON documents one after another)
#   ab8.log ab8.json.
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-300} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH=/usr/local/cuda/bin:$PATH
summary="$out/env.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, preset ci, sm_90)"
  echo "gpu_bench_main: main's ci build of 8d473e5 (/work/briefs/s6/gpu_bench_main_8d473e5)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_msm_test gpu_bench gpu_bench_main; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|cudart"; done
} >>"$out/env.txt" 2>&1
step ENV "done"
PRESTAGE_GPU_TEST_MSM_MAX_LOG=${MAXLOG:-16} timeout ${TEST_S:-90} "$bin/gpu_msm_test" \
  --log_level=message --report_level=detailed >"$out/tests.log" 2>&1
step TEST_MSM "rc=$? (<= 2^${MAXLOG:-16})"
for ab in A B A B; do
  if [ $ab = A ]; then
    timeout 50 "$bin/gpu_bench_main" --rows g1_msm,g2_msm --max-log 24 --commit main-8d473e5 \
      --out /tmp/main.json >>"$out/bench_main.log" 2>&1
    rc=$?; cat /tmp/main.json >>"$out/gpu_bench_main.json"
  else
    timeout 50 "$bin/gpu_bench" --rows g1_msm,g2_msm --max-log 24 --commit "$commit" \
      --out /tmp/branch.json >>"$out/bench_ab.log" 2>&1
    rc=$?; cat /tmp/branch.json >>"$out/gpu_bench_ab.json"
  fi
  step "BENCH_$ab" "rc=$rc"
done
if [ "${AB8:-1}" = 1 ]; then
  t=$(($(left) - ${MEMCHECK_S:-5})); [ $t -lt 5 ] && t=5
  timeout $t "$bin/gpu_bench" --rows ${AB8_ROWS:-msm_affine_ab8} --max-log ${AB8_LOG:-26} --commit "$commit" \
    --out /tmp/ab8.json >"$out/ab8.log" 2>&1
  rc=$?; cp /tmp/ab8.json "$out/ab8.json" 2>/dev/null
  step AB8 "rc=$rc (limit $t s)"
fi
if [ "${MEMCHECK:-0}" = 1 ]; then
  t=$(($(left) - 3)); [ $t -lt 10 ] && t=10
  echo "== memcheck, PRESTAGE_GPU_TEST_MSM_MAX_LOG=11" >>"$out/tests.log"
  PRESTAGE_GPU_TEST_MSM_MAX_LOG=11 timeout $t compute-sanitizer --tool memcheck --error-exitcode 3 \
    "$bin/gpu_msm_test" --log_level=error --report_level=short >>"$out/tests.log" 2>&1
  step MEMCHECK "rc=$? (<= 2^11, limit $t s)"
fi
grep -hE "^g[12]_msm" "$out/bench_ab.log" "$out/bench_main.log" | head -40
grep -hE "^g[12]_msm" "$out/ab8.log" 2>/dev/null | head -40
grep -E "failure|error|No errors|SKIP" "$out/tests.log" | head -10
