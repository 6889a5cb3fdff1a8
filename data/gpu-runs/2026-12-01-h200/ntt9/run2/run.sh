#!/usr/bin/env bash
# ntt9 run 2 (diagnostic, ~25 s): is run 1's +0.3-0.6% on the plain 2^27 rows the kernels or the
# data buffers' addresses? The branch's bench_ntt now allocates its data and scratch buffers before
# the coset tables (run 1: after them, 48 MiB further with the split tables); the library code is
# run 1's (d6dddb8; comments only since). Base (A) and branch (B), `--rows ntt,coset_hilo
# --ntt-logs 27 --max-log 27`, A B A B while the budget lasts. No tests: no kernel changed.
# Usage: run.sh OUTDIR COMMIT BINDIR. Files back: env.txt bench_base.log bench_ab.log and the JSON.
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-27} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$out/env.txt"; }
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ) commit: $commit base: ea03a08" >>"$out/env.txt"
for ab in A B A B; do
  t=$(($(left) - 1)); [ $t -gt 12 ] && t=12
  [ $t -lt 5 ] && { step "BENCH_$ab" "skipped (budget)"; continue; }
  if [ $ab = A ]; then
    timeout $t "$bin/gpu_bench_base" --rows ntt,coset_hilo --ntt-logs 27 --max-log 27 \
      --commit base-ea03a08 --out /tmp/base.json >>"$out/bench_base.log" 2>&1
    rc=$?; cat /tmp/base.json >>"$out/gpu_bench_base.json" 2>/dev/null
  else
    timeout $t "$bin/gpu_bench" --rows ntt,coset_hilo --ntt-logs 27 --max-log 27 \
      --commit "$commit" --out /tmp/branch.json >>"$out/bench_ab.log" 2>&1
    rc=$?; cat /tmp/branch.json >>"$out/gpu_bench_ab.json" 2>/dev/null
  fi
  rm -f /tmp/base.json /tmp/branch.json
  step "BENCH_$ab" "rc=$rc (limit $t s)"
done
grep -hE "^fr_ntt" "$out/bench_ab.log" "$out/bench_base.log"
