#!/usr/bin/env bash
# The msm9 measurement on the GPU machine, one call, inside a time budget (BUDGET_S, 200 s):
#  1. env.txt: date, commit, nvidia-smi, ldd;
#  2. gpu_inverse_bingcd (the inversion on the device against Fermat), gpu_msm_test (to
#     2^MAXLOG G1, default 16; G2 up to 4 less): nine paths a case; with
#     MEMCHECK=1 also compute-sanitizer memcheck of it at <= 2^11 (same log);
#  3. A/B, alternating main's gpu_bench (BINDIR/gpu_bench_main, 4b664b5) and this branch's, each
#     `--rows g1_msm,g2_msm --max-log 24`, AB_SEQ (default A B A B, so machine drift shows as
#     A-vs-A);
#  4. while the budget lasts: this branch's `--rows AB9_ROWS --max-log AB9_LOG`
#     (msm_affine_ab9, 26).
# Usage: run.sh OUTDIR COMMIT BINDIR (gpu_inverse_bingcd gpu_msm_test gpu_bench gpu_bench_main libcudart.so.13
#   libyaml-cpp.so.0.7). Files (at most 8 come back from the device machine): env.txt (with the
#   steps' summary) tests.log bench_main.log gpu_bench_main.json bench_ab.log gpu_bench_ab.json
#   (JSON documents one after another) ab9.log ab9.json.
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-200} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH=/usr/local/cuda/bin:$PATH
summary="$out/env.txt"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$summary"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit (executables built on the CI-like machine, Debian 12, nvcc 13.0, preset ci, sm_90)"
  echo "gpu_bench_main: main's ci build of 4b664b5 (/work/briefs/s7/gpu_bench_main_4b664b5)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  for b in gpu_inverse_bingcd gpu_msm_test gpu_bench gpu_bench_main; do echo "== ldd $b"; ldd "$bin/$b" | grep -E "not found|yaml|cudart"; done
} >>"$out/env.txt" 2>&1
step ENV "done"
timeout 30 "$bin/gpu_inverse_bingcd" --log_level=message --report_level=detailed >"$out/tests.log" 2>&1
step TEST_BINGCD "rc=$?"
PRESTAGE_GPU_TEST_MSM_MAX_LOG=${MAXLOG:-16} timeout ${TEST_S:-90} "$bin/gpu_msm_test" \
  --log_level=message --report_level=detailed >>"$out/tests.log" 2>&1
step TEST_MSM "rc=$? (<= 2^${MAXLOG:-16})"
if [ "${MEMCHECK:-0}" = 1 ]; then
  echo "== memcheck, PRESTAGE_GPU_TEST_MSM_MAX_LOG=11" >>"$out/tests.log"
  PRESTAGE_GPU_TEST_MSM_MAX_LOG=11 timeout ${MEMCHECK_S:-60} compute-sanitizer --tool memcheck \
    --error-exitcode 3 "$bin/gpu_msm_test" --log_level=error --report_level=short >>"$out/tests.log" 2>&1
  step MEMCHECK "rc=$? (<= 2^11, limit ${MEMCHECK_S:-60} s)"
fi
for ab in ${AB_SEQ:-A B A B}; do
  if [ $ab = A ]; then
    timeout 50 "$bin/gpu_bench_main" --rows g1_msm,g2_msm --max-log 24 --commit main-4b664b5 \
      --out /tmp/main.json >>"$out/bench_main.log" 2>&1
    rc=$?; cat /tmp/main.json >>"$out/gpu_bench_main.json"
  else
    timeout 50 "$bin/gpu_bench" --rows g1_msm,g2_msm --max-log 24 --commit "$commit" \
      --out /tmp/branch.json >>"$out/bench_ab.log" 2>&1
    rc=$?; cat /tmp/branch.json >>"$out/gpu_bench_ab.json"
  fi
  step "BENCH_$ab" "rc=$rc"
done
if [ "${AB9:-1}" = 1 ]; then
  t=$(($(left) - 3)); [ $t -lt 5 ] && t=5
  timeout $t "$bin/gpu_bench" --rows ${AB9_ROWS:-msm_affine_ab9} --max-log ${AB9_LOG:-26} --commit "$commit" \
    --out /tmp/ab9.json >"$out/ab9.log" 2>&1
  rc=$?; cp /tmp/ab9.json "$out/ab9.json" 2>/dev/null
  step AB9 "rc=$rc (limit $t s)"
fi
grep -hE "^g[12]_msm" "$out/bench_ab.log" "$out/bench_main.log" | head -40
grep -hE "^g[12]_msm" "$out/ab9.log" 2>/dev/null | head -40
grep -E "failure|error|No errors|SKIP|ERROR SUMMARY" "$out/tests.log" | head -10
