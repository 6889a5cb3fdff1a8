#!/usr/bin/env bash
# Shared helpers of the experiment scripts (sourced, not run). Sourcing sets $here, the folder of
# the experiment's run.sh. Each experiment's run.sh then calls
#   exp_init OUT_DIR [BUILD_DIR]       -> sets $OUT, $ROOT, $BUILD, $PRESTAGE, $PLOT and
#                                         $EXP_COMMAND (the command line, for the manifest); makes OUT
#                                         (refused, exit 2, unless new, empty or an experiment's
#                                         own: marked by $EXP_STAMP, which it writes)
#   exp_simulate NAME SCENARIO [ARG..] -> $OUT/runs/NAME (prestage simulate; ARGs: --set k=v ...)
#   exp_row LABEL RUN_DIR              -> one markdown table row (see exp_table_header)
#   exp_json RUN_DIR JQ_FILTER         -> a value from RUN_DIR/summary.json
#   exp_manifest TITLE SCENARIO...     -> $OUT/manifest.json
#   exp_gain REF_RUN RUN               -> RUN's throughput against REF_RUN's, one table cell
#   exp_explain / exp_contrast         -> bullets on what a result owes to other than staging
#   exp_csv_table CSV COLUMN...        -> markdown rows of a sweep CSV's named columns
# Every number a report shows is read from the run's summary.json here, never typed by hand.
set -euo pipefail

# The stamp file that marks a folder an experiment script wrote: only such a folder (or a new or
# empty one) is written into, and only such a folder does run_all.sh remove to regenerate it.
EXP_STAMP=.prestage-experiment
here=$(cd "$(dirname "$0")" && pwd)

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
  EXP_COMMAND="${here#"$ROOT"/}/$(basename "$0") $*"
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

exp_simulate() {  # NAME SCENARIO [--set KEY=VALUE ...]
  # --force: only a run prestage wrote; the run's manifest.json records any --set.
  "$PRESTAGE" simulate "$2" -o "$OUT/runs/$1" --force -q "${@:3}"
}

exp_json() {  # RUN_DIR FILTER
  jq -r "$2" "$1/summary.json"
}

# Partitions completed per hour of a summary (jq): beside proofs/h, since a run that loses a
# partition of every proof completes 0 proofs however much work it did.
EXP_JQ_PPH='def pph: if .makespan_s > 0 then .partitions.done / .makespan_s * 3600 else 0 end;'

exp_table_header() {
  echo "| run | policy | workers | throughput (proofs/h) | throughput (partitions/h) | makespan (s) | proofs done | partitions done | OOM events | first OOM (partition, where) | partitions lost / retried | device-wide wait (s, all workers) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
}

exp_row() {  # LABEL RUN_DIR
  local d=$2
  jq -r --arg lbl "$1" "$EXP_JQ_PPH"'
    "| \($lbl) | \(.policy) | \(.workers | length) | \(.throughput_proofs_per_hour * 100 | round / 100) | \(pph * 100 | round / 100) | \(.makespan_s * 1000 | round / 1000) | \(.proofs_completed)/\(.proofs_requested) | \(.partitions.done)/\(.partitions.total) | \(.oom_events | length) | \(if (.oom_events | length) > 0 then "\(.oom_events[0].partition), \(.oom_events[0].where)" else "-" end) | \(.partitions.lost) / \(.partitions.retried) | \([.workers[].device_wide_wait_s] | add * 1000 | round / 1000) |"
  ' "$d/summary.json"
}

# Throughput of run B against reference run A, as one cell: the relative change of proofs/h
# ("+14.2%") when both complete proofs. When either completes none, a relative change of proofs/h
# says nothing ("n/a", "-100.0%"), so the cell says how many partitions that run did and compares
# partitions per hour instead, e.g. "0 proofs done (84 of 100 partitions); by partitions/h -9.4%
# (1954.81 vs 2157.63)".
exp_gain() {  # RUN_A (reference) RUN_B
  local v
  v=$(jq -rn --slurpfile a "$1/summary.json" --slurpfile b "$2/summary.json" "$EXP_JQ_PPH"'
    [$a[0], $b[0]] | map(.throughput_proofs_per_hour, .partitions.done, .partitions.total, pph)
    | map(tostring) | join(" ")')
  # shellcheck disable=SC2086
  set -- $v
  awk -v atp="$1" -v apd="$2" -v apt="$3" -v apph="$4" -v btp="$5" -v bpd="$6" -v bpt="$7" \
    -v bpph="$8" '
    function pct(a, b,   v, s) {
      v = 100 * (b / a - 1)
      if (v > -0.05 && v < 0.05) v = 0
      s = sprintf("%+.1f%%", v)
      if (s == "-100.0%") s = sprintf("%.2g%% of the reference", 100 * b / a)
      return s
    }
    BEGIN {
      if (atp > 0 && btp > 0) { print pct(atp, btp); exit }
      if (atp == 0 && btp == 0)
        head = sprintf("neither completes a proof (this run %d, the reference %d of %d partitions)", bpd, apd, apt)
      else if (btp == 0)
        head = sprintf("0 proofs done (%d of %d partitions)", bpd, bpt)
      else
        head = sprintf("the reference completes 0 proofs (%d of %d partitions)", apd, apt)
      if (apph > 0 && bpph > 0)
        cmp = sprintf("by partitions/h %s (%.2f vs %.2f)", pct(apph, bpph), bpph, apph)
      else if (apph == 0 && bpph == 0)
        cmp = "neither completes a partition"
      else if (apph == 0)
        cmp = sprintf("%.2f partitions/h, the reference none", bpph)
      else
        cmp = sprintf("no partition done, the reference %.2f partitions/h", apph)
      print head "; " cmp
    }'
}

# Markdown table rows of a sweep CSV, one per point: the named COLUMNs in order (a column
# "A/B" gives "a / b" from two columns); numbers with a fractional part to 2 decimals. An unknown
# column: a message naming the CSV and the column, exit 2.
exp_csv_table() {  # CSV COLUMN...
  local csv=$1
  shift
  awk -F, -v cols="$*" -v file="$csv" '
    function cell(name,   i) {
      if (!(name in idx)) { printf "exp_csv_table: %s: no column %s\n", file, name > "/dev/stderr"; bad = 1; exit 2 }
      i = $idx[name]
      if (i ~ /^-?[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?$/) return sprintf("%.2f", i)
      return i
    }
    NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; n = split(cols, c, " "); next }
    {
      line = "|"
      for (k = 1; k <= n; k++) {
        if (split(c[k], pair, "/") == 2) line = line " " cell(pair[1]) " / " cell(pair[2]) " |"
        else line = line " " cell(c[k]) " |"
      }
      print line
    }
    END { if (bad) exit 2 }' "$csv"
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
  exp_list_files
}

# The experiment's last step: every file it wrote, by relative path, into $EXP_FILES. run_all.sh
# removes an experiment folder only when it holds nothing else (exp_check_listed).
EXP_FILES=.prestage-experiment-files
exp_list_files() {
  (cd "$OUT" && { find . -type f -o -type l; echo "./$EXP_FILES"; } | sed 's#^\./##' | LC_ALL=C sort -u) \
    >"$OUT/$EXP_FILES.tmp"
  mv "$OUT/$EXP_FILES.tmp" "$OUT/$EXP_FILES"
}

# Exit 2 unless every file under DIR is named in DIR/$EXP_FILES (written by exp_list_files).
# Prints nothing and returns 1 when DIR has no such list (an interrupted or older run).
exp_check_listed() {  # DIR WHO
  local d=$1 extra
  [ -f "$d/$EXP_FILES" ] || return 1
  extra=$(cd "$d" && find . \( -type f -o -type l \) | sed 's#^\./##' | LC_ALL=C sort |
    LC_ALL=C comm -23 - <(LC_ALL=C sort -u "$EXP_FILES") | awk 'NR <= 3')
  if [ -n "$extra" ]; then
    echo "$2: refusing to regenerate $d: it holds files the experiment did not write" \
      "($(echo "$extra" | tr '\n' ' ' | sed 's/ $//')); move them out first" >&2
    exit 2
  fi
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

# What a run did besides its policy's idea, from its own outputs, as one JSON object:
#   staged:   per upload step, the partition attempts whose upload came from a pre-staged buffer
#             (summary.json phase "wait_staged_<step>") and all attempts that reached the step
#             (that phase plus the in-lock "<step>" phase), e.g. {"upload_a": [96, 100]};
#   stage_allocs: staging allocations in events.jsonl (alloc events on a worker's stager track);
#   pinning:  the resolved pinning mode (manifest.json policy_params.pinning);
#   syncs:    the policy's own synchronisations and trims in events.jsonl (stager-track events
#             of kind sync or trim named sync_* or trim*), name -> count;
#   upload_in_lock_s: mean upload time inside the lock per partition done (s).
exp_staging_json() {  # RUN_DIR
  local d=$1
  jq -n --slurpfile s "$d/summary.json" --slurpfile m "$d/manifest.json" '
    ($s[0]) as $s | ($m[0]) as $m | [inputs] as $ev
    | ($s.phases) as $p
    | ([$p | keys[] | select(startswith("wait_staged_")) | ltrimstr("wait_staged_")]
       + [$p | keys[] | select(startswith("upload_"))] | unique) as $steps
    | {policy: $s.policy,
       partitions_done: $s.partitions.done,
       staged: ([$steps[] | {key: ., value: [($p["wait_staged_" + .].count // 0),
                  (($p["wait_staged_" + .].count // 0) + ($p[.].count // 0))]}] | from_entries),
       stage_allocs: ([$ev[] | select(.kind == "alloc" and (.track | endswith("/stager")))] | length),
       pinning: ($m.policy_params.pinning // "unknown"),
       syncs: ([$ev[] | select((.track | endswith("/stager")) and (.kind == "sync" or .kind == "trim")
                  and (.name | test("^(sync_|trim)")))] | group_by(.name)
               | map({key: .[0].name, value: length}) | from_entries),
       upload_in_lock_s: (if $s.partitions.done > 0 then
          ([$p | to_entries[] | select(.key | startswith("upload_")) | .value.total_s] | add // 0)
          / $s.partitions.done else 0 end)}
  ' "$d/events.jsonl"
}

# The staging facts of exp_staging_json as words: "upload_a in 96 of 100 partition attempts,
# upload_b none, upload_c none", or "none (0 of 100 attempts of any upload)".
exp_staged_words() {  # RUN_DIR
  exp_staging_json "$1" | jq -r '
    if ([.staged[] | .[0]] | add // 0) == 0 then
      "none (no upload of \([.staged[] | .[1]] | max // 0) partition attempts came from a pre-staged buffer)"
    else
      [.staged | to_entries[] | if .value[0] == 0 then "\(.key) none"
        else "\(.key) in \(.value[0]) of \(.value[1]) partition attempts" end] | join(", ")
    end'
}

# A run's policy syncs as words: "sync_device x200, trim x100 (2, 1 per partition done)" or "none".
exp_sync_words() {  # RUN_DIR
  exp_staging_json "$1" | jq -r '
    if (.syncs | length) == 0 then "none" else
      (.partitions_done) as $n
      | "\([.syncs | to_entries[] | "\(.key) x\(.value)"] | join(", ")) (\(if $n > 0 then
          [.syncs[] | . / $n * 100 | round / 100 | tostring] | join(", ") else "-" end) per partition done)"
    end'
}

# One markdown bullet on what a run's result owes to something other than pre-staging, derived
# from its outputs (exp_staging_json): what it pre-staged, its pinning mode, its own syncs. When it
# pre-staged nothing but its inputs were pinned, the bullet says that its change against the
# reference (BASE) is pinned uploads inside the lock and its syncs, not staging; with a control
# run (CONTROL: e.g. policy `pinned`, the same pinning and sync without staging) it gives that
# run's throughput and the difference.
exp_explain() {  # LABEL RUN_DIR BASE_LABEL BASE_RUN_DIR [CONTROL_LABEL CONTROL_RUN_DIR]
  local lbl=$1 run=$2 blbl=$3 base=$4 clbl=${5:-} ctl=${6:-} j staged pin syncs line
  j=$(exp_staging_json "$run")
  staged=$(jq -r '[.staged[] | .[0]] | add // 0' <<<"$j")
  pin=$(jq -r .pinning <<<"$j")
  syncs=$(exp_sync_words "$run")
  line="- $lbl (policy $(jq -r .policy <<<"$j")): pre-staged uploads: $(exp_staged_words "$run");"
  line="$line device allocations by its stagers $(jq -r .stage_allocs <<<"$j") (events.jsonl);"
  line="$line pinning $pin"
  line="$line (manifest.json); its own syncs: $syncs."
  if [ "$staged" -eq 0 ] && [ "$pin" != pageable ] && [ "$pin" != unknown ] &&
    [ "$(exp_json "$run" .policy)" != "$(exp_json "$base" .policy)" ]; then
    local up bup
    up=$(jq -r '.upload_in_lock_s * 1000 | round / 1000' <<<"$j")
    bup=$(exp_staging_json "$base" | jq -r '.upload_in_lock_s * 1000 | round / 1000')
    line="$line It stages nothing, so its change against $blbl ($(exp_gain "$base" "$run")) is"
    line="$line not pre-staging: its uploads ran inside the lock from pinned memory ($up s per"
    line="$line partition against $bup s, pinning $(exp_staging_json "$base" | jq -r .pinning) in $blbl)"
    [ "$syncs" != none ] && line="$line, plus its syncs"
    line="$line."
    if [ -n "$ctl" ]; then
      local cj
      cj=$(exp_staging_json "$ctl")
      line="$line The $clbl run (policy $(jq -r .policy <<<"$cj"), pinning $(jq -r .pinning <<<"$cj"),"
      line="$line pre-staged uploads: $(exp_staged_words "$ctl"); syncs: $(exp_sync_words "$ctl"))"
      line="$line runs at $(exp_json "$ctl" '.throughput_proofs_per_hour * 100 | round / 100') proofs/h;"
      line="$line $lbl against it: $(exp_gain "$ctl" "$run")."
    fi
  fi
  echo "$line"
}

# One markdown bullet contrasting two runs' throughput with what each pre-staged and synced
# (exp_staging_json), e.g. why one policy beats another: "- tiers vs budget: +4.7%; pre-staged
# uploads: tiers upload_a in 96 of 100 ..., budget none (...); syncs: ...".
exp_contrast() {  # LABEL_A RUN_A LABEL_B RUN_B   (A is the reference)
  local same="" pa pb sa sb ya yb why=""
  pa=$(exp_staging_json "$2" | jq -r .pinning)
  pb=$(exp_staging_json "$4" | jq -r .pinning)
  sa=$(exp_staged_words "$2")
  sb=$(exp_staged_words "$4")
  ya=$(exp_sync_words "$2")
  yb=$(exp_sync_words "$4")
  [ "$sa" = "$sb" ] && same=" (the same in both)"
  # What differs between the two, of the three things this compares.
  if [ "$pa" = "$pb" ]; then
    if [ "$sa" != "$sb" ] && [ "$ya" != "$yb" ]; then
      why=" Their pinning is the same: the difference is what they pre-staged and their syncs."
    elif [ "$sa" != "$sb" ]; then
      why=" Their pinning and syncs are the same: the difference is what they pre-staged."
    elif [ "$ya" != "$yb" ]; then
      why=" Their pinning and staging are the same: the difference is their syncs."
    fi
  fi
  echo "- $3 against $1: $(exp_gain "$2" "$4"). Pre-staged uploads$same: $3 $sb; $1 $sa." \
    "Pinning: $3 $pb, $1 $pa. Own syncs: $3 $yb; $1 $ya.$why"
}

# The notes of runs' summary.json (e.g. phase times the scenario fixes while workload.log2_n
# changes), one bullet each; nothing when no run has one.
exp_notes() {  # LABEL=RUN_DIR...
  local a lbl d
  for a in "$@"; do
    lbl=${a%%=*}
    d=${a#*=}
    jq -r --arg l "$lbl" '(.notes // [])[] | "- \($l): \(.)"' "$d/summary.json"
  done
}
