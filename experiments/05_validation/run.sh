#!/usr/bin/env bash
# Experiment 05: the model against the measured prover. Validates the committed measured runs
# of the staging runtime (data/validation/*_h200-*: `prestage run --gpu` on lent H200s) against a
# fresh simulation of the same scenario files, each session against the probe of that session
# (same machine, same device session, as the validation issue asks), and ablations of the model
# changes the comparisons motivated. The held-back part (HOLDOUT.md, grid.txt) is reported in its
# own section. No calibration number is fitted to these runs. Needs no GPU. Figures (figures/):
# per scenario of sessions a, b and proofs the measured run r1 and the model (sim/SESSION/SCENARIO)
# on one time axis (timeline_*, memory_*), and the makespan errors across the grid (errors.png).
# usage: run.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR default: build/default)
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
exp_init "$@"
V=$ROOT/data/validation
C=data/calibration
# grid.txt's every fourth row (HOLDOUT.md), assigned before each was measured.
holdout="e01_one_worker_tiers e03_two_workers_16g_tiers_trim_after e03_two_workers_48g_tiers e03_two_workers_16g_tiers_n26 e03_two_workers_16g_tiers_n24 e03_two_workers_16g_tiers_sync_event e01_one_worker_tiers_b_g2_gpu_resident e02_two_workers_16g_baseline"
cd "$ROOT"
val() {  # OUT_NAME RUNS CALIBRATION [VALIDATE_OPTION...]
  local h=() x
  for x in $holdout; do h+=(--holdout "$x"); done
  "$PRESTAGE" validate --from "$2" "${h[@]}" --calibration "$3" "${@:4}" -o "$OUT/$1" --force >/dev/null
}
strip_streamed() {  # CALIBRATION OUT: without the msm_*_streamed curves (the probe's msm_streaming)
  awk '/^  msm_g1(_porep)?_streamed:/{skip=1; next} skip && /^  [a-z]/{skip=0} !skip' "$1" >"$2"
}
# The sessions: runs and the probe of the same device session.
val a "$V/2026-12-02_05c3936_h200-staging/runs" $C/h200-2026-12-02.yaml
val b "$V/2026-12-02_05c3936_h200-staging-b/runs" $C/h200-2026-12-02b.yaml
val proofs "$V/2026-12-02_05c3936_h200-real-proofs/runs" $C/h200-2026-12-02.yaml
val first "$V/2026-12-01_d313ead_h200-staging/runs" $C/h200-2026-12-01.yaml
# Session d: an H100 (the lent kind the day gave), its own probe; the NTT and resident-MSM curves
# are still the H200's gpu_bench (this card's were not measured), its streamed-MSM curves its own.
val d "$V/2026-12-06_630d0de_h100-staging-d/runs" $C/h100-2026-12-06.yaml
# Ablation on session d: without the copy-issue and pool-allocation gates (driver_waits).
grep -v 'pinning_delays_copy_issue\|pinning_delays_pool_alloc' $C/h100-2026-12-06.yaml \
  >"$OUT/cal_d_no_issue_gates.yaml"
val d_no_issue_gates "$V/2026-12-06_630d0de_h100-staging-d/runs" "$OUT/cal_d_no_issue_gates.yaml"
val first_spin "$V/2026-12-01_4573caa_h200-staging-spin/runs" $C/h200-2026-12-01.yaml
# Session e: an H100 again (2026-12-06, another lease), its own probe (with the probe's
# launch_while_device_busy case); session c's rows with their folders, the synthetic spin
# pipelines s1 and s2, and the pinned_pool control. NTT and resident-MSM curves: the H200's.
val e "$V/2026-12-06_1831ef9_h100-staging-e/runs" $C/h100-2026-12-06b.yaml
# Session f: an H100 (2026-12-06, a third lease), its own probe (with driver_waits.handoff_malloc)
# and, for the first time on this card, its own gpu_bench (NTT, H input and resident-MSM curves,
# data/gpu-runs/2026-12-06-h100-bench-66593ac); the grid's rows at n = 2^24 (rows 20-22).
val f "$V/2026-12-06_66593ac_h100-staging-f/runs" $C/h100-2026-12-06c.yaml
# Ablation on session f's development rows: its calibration with the streamed MSMs measured in the
# 2^24 pipeline's own workspace (68 B a point: msm_g1*_streamed_ws68), which session f's probe did
# not measure; taken from session h's probe (another H100 lease; session g's agrees within 4%).
awk '/^  msm_g1(_porep)?_streamed_ws68:/{p=1; print; next} p && /^  [a-z]/{p=0} p' \
  $C/h100-2026-12-07b.yaml >"$OUT/ws68_curves.yaml"
awk -v f="$OUT/ws68_curves.yaml" '{print} /^kernels:/{while ((getline l < f) > 0) print l}' \
  $C/h100-2026-12-06c.yaml >"$OUT/cal_f_ws68.yaml"
val f_ws68 "$V/2026-12-06_66593ac_h100-staging-f/runs" "$OUT/cal_f_ws68.yaml" \
  data/scenarios/gpu/e01_one_worker_baseline_n24.yaml data/scenarios/gpu/e02_two_workers_16g_naive_n24.yaml
# Session g: an H100 (2026-12-07), its own probe (with free_release, handoff_sequence and
# h_during_registration) and kernel curves (the card kind's gpu_bench of 2026-12-06 with the G2
# MSM's PoRep rows of this lease); grid rows 2 (e02 16 GiB naive, again), 23-26. The B_G2 row ran
# a copy of its scenario file whose calibration and pipeline were given by absolute path (the
# committed file differs in those two lines only): validated with the committed file.
val g "$V/2026-12-07_d66b194_h100-staging-g/runs" $C/h100-2026-12-07.yaml
val g_b_g2 "$V/2026-12-07_d66b194_h100-staging-g/runs_b_g2_gpu" $C/h100-2026-12-07.yaml \
  data/scenarios/gpu/e03_two_workers_24g_tiers_b_g2_gpu.yaml
# Session h: an H100 (2026-12-07, a fifth lease), its own probe (with free_holds_driver: another
# thread's launches wait through a cudaFree that waits for the device; its cudaMemGetInfo does
# not) and session g's kernel curves (the same card kind's gpu_bench); grid rows 2 and 27 (the
# naive cascade with memory samples from the pool), 26 (B_G2 on the GPU) and, held back, 28 (B_G2
# with resident G1 and G2 points; the runs after the runtime's MSM-pieces fix, binaries 3a744fa;
# the three before it lost every partition to msm_workspace and are kept, not validated).
H=$V/2026-12-07_5692b7f_h100-staging-h
val h "$H/runs" $C/h100-2026-12-07b.yaml
val h_b_g2 "$H/runs_b_g2_gpu" $C/h100-2026-12-07b.yaml
val h_row28 "$H/runs_row28_pieces_3a744fa" $C/h100-2026-12-07b.yaml
# Session i: an H100 (2026-12-07, a sixth lease), its own probe (the first with msm_workspace: the
# MSM's workspace per curve and size) and its own kernel curves (gpu_bench's G2 MSM to 2^27 merged
# into the card's bench); grid rows 29-31 and, held back, 32 (experiments 01's and 02's
# configurations, written before they were measured), e01 tiers 2^25 and row 26.
I=$V/2026-12-07_eceaf56_h100-staging-i
val i "$I/runs" $C/h100-2026-12-07c.yaml
# Session j: an H100 (2026-12-07, a seventh lease) with only part of the probe (pcie,
# handoff_runtime, msm_streaming: the lease's device time did not allow the rest); its
# calibration h100-2026-12-07d takes those sections from this lease and every other section from
# session i's probe (data/measurements/h100-probe-2026-12-07d.json says which); experiment 01's
# three configurations (grid rows 1, 29, 31), 3 runs each, on one lease.
J=$V/2026-12-07_eb3ba6d_h100-staging-j
val j "$J/runs" $C/h100-2026-12-07d.yaml
# The same runs predicted with session i's calibration (written in grid.txt before measuring).
val j_with_i "$J/runs" $C/h100-2026-12-07c.yaml
# Session j2: another H100 lease, no probe at all (its device time allowed the runs only): grid
# row 33, a streamed MSM whose workspace fits no chunk, 3 runs, against session j's calibration.
J2=$V/2026-12-08_eb3ba6d_h100-staging-j2
val j2 "$J2/runs" $C/h100-2026-12-07d.yaml
# The committed calibration (probe 2026-11-30, another machine of the kind) on session a.
val a_committed "$V/2026-12-02_05c3936_h200-staging/runs" $C/h200.yaml
# Ablations on sessions a and b: without the streamed-MSM curves (the transfer beside the
# resident curve only), and without the driver-serialisation finding.
for x in a b; do
  cal=$C/h200-2026-12-02.yaml
  [ $x = b ] && cal=$C/h200-2026-12-02b.yaml
  runs=$V/2026-12-02_05c3936_h200-staging/runs
  [ $x = b ] && runs=$V/2026-12-02_05c3936_h200-staging-b/runs
  strip_streamed "$cal" "$OUT/cal_${x}_no_streamed.yaml"
  val ${x}_no_streamed "$runs" "$OUT/cal_${x}_no_streamed.yaml"
  sed 's/pinning_serialises_driver: {value: true/pinning_serialises_driver: {value: false/' "$cal" \
    >"$OUT/cal_${x}_no_serialisation.yaml"
  val ${x}_no_serialisation "$runs" "$OUT/cal_${x}_no_serialisation.yaml"
  # With the driver's waits: sessions a and b predate the probe's driver_waits section; its four
  # flags, measured alike on two other machines (session c's H200, session d's H100) with the
  # same driver (580.159.04), are taken from session c's probe. An ablation, not the session's
  # own calibration: reported beside it.
  awk -v f="$(grep -E '^  pinning_(stalls|delays)_' $C/h200-2026-12-02c.yaml)" \
    '{print} /^  pinning_serialises_driver:/ {print f}' "$cal" >"$OUT/cal_${x}_driver_waits.yaml"
  val ${x}_driver_waits "$runs" "$OUT/cal_${x}_driver_waits.yaml"
done
# Replay (sim/replay.hpp): each scenario again, its step times (kernels, copies, allocator and
# pinning calls) scaled by the fastest measured / fastest modelled occurrence in the same session's
# runs of the OTHER scenarios (never its own runs, nor the held-back rows); the policy, lock, link
# sharing and memory stay the model's. Does the model's error come from step costs or from
# mechanisms? Same calibrations as the sessions' own reports.
val a_replay "$V/2026-12-02_05c3936_h200-staging/runs" $C/h200-2026-12-02.yaml \
  --replay-from "$V/2026-12-02_05c3936_h200-staging/runs"
val b_replay "$V/2026-12-02_05c3936_h200-staging-b/runs" $C/h200-2026-12-02b.yaml \
  --replay-from "$V/2026-12-02_05c3936_h200-staging-b/runs"
val proofs_replay "$V/2026-12-02_05c3936_h200-real-proofs/runs" $C/h200-2026-12-02.yaml \
  --replay-from "$V/2026-12-02_05c3936_h200-real-proofs/runs"
val d_replay "$V/2026-12-06_630d0de_h100-staging-d/runs" $C/h100-2026-12-06.yaml \
  --replay-from "$V/2026-12-06_630d0de_h100-staging-d/runs"
val e_replay "$V/2026-12-06_1831ef9_h100-staging-e/runs" $C/h100-2026-12-06b.yaml \
  --replay-from "$V/2026-12-06_1831ef9_h100-staging-e/runs"
# Figures of the sessions a, b and proofs: per scenario, `prestage simulate` of the scenario file
# with the session's calibration (the run `validate` compares, kept in $OUT/sim/SESSION/SCENARIO),
# its timeline below the measured run r1's on one time axis and both runs' device memory on one
# plot; and the makespan errors across the grid from the three report.json files.
figures() {  # SESSION CALIBRATION
  local r=$OUT/$1/report.json s file m sim lbl_m lbl_s
  for s in $(jq -r '.sources[].scenario' "$r"); do
    file=$(jq -r --arg s "$s" '.sources[] | select(.scenario == $s) | .file' "$r")
    # The measured run r1 (else the first by name).
    m=$(jq -r --arg s "$s" '.sources[] | select(.scenario == $s) | .measured_runs | sort
      | (map(select(endswith("__r1"))) + .)[0]' "$r")
    sim=$OUT/sim/$1/$s
    mkdir -p "$OUT/sim/$1"
    "$PRESTAGE" simulate "$file" --set "calibration=$ROOT/$2" -o "$sim" --force -q
    # The figure must show the simulation validate compared: the same makespan.
    if ! jq -e --slurpfile r "$r" --arg s "$s" '.makespan_s == ($r[0].scenarios[]
        | select(.scenario == $s) | .figures[] | select(.name == "makespan") | .model)' \
        "$sim/summary.json" >/dev/null; then
      echo "run.sh: $sim: makespan differs from the model's in $r ($s)" >&2
      exit 1
    fi
    lbl_m="measured: prestage run --gpu, $(basename "$m" | sed 's/.*__//') (makespan $(jq -r '.makespan_s * 100 | round / 100' "$m/summary.json") s)"
    lbl_s="model: prestage simulate, $(basename "$2") (makespan $(jq -r '.makespan_s * 100 | round / 100' "$sim/summary.json") s)"
    "$PLOT" timeline "$m" --compare "$sim" --label "$lbl_m" --label "$lbl_s" --force \
      --title "Session $1, $s: measured (top) and model (bottom) on one time axis" \
      -o "$OUT/figures/timeline_$1_$s.png"
    "$PLOT" memory "$m" --compare "$sim" --label "measured ($(basename "$m" | sed 's/.*__//'))" \
      --label "model" --force --title "Session $1, $s: device memory, measured and model" \
      -o "$OUT/figures/memory_$1_$s.png"
  done
}
figures a $C/h200-2026-12-02.yaml
figures b $C/h200-2026-12-02b.yaml
figures proofs $C/h200-2026-12-02.yaml
figures d $C/h100-2026-12-06.yaml
figures e $C/h100-2026-12-06b.yaml
figures f $C/h100-2026-12-06c.yaml
figures g $C/h100-2026-12-07.yaml
figures h $C/h100-2026-12-07b.yaml
figures i $C/h100-2026-12-07c.yaml
figures j $C/h100-2026-12-07d.yaml
figures j2 $C/h100-2026-12-07d.yaml
"$PLOT" errors "$OUT"/{a,b,proofs,d,e,f,g,g_b_g2,h,h_b_g2,i,j,j2}/report.json --force \
  --title "Model makespan error per scenario (sessions a, b, proofs, d-j, j2; goal band +-5%)" \
  -o "$OUT/figures/errors.png"
figure_list() {  # SESSION: markdown bullets linking its figures
  local s
  echo "Figures (measured run r1 above, model below, one time axis; memory of both on one plot):"
  echo
  for s in $(jq -r '.scenarios[].scenario' "$OUT/$1/report.json"); do
    echo "- $s: [timeline](figures/timeline_$1_$s.png), [device memory](figures/memory_$1_$s.png)"
  done
  echo "- the grid: [makespan error per scenario](figures/errors.png)"
}
grid() {  # REPORT_JSON...: "k of n within every goal" over the development parts
  jq -rs '[.[].scenarios[] | select(.held_back | not)] as $d
    | "\([$d[] | select(.pass)] | length) of \($d | length)"' "$@"
}
grid_median() {  # REPORT_JSON...: median |makespan error| (%) over the development parts
  jq -rs '[.[].scenarios[] | select(.held_back | not) | .figures[] | select(.name == "makespan")
    | .rel_error | fabs] | sort | if length == 0 then "-" else
    (if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end)
    * 100 end' "$@" | awk '{printf "%.1f", $1}'
}
field() {  # REPORT_JSON SCENARIO FIGURE FIELD
  jq -r --arg s "$2" --arg n "$3" --arg f "$4" '.scenarios[] | select(.scenario == $s) | .figures[]
    | select(.name == $n) | .[$f] // "-"' "$1"
}
timing() {  # REPORT_JSON SCENARIO SIDE: "dependent" / "stable" / "-"
  jq -r --arg s "$2" --arg w "$3" '.scenarios[] | select(.scenario == $s) | .timing[$w]
    | if . == null then "-" elif .timing_dependent then "timing-dependent" else "stable" end' "$1"
}
# The held-back rows (HOLDOUT.md) are printed only in REPORT.md's last section, so that whoever
# changes the model reads the development part without them: `table dev ...` / `table held ...`.
table() {  # dev|held REPORT_JSON [ABLATION_JSON...]: one row per scenario of that part
  local part=$1
  shift
  local r=$1
  for s in $(jq -r --arg p "$part" '.scenarios[] | select((.held_back == true) == ($p == "held"))
      | .scenario' "$r"); do
    local hb
    hb=$(jq -r --arg s "$s" '.scenarios[] | select(.scenario == $s) | .held_back' "$r")
    printf '| %s%s | %.2f (%.2f .. %.2f) | %.2f | %+.1f%% | %s / %s | %s |' "$s" \
      "$([ "$hb" = true ] && echo " (held back)")" "$(field "$r" "$s" makespan median)" \
      "$(field "$r" "$s" makespan min)" "$(field "$r" "$s" makespan max)" \
      "$(field "$r" "$s" makespan model)" \
      "$(field "$r" "$s" makespan rel_error | awk '{print $1 * 100}')" \
      "$(field "$r" "$s" "any partition lost" median)" "$(field "$r" "$s" "any partition lost" model)" \
      "$(timing "$r" "$s" measured) / $(timing "$r" "$s" model)"
    for a in "${@:2}"; do
      printf ' %.2f |' "$(field "$a" "$s" makespan model)"
    done
    echo
  done
}
# A session whose run folders were lost (only scripts/gpu_staging_runs.sh's runs.log came back):
# makespan, partitions lost and OOM events per run, read from its lines, against a fresh
# simulation with the probe of the same session. One markdown row per scenario.
replay_rows() {  # SESSION: per replayed development scenario, measured median, model and replay errors
  local s r=$OUT/$1_replay/report.json
  for s in $(jq -r '.scenarios[] | select(.held_back | not) | .scenario' "$r"); do
    printf '| %s | %s%s | %.2f | %+.1f%% | %+.1f%% | %s |\n' "$1" "$s" \
      "$([[ " $holdout " == *" $s "* ]] && echo " (held back)")" "$(field "$r" "$s" makespan median)" \
      "$(field "$OUT/$1/report.json" "$s" makespan rel_error | awk '{print $1 * 100}')" \
      "$(field "$r" "$s" makespan rel_error | awk '{print $1 * 100}')" \
      "$(jq -r --arg s "$s" '.sources[] | select(.scenario == $s) | .replay.scenarios | unique | join(", ")' "$r")"
  done
}
replay_medians() {  # SESSION...: "model X%, replay Y% over N rows" (rows replay took, not held back)
  local x pairs
  pairs=$(for x in "$@"; do
    jq -r --slurpfile m "$OUT/$x/report.json" '.scenarios[] | select(.held_back | not) | .scenario as $s
      | [(.figures[] | select(.name == "makespan") | .rel_error | fabs),
         ($m[0].scenarios[] | select(.scenario == $s) | .figures[] | select(.name == "makespan")
          | .rel_error | fabs)] | "\(.[1]) \(.[0])"' "$OUT/${x}_replay/report.json"
  done)
  med() { sort -g | awk '{v[NR] = $1} END {printf "%.1f", 100 * (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
  echo "model $(echo "$pairs" | cut -d' ' -f1 | med)%, replay $(echo "$pairs" | cut -d' ' -f2 | med)% over the same $(echo "$pairs" | wc -l) rows"
}
log_only() {  # dev|held RUNS_LOG CALIBRATION
  local part=$1 log=$2 cal=$3 s sim mk n min max med model err lost mlost oom moom hb within
  for s in $(sed -n 's/^\([a-z0-9_]*\) (GPU): .*/\1/p' "$log" | uniq); do
    if [[ " $holdout " == *" $s "* ]]; then [ "$part" = held ] || continue; else [ "$part" = dev ] || continue; fi
    sim=$OUT/sim/log_only/$s
    mkdir -p "$OUT/sim/log_only"
    "$PRESTAGE" simulate "data/scenarios/gpu/$s.yaml" --set "calibration=$ROOT/$cal" -o "$sim" --force -q
    mk=$(sed -n "s/^$s (GPU): .* in \([0-9.]*\) s = .*/\1/p" "$log" | sort -g)
    n=$(echo "$mk" | wc -l)
    min=$(echo "$mk" | head -1)
    max=$(echo "$mk" | tail -1)
    med=$(echo "$mk" | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
    model=$(jq -r .makespan_s "$sim/summary.json")
    err=$(awk -v m="$model" -v r="$med" 'BEGIN {printf "%+.1f", (m - r) / r * 100}')
    within=$(awk -v m="$model" -v r="$med" -v a="$min" -v b="$max" \
      'BEGIN {e = (m - r) / r; print ((m >= a && m <= b) || (e <= 0.05 && e >= -0.05)) ? "yes" : "no"}')
    lost=$(sed -n "s/^$s (GPU): .*partitions lost \([0-9]*\),.*/\1/p" "$log" | tr '\n' ' ' | sed 's/ $//')
    oom=$(sed -n "s/^$s (GPU): .*OOM events \([0-9]*\);.*/\1/p" "$log" | tr '\n' ' ' | sed 's/ $//')
    mlost=$(jq -r .partitions.lost "$sim/summary.json")
    moom=$(jq -r '.oom_events | length' "$sim/summary.json")
    hb=""
    [[ " $holdout " == *" $s "* ]] && hb=" (held back)"
    printf '| %s%s | %d | %.2f (%.2f .. %.2f) | %.2f | %s%% | %s | %s / %s | %s / %s |\n' "$s" "$hb" \
      "$n" "$med" "$min" "$max" "$model" "$err" "$within" "$lost" "$mlost" "$oom" "$moom"
  done
}
{
  echo "## 05 — validation: the model against the measured prover (H200)"
  echo
  echo "Measured: \`prestage run --gpu\` on lent H200s (the staging runtime: real allocations,"
  echo "pinning, copies, policies and the prover's NTT and MSM kernels; at 2^20 every partition a"
  echo "real Groth16 proof checked on the host), 2-3 runs per scenario; simulated: \`prestage"
  echo "simulate\` of the same files with the probe of the same device session. Held back:"
  echo "$holdout (HOLDOUT.md, grid.txt)."
  echo
  echo "**Grid (development part, sessions a, b, proofs and d): $(grid "$OUT"/{a,b,proofs,d}/report.json) scenario run sets within every goal; median |makespan error| $(grid_median "$OUT"/{a,b,proofs,d}/report.json)% (goal <= 2%).** Per scenario: [makespan error against the measured range](figures/errors.png). The held-back rows (every fourth row of grid.txt) are in the last section only. With session e (H100, 2026-12-06, its own probe; real kernels on the H200's kernel curves): $(grid "$OUT"/{a,b,proofs,d,e}/report.json) within every goal, median $(grid_median "$OUT"/{a,b,proofs,d,e}/report.json)%; session e alone $(grid_median "$OUT/e/report.json")%."
  echo "Without the streamed-MSM curves: median $(grid_median "$OUT"/{a,b}_no_streamed/report.json "$OUT/proofs/report.json" "$OUT/d/report.json")%; without the driver serialisation: median $(grid_median "$OUT"/{a,b}_no_serialisation/report.json "$OUT/proofs/report.json" "$OUT/d/report.json")%; with the driver's waits in sessions a and b too (the flags of session c's probe, same driver): median $(grid_median "$OUT"/{a,b}_driver_waits/report.json "$OUT/proofs/report.json" "$OUT/d/report.json")%, $(grid "$OUT"/{a,b}_driver_waits/report.json "$OUT/proofs/report.json" "$OUT/d/report.json") within every goal."
  echo
  hdr='| scenario | measured makespan (s), median (range) | model (s) | error | partitions lost, measured / model | verdicts: measured / model |'
  sep='|---|---|---|---|---|---|'
  echo "### Session a (2026-12-02, probe h200-2026-12-02.yaml): [report](a/report.md)"
  echo
  echo "$hdr no streamed curves (s) | no driver serialisation (s) | committed cal. (s) | with the driver's waits (s) |"
  echo "$sep---|---|---|---|"
  table dev "$OUT/a/report.json" "$OUT/a_no_streamed/report.json" "$OUT/a_no_serialisation/report.json" \
    "$OUT/a_committed/report.json" "$OUT/a_driver_waits/report.json"
  echo
  figure_list a
  echo
  echo "### Session b (2026-12-02, another machine, probe h200-2026-12-02b.yaml): [report](b/report.md)"
  echo
  echo "$hdr no streamed curves (s) | no driver serialisation (s) | with the driver's waits (s) |"
  echo "$sep---|---|---|"
  table dev "$OUT/b/report.json" "$OUT/b_no_streamed/report.json" "$OUT/b_no_serialisation/report.json" \
    "$OUT/b_driver_waits/report.json"
  echo
  figure_list b
  echo
  echo "### Session d (2026-12-06, an NVIDIA H100 80GB HBM3, probe h100-2026-12-06.yaml): [report](d/report.md)"
  echo
  echo "The lent machine that day was an H100; its own probe (PCIe, pinning, allocators, driver"
  echo "waits, streamed MSMs) calibrates the model; the NTT and resident-MSM curves are the H200's"
  echo "gpu_bench (not measured on this card: the streamed rows' MSMs use the probe's own curves)."
  echo
  echo "$hdr without the copy-issue / pool-alloc gates (s) |"
  echo "$sep---|"
  table dev "$OUT/d/report.json" "$OUT/d_no_issue_gates/report.json"
  echo
  figure_list d
  echo
  echo "### Session e (2026-12-06, an NVIDIA H100 80GB HBM3, probe h100-2026-12-06b.yaml): [report](e/report.md)"
  echo
  echo "Another H100 lease the same day, three calls on one machine: session c's rows again, now with"
  echo "their folders; the synthetic spin pipelines s1 (a copy issued during the other worker's"
  echo "registration) and s2 (a free waiting for the other worker's kernels); and the control"
  echo "e03 16 GiB with a pinned pool (no per-partition registration). The NTT and resident-MSM"
  echo "curves are the H200's (this card's were not measured; its probe's MSMs and the runs' H input"
  echo "time match the H200's within 1%, so the card is not what the errors measure)."
  echo
  echo "$hdr"
  echo "$sep"
  table dev "$OUT/e/report.json"
  echo
  figure_list e
  echo
  echo "### Session f (2026-12-06, an NVIDIA H100 80GB HBM3, probe h100-2026-12-06c.yaml): [report](f/report.md)"
  echo
  echo "A third H100 lease that day: the grid's rows at n = 2^24 (3 runs each), with this card's own"
  echo "kernel curves (gpu_bench on the same machine in the same lease: NTT, H input and resident"
  echo "MSMs; the streamed MSMs from the probe, as before). Session f alone: median"
  echo "$(grid_median "$OUT/f/report.json")% over its development rows."
  echo
  echo "$hdr"
  echo "$sep"
  table dev "$OUT/f/report.json"
  echo
  echo "Ablation (not the session's own calibration): with the streamed G1 MSMs measured in the 2^24"
  echo "pipeline's own workspace (68 B a point, session h's probe: msm_g1*_streamed_ws68), e02 16 GiB"
  echo "naive at 2^24 $(field "$OUT/f_ws68/report.json" e02_two_workers_16g_naive_n24 makespan rel_error | awk '{printf "%+.1f%%", $1 * 100}')"
  echo "(own calibration $(field "$OUT/f/report.json" e02_two_workers_16g_naive_n24 makespan rel_error | awk '{printf "%+.1f%%", $1 * 100}'))."
  echo
  figure_list f
  echo
  echo "### Session g (2026-12-07, an NVIDIA H100 80GB HBM3, probe h100-2026-12-07.yaml): [report](g/report.md), B_G2 on the GPU: [report](g_b_g2/report.md)"
  echo
  echo "A fourth H100 lease: its own probe (the first run of free_release, handoff_sequence and"
  echo "h_during_registration) and kernel curves (the card kind's gpu_bench with this lease's G2"
  echo "MSM rows, the msm_g2_porep curve); 3 runs each of e02 16 GiB naive (again), grid rows 23"
  echo "(the pinned control), 24 (held back) and 25 (one worker, tiers, pinned pool), one run of row"
  echo "26 (B_G2 on the GPU). Session g alone: median"
  echo "$(grid_median "$OUT"/{g,g_b_g2}/report.json)% over its development rows."
  echo
  echo "$hdr"
  echo "$sep"
  table dev "$OUT/g/report.json"
  table dev "$OUT/g_b_g2/report.json"
  echo
  figure_list g
  echo
  echo "### Session h (2026-12-07, an NVIDIA H100 80GB HBM3, probe h100-2026-12-07b.yaml): [report](h/report.md), B_G2 on the GPU: [report](h_b_g2/report.md)"
  echo
  echo "A fifth H100 lease: its own probe (free_holds_driver's first full run: the model's"
  echo "free_blocks_launches) and session g's kernel curves; 3 runs each of e02 16 GiB naive (again)"
  echo "and grid row 27 (the same with the runtime's memory samples read from the pool, not"
  echo "cudaMemGetInfo), 3 runs of row 26 (B_G2 on the GPU) and, held back, row 28. Session h alone:"
  echo "median $(grid_median "$OUT"/{h,h_b_g2}/report.json)% over its development rows."
  echo
  echo "$hdr"
  echo "$sep"
  table dev "$OUT/h/report.json"
  table dev "$OUT/h_b_g2/report.json"
  echo
  figure_list h
  echo
  echo "### Session i (2026-12-07, an NVIDIA H100 80GB HBM3, probe h100-2026-12-07c.yaml): [report](i/report.md)"
  echo
  echo "A sixth H100 lease: its own probe (the first msm_workspace section: the simulator tests each"
  echo "MSM's workspace and knows the streamed MSM's chunks) and its own kernel curves (the G2 MSM to"
  echo "2^27); grid rows 29-31 (experiment 01's naive and pinned-pool configurations, experiment 02's"
  echo "one-worker naive at 16 GiB, each written before it was measured), e01 tiers at 2^25 and row 26"
  echo "(B_G2 on the GPU), 3 runs each. Session i alone: median $(grid_median "$OUT/i/report.json")% over"
  echo "its development rows."
  echo
  echo "$hdr"
  echo "$sep"
  table dev "$OUT/i/report.json"
  echo
  figure_list i
  echo
  echo "### Session j (2026-12-07, an NVIDIA H100 80GB HBM3, calibration h100-2026-12-07d.yaml): [report](j/report.md)"
  echo
  echo "A seventh H100 lease, experiment 01 measured on one machine: no pre-staging (row 1),"
  echo "naive pre-staging (row 29) and the pinned control (row 31), 3 runs each. The lease ran"
  echo "only part of the probe (pcie, handoff_runtime, msm_streaming); the calibration takes those"
  echo "sections from it and the rest from session i's probe (another lease of the card kind)."
  echo "Session j alone: median $(grid_median "$OUT/j/report.json")% over its rows. With session i's"
  echo "calibration (the prediction written in grid.txt before the runs): median"
  echo "$(grid_median "$OUT/j_with_i/report.json")%: its H2D rates, measured in that lease's slow first"
  echo "minutes, are below this lease's, which the runs moved at (the link check below), and the"
  echo "baseline's pageable uploads inside the lock decide most of the difference."
  echo
  echo "$hdr"
  echo "$sep"
  table dev "$OUT/j/report.json"
  echo
  figure_list j
  echo
  echo "### Session j2 (2026-12-08, an NVIDIA H100 80GB HBM3, no probe; session j's calibration): [report](j2/report.md)"
  echo
  echo "Another H100 lease: grid row 33, a streamed MSM whose 64 KiB workspace fits no chunk, written"
  echo "and predicted before it was measured (grid.txt), 3 runs. The out-of-memory the runtime records"
  echo "there had never run: every run recorded it for every attempt at the H MSM, as the model"
  echo "predicted. The makespan is the pageable uploads' (the baseline policy), and the calibration is"
  echo "another lease's."
  echo
  echo "$hdr"
  echo "$sep"
  table dev "$OUT/j2/report.json"
  echo
  figure_list j2
  echo
  echo "### Real proofs at 2^20 (session a): [report](proofs/report.md)"
  echo
  echo "$hdr"
  echo "$sep"
  table dev "$OUT/proofs/report.json"
  echo
  figure_list proofs
  echo
  echo "### The first session (2026-12-01, probe h200-2026-12-01.yaml, earlier runtime d313ead): [report](first/report.md), spin kernels: [report](first_spin/report.md)"
  echo
  echo "$hdr"
  echo "$sep"
  table dev "$OUT/first/report.json"
  echo
  echo "### Replay: the model with each step's time from the session's other recorded runs"
  echo
  echo "\`prestage validate --replay-from\` (sim/replay.hpp): per event name (each kernel, upload,"
  echo "download, allocation, free, host_register, host_unregister) the model's time is scaled by the"
  echo "fastest measured over the fastest modelled occurrence in the same session's runs of the other"
  echo "scenarios (never the scenario's own runs, nor the held-back rows); what the policy stages, the"
  echo "lock, the link's sharing and memory stay the model's. Where replay closes an error, the step"
  echo "costs were off; where it does not, a mechanism is. **Median |makespan error|: $(replay_medians a b proofs d e)**"
  echo "(development rows a scenario of the same session could replay). The factors themselves"
  echo "(report.json \`sources[].replay.steps\`) say how far each step's own cost is from the probe's."
  echo
  echo "| session | scenario | measured median (s) | model error | replay error | replayed from |"
  echo "|---|---|---|---|---|---|"
  for x in a b proofs d e; do replay_rows $x; done
  echo
  echo "### Session c (2026-12-02, probe h200-2026-12-02c.yaml): from its runs.log only"
  echo
  echo "The call ran past its limit before the run folders were packed; each run's summary line"
  echo "survived (data/validation/2026-12-02_c05d_h200-staging-c/runs.log). Makespan, partitions"
  echo "lost and OOM events per run, against a fresh simulation with the same session's probe."
  echo
  echo "| scenario | runs | measured makespan (s), median (range) | model (s) | error | within range or 5% | partitions lost per run / model | OOM events per run / model |"
  echo "|---|---|---|---|---|---|---|---|"
  log_only dev "$V/2026-12-02_c05d_h200-staging-c/runs.log" $C/h200-2026-12-02c.yaml
  echo
  echo "### The link: each session's calibration against its own runs"
  echo
  echo "The pinned H2D rate of the calibration (the probe's largest copy) against the staged"
  echo "uploads of 2 GiB or more that ran alone on the link in the session's runs, per repeat"
  echo "(r1 ran first in the lease; count of uploads in brackets), and the pageable rate against the"
  echo "baseline policy's uploads; held-back rows left out; nothing here feeds the model"
  echo "([link_rates.py](link_rates.py)). Session i's probe ran in its lease's first minutes, when"
  echo "H2D copies were slower; its runs r2 and r3, later, moved at the rate every other session's"
  echo "probe measured, so the model's transfer-bound steps in session i (uploads, streamed PoRep"
  echo "MSMs) are slow by about that ratio: the calibration's error, not the model's."
  echo
  echo "| session | pinned: calibration (GB/s) | staged uploads: median per repeat (GB/s) | runs / calibration | pageable: calibration (GB/s) | baseline's uploads: median per repeat (GB/s) | runs / calibration |"
  echo "|---|---|---|---|---|---|---|"
  python3 "$here/link_rates.py" "$OUT"/{a,b,d,e,f,g,h,i,j,j2}/report.json || { echo "05: link_rates.py failed" >&2; exit 1; }
  echo
  echo "### Spread between machines: the same scenario files measured in two sessions"
  echo
  echo "| scenario | 2026-12-01 median (s) | 2026-12-02 median (s) | difference |"
  echo "|---|---|---|---|"
  for s in $(jq -r '.scenarios[].scenario' "$OUT/first/report.json"); do
    m1=$(field "$OUT/first/report.json" "$s" makespan median)
    m2=$(field "$OUT/a/report.json" "$s" makespan median)
    [ "$m2" = "-" ] || [ -z "$m2" ] && continue
    printf '| %s | %.2f | %.2f | %+.1f%% |\n' "$s" "$m1" "$m2" "$(awk -v a="$m1" -v b="$m2" 'BEGIN{print (b - a) / a * 100}')"
  done
  echo
  echo "### Held back (read last: HOLDOUT.md)"
  echo
  echo "Every fourth row of grid.txt, chosen before it was measured; no model change looks at these."
  echo "Held back in sessions a, d, e, f, g, h and i: $(jq -rs '[.[].scenarios[] | select(.held_back) | "\(.scenario) \(.figures[] | select(.name == "makespan") | .rel_error * 1000 | round / 10)%"] | join(", ")' "$OUT"/{a,d,e,f,g,h_row28,i}/report.json)."
  echo
  echo "$hdr"
  echo "$sep"
  for x in a b proofs d e f g h_row28 i first; do table held "$OUT/$x/report.json"; done
  echo
  echo "Session c, from its runs.log:"
  echo
  echo "| scenario | runs | measured makespan (s), median (range) | model (s) | error | within range or 5% | partitions lost per run / model | OOM events per run / model |"
  echo "|---|---|---|---|---|---|---|---|"
  log_only held "$V/2026-12-02_c05d_h200-staging-c/runs.log" $C/h200-2026-12-02c.yaml
  echo
} >"$OUT/REPORT.md"
exp_manifest "05_validation" data/scenarios/gpu/*.yaml data/scenarios/gpu/proofs/*.yaml
echo "05: validation reports -> $OUT/REPORT.md"
