#!/usr/bin/env bash
# System: the report helpers of experiments/lib.sh (issue 22), run as the experiment scripts run
# them. Part 1 (always): exp_gain, exp_row, exp_explain and exp_contrast on hand-written run
# folders (summary.json, manifest.json, events.jsonl in the formats `prestage simulate` writes).
# Part 2 (with BUILD_DIR, which holds prestage and prestage-plot): experiments 01 and 03 run
# whole, into a temporary folder.
# Expectations:
#  - a run that completes 0 proofs is never compared as "n/a" or "-100.0%": the cell says how
#    many partitions it did and compares partitions per hour; both runs with proofs: the relative
#    change of proofs/h;
#  - the headline tables give partitions done and partitions per hour beside proofs per hour;
#  - a policy run that pre-staged nothing (no wait_staged_* phase in summary.json) with pinned
#    inputs (manifest.json) is said to owe its change to pinned uploads, with the pinned
#    control's throughput; a run that pre-staged says what it pre-staged and is not so labelled;
#  - in the generated REPORT.md files: no "n/a", no "-100.0%"; every headline row's
#    partitions/h is partitions.done / makespan_s x 3600 of that run's summary.json; 03's budget
#    bullet says "stages nothing" exactly when its summary has no wait_staged_* phase.
# Tolerance: exact text for part 1; partitions/h to the table's 2 decimals (+-0.01) in part 2.
# usage: experiment_reports_test.sh SOURCE_ROOT [BUILD_DIR]
set -uo pipefail
root=$(cd "${1:?usage: experiment_reports_test.sh SOURCE_ROOT [BUILD_DIR]}" && pwd)
build=${2:-}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
expect_eq() {  # DESC GOT WANT
  [ "$2" = "$3" ] || fail "$1: got [$2], want [$3]"
}
expect_has() {  # DESC TEXT NEEDLE
  case $2 in *"$3"*) ;; *) fail "$1: [$3] not in [$2]" ;; esac
}
expect_lacks() {  # DESC TEXT NEEDLE
  case $2 in *"$3"*) fail "$1: [$3] found in [$2]" ;; *) ;; esac
}

# shellcheck source=../../experiments/lib.sh
source "$root/experiments/lib.sh"
set +e  # lib.sh sets -e; this test counts failures instead

# A run folder: policy, proofs done of 10, partitions done of 100, makespan (s), pinning, the
# phases JSON, and the events.jsonl lines.
mkrun() {  # DIR POLICY PROOFS PARTS MAKESPAN PINNING PHASES_JSON [EVENT_LINE...]
  local d=$1
  mkdir -p "$d"
  jq -n --arg pol "$2" --argjson pr "$3" --argjson pd "$4" --argjson ms "$5" --argjson ph "$7" '
    {scenario: "t", policy: $pol, proofs_requested: 10, proofs_completed: $pr, makespan_s: $ms,
     throughput_proofs_per_hour: ($pr / $ms * 3600),
     partitions: {total: 100, done: $pd, lost: (100 - $pd), retried: 0},
     oom_events: [], workers: [{device_wide_wait_s: 0}], phases: $ph}' >"$d/summary.json"
  jq -n --arg pin "$6" '{policy_params: {pinning: $pin}}' >"$d/manifest.json"
  shift 7
  : >"$d/events.jsonl"
  local e
  for e in "$@"; do echo "$e" >>"$d/events.jsonl"; done
}
up='{"upload_a": {"count": 100, "total_s": 100}, "upload_b": {"count": 100, "total_s": 100}}'
mkrun "$work/base" baseline 10 100 360 pageable "$up"
mkrun "$work/zero" tiers 0 84 180 register_per_partition \
  '{"upload_a": {"count": 4, "total_s": 1}, "wait_staged_upload_a": {"count": 80, "total_s": 1}, "upload_b": {"count": 84, "total_s": 10}}' \
  '{"t_start":0,"t_end":1,"track":"gpu0/w0/stager","name":"alloc_d_a","kind":"alloc"}' \
  '{"t_start":1,"t_end":2,"track":"gpu0/w0/stager","name":"sync_device","kind":"sync"}' \
  '{"t_start":2,"t_end":3,"track":"gpu0/w0/host","name":"free_sync_device","kind":"sync"}'
mkrun "$work/zero2" tiers 0 80 200 register_per_partition "$up"
mkrun "$work/budget" budget 10 100 180 register_per_partition \
  '{"upload_a": {"count": 100, "total_s": 10}, "upload_b": {"count": 100, "total_s": 10}}' \
  '{"t_start":0,"t_end":1,"track":"gpu0/w0/stager","name":"sync_stream","kind":"sync"}'
mkrun "$work/pinned" pinned 10 100 180 register_per_partition \
  '{"upload_a": {"count": 100, "total_s": 10}, "upload_b": {"count": 100, "total_s": 10}}'
mkrun "$work/none" tiers 0 0 100 register_per_partition '{}'

# 1. exp_gain: both with proofs; this run 0 proofs; the reference 0 proofs; both 0; no partition.
expect_eq "gain, both complete proofs" "$(exp_gain "$work/base" "$work/budget")" "+100.0%"
expect_eq "gain, this run 0 proofs" "$(exp_gain "$work/base" "$work/zero")" \
  "0 proofs done (84 of 100 partitions); by partitions/h +68.0% (1680.00 vs 1000.00)"
expect_eq "gain, reference 0 proofs" "$(exp_gain "$work/zero" "$work/budget")" \
  "the reference completes 0 proofs (84 of 100 partitions); by partitions/h +19.0% (2000.00 vs 1680.00)"
expect_eq "gain, neither completes a proof" "$(exp_gain "$work/zero2" "$work/zero")" \
  "neither completes a proof (this run 84, the reference 80 of 100 partitions); by partitions/h +16.7% (1680.00 vs 1440.00)"
expect_eq "gain, no partition done" "$(exp_gain "$work/base" "$work/none")" \
  "0 proofs done (0 of 100 partitions); no partition done, the reference 1000.00 partitions/h"

# 2. exp_row: partitions done and partitions/h beside proofs/h.
row=$(exp_row "tiers" "$work/zero")
expect_eq "row" "$row" "| tiers | tiers | 1 | 0 | 1680 | 180 | 0/10 | 84/100 | 0 | - | 16 / 0 | 0 |"
expect_eq "header columns = row columns" "$(exp_table_header | head -1 | tr -cd '|' | wc -c)" \
  "$(tr -cd '|' <<<"$row" | wc -c)"

# 3. exp_explain: budget staged nothing, pinned: owes its change to pinning; with the control.
b=$(exp_explain "budget" "$work/budget" "no pre-staging" "$work/base" "pinned control" "$work/pinned")
expect_has "budget: staged nothing" "$b" "pre-staged uploads: none (no upload of 100 partition attempts came from a pre-staged buffer)"
expect_has "budget: pinning from the manifest" "$b" "pinning register_per_partition (manifest.json)"
expect_has "budget: its syncs from events.jsonl" "$b" "its own syncs: sync_stream x1 (0.01 per partition done)"
expect_has "budget: the verdict" "$b" "It stages nothing, so its change against no pre-staging (+100.0%) is not pre-staging: its uploads ran inside the lock from pinned memory (0.2 s per partition against 2 s, pinning pageable in no pre-staging), plus its syncs."
expect_has "budget: the control" "$b" "runs at 200 proofs/h; budget against it: +0.0%."
z=$(exp_explain "tiers" "$work/zero" "no pre-staging" "$work/base" "pinned control" "$work/pinned")
expect_has "tiers: what it staged" "$z" "pre-staged uploads: upload_a in 80 of 84 partition attempts, upload_b none;"
expect_has "tiers: stager allocations" "$z" "device allocations by its stagers 1 (events.jsonl)"
expect_has "tiers: policy syncs only (not cudaFree's)" "$z" "its own syncs: sync_device x1 (0.01 per partition done)."
expect_lacks "tiers: not labelled" "$z" "stages nothing"
bl=$(exp_explain "baseline" "$work/base" "no pre-staging" "$work/base")
expect_lacks "the reference itself: not labelled" "$bl" "stages nothing"
c=$(exp_contrast "budget" "$work/budget" "tiers" "$work/zero")
expect_has "contrast" "$c" "- tiers against budget: 0 proofs done (84 of 100 partitions); by partitions/h -16.0% (1680.00 vs 2000.00). Pre-staged uploads: tiers upload_a in 80 of 84"

expect_has "contrast: what differs" "$c" "Their pinning is the same: the difference is what they pre-staged and their syncs."
c2=$(exp_contrast "budget" "$work/budget" "pinned" "$work/pinned")
expect_has "contrast: only the syncs differ" "$c2" "Their pinning and staging are the same: the difference is their syncs."

# exp_csv_table: columns by name, "A/B" pairs, 2 decimals; an unknown column exits 2.
printf 'k,x,y,z\na,1.23456,2,\nb,3,4.5,w\n' >"$work/t.csv"
expect_eq "csv table" "$(exp_csv_table "$work/t.csv" k y/x z)" "$(printf '| a | 2 / 1.23 |  |\n| b | 4.50 / 3 | w |')"
(exp_csv_table "$work/t.csv" k nope >/dev/null 2>"$work/err")
expect_eq "csv table, unknown column: exit" "$?" 2
expect_has "csv table, unknown column: message" "$(cat "$work/err")" "$work/t.csv: no column nope"

# 4. The experiments as run (part 2).
if [ -n "$build" ]; then
  for e in 01_prestage_one_worker 03_tiers_16g; do
    out=$work/out/$e
    if ! bash "$root/experiments/$e/run.sh" "$out" "$build" >"$work/log" 2>&1; then
      fail "$e/run.sh failed"
      cat "$work/log" >&2
      continue
    fi
    rep=$(cat "$out/REPORT.md")
    expect_lacks "$e REPORT.md" "$rep" "n/a"
    expect_lacks "$e REPORT.md" "$rep" "-100.0%"
    # Each headline row (the exp_row table): its partitions/h against the run's summary.json.
    n=0
    while IFS='|' read -r _ label policy _ _ pph _ _ parts _; do
      label=$(echo "$label" | xargs)
      pph=$(echo "$pph" | xargs)
      parts=$(echo "$parts" | xargs)
      run=""
      for d in "$out"/runs/*/; do
        d=${d%/}
        if [ "$(exp_json "$d" .policy)" = "$(echo "$policy" | xargs)" ] &&
          [ "$(exp_json "$d" '"\(.partitions.done)/\(.partitions.total)"')" = "$parts" ] &&
          awk -v a="$pph" -v b="$(exp_json "$d" '.partitions.done / .makespan_s * 3600')" \
            'BEGIN { exit !(a - b < 0.0051 && b - a < 0.0051) }'; then
          run=$d
        fi
      done
      [ -n "$run" ] || fail "$e: row '$label': partitions/h $pph, partitions $parts match no run's summary.json"
      n=$((n + 1))
    done < <(grep -E '^\| [^|]+ \| [a-z_]+ \| [0-9]+ \| [0-9.]+ \| [0-9.]+ \| ' "$out/REPORT.md")
    [ "$n" -ge 3 ] || fail "$e: $n headline rows found, expected at least 3"
  done
  out=$work/out/03_tiers_16g
  if [ -f "$out/REPORT.md" ]; then
    bullet=$(grep '^- budget (ours) (policy budget): pre-staged uploads' "$out/REPORT.md")
    if [ "$(jq '[.phases | keys[] | select(startswith("wait_staged_"))] | length' \
      "$out/runs/budget_2w/summary.json")" -eq 0 ]; then
      expect_has "03: budget staged nothing" "$bullet" "It stages nothing, so its change against no pre-staging"
      expect_has "03: the pinned control" "$bullet" \
        "runs at $(exp_json "$out/runs/pinned_2w" '.throughput_proofs_per_hour * 100 | round / 100') proofs/h"
    else
      expect_lacks "03: budget staged" "$bullet" "stages nothing"
    fi
    grep -q '^- tiers, trim after each partition against budget (ours): ' "$out/REPORT.md" ||
      fail "03: no contrast of the tiers (trim after each partition) with budget"
  fi
fi

[ "$fails" -eq 0 ] && echo "experiment reports: all checks passed"
exit $((fails > 0))
