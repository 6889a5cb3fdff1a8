#!/usr/bin/env bash
# The ntt10 measurement on the GPU machine, one call inside a time budget (BUDGET_S, 96 s):
#  1. env.txt: date, nvidia-smi, cuobjdump resource usage of the NTT kernels of the three builds;
#  2. tests.log: gpu_ntt_test with PRESTAGE_GPU_TEST_NTT_MAX_LOG=22 (every transform 2^1-2^22 in
#     place and with scratch; the coset transforms at 2^21-2^22, three-pass plans, with split
#     tables and with hi * lo; the H computation to 2^22 against the host reference);
#  3. A/B/C in one call: A = gpu_bench_base (ea03a08, main before ntt9), C = gpu_bench_ntt9
#     (08114c1, ntt9 run 2's build), B = this branch's gpu_bench, each `--rows ntt,h --ntt-logs 27
#     --max-log 27`, in the order B A C B A C (B first: the branch's rows matter most) while the
#     budget lasts.
# Usage: run.sh OUTDIR COMMIT BINDIR. Files back: env.txt sass.txt tests.log bench_{a,b,c}.log
#   gpu_bench_abc.json (JSON documents one after another, in run order).
set -uo pipefail
out=$1 commit=$2 bin=$3
t0=$(date +%s)
left() { echo $((${BUDGET_S:-96} - ($(date +%s) - t0))); }
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
step() { echo "$1 $2 (t=$(($(date +%s) - t0)) s)" | tee -a "$out/env.txt"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ) commit: $commit; A: ea03a08, C: ntt9 08114c1"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
  cod=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
  for b in gpu_bench_base gpu_bench_ntt9 gpu_bench; do
    echo "== resource usage $b (pass_kernel, mirror_pass_kernel)"
    [ -n "$cod" ] && timeout 10 "$cod" --dump-resource-usage "$bin/$b" 2>&1 |
      grep -A1 -E "pass_kernel|mirror_pass" | grep -oE "_Z[^ ]*|REG:[0-9]+|STACK:[0-9]+|LOCAL:[0-9]+" | paste -sd' ' |
      sed 's/ _Z/\n_Z/g'
  done
} >>"$out/env.txt" 2>&1
step ENV done
# SASS instruction count of every pass kernel in the three builds (in the background, on the CPU,
# while the tests run): sass.txt.
(
  for b in gpu_bench_base gpu_bench_ntt9 gpu_bench; do
    echo "== sass instructions $b"
    [ -n "$cod" ] && timeout 40 "$cod" -sass "$bin/$b" 2>/dev/null | awk '/Function :/ {name=$3}
      /^ +\/\*[0-9a-f]+\*\/ / {if (name ~ /pass_kernel/) cnt[name]++}
      END {for (n in cnt) print cnt[n], n}' | (c++filt 2>/dev/null || cat) | sort -k2
  done
) >"$out/sass.txt" 2>&1 &
sass_pid=$!
PRESTAGE_GPU_TEST_NTT_MAX_LOG=22 timeout ${TEST_S:-40} "$bin/gpu_ntt_test" \
  --run_test=ntt_all_variants_match_host_reference,ntt_small_domains_match_host_reference,h_computation_matches_host_reference \
  --log_level=message --report_level=short >>"$out/tests.log" 2>&1
rc=$?
step TEST_NTT "rc=$rc (<= 2^22, both modes, split and hi*lo coset, H)"
[ $rc -ne 0 ] && { tail -30 "$out/tests.log"; exit 1; }
for r in B A C B A C B A C; do
  t=$(($(left) - 1)); [ $t -gt 16 ] && t=16
  [ $t -lt 10 ] && { step "BENCH_$r" "skipped (budget)"; continue; }
  case $r in A) exe=gpu_bench_base tag=base-ea03a08 ;; C) exe=gpu_bench_ntt9 tag=ntt9-08114c1 ;; B) exe=gpu_bench tag=$commit ;; esac
  f=$(echo $r | tr A-C a-c)
  timeout $t "$bin/$exe" --rows ntt,h --ntt-logs 27 --max-log 27 --commit "$tag" \
    --out /tmp/x.json >>"$out/bench_$f.log" 2>&1
  rc=$?; cat /tmp/x.json >>"$out/gpu_bench_abc.json" 2>/dev/null; rm -f /tmp/x.json
  step "BENCH_$r" "rc=$rc (limit $t s)"
done
wait $sass_pid
grep -E "failure|error|passed|failed" "$out/tests.log" | head -10
for f in b a c; do echo "== $f"; grep -hE "^(fr_ntt|groth16_h)" "$out/bench_$f.log"; done
