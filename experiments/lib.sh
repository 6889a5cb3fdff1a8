#!/usr/bin/env bash
# Shared helpers of the experiment scripts (sourced, not run). Each experiment's run.sh calls
#   exp_init OUT_DIR [BUILD_DIR]       -> sets $OUT, $ROOT, $BUILD, $PRESTAGE, $PLOT; makes OUT
#                                         (refused, exit 2, unless new, empty or an experiment's
#                                         own: marked by $EXP_STAMP, which it writes)
#   exp_simulate NAME SCENARIO         -> $OUT/runs/NAME (prestage simulate)
#   exp_row LABEL RUN_DIR              -> one markdown table row (see exp_table_header)
#   exp_json RUN_DIR JQ_FILTER         -> a value from RUN_DIR/summary.json
#   exp_manifest TITLE SCENARIO...     -> $OUT/manifest.json
# Every number a report shows is read from the run's summary.json here, never typed by hand.
set -euo pipefail

# The stamp file that marks a folder an experiment script wrote: only such a folder (or a new or
# empty one) is written into, and only such a folder does run_all.sh remove to regenerate it.
EXP_STAMP=.prestage-experiment

# Exit 2 unless DIR is new, empty, or holds STAMP (a folder this tooling wrote).
exp_check_own_dir() {  # DIR STAMP WHO
  local d=$1
  if [ -L "$d" ]; then
    echo "$3: refusing to write into $d: it is a symbolic link; give a new folder" >&2
    exit 2
  fi
  [ -e "$d" ] || return 0
  if [ ! -d "$d" ]; then
    echo "$3: refusing to write into $d: it exists and is not a folder" >&2
    exit 2
  fi
  if [ -n "$(ls -A "$d")" ] && [ ! -f "$d/$2" ]; then
    echo "$3: refusing to write into $d: it holds files and was not written by the experiment" \
      "scripts (no $2 stamp); give a new or empty folder" >&2
    exit 2
  fi
}

exp_init() {
  [ $# -ge 1 ] || { echo "usage: run.sh OUT_DIR [BUILD_DIR]" >&2; exit 2; }
  ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  OUT=$1
  BUILD=${2:-${PRESTAGE_BUILD:-$ROOT/build/default}}
  case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
  PRESTAGE=$BUILD/apps/prestage/prestage
  PLOT=$BUILD/experiments/plot/prestage-plot
  for b in "$PRESTAGE" "$PLOT"; do
    [ -x "$b" ] || { echo "run.sh: missing $b (build the 'sim' or 'default' preset first)" >&2; exit 2; }
  done
  command -v jq >/dev/null || { echo "run.sh: jq is required (scripts/install_deps.sh)" >&2; exit 2; }
  exp_check_own_dir "$OUT" "$EXP_STAMP" run.sh
  mkdir -p "$OUT/runs" "$OUT/figures"
  OUT=$(cd "$OUT" && pwd)
  echo "experiments/lib.sh exp_init: this folder is an experiment's output" >"$OUT/$EXP_STAMP"
  # The scripts below replace their own runs, CSVs and figures inside this (stamped) folder.
}

exp_simulate() {  # NAME SCENARIO
  "$PRESTAGE" simulate "$2" -o "$OUT/runs/$1" --force -q  # --force: only a run prestage wrote
}

exp_json() {  # RUN_DIR FILTER
  jq -r "$2" "$1/summary.json"
}

exp_table_header() {
  echo "| run | policy | workers | throughput (proofs/h) | makespan (s) | proofs done | OOM events | first OOM (partition, where) | partitions lost / retried | device-wide wait (s, all workers) |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
}

exp_row() {  # LABEL RUN_DIR
  local d=$2
  jq -r --arg lbl "$1" '
    "| \($lbl) | \(.policy) | \(.workers | length) | \(.throughput_proofs_per_hour * 100 | round / 100) | \(.makespan_s * 1000 | round / 1000) | \(.proofs_completed)/\(.proofs_requested) | \(.oom_events | length) | \(if (.oom_events | length) > 0 then "\(.oom_events[0].partition), \(.oom_events[0].where)" else "-" end) | \(.partitions.lost) / \(.partitions.retried) | \([.workers[].device_wide_wait_s] | add * 1000 | round / 1000) |"
  ' "$d/summary.json"
}

# Relative change of throughput B vs A in percent, 1 decimal ("+14.2%").
exp_gain() {  # RUN_A RUN_B
  local a b
  a=$(exp_json "$1" .throughput_proofs_per_hour)
  b=$(exp_json "$2" .throughput_proofs_per_hour)
  awk -v a="$a" -v b="$b" 'BEGIN { if (a == 0) print "n/a (reference throughput 0)"; else { v = 100 * (b / a - 1); if (v > -0.05 && v < 0.05) v = 0; printf "%+.1f%%", v } }'
}

exp_hash() { sha256sum "$1" | cut -d' ' -f1; }

exp_manifest() {  # TITLE SCENARIO...
  local title=$1
  shift
  local cal commit
  commit=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
  if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit-dirty"
  fi
  {
    echo "{"
    echo "  \"experiment\": $(jq -Rn --arg t "$title" '$t'),"
    echo "  \"command\": $(jq -Rn --arg t "$EXP_COMMAND" '$t'),"
    echo "  \"date_utc\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\","
    echo "  \"commit\": \"$commit\","
    echo "  \"prestage_version\": $(jq -Rn --arg t "$("$PRESTAGE" --version)" '$t'),"
    echo "  \"scenarios\": ["
    local first=1 s
    for s in "$@"; do
      [ $first -eq 1 ] || echo ","
      first=0
      printf '    {"file": "%s", "sha256": "%s"}' "${s#"$ROOT"/}" "$(exp_hash "$s")"
    done
    echo ""
    echo "  ],"
    # The calibration each scenario names (its `calibration:` key, relative to the scenario).
    echo "  \"calibrations\": ["
    first=1
    local c
    while read -r c; do
      [ -n "$c" ] || continue
      [ $first -eq 1 ] || echo ","
      first=0
      printf '    {"file": "%s", "sha256": "%s"}' "${c#"$ROOT"/}" "$(exp_hash "$c")"
    done < <(for s in "$@"; do
      c=$(sed -n 's/^calibration: *//p' "$s" | tr -d "\"' ")
      realpath -m "$(dirname "$s")/$c"
    done | sort -u)
    echo ""
    echo "  ],"
    echo "  \"runs\": \"runs/*/manifest.json (per-run manifests: seed, scenario and calibration hashes)\""
    echo "}"
  } >"$OUT/manifest.json"
}

# End (s) of the K-th partition to run (its span, in time order), else, when fewer than K ever
# reached the GPU lock (every staging failed), of the K-th staging attempt (its host unpin),
# else the makespan: a timeline window that shows the first few partitions, retries included.
exp_window_end() {  # RUN_DIR K
  local t
  t=$(jq -n --argjson k "$2" '[inputs | select(.kind == "partition") | .t_end] | sort | .[$k - 1] // empty' "$1/events.jsonl")
  [ -n "$t" ] || t=$(jq -n --argjson k "$2" '[inputs | select(.kind == "unpin") | .t_end] | sort | .[$k - 1] // empty' "$1/events.jsonl")
  [ -n "$t" ] || t=$(exp_json "$1" .makespan_s)
  echo "$t"
}

# Figures of a run: timeline and device memory of its first partitions, under $OUT/figures.
exp_run_figures() {  # NAME TITLE [K: partition attempts the timeline shows, default 4]
  local run=$OUT/runs/$1 to
  to=$(exp_window_end "$run" "${3:-4}")
  "$PLOT" timeline "$run" --to "$to" --title "$2: timeline of the first ${3:-4} partition attempts (model)" \
    -o "$OUT/figures/timeline_$1.png" --force
  # The same window: over a whole run (100 partitions) the memory lines are too dense to read.
  "$PLOT" memory "$run" --to "$to" --title "$2: device memory, first ${3:-4} partition attempts (model)" \
    -o "$OUT/figures/memory_$1.png" --force
}

# One line on a run's out-of-memory events by allocation and its workers' shares, e.g.
# "OOM by allocation: alloc_d_bc x98, stage_bc x2; workers (partitions done / lock wait s /
# device-wide wait s): w0 98 / 4.9 / 97.5, w1 2 / 468.8 / 21.9".
exp_details() {  # LABEL RUN_DIR
  jq -r --arg lbl "$1" '
    "- \($lbl): OOM by allocation: \(if (.oom_events | length) == 0 then "none" else ([.oom_events[].where] | group_by(.) | map("\(.[0]) x\(length)") | join(", ")) end); workers (partitions done / lock wait s / device-wide wait s): \([.workers[] | "w\(.worker) \(.partitions_done) / \(.lock_wait_s * 10 | round / 10) / \(.device_wide_wait_s * 10 | round / 10)"] | join(", "))."
  ' "$2/summary.json"
}

# Per-partition means of a run (s): GPU kernels (steps on gpu0/compute), uploads inside the lock
# (upload_*), waits for staged uploads (wait_staged_*), from summary.json's phases.
exp_partition_breakdown() {  # RUN_DIR
  jq -r '
    (.partitions.done) as $n
    | .phases as $p
    | def total(f): [$p | to_entries[] | select(.key | f) | .value.total_s] | add // 0;
      "kernels \(total(test("^(h_input|intt|coset|pointwise|msm_(h|l|a|b_g1))")) / $n * 1000 | round / 1000) s, uploads in the lock \(total(startswith("upload_")) / $n * 1000 | round / 1000) s, waits for staged uploads \(total(startswith("wait_staged_")) / $n * 1000 | round / 1000) s"
  ' "$1/summary.json"
}
