#!/usr/bin/env bash
# Generates the paper's numbers and tables from results files; nothing in them is typed by hand.
#   papers/gen_numbers.sh EXP_OUT VAL_OUT DEST
# EXP_OUT: the output folder of `experiments/run_all.sh BUILD EXP_OUT` (experiments 01-04, simulated);
# VAL_OUT: the output folder of `experiments/05_validation/run.sh VAL_OUT BUILD` (its report.json
#          files: the measured runs it validates are whichever run.sh reads, so this follows it);
# DEST:    where numbers.tex and generated/*.tex go (papers/prestage for the committed copy).
# Measured numbers are read from data/ (probe JSON, calibration YAML, gpu_bench / prove_bench JSON).
#
# numbers.tex holds one line per number:
#   \pnum{KEY}{TEXT}{RAW}{TOL}% SOURCE
# KEY names it (\N{KEY} in the text), TEXT is what the paper prints, RAW the unrounded value read
# from SOURCE, TOL the tolerance papers/check.sh compares RAW under: `rel1e-6` for numbers of the
# simulator (deterministic, so any drift is a change of the model or of its inputs), `exact` for
# measured numbers and for words (verdicts, lists). Tables in generated/ cite numbers only
# through \N{KEY}, so checking numbers.tex checks them too.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: papers/gen_numbers.sh EXP_OUT VAL_OUT DEST" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
exp=$(cd "$1" && pwd)
val=$(cd "$2" && pwd)
dest=$3
mkdir -p "$dest/generated"
command -v jq >/dev/null || { echo "gen_numbers: jq is required (scripts/install_deps.sh)" >&2; exit 2; }
cd "$root"

# Measured inputs (committed). The GPU suite run whose kernels and proofs the prover section cites.
PROBE=data/measurements/h200-probe-2026-11-30.json
PROBE2=data/measurements/h200-probe-2026-12-01.json
PROBE3=data/measurements/h200-probe-2026-12-02.json
SPPARK=data/calibration/estimates/h200-kernels.yaml
GPURUN=data/gpu-runs/2026-12-01-h200/run19-4c7aaef
BENCH=$GPURUN/gpu_bench.json
PROVE=$GPURUN/prove_bench.json

nums=$(mktemp)
trap 'rm -f "$nums"' EXIT
die() { echo "gen_numbers: $*" >&2; exit 3; }

# put KEY FORMAT RAW TOL SOURCE: one number, TEXT = printf(FORMAT, RAW).
put() {
  local key=$1 fmt=$2 raw=$3 tol=$4 src=$5 txt
  [[ $key =~ ^[a-z0-9.-]+$ ]] || die "bad key $key"
  [[ $raw =~ ^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$ ]] || die "$key: no number in $src (got '$raw')"
  txt=$(awk -v f="$fmt" -v r="$raw" 'BEGIN { s = sprintf(f, r); if (s ~ /^-0(\.0*)?$/) s = substr(s, 2); print s }')
  printf '\\pnum{%s}{%s}{%s}{%s}%% %s\n' "$key" "$txt" "$raw" "$tol" "$src" >>"$nums"
}
# puts KEY TEXT TOL SOURCE: a word or list read from a results file (compared exactly).
puts() {
  [[ $1 =~ ^[a-z0-9.-]+$ ]] || die "bad key $1"
  [ -n "$2" ] && [ "$2" != null ] || die "$1: nothing in $4"
  printf '\\pnum{%s}{%s}{%s}{%s}%% %s\n' "$1" "$2" "$2" "$3" "$4" >>"$nums"
}
# jv FILE FILTER: one value (fails on null).
jv() {
  local v
  v=$(jq -r "$2" "$1") || die "jq failed on $1: $2"
  [ -n "$v" ] && [ "$v" != null ] || die "no value for $2 in $1"
  printf '%s' "$v"
}
calc() { awk "BEGIN { printf \"%.17g\", $1 }"; }
key_of() { printf '%s' "$1" | tr '_' '-' | tr 'A-Z' 'a-z'; }
yesno() { if [ "$1" = true ]; then echo yes; else echo no; fi; }

# ---------------------------------------------------------------- simulated runs (01-03)
# run_nums PREFIX RUN_DIR: the standard figures of one simulated run's summary.json.
run_nums() {
  local p=$1 d=$2 s src
  s=$d/summary.json
  [ -f "$s" ] || die "missing $s"
  src="experiments/run_all.sh -> ${s#"$exp"/}"
  put "$p.tput" '%.1f' "$(jv "$s" .throughput_proofs_per_hour)" rel1e-6 "$src"
  put "$p.pph" '%.0f' "$(jv "$s" 'if .makespan_s > 0 then .partitions.done / .makespan_s * 3600 else 0 end')" rel1e-6 "$src"
  put "$p.makespan" '%.1f' "$(jv "$s" .makespan_s)" rel1e-6 "$src"
  put "$p.proofs" '%d' "$(jv "$s" .proofs_completed)" rel1e-6 "$src"
  put "$p.proofsreq" '%d' "$(jv "$s" .proofs_requested)" rel1e-6 "$src"
  put "$p.done" '%d' "$(jv "$s" .partitions.done)" rel1e-6 "$src"
  put "$p.total" '%d' "$(jv "$s" .partitions.total)" rel1e-6 "$src"
  put "$p.lost" '%d' "$(jv "$s" .partitions.lost)" rel1e-6 "$src"
  put "$p.retried" '%d' "$(jv "$s" .partitions.retried)" rel1e-6 "$src"
  put "$p.oom" '%d' "$(jv "$s" '.oom_events | length')" rel1e-6 "$src"
  put "$p.dww" '%.1f' "$(jv "$s" '[.workers[].device_wide_wait_s] | add')" rel1e-6 "$src"
  put "$p.peakgib" '%.1f' "$(jv "$s" '[.gpus[].peak_device_memory_used_B] | max / 1073741824')" rel1e-6 "$src"
  # Per partition (means): the GPU kernels of the pipeline and the uploads inside the lock.
  put "$p.kernels" '%.2f' "$(jv "$s" '[.phases | to_entries[] | select(.key | test("^(h_input_|coset_intt|msm_h$|msm_l$|msm_a$|msm_b_g1$)")) | .value.mean_s] | add // 0')" rel1e-6 "$src"
  put "$p.uploads" '%.2f' "$(jv "$s" '[.phases | to_entries[] | select(.key | test("^upload_")) | .value.mean_s] | add // 0')" rel1e-6 "$src"
  put "$p.log2n" '%d' "$(jv "$s" .workload.log2_n)" rel1e-6 "$src"
  put "$p.vramgib" '%.0f' "$(jv "$s" '.workload.vram_B / 1073741824')" rel1e-6 "$src"
  put "$p.workers" '%d' "$(jv "$s" .workload.workers_per_gpu)" rel1e-6 "$src"
  put "$p.partsperproof" '%d' "$(jv "$s" '.partitions.total / .proofs_requested')" rel1e-6 "$src"
  put "$p.buf.a" '%.0f' "$(jv "$s" '.workload.buffer_bytes.d_a / 1073741824')" rel1e-6 "$src"
  put "$p.buf.bc" '%.0f' "$(jv "$s" '.workload.buffer_bytes.d_bc / 1073741824')" rel1e-6 "$src"
  put "$p.buf.msm" '%.2f' "$(jv "$s" '.workload.buffer_bytes.msm_scratch / 1073741824')" rel1e-6 "$src"
  if [ "$(jq '.oom_events | length' "$s")" -gt 0 ]; then
    puts "$p.firstoom" "$(jv "$s" '.oom_events[0].where' | sed 's/_/\\_/g')" exact "$src"
    put "$p.firstoompart" '%d' "$(jv "$s" '.oom_events[0].partition')" rel1e-6 "$src"
  fi
}
# gain KEY REF_RUN RUN: throughput change in percent (partitions/h when either completes no proof).
gain() {
  local a b
  a=$(jq -r 'if .proofs_completed > 0 then .throughput_proofs_per_hour else .partitions.done / .makespan_s * 3600 end' "$2/summary.json")
  b=$(jq -r --argjson ref "$(jq .proofs_completed "$2/summary.json")" \
    'if .proofs_completed > 0 and $ref > 0 then .throughput_proofs_per_hour else .partitions.done / .makespan_s * 3600 end' "$3/summary.json")
  put "$1" '%+.1f' "$(calc "100 * ($b / $a - 1)")" rel1e-6 "experiments/run_all.sh -> ${3#"$exp"/}/summary.json vs ${2#"$exp"/}/summary.json"
}

e1=$exp/01_prestage_one_worker/runs
for r in baseline prestage pinned; do run_nums "e01.$r" "$e1/$r"; done
gain e01.gain "$e1/baseline" "$e1/prestage"
gain e01.gainpinned "$e1/baseline" "$e1/pinned"
gain e01.gainstaging "$e1/pinned" "$e1/prestage"

e2=$exp/02_two_workers_naive_16g/runs
for r in baseline_2w naive_1w naive_2w; do run_nums "e02.$(key_of "$r")" "$e2/$r"; done
s=$e2/naive_2w/summary.json
put e02.naive-2w.firstoomask '%.0f' "$(jv "$s" '.oom_events[0].bytes / 1073741824')" rel1e-6 "experiments/run_all.sh -> ${s#"$exp"/}"
put e02.naive-2w.firstoomfree '%.2f' "$(jv "$s" '.oom_events[0].meminfo_free_B / 1073741824')" rel1e-6 "experiments/run_all.sh -> ${s#"$exp"/}"

e3=$exp/03_tiers_16g/runs
for r in baseline_2w tiers_device_2w tiers_stream_2w tiers_trim_after_2w budget_2w pinned_2w; do
  run_nums "e03.$(key_of "$r")" "$e3/$r"
done
gain e03.gain-budget-vs-tiers "$e3/tiers_device_2w" "$e3/budget_2w"
gain e03.gain-device-vs-stream "$e3/tiers_stream_2w" "$e3/tiers_device_2w"
gain e03.gain-budget-vs-baseline "$e3/baseline_2w" "$e3/budget_2w"
gain e03.gain-budget-vs-pinned "$e3/pinned_2w" "$e3/budget_2w"
gain e03.gain-trimafter-vs-budget "$e3/budget_2w" "$e3/tiers_trim_after_2w"
# OOM events inside the lock (alloc_*) vs at staging (stage_*) for the tiers.
s=$e3/tiers_device_2w/summary.json
put e03.tiers-device-2w.oominlock '%d' "$(jv "$s" '[.oom_events[] | select(.where | startswith("alloc_"))] | length')" rel1e-6 "experiments/run_all.sh -> ${s#"$exp"/}"
# The jitter sweep: the range of OOM counts.
c=$exp/03_tiers_16g/tiers_jitter.csv
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
oc=$(col "$c" oom_events); dc=$(col "$c" partitions_done)
put e03.jitter.oommin '%d' "$(awk -F, -v c="$oc" 'NR > 1 { if (m == "" || $c < m) m = $c } END { print m }' "$c")" rel1e-6 "experiments/run_all.sh -> 03_tiers_16g/tiers_jitter.csv"
put e03.jitter.oommax '%d' "$(awk -F, -v c="$oc" 'NR > 1 { if ($c > m) m = $c } END { print m + 0 }' "$c")" rel1e-6 "experiments/run_all.sh -> 03_tiers_16g/tiers_jitter.csv"
put e03.jitter.points '%d' "$(awk 'NR > 1' "$c" | wc -l)" rel1e-6 "experiments/run_all.sh -> 03_tiers_16g/tiers_jitter.csv"
put e03.jitter.donemax '%d' "$(awk -F, -v c="$dc" 'NR > 1 { if ($c > m) m = $c } END { print m + 0 }' "$c")" rel1e-6 "experiments/run_all.sh -> 03_tiers_16g/tiers_jitter.csv"

# ---------------------------------------------------------------- 04: the sweep
for sw in tiers naive; do
  c=$exp/04_sweep_margin_workers_vram/$sw.csv
  src="experiments/run_all.sh -> 04_sweep_margin_workers_vram/$sw.csv"
  oc=$(col "$c" oom_events); wc_=$(col "$c" gpus.workers_per_gpu); vc=$(col "$c" gpus.vram)
  put "e04.$sw.points" '%d' "$(awk 'NR > 1' "$c" | wc -l)" rel1e-6 "$src"
  put "e04.$sw.oompoints" '%d' "$(awk -F, -v c="$oc" 'NR > 1 && $c > 0' "$c" | wc -l)" rel1e-6 "$src"
  for w in 1 2; do
    puts "e04.$sw.oomfree-w$w" "$(awk -F, -v w="$wc_" -v v="$vc" -v o="$oc" -v k="$w" '
      NR > 1 && $w == k { if (!($v in seen)) { seen[$v] = 1; order[++n] = $v } if ($o > 0) bad[$v] = 1 }
      END { s = ""; for (i = 1; i <= n; i++) if (!(order[i] in bad)) { x = order[i]; sub(/GiB$/, "", x); s = s (s == "" ? "" : ", ") x }
            print (s == "" ? "none" : s) }' "$c")" exact "$src"
  done
done

# ---------------------------------------------------------------- 05: validation
# experiments/05_validation/run.sh writes one `prestage validate` output per session and ablation
# (each a report.json): a, b (the two machines of 2026-12-02), proofs (real Groth16 proofs at 2^20,
# session a's probe), first and first_spin (2026-12-01, real and spin kernels), a_committed
# (session a's runs on the committed calibration), {a,b}_no_streamed and {a,b}_no_serialisation
# (the model without this round's streamed-MSM curves, without the driver serialisation).
# Per scenario: the makespan, OOM and loss verdicts, timing dependence; per report and over the
# grid (a + b + proofs): the grid line, computed as run.sh and prestage validate do.
VALJQ='def kof: gsub("_"; "-") | ascii_downcase;
def fig($n): [.figures[] | select(.name == $n)][0];
def td($w): .timing[$w] | if . == null then "--" elif .timing_dependent then "yes" else "no" end;
def row($k; $f; $x; $t; $w): [$k, $f, ($x | tostring), $t, $w] | @tsv;
.scenarios[] | . as $s | ("val." + $v + "." + (.scenario | kof) + "." + .kernels) as $k
| fig("makespan") as $m
| row($k + ".mk.model"; "%.2f"; $m.model; "rel1e-6"; "model"),
  row($k + ".mk.err"; "%+.1f"; $m.rel_error * 100; "rel1e-6"; "model vs measured"),
  (select($light == "0")
  | row($k + ".mk.median"; "%.2f"; $m.median; "exact"; "measured"),
    row($k + ".mk.min"; "%.2f"; $m.min; "exact"; "measured"),
    row($k + ".mk.max"; "%.2f"; $m.max; "exact"; "measured"),
    row($k + ".runs"; "%d"; .runs; "exact"; "measured runs"),
    row($k + ".failed"; "%d"; .failed_goals; "rel1e-6"; "goals missed"),
    row($k + ".parts"; "%d"; (.timing.measured | .partitions_done[0] + .partitions_lost[0]); "exact"; "measured: partitions of a run"),
    row($k + ".oom.model"; "%d"; fig("any OOM (events)").model; "rel1e-6"; "model"),
    row($k + ".lost.model"; "%d"; fig("any partition lost").model; "rel1e-6"; "model"),
    row($k + ".oom.measuredmax"; "%d"; (.timing.measured.oom_events | max); "exact"; "measured, largest of the runs"),
    row($k + ".oom.measured"; "s"; (.timing.measured.oom_events | map(tostring) | join(", ")); "exact"; "measured, per run"),
    row($k + ".lost.measured"; "s"; (.timing.measured.partitions_lost | map(tostring) | join(", ")); "exact"; "measured, per run"),
    row($k + ".done.measured"; "s"; (.timing.measured.partitions_done | map(tostring) | join(", ")); "exact"; "measured, per run"),
    row($k + ".verdicts"; "s"; ([.figures[] | select(.goal == "same_verdict") | .pass] | if all then "right" else "wrong" end); "exact"; "OOM and loss verdicts"),
    row($k + ".td.measured"; "s"; td("measured"); "exact"; "timing dependence of the measured repeats"),
    row($k + ".td.model"; "s"; td("model"); "exact"; "timing dependence of the model under 1 ms start shifts"),
    row($k + ".peak.median"; "%.1f"; fig("peak device memory used").median / 1073741824; "exact"; "measured"),
    row($k + ".peak.model"; "%.1f"; fig("peak device memory used").model / 1073741824; "rel1e-6"; "model"),
    (fig("step upload_a (mean)") | select(. != null and .rel_error != null)
     | row($k + ".upa.median"; "%.3f"; .median; "exact"; "measured"),
       row($k + ".upa.model"; "%.3f"; .model; "rel1e-6"; "model"),
       row($k + ".upa.err"; "%+.1f"; .rel_error * 100; "rel1e-6"; "model vs measured")),
    (fig("device-wide waits (all workers)") | select(. != null)
     | row($k + ".dww.median"; "%.2f"; .median; "exact"; "measured"),
       row($k + ".dww.model"; "%.2f"; .model; "rel1e-6"; "model")),
    (fig("step msm_h (mean)") | select(. != null)
     | row($k + ".msmh.median"; "%.2f"; .median; "exact"; "measured"),
       row($k + ".msmh.model"; "%.2f"; .model; "rel1e-6"; "model")),
    (fig("step h_input_a (mean)") | select(. != null)
     | row($k + ".hina.median"; "%.2f"; .median; "exact"; "measured"),
       row($k + ".hina.model"; "%.2f"; .model; "rel1e-6"; "model")),
    (fig("step download_proof (mean)") | select(. != null and .rel_error != null)
     | row($k + ".dl.median"; "%.1f"; .median * 1000; "exact"; "measured"),
       row($k + ".dl.min"; "%.1f"; .min * 1000; "exact"; "measured"),
       row($k + ".dl.max"; "%.1f"; .max * 1000; "exact"; "measured"),
       row($k + ".dl.model"; "%.2f"; .model * 1000; "rel1e-6"; "model"),
       row($k + ".dl.err"; "%+.0f"; .rel_error * 100; "rel1e-6"; "model vs measured")))'
# The grid line over one or more reports (their development or held-back parts), as run.sh does.
GRIDJQ='[.[].scenarios[] | select(if $part == "held" then .held_back else (.held_back | not) end)] as $d
| ($d | map(.figures[] | select(.name == "makespan") | .rel_error | fabs * 100) | sort) as $e
| def row($k; $x): [$k, ($x | tostring)] | @tsv;
  row("n"; $d | length),
  (select($d | length > 0)
   | row("pass"; $d | map(select(.pass)) | length),
     row("medianerr"; $e | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end),
     row("maxerr"; $e | max),
     row("minerr"; $e | min),
     row("verdictsright"; $d | map(select([.figures[] | select(.goal == "same_verdict") | .pass] | all)) | length),
     row("tdmeasured"; $d | map(select(.timing.measured.timing_dependent == true)) | length),
     row("tdmodel"; $d | map(select(.timing.model.timing_dependent == true)) | length),
     row("cdmodel"; $d | map(select(.timing.model_allocator_costs.timing_dependent == true)) | length),
     row("twoworker"; $d | map(select(.timing.model != null)) | length),
     row("mkpass"; $d | map(select(any(.figures[]; .name == "makespan" and .pass))) | length),
     row("dlfail"; $d | map(select(any(.figures[]; .name == "step download_proof (mean)" and (.pass | not)))) | length),
     row("runsmin"; $d | map(.runs) | min),
     row("runsmax"; $d | map(.runs) | max))'
val_report() {  # VARIANT REPORT_JSON [light]: per-scenario numbers (light: the model's makespan only)
  local v=$1 r=$2 light=${3:-0} src k f x t w
  [ -f "$r" ] || die "missing $r (experiments/05_validation/run.sh output)"
  src="experiments/05_validation/run.sh -> ${r#"$val"/}"
  while IFS=$'\t' read -r k f x t w; do
    if [ "$f" = s ]; then puts "$k" "$x" "$t" "$src ($w)"; else put "$k" "$f" "$x" "$t" "$src ($w)"; fi
  done < <(jq -r --arg v "$v" --arg light "$light" "$VALJQ" "$r" || die "jq failed on $r")
  val_grid "$v" dev "$r"
  val_grid "$v" held "$r"
}
val_grid() {  # NAME PART REPORT_JSON...: the grid line of PART (dev / held) over the reports
  local g=$1 part=$2 src k x
  shift 2
  src="experiments/05_validation/run.sh -> $(for r in "$@"; do printf '%s ' "${r#"$val"/}"; done | sed 's/ $//') ($part part)"
  while IFS=$'\t' read -r k x; do
    case $k in medianerr|maxerr|minerr) put "val.$g.$part.$k" '%.1f' "$x" rel1e-6 "$src" ;;
               *) put "val.$g.$part.$k" '%d' "$x" rel1e-6 "$src" ;; esac
  done < <(jq -rs --arg part "$part" "$GRIDJQ" "$@" || die "jq failed on $*")
}
for x in a b proofs first first_spin a_committed; do val_report "$(printf '%s' "$x" | tr -d '_')" "$val/$x/report.json"; done
for x in a b; do
  val_report "${x}nostreamed" "$val/${x}_no_streamed/report.json" 1
  val_report "${x}noser" "$val/${x}_no_serialisation/report.json" 1
done
# The grid: the development part is sessions a and b and the real proofs; the ablations replace a
# and b by their ablated reports and keep the proofs' report, as run.sh's REPORT.md does.
val_grid grid dev "$val"/{a,b,proofs}/report.json
val_grid grid held "$val"/{a,b,proofs}/report.json
val_grid gridnostreamed dev "$val"/{a,b}_no_streamed/report.json "$val/proofs/report.json"
val_grid gridnoser dev "$val"/{a,b}_no_serialisation/report.json "$val/proofs/report.json"
# Session d (2026-12-06, an H100, its own probe) and this round's ablations: d without the
# copy-issue / pool-alloc gates; sessions a and b with the driver's waits (session c's flags).
val_report d "$val/d/report.json"
val_report dnoissue "$val/d_no_issue_gates/report.json" 1
for x in a b; do val_report "${x}driverwaits" "$val/${x}_driver_waits/report.json" 1; done
val_grid gridwithd dev "$val"/{a,b,proofs,d}/report.json
val_grid griddriverwaits dev "$val"/{a,b}_driver_waits/report.json "$val/proofs/report.json" \
  "$val/d/report.json"
# Session e (2026-12-06, another H100, its own probe with launch_while_device_busy).
val_report e "$val/e/report.json"
val_grid gridwithe dev "$val"/{a,b,proofs,d,e}/report.json
PROBE5=data/measurements/h100-probe-2026-12-06b.json
LWB='.sections.driver_waits.cases.during_cudaHostUnregister.launch_while_device_busy'
put probe5.lwb.busy-s '%.2f' "$(jv "$PROBE5" "$LWB.device_busy_after_a_start_s")" exact "$PROBE5 driver_waits.cases.during_cudaHostUnregister.launch_while_device_busy"
put probe5.lwb.a-s '%.2f' "$(jv "$PROBE5" "$LWB.a_s")" exact "$PROBE5 driver_waits.cases.during_cudaHostUnregister.launch_while_device_busy"
put probe5.lwb.launch-wait-s '%.2f' "$(jv "$PROBE5" "$LWB.max_call_during_a_s")" exact "$PROBE5 driver_waits.cases.during_cudaHostUnregister.launch_while_device_busy"
PP=data/validation/2026-12-06_1831ef9_h100-staging-e/runs
put vale.pinnedpool.host-s '%.1f' "$(jq -s '[.[].pinned_pool.cudaMallocHost_s] | min' "$PP"/e03_two_workers_16g_pinned_pool__real__r*/summary.json)" exact "data/validation/2026-12-06_1831ef9_h100-staging-e/runs/e03_two_workers_16g_pinned_pool__real__r*/summary.json (min)"
put vale.pinnedpool.host-max-s '%.1f' "$(jq -s '[.[].pinned_pool.cudaMallocHost_s] | max' "$PP"/e03_two_workers_16g_pinned_pool__real__r*/summary.json)" exact "data/validation/2026-12-06_1831ef9_h100-staging-e/runs/e03_two_workers_16g_pinned_pool__real__r*/summary.json (max)"
# Session f (2026-12-06, a third H100, its own probe and gpu_bench; grid rows at 2^24).
val_report f "$val/f/report.json"
val_report fwssixtyeight "$val/f_ws68/report.json" 1
# Session g (2026-12-07, a fourth H100, its own probe and kernel curves; rows 2, 23-26).
val_report g "$val/g/report.json"
val_report gbtwo "$val/g_b_g2/report.json"
PROBE7=data/measurements/h100-probe-2026-12-07.json
put probe7.handoffseq.first '%d' "$(jv "$PROBE7" '[.sections.driver_waits.cases[].handoff_sequence.median_before_waiter] | min')" exact "$PROBE7 driver_waits.cases.*.handoff_sequence (median_before_waiter, the smaller of the two cases)"
put probe7.freerelease.before '%d' "$(jv "$PROBE7" '.sections.free_release.summary.b_returned_before_a')" exact "$PROBE7 free_release.summary.b_returned_before_a"
put probe7.freerelease.reps '%d' "$(jv "$PROBE7" '.sections.free_release.summary.reps')" exact "$PROBE7 free_release.summary.reps"
PG=data/validation/2026-12-07_d66b194_h100-staging-g/runs
put valg.pinnedpool.host-s '%.1f' "$(jq -s '[.[].pinned_pool.cudaMallocHost_s] | max' "$PG"/e01_one_worker_tiers_pinned_pool__real__r*/summary.json)" exact "$PG/e01_one_worker_tiers_pinned_pool__real__r*/summary.json (max)"
# Session h (2026-12-07, a fifth H100, its own probe; rows 2, 27 (memory samples from the pool),
# 26 (B_G2 on the GPU) and, held back, 28 (resident G1 and G2 points, after the MSM-pieces fix)).
val_report h "$val/h/report.json"
val_report hbtwo "$val/h_b_g2/report.json"
val_report hrow "$val/h_row28/report.json"
# Session i (2026-12-07, a sixth H100, its own probe with msm_workspace and its own kernel curves;
# rows 29-31, e01 tiers 2^25, row 26 and, held back, 32).
val_report i "$val/i/report.json"
PROBE9=data/measurements/h100-probe-2026-12-07c.json
put probe9.msmws.g2-27-gb '%.2f' "$(jq '[.sections.msm_workspace.rows[] | select(.curve == "g2" and .log2_n == 27)][0].least_B / 1e9' "$PROBE9")" exact "$PROBE9 msm_workspace.rows (g2, 2^27, least_B, GB)"
put probe9.msmws.g1-27-gb '%.2f' "$(jq '[.sections.msm_workspace.rows[] | select(.curve == "g1" and .log2_n == 27)][0].least_B / 1e9' "$PROBE9")" exact "$PROBE9 msm_workspace.rows (g1, 2^27, least_B, GB)"
# The driver's hand-off counted in the development rows' measured runs (sim/DECISIONS.md,
# 2026-12-07): how many calls the returning thread made before the waiting thread's call.
HANDOFFS=$(python3 experiments/05_validation/handoffs.py --json) || die "handoffs.py failed"
HSRC="experiments/05_validation/handoffs.py --json (data/validation/*/runs, development rows)"
put handoff.runs '%d' "$(jq '.runs' <<<"$HANDOFFS")" exact "$HSRC"
for g in stager_pin_pinning stager_pin_short host_unpin_pinning host_unpin_short; do
  for k in n first0 first1 first2plus; do
    put "handoff.${g//_/-}.$k" '%d' "$(jq ".$g.$k" <<<"$HANDOFFS")" exact "$HSRC"
  done
done
# Session j: experiment 01's three rows on one lease (rows 1, 29, 31), its calibration
# h100-2026-12-07d, and the same runs with session i's calibration (the prediction).
val_report j "$val/j/report.json"
val_report jwithi "$val/j_with_i/report.json"
val_report jtwo "$val/j2/report.json"
# Experiment 01's gain (throughput of naive pre-staging over no pre-staging, one worker) measured
# on one lease (medians of 3 runs) and modelled with the lease's calibration.
JMK='.scenarios[] | select(.scenario == $s) | .figures[] | select(.name == "makespan")'
jmk() { jq -r --arg s "$1" "$JMK | .$2" "$val/j/report.json"; }
JSRC="experiments/05_validation/run.sh -> j/report.json (makespan: no pre-staging over naive pre-staging - 1)"
put val.j.gain.measured '%+.1f' "$(awk -v b="$(jmk e01_one_worker_baseline median)" -v n="$(jmk e01_one_worker_naive median)" 'BEGIN { print (b / n - 1) * 100 }')" rel1e-6 "$JSRC, measured medians"
put val.j.gain.model '%+.1f' "$(awk -v b="$(jmk e01_one_worker_baseline model)" -v n="$(jmk e01_one_worker_naive model)" 'BEGIN { print (b / n - 1) * 100 }')" rel1e-6 "$JSRC, model"
# Session j's probe sections: the hand-off with the stager's own placement calls, and another
# thread's cudaFree issued 0.2 s into an MSM at 2^27.
PROBE10=data/measurements/h100-probe-2026-12-07d-handoff.json
HR='.sections.handoff_runtime.cases'
put probe10.handoff.reg-reg.first '%g' "$(jv "$PROBE10" "$HR.register_then_waiting_register.median_before_waiter")" exact "$PROBE10 handoff_runtime register_then_waiting_register.median_before_waiter"
put probe10.handoff.reg-malloc.first '%g' "$(jv "$PROBE10" "$HR.register_then_waiting_malloc.median_before_waiter")" exact "$PROBE10 handoff_runtime register_then_waiting_malloc.median_before_waiter"
put probe10.handoff.reg-reg.meminfo-s '%.2f' "$(jq "$HR.register_then_waiting_register.holder_calls[1].median_s" "$PROBE10")" exact "$PROBE10 handoff_runtime register_then_waiting_register.holder_calls[1] (cudaMemGetInfo) median_s"
DW='.sections.msm_streaming.summary.during_registration.uniform'
put probe10.devwait.streamed-ms '%.0f' "$(jq "$DW.device_wait_streamed.free_s * 1000" "$PROBE10")" exact "$PROBE10 msm_streaming during_registration.uniform.device_wait_streamed.free_s (ms)"
put probe10.devwait.streamed-msm-s '%.2f' "$(jq "$DW.device_wait_streamed.msm_s" "$PROBE10")" exact "$PROBE10 msm_streaming during_registration.uniform.device_wait_streamed.msm_s"
put probe10.devwait.resident-ms '%.0f' "$(jq "$DW.device_wait_resident.free_s * 1000" "$PROBE10")" exact "$PROBE10 msm_streaming during_registration.uniform.device_wait_resident.free_s (ms)"
put probe10.devwait.resident-msm-s '%.2f' "$(jq "$DW.device_wait_resident.msm_s" "$PROBE10")" exact "$PROBE10 msm_streaming during_registration.uniform.device_wait_resident.msm_s"
# The link rate at 4 GiB in session i's probe (its lease's first minutes) and session j's.
for pair in "probe9:$PROBE9" "probe10:$PROBE10"; do
  for kind in pinned pageable; do
    put "${pair%%:*}.h2d.$kind-gbps" '%.1f' "$(jq ".sections.pcie.bandwidth.h2d.$kind.rows | max_by(.bytes) | .bandwidth / 1e9" "${pair#*:}")" exact "${pair#*:} pcie.bandwidth.h2d.$kind (largest size, GB/s)"
  done
done
# Every session's development rows (a, b, proofs, d-j): the allocator-cost check over them.
val_grid allsessions dev "$val"/{a,b,proofs,d,e,f,g,g_b_g2,h,h_b_g2,i,j,j2}/report.json
# ... and their held-back rows (HOLDOUT.md), read last.
val_grid allsessions held "$val"/{a,b,proofs,d,e,f,g,g_b_g2,h,h_b_g2,h_row28,i,j,j2}/report.json
PROBE8=data/measurements/h100-probe-2026-12-07b.json
FHD='.sections.free_holds_driver.rows'
put probe8.freeholds.free-s '%.2f' "$(jv "$PROBE8" "$FHD.launch.a_s")" exact "$PROBE8 free_holds_driver.rows.launch.a_s"
put probe8.freeholds.launch-s '%.2f' "$(jv "$PROBE8" "$FHD.launch.longest_call_during_a_s")" exact "$PROBE8 free_holds_driver.rows.launch.longest_call_during_a_s"
put probe8.freeholds.meminfo-ms '%.1f' "$(calc "$(jv "$PROBE8" "$FHD.meminfo.longest_call_during_a_s") * 1000")" exact "$PROBE8 free_holds_driver.rows.meminfo.longest_call_during_a_s (ms)"
PH=data/validation/2026-12-07_5692b7f_h100-staging-h
put valh.naive.survivor-runs '%d' "$(jq -s '[.[] | select(.partitions.done == 1)] | length' "$PH"/runs/e02_two_workers_16g_naive*__real__r*/summary.json)" exact "$PH/runs/e02_two_workers_16g_naive*__real__r*/summary.json (runs with 1 partition done)"
put valh.naive.runs '%d' "$(ls -d "$PH"/runs/e02_two_workers_16g_naive*__real__r* | wc -l)" exact "$PH/runs (e02 16 GiB naive runs, both rows)"
RW=$PH/runs_row28_whole_msm/e01_one_worker_tiers_b_g2_gpu_resident__real__r1/summary.json
put valh.row28.ws-gb '%.2f' "$(jq '.oom_events[0].bytes / 1e9' "$RW")" exact "$RW oom_events[0].bytes (GB)"
# The prover's resident device memory (the pipelines' `resident` NTT tables): the staging
# runtime's setup measured by cudaMemGetInfo (a streamed run at 2^27: tables only), and the free
# memory a 16 GiB run found with nothing of the pipeline's allocated.
RESM=data/validation/2026-12-06_1831ef9_h100-staging-e/runs/e02_two_workers_48g_naive__real__r1/manifest.json
put model.resident.ntt-gib '%.2f' "$(calc "$(jv "$RESM" '.runtime.gpus[0].resident_B') / 1073741824")" exact "$RESM runtime.gpus[0].resident_B (GiB)"
RESE=data/validation/2026-12-01_d313ead_h200-staging/runs/e03_two_workers_16g_tiers__real__r1/events.jsonl
put model.resident.free-gib '%.2f' "$(jq -s '[.[] | select(.kind == "memory" and .used == 0) | .free] | max / 1073741824' "$RESE")" exact "$RESE (largest free memory at used 0, GiB)"
PROBE6=data/measurements/h100-probe-2026-12-06c.json
HO='.sections.driver_waits.cases.during_cudaHostRegister.handoff_malloc'
put probe6.handoff.first '%d' "$(jv "$PROBE6" "$HO.holder_first")" exact "$PROBE6 driver_waits.cases.during_cudaHostRegister.handoff_malloc"
put probe6.handoff.reps '%d' "$(jv "$PROBE6" "$HO.reps")" exact "$PROBE6 driver_waits.cases.during_cudaHostRegister.handoff_malloc"
put probe6.handoff.after-ms '%.2f' "$(calc "$(jv "$PROBE6" "$HO.b_return_after_a_next_return_s") * 1000")" exact "$PROBE6 driver_waits.cases.during_cudaHostRegister.handoff_malloc (ms)"
DR='.sections.msm_streaming.summary.during_registration.uniform.resident'
put probe6.msmreg.alone-s '%.2f' "$(jv "$PROBE6" "$DR.alone_s")" exact "$PROBE6 msm_streaming.summary.during_registration.uniform.resident"
put probe6.msmreg.during-s '%.2f' "$(jv "$PROBE6" "$DR.during_s")" exact "$PROBE6 msm_streaming.summary.during_registration.uniform.resident"
put probe6.msmreg.register-s '%.2f' "$(jv "$PROBE6" "$DR.register_s")" exact "$PROBE6 msm_streaming.summary.during_registration.uniform.resident"
put probe6.msmreg.stretch-min '%.2f' "$(jv "$PROBE6" '[.sections.msm_streaming.summary.during_registration[][] | objects | .stretch_over_register? // empty] | min')" exact "$PROBE6 msm_streaming.summary.during_registration (min over shapes and residency)"
put probe6.msmreg.stretch-max '%.2f' "$(jv "$PROBE6" '[.sections.msm_streaming.summary.during_registration[][] | objects | .stretch_over_register? // empty] | max')" exact "$PROBE6 msm_streaming.summary.during_registration (max over shapes and residency)"
# Replay (sim/replay.hpp): each scenario with its step times from the session's other runs.
val_grid gridreplay dev "$val"/{a,b,proofs,d}_replay/report.json
for x in a b; do val_report "${x}replay" "$val/${x}_replay/report.json" 1; done
puts val.d.cal "$(jv "$val/d/report.json" '[.sources[].calibration] | unique | map(sub(".*/"; "")) | join(", ")' | sed 's/_/\\_/g')" exact "experiments/05_validation/run.sh -> d/report.json (sources' calibration)"
puts val.d.from "$(jv "$val/d/report.json" '.from | sub(".*/data/validation/"; "") | sub("/runs$"; "")' | sed 's/_/\\_/g')" exact "experiments/05_validation/run.sh -> d/report.json"
# The probe measurement behind the copy-issue gate (session d's probe, driver_waits).
PROBE4=data/measurements/h100-probe-2026-12-06.json
put probe4.dw.register-s '%.3f' "$(jv "$PROBE4" '.sections.driver_waits.alone.cudaHostRegister_s')" exact "$PROBE4 driver_waits.alone"
put probe4.dw.copy-issued-inside-s '%.3f' "$(jv "$PROBE4" '.sections.driver_waits.summary.during_cudaHostRegister.copy_pinned_issued_inside_host_stretch_s')" exact "$PROBE4 driver_waits.summary.during_cudaHostRegister"
puts val.heldback "$(jq -rs '[.[].scenarios[] | select(.held_back) | .scenario] | unique | join(", ") | gsub("_"; "\\_")' "$val"/{a,b,proofs}/report.json)" exact "experiments/05_validation/run.sh -> {a,b,proofs}/report.json (held-back scenarios measured)"
# Measured one-worker gain on the card: the tiers (which pre-stage with one worker) against baseline, session a.
r=$val/a/report.json
mkq='.figures[] | select(.name == "makespan") | .median'
put val.measured.gain-1w '%+.1f' "$(jv "$r" "([.scenarios[] | select(.scenario == \"e01_one_worker_baseline\" and .kernels == \"real\") | $mkq][0]) / ([.scenarios[] | select(.scenario == \"e01_one_worker_tiers\" and .kernels == \"real\") | $mkq][0]) * 100 - 100")" exact "experiments/05_validation/run.sh -> a/report.json (measured medians)"
# The measured run sets of the grid (a, b, proofs): policies and card sizes, from their summary.json.
grid_runs() { jq -r '.sources[] | .measured_runs[0] + "/summary.json"' "$val"/{a,b,proofs}/report.json; }
for pol in baseline naive tiers budget; do
  put "val.grid.npolicy.$pol" '%d' "$(grid_runs | while read -r f; do jq -r .policy "$f"; done | grep -cx "$pol" || true)" exact "experiments/05_validation/run.sh -> {a,b,proofs}/report.json (measured runs' summary.json)"
done
puts val.grid.vrams "$(grid_runs | while read -r f; do jq -r '.workload.vram_B / 1073741824 | floor' "$f"; done | sort -n | uniq | paste -sd, - | sed 's/,/, /g')" exact "experiments/05_validation/run.sh -> {a,b,proofs}/report.json (measured runs' summary.json)"
put val.grid.nsets '%d' "$(grid_runs | wc -l)" exact "experiments/05_validation/run.sh -> {a,b,proofs}/report.json (measured run sets)"
# The real proofs: every partition of every measured run is a Groth16 proof checked on the host.
pr=$(jq -r '.sources[].measured_runs[] + "/summary.json"' "$val/proofs/report.json")
[ -n "$pr" ] || die "no measured runs in proofs/report.json"
psrc="experiments/05_validation/run.sh -> proofs/report.json (measured runs' summary.json, partitions)"
put val.proofs.verified '%d' "$(for f in $pr; do jq .partitions.verified "$f"; done | awk '{ s += $1 } END { print s + 0 }')" exact "$psrc"
put val.proofs.total '%d' "$(for f in $pr; do jq .partitions.total "$f"; done | awk '{ s += $1 } END { print s + 0 }')" exact "$psrc"
put val.proofs.checkfailed '%d' "$(for f in $pr; do jq .partitions.check_failed "$f"; done | awk '{ s += $1 } END { print s + 0 }')" exact "$psrc"
put val.proofs.runs '%d' "$(printf '%s\n' "$pr" | wc -l)" exact "$psrc"
put val.proofs.log2n '%d' "$(jq -r '.workload.log2_n // .workload.log2n // empty' "$(printf '%s\n' "$pr" | head -1)")" exact "$psrc (workload)"
# The sessions' dates and probes, from the reports' sources.
for x in a b proofs first; do
  puts "val.$x.cal" "$(jv "$val/$x/report.json" '[.sources[].calibration] | unique | map(sub(".*/"; "")) | join(", ")' | sed 's/_/\\_/g')" exact "experiments/05_validation/run.sh -> $x/report.json (sources' calibration)"
  puts "val.$x.from" "$(jv "$val/$x/report.json" '.from | sub(".*/data/validation/"; "") | sub("/runs$"; "")' | sed 's/_/\\_/g')" exact "experiments/05_validation/run.sh -> $x/report.json"
done
# Spread between machines: the same scenario files measured on 2026-12-01 (first) and 2026-12-02 (a).
spread=$(jq -rn --slurpfile f "$val/first/report.json" --slurpfile a "$val/a/report.json" '
  def mk($r; $s; $k): [$r[0].scenarios[] | select(.scenario == $s and .kernels == $k) | .figures[] | select(.name == "makespan") | .median][0];
  $f[0].scenarios[] | select(.kernels == "real") | .scenario as $s | mk($a; $s; "real") as $m2 | select($m2 != null)
  | [$s, mk($f; $s; "real"), $m2, (($m2 / mk($f; $s; "real") - 1) * 100)] | @tsv')
[ -n "$spread" ] || die "no scenario in both first/ and a/"
ssrc="experiments/05_validation/run.sh -> first/report.json, a/report.json (measured medians)"
while IFS=$'\t' read -r sc m1 m2 d; do
  put "val.spread.$(key_of "$sc").diff" '%+.1f' "$d" exact "$ssrc"
done <<<"$spread"
put val.spread.min '%+.1f' "$(cut -f4 <<<"$spread" | sort -g | head -1)" exact "$ssrc"
put val.spread.max '%+.1f' "$(cut -f4 <<<"$spread" | sort -g | tail -1)" exact "$ssrc"
put val.spread.n '%d' "$(wc -l <<<"$spread")" exact "$ssrc"
# The probe measurements behind this round's model changes (probe of 2026-12-02, session a).
msp() { jv "$PROBE3" "[.sections.msm_streaming.summary.points[] | select(.log2_n == $1 and .scalars == \"$2\")][0].$3"; }
put probe3.msm.streamed-g1 '%.3f' "$(msp 27 uniform streamed_s)" exact "$PROBE3 msm_streaming (2^27, uniform)"
put probe3.msm.resident-g1 '%.3f' "$(msp 27 uniform resident_s)" exact "$PROBE3 msm_streaming (2^27, uniform)"
put probe3.msm.streamed-porep '%.3f' "$(msp 27 porep streamed_s)" exact "$PROBE3 msm_streaming (2^27, porep)"
put probe3.msm.resident-porep '%.3f' "$(msp 27 porep resident_s)" exact "$PROBE3 msm_streaming (2^27, porep)"
put probe3.msm.workspace-gib '%.2f' "$(calc "$(msp 27 uniform workspace_B) / 1073741824")" exact "$PROBE3 msm_streaming (2^27 workspace)"
put probe3.msm.bytes-per-point '%.0f' "$(calc "$(msp 27 uniform h2d_bytes) / 2^27")" exact "$PROBE3 msm_streaming (2^27: bytes over H2D per point)"
put probe3.msm.minlog '%d' "$(jv "$PROBE3" '[.sections.msm_streaming.summary.points[].log2_n] | min')" exact "$PROBE3 msm_streaming (sizes measured)"
put probe3.msm.maxlog '%d' "$(jv "$PROBE3" '[.sections.msm_streaming.summary.points[].log2_n] | max')" exact "$PROBE3 msm_streaming (sizes measured)"
put probe3.release.sync-ms '%.1f' "$(jv "$PROBE3" '[.sections.pool_release_calls.trials[] | select(.call == "stream_sync" and .threshold == 0)][0].call_s * 1000')" exact "$PROBE3 pool_release_calls (stream_sync, threshold 0)"
put probe3.release.freed-gib '%.0f' "$(jv "$PROBE3" '[.sections.pool_release_calls.trials[] | select(.call == "stream_sync" and .threshold == 0)][0].freed_bytes / 1073741824')" exact "$PROBE3 pool_release_calls (stream_sync, threshold 0)"
# The validation tables: one block of rows per session (development part first, held back marked h).
# val_rows REPORT VARIANT LABEL [ABLATION_VARIANT:REPORT...]: the makespan rows of one session.
tex_name() { printf '%s' "$1" | sed 's/_/\\_/g'; }
has_sc() { jq -e --arg s "$2" --arg k "$3" '.scenarios[] | select(.scenario == $s and .kernels == $k)' "$1" >/dev/null; }
mk_rows() {  # REPORT VARIANT TITLE NOSTREAMED NOSER COMMITTED (variant names or -)
  local r=$1 v=$2 sc kn hb k lbl c
  printf '\\multicolumn{7}{@{}l}{\\emph{%s}} \\\\\n' "$3"
  jq -r '.scenarios | sort_by(.held_back) | .[] | [.scenario, .kernels, (.held_back | tostring)] | @tsv' "$r" \
    | while IFS=$'\t' read -r sc kn hb; do
    k=$(key_of "$sc").$kn
    lbl="\\texttt{$(tex_name "$sc")}"; [ "$hb" = true ] && lbl="$lbl\\textsuperscript{h}"
    printf '%s & \\N{val.%s.%s.mk.median} [\\N{val.%s.%s.mk.min}, \\N{val.%s.%s.mk.max}] & \\N{val.%s.%s.mk.model} & \\N{val.%s.%s.mk.err}' \
      "$lbl" "$v" "$k" "$v" "$k" "$v" "$k" "$v" "$k" "$v" "$k"
    for c in "$4" "$5" "$6"; do
      if [ "$c" != - ] && has_sc "$val/$(case $c in anostreamed) echo a_no_streamed ;; bnostreamed) echo b_no_streamed ;; anoser) echo a_no_serialisation ;; bnoser) echo b_no_serialisation ;; acommitted) echo a_committed ;; esac)/report.json" "$sc" "$kn"; then
        printf ' & \\N{val.%s.%s.mk.err}' "$c" "$k"
      else printf ' & --'; fi
    done
    printf ' \\\\\n'
  done
}
{
  echo '% GENERATED by papers/gen_numbers.sh from experiments/05_validation/run.sh output; do not edit.'
  mk_rows "$val/a/report.json" a "session a (probe \\N{val.a.cal})" anostreamed anoser acommitted
  mk_rows "$val/b/report.json" b "session b, another machine (probe \\N{val.b.cal})" bnostreamed bnoser -
  mk_rows "$val/proofs/report.json" proofs "real proofs at \$2^{\\N{val.proofs.log2n}}\$, session a" - - -
  mk_rows "$val/first/report.json" first "first session, 2026-12-01 (probe \\N{val.first.cal})" - - -
  mk_rows "$val/first_spin/report.json" firstspin "first session, spin kernels" - - -
} >"$dest/generated/validation_makespan.tex"
vd_rows() {  # REPORT VARIANT TITLE
  local r=$1 v=$2 sc kn hb k lbl
  printf '\\multicolumn{10}{@{}l}{\\emph{%s}} \\\\\n' "$3"
  jq -r '.scenarios | sort_by(.held_back) | .[] | [.scenario, .kernels, (.held_back | tostring)] | @tsv' "$r" \
    | while IFS=$'\t' read -r sc kn hb; do
    k=$(key_of "$sc").$kn
    lbl="\\texttt{$(tex_name "$sc")}"; [ "$hb" = true ] && lbl="$lbl\\textsuperscript{h}"
    printf '%s & \\N{val.%s.%s.oom.measured} & \\N{val.%s.%s.oom.model} & \\N{val.%s.%s.lost.measured} & \\N{val.%s.%s.lost.model} & \\N{val.%s.%s.verdicts} & \\N{val.%s.%s.td.measured} / \\N{val.%s.%s.td.model} & \\N{val.%s.%s.peak.median} & \\N{val.%s.%s.peak.model} & \\N{val.%s.%s.failed} \\\\\n' \
      "$lbl" "$v" "$k" "$v" "$k" "$v" "$k" "$v" "$k" "$v" "$k" "$v" "$k" "$v" "$k" "$v" "$k" "$v" "$k" "$v" "$k"
  done
}
{
  echo '% GENERATED by papers/gen_numbers.sh from experiments/05_validation/run.sh output; do not edit.'
  vd_rows "$val/a/report.json" a "session a"
  vd_rows "$val/b/report.json" b "session b"
  vd_rows "$val/proofs/report.json" proofs "real proofs, session a"
  vd_rows "$val/first/report.json" first "first session"
} >"$dest/generated/validation_verdicts.tex"

# ---------------------------------------------------------------- the probe (measured, data/)
src="$PROBE"
puts probe.driver "$(jv "$PROBE" .meta.driver)" exact "$src meta"
puts probe.date "$(jv "$PROBE" .meta.date)" exact "$src meta"
puts probe.date2 "$(jv "$PROBE2" .meta.date)" exact "$PROBE2 meta"
put probe.kernel-ms '%.0f' "$(jv "$PROBE" '.sections.device_sync_calls.method | capture("a (?<s>[0-9.]+) s") | .s | tonumber * 1000')" exact "$src device_sync_calls.method"
# When pool frees become visible: the release trials at threshold 0 (one row per host call).
declare -A callname=(
  [nothing]='nothing (200\,ms sleep)' [stream_query]='\texttt{cudaStreamQuery}'
  [event_query]='\texttt{cudaEventQuery}' [event_sync]='\texttt{cudaEventSynchronize} (event after the free)'
  [stream_sync]='\texttt{cudaStreamSynchronize} (freeing stream)'
  [stream_sync_other_stream]='\texttt{cudaStreamSynchronize} (another stream)'
  [device_sync]='\texttt{cudaDeviceSynchronize}' [mem_get_info]='\texttt{cudaMemGetInfo}'
  [cuda_malloc]='\texttt{cudaMalloc} (2\,MiB)' [malloc_async_other_stream]='\texttt{cudaMallocAsync} (another stream)'
  [trim_to_zero]='\texttt{cudaMemPoolTrimTo(pool, 0)}')
put probe.threshold '%.0f' "$(jv "$PROBE" '.sections.pool_defaults.summary.release_threshold')" exact "$src pool_defaults (the default pool's release threshold as found)"
put probe.release.freed-gib '%.0f' "$(jv "$PROBE" '.sections.pool_release_calls.trials[0].freed_bytes / 1073741824')" exact "$src pool_release_calls"
{
  echo '% GENERATED by papers/gen_numbers.sh from '"$PROBE"' (pool_release_calls, threshold 0); do not edit.'
  i=0
  while IFS=$'\t' read -r call rel; do
    i=$((i + 1))
    [ -n "${callname[$call]:-}" ] || die "pool_release_calls: no label for call $call"
    puts "probe.release.$i.released" "$(yesno "$rel")" exact "$src pool_release_calls.trials ($call)"
    put "probe.release.$i.ms" '%.3g' "$(jv "$PROBE" "[.sections.pool_release_calls.trials[] | select(.threshold == 0)][$((i - 1))].call_s * 1000")" exact "$src pool_release_calls.trials ($call)"
    printf '%s & \\N{probe.release.%d.released} & \\N{probe.release.%d.ms} \\\\\n' "${callname[$call]}" "$i" "$i"
  done < <(jq -r '.sections.pool_release_calls.trials[] | select(.threshold == 0) | [.call, (.released | tostring)] | @tsv' "$PROBE")
} >"$dest/generated/probe_release.tex"
# cudaMalloc against pool memory (pool_vs_cudamalloc).
declare -A trialname=(
  [threshold0_frees_pending]='frees still queued behind a kernel'
  [threshold0_frees_completed_no_sync]='frees executed on the GPU, no host sync yet'
  [threshold0_after_stream_sync]='after a sync of the freeing stream'
  [idle_pool_threshold_max]='idle pool kept by threshold \texttt{UINT64\_MAX}')
put probe.pvc.ask-gib '%.1f' "$(jv "$PROBE" '.sections.pool_vs_cudamalloc.trials[0].cuda_malloc.bytes / 1073741824')" exact "$src pool_vs_cudamalloc"
{
  echo '% GENERATED by papers/gen_numbers.sh from '"$PROBE"' (pool_vs_cudamalloc); do not edit.'
  i=0
  while IFS=$'\t' read -r name ok; do
    i=$((i + 1))
    [ -n "${trialname[$name]:-}" ] || die "pool_vs_cudamalloc: no label for $name"
    puts "probe.pvc.$i.ok" "$(yesno "$ok")" exact "$src pool_vs_cudamalloc ($name)"
    put "probe.pvc.$i.ms" '%.3g' "$(jv "$PROBE" ".sections.pool_vs_cudamalloc.trials[$((i - 1))].cuda_malloc.call_s * 1000")" exact "$src pool_vs_cudamalloc ($name)"
    printf '%s & \\N{probe.pvc.%d.ok} & \\N{probe.pvc.%d.ms} \\\\\n' "${trialname[$name]}" "$i" "$i"
  done < <(jq -r '.sections.pool_vs_cudamalloc.trials[] | [.name, (.cuda_malloc.ok | tostring)] | @tsv' "$PROBE")
} >"$dest/generated/probe_pool_vs_malloc.tex"
# Which calls wait for another stream's kernel (device_sync_calls).
{
  echo '% GENERATED by papers/gen_numbers.sh from '"$PROBE"' (device_sync_calls); do not edit.'
  i=0
  while IFS=$'\t' read -r call w; do
    i=$((i + 1))
    lbl=$(printf '%s' "$call" | sed -E 's/_other_stream/ (other stream)/; s/_([0-9]+[MG]iB)/ \1/; s/_pinned_h2d_/ pinned h2d /; s/_pageable_h2d_/ pageable h2d /; s/_legacy_stream/ (legacy stream)/; s/_/ /g')
    puts "probe.dsc.$i.waited" "$(yesno "$w")" exact "$src device_sync_calls ($call)"
    put "probe.dsc.$i.ms" '%.3g' "$(jv "$PROBE" ".sections.device_sync_calls.rows[$((i - 1))].median_call_s * 1000")" exact "$src device_sync_calls ($call)"
    printf '\\texttt{%s} & \\N{probe.dsc.%d.waited} & \\N{probe.dsc.%d.ms} \\\\\n' "$lbl" "$i" "$i"
  done < <(jq -r '.sections.device_sync_calls.rows[] | [.call, (.waited_for_other_stream | tostring)] | @tsv' "$PROBE")
} >"$dest/generated/probe_device_sync.tex"
# The link.
bw() { jv "$PROBE" ".sections.pcie.bandwidth.$1.$2.rows[] | select(.bytes == $3) | .bandwidth / 1e9"; }
put probe.h2d.pinned '%.1f' "$(bw h2d pinned 4294967296)" exact "$src pcie.bandwidth.h2d.pinned (4 GiB)"
put probe.d2h.pinned '%.1f' "$(bw d2h pinned 4294967296)" exact "$src pcie.bandwidth.d2h.pinned (4 GiB)"
put probe.h2d.pageable '%.1f' "$(bw h2d pageable 4294967296)" exact "$src pcie.bandwidth.h2d.pageable (4 GiB)"
put probe.h2d.pageable16m '%.1f' "$(bw h2d pageable 16777216)" exact "$src pcie.bandwidth.h2d.pageable (16 MiB)"
put probe.bw.large-gib '%.0f' "$(calc "4294967296 / 1073741824")" exact "$src pcie.bandwidth (the size of the rows above)"
put probe.bw.small-mib '%.0f' "$(calc "16777216 / 1048576")" exact "$src pcie.bandwidth (the size of the row above)"
put probe.h2d.pinned-latency-us '%.1f' "$(jv "$PROBE" '.sections.pcie.bandwidth.h2d.pinned.fit.latency_s * 1e6')" exact "$src pcie.bandwidth.h2d.pinned.fit"
put probe.duplex.agg '%.1f' "$(jv "$PROBE" '.sections.pcie.duplex.median_aggregate_bw / 1e9')" exact "$src pcie.duplex"
put probe.duplex.ratio '%.2f' "$(jv "$PROBE" '.sections.pcie.summary.bidirectional_over_sum_of_solo')" exact "$src pcie.summary"
for d in h2d d2h; do
  put "probe.same.$d.first-ms" '%.1f' "$(jv "$PROBE" "[.sections.pcie.same_direction_$d.repetitions[] | [.a_end_s, .b_end_s] | min] | sort | .[length / 2 | floor] * 1000")" exact "$src pcie.same_direction_$d"
  put "probe.same.$d.last-ms" '%.1f' "$(jv "$PROBE" "[.sections.pcie.same_direction_$d.repetitions[] | [.a_end_s, .b_end_s] | max] | sort | .[length / 2 | floor] * 1000")" exact "$src pcie.same_direction_$d"
  put "probe.same.$d.agg" '%.1f' "$(jv "$PROBE" ".sections.pcie.same_direction_$d.median_aggregate_bw / 1e9")" exact "$src pcie.same_direction_$d"
done
put probe.same.gib '%.0f' "$(jv "$PROBE" '.sections.pcie.same_direction_h2d.bytes_each / 1073741824')" exact "$src pcie.same_direction_h2d"
put probe.register-ms-gib '%.1f' "$(jv "$PROBE" '.sections.host_memory.summary.host_register.per_gib_s * 1000')" exact "$src host_memory.summary"
put probe.unregister-ms-gib '%.1f' "$(jv "$PROBE" '.sections.host_memory.summary.host_unregister.per_gib_s * 1000')" exact "$src host_memory.summary"
put probe.release-ms-gib '%.2f' "$(jv "$PROBE" '.sections.pool_costs.summary.release_at_stream_sync.per_gib_s * 1000')" exact "$src pool_costs.summary"
put probe.trim-ms-gib '%.2f' "$(jv "$PROBE" '.sections.pool_costs.summary.trim.per_gib_s * 1000')" exact "$src pool_costs.summary"
put probe.trimpending-us '%.1f' "$(jv "$PROBE" '.sections.trim_pending.trim_call_s * 1e6')" exact "$src trim_pending"
puts probe.trimpending "$(jv "$PROBE" '.sections.trim_pending.summary.trim_with_pending_frees' | tr '_' ' ')" exact "$src trim_pending.summary"
puts probe.oomsticky "$(yesno "$(jv "$PROBE" '.sections.oom_sticky.summary.oom_sticky | tostring')")" exact "$src oom_sticky.summary"
put probe.granule-pool-mib '%.0f' "$(jv "$PROBE" '.sections.granularity.summary.pool_granularity / 1048576')" exact "$src granularity.summary"
put probe.granule-sync-mib '%.0f' "$(jv "$PROBE" '.sections.granularity.summary.sync_granularity / 1048576')" exact "$src granularity.summary"
# Driver serialisation (probe of 2026-12-01): another thread's launch + sync behind a 12 GiB pin.
dsk=12GiB
ds=".sections.driver_serialisation[\"$dsk\"]"
put probe2.ds.size-gib '%.0f' "${dsk%GiB}" exact "$PROBE2 driver_serialisation (section key $dsk)"
put probe2.ds.register-s '%.2f' "$(jv "$PROBE2" "$ds.b_launch_sync.cudaHostRegister_s")" exact "$PROBE2 driver_serialisation.12GiB"
put probe2.ds.launch-max-s '%.2f' "$(jv "$PROBE2" "$ds.b_launch_sync.during_cudaHostRegister.max_s")" exact "$PROBE2 driver_serialisation.12GiB"
put probe2.ds.launch-median-ms '%.3f' "$(jv "$PROBE2" "$ds.b_launch_sync.during_cudaHostRegister.median_s * 1000")" exact "$PROBE2 driver_serialisation.12GiB"
put probe2.ds.unregister-s '%.2f' "$(jv "$PROBE2" "$ds.b_launch_sync.cudaHostUnregister_s")" exact "$PROBE2 driver_serialisation.12GiB"
put probe2.ds.two-wall-s '%.2f' "$(jv "$PROBE2" "$ds.register_two_threads_wall_s")" exact "$PROBE2 driver_serialisation.12GiB"
put probe2.ds.alone-s '%.2f' "$(jv "$PROBE2" "$ds.register_alone_s")" exact "$PROBE2 driver_serialisation.12GiB"

# ---------------------------------------------------------------- the prover (measured, data/)
# sppark's times on the same card: the estimates file keeps them (seconds per call).
sppark() {  # CURVE LOG2N -> ms
  awk -v c="$1" -v n="$2" '
    /^  [a-z0-9_]+:/ { cur = $1; sub(":", "", cur) }
    cur == c && /log2_n:/ { if (match($0, /log2_n: *[0-9]+/)) { l = substr($0, RSTART, RLENGTH); sub(/log2_n: */, "", l) }
      if (l == n && match($0, /value: *[0-9.eE+-]+/)) { v = substr($0, RSTART, RLENGTH); sub(/value: */, "", v); printf "%.17g", v * 1000; found = 1; exit } }
    END { if (!found) exit 1 }' "$SPPARK" || die "no sppark $1 at 2^$2 in $SPPARK"
}
bench() {  # ROW LOG2N FIELD
  jv "$BENCH" "[.rows[] | select(.name == \"$1\" and .log_n == $2)][0].$3"
}
puts gpu.sppark-date "$(grep -o 'CUDA events, median of [0-9-]* runs, [0-9]\{4\}-[0-9][0-9]-[0-9][0-9])' "$SPPARK" | head -1 | grep -o '[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]')" exact "$SPPARK (the date in its source strings)"
puts gpu.commit "$(jv "$BENCH" .manifest.commit)" exact "$BENCH manifest"
puts gpu.date "$(jv "$BENCH" .manifest.date | cut -c1-10)" exact "$BENCH manifest"
put gpu.d2d-tbs '%.2f' "$(jv "$BENCH" '.ceilings.d2d_bandwidth_GBps / 1000')" exact "$BENCH ceilings"
put gpu.fr-rate '%.3g' "$(jv "$BENCH" '.ceilings.fr_mul_per_s_floor')" exact "$BENCH ceilings"
# kernel table: label | our row | log n | sppark curve (or -)
{
  echo '% GENERATED by papers/gen_numbers.sh from '"$BENCH"' and '"$SPPARK"'; do not edit.'
  while IFS='|' read -r key label row ln sp; do
    put "gpu.k.$key.logn" '%d' "$ln" exact "$BENCH ($row: the row's log_n)"
    put "gpu.k.$key.ours" '%.3g' "$(bench "$row" "$ln" median_ms)" exact "$BENCH ($row, 2^$ln)"
    put "gpu.k.$key.floor" '%.3g' "$(bench "$row" "$ln" floor_ms)" exact "$BENCH ($row, 2^$ln)"
    if [ "$sp" != - ]; then
      put "gpu.k.$key.sppark" '%.3g' "$(sppark "$sp" "$ln")" exact "$SPPARK ($sp, 2^$ln)"
      put "gpu.k.$key.ratio" '%.2f' "$(calc "$(bench "$row" "$ln" median_ms) / $(sppark "$sp" "$ln")")" exact "$BENCH / $SPPARK"
      s="\\N{gpu.k.$key.sppark}"; q="\\N{gpu.k.$key.ratio}"
    else
      s='--'; q='--'
    fi
    printf '%s & $2^{%s}$ & \\N{gpu.k.%s.ours} & %s & %s & \\N{gpu.k.%s.floor} \\\\\n' "$label" "$ln" "$key" "$s" "$q" "$key"
  done <<'EOF'
ntt20|Fr NTT forward (scratch)|fr_ntt_forward_scratch|20|ntt
ntt24|Fr NTT forward (scratch)|fr_ntt_forward_scratch|24|ntt
ntt26|Fr NTT forward (scratch)|fr_ntt_forward_scratch|26|ntt
ntt27|Fr NTT forward (scratch)|fr_ntt_forward_scratch|27|ntt
intt27|Fr NTT inverse (scratch)|fr_ntt_inverse_scratch|27|intt
coset27|Fr coset NTT forward (scratch)|fr_ntt_coset_forward_scratch|27|coset_ntt
g1m20|G1 MSM (default)|g1_msm|20|msm_g1
g1m22|G1 MSM (default)|g1_msm|22|msm_g1
g1m24|G1 MSM (default)|g1_msm|24|msm_g1
g1m26|G1 MSM (default)|g1_msm|26|msm_g1
g1f24|G1 MSM (fixed-base table)|g1_msm_fixed_c20|24|msm_g1
g1f26|G1 MSM (fixed-base table)|g1_msm_fixed_c22|26|msm_g1
g1m27|G1 MSM (default)|g1_msm|27|-
porep27|G1 MSM, PoRep-shaped scalars|g1_msm_porep_shaped|27|-
g2m20|G2 MSM (default)|g2_msm|20|msm_g2
g2m22|G2 MSM (default)|g2_msm|22|msm_g2
g2f20|G2 MSM (fixed-base table)|g2_msm_fixed_c16|20|msm_g2
hin27|H input chain (fused iNTT + coset NTT)|groth16_h_input|27|-
EOF
} >"$dest/generated/prover_kernels.tex"
# proof table
{
  echo '% GENERATED by papers/gen_numbers.sh from '"$PROVE"'; do not edit.'
  for ln in $(jq -r '.rows[].log_n' "$PROVE"); do
    r="[.rows[] | select(.log_n == $ln)][0]"
    put "proof.$ln.host" '%.3f' "$(jv "$PROVE" "$r.host.median_s")" exact "$PROVE (2^$ln)"
    put "proof.$ln.gpu" '%.3f' "$(jv "$PROVE" "$r.gpu.median_s")" exact "$PROVE (2^$ln)"
    put "proof.$ln.res" '%.3f' "$(jv "$PROVE" "$r.gpu_resident_key.median_s")" exact "$PROVE (2^$ln)"
    put "proof.$ln.xgpu" '%.1f' "$(jv "$PROVE" "$r.host.median_s / $r.gpu.median_s")" exact "$PROVE (2^$ln)"
    put "proof.$ln.xres" '%.1f' "$(jv "$PROVE" "$r.host.median_s / $r.gpu_resident_key.median_s")" exact "$PROVE (2^$ln)"
    put "proof.$ln.keymb" '%.0f' "$(jv "$PROVE" "$r.gpu.points_bytes / 1e6")" exact "$PROVE (2^$ln)"
    puts "proof.$ln.ok" "$(yesno "$(jv "$PROVE" "$r.gpu_proof_equals_host_proof and $r.gpu_proof_verifies")")" exact "$PROVE (2^$ln)"
    printf '$2^{%s}$ & \\N{proof.%s.host} & \\N{proof.%s.gpu} (\\N{proof.%s.xgpu}$\\times$) & \\N{proof.%s.res} (\\N{proof.%s.xres}$\\times$) & \\N{proof.%s.keymb} & \\N{proof.%s.ok} \\\\\n' \
      "$ln" "$ln" "$ln" "$ln" "$ln" "$ln" "$ln" "$ln"
  done
} >"$dest/generated/prover_proofs.tex"
r='(.rows | max_by(.log_n))'
put proof.max.qap '%.3f' "$(jv "$PROVE" "$r.gpu.qap_s")" exact "$PROVE (largest domain)"
put proof.max.g1 '%.3f' "$(jv "$PROVE" "$r.gpu.msm_g1_s")" exact "$PROVE (largest domain)"
put proof.max.g1res '%.3f' "$(jv "$PROVE" "$r.gpu_resident_key.msm_g1_s")" exact "$PROVE (largest domain)"
put proof.maxlog '%d' "$(jv "$PROVE" '[.rows[].log_n] | max')" exact "$PROVE (largest domain)"
put proof.threads '%d' "$(jv "$PROVE" .manifest.host_threads)" exact "$PROVE manifest"
put proof.runs '%d' "$(jv "$PROVE" .manifest.runs)" exact "$PROVE manifest"
puts proof.commit "$(jv "$PROVE" .manifest.commit)" exact "$PROVE manifest"

# ---------------------------------------------------------------- write
sort -t'}' -k1,1 "$nums" | awk -F'}' '{ k = $1; if (k == prev) { print "gen_numbers: duplicate key " k > "/dev/stderr"; bad = 1 } prev = k } END { exit bad }' \
  || die "duplicate keys"
{
  echo '% GENERATED by papers/gen_numbers.sh; do not edit. One number a line:'
  echo '% \pnum{KEY}{TEXT}{RAW}{TOL}% SOURCE   (TOL: rel1e-6 = simulated, relative 1e-6; exact = measured or a word)'
  cat "$nums"
} >"$dest/numbers.tex"
echo "gen_numbers: $(wc -l <"$nums") numbers -> $dest/numbers.tex, tables -> $dest/generated/"
