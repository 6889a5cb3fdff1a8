#!/usr/bin/env bash
# Writes data/INDEX.csv's content on stdout: one row per record of a run under data/ (validation
# sessions, probe outputs, calibrations, GPU suite runs, host benchmarks), with its date, the
# commit of the code that made it, its kind, its folder, a headline read from its files, and the
# files outside data/ that cite it (git grep of its name; at most 4, then a count), and, for a
# record removed from the tree, where git history keeps it (`archived`: tag and commit; the GPU
# runs listed in data/gpu-runs/ARCHIVE.md's table of archived folders).
# usage: scripts/data_index.sh > data/INDEX.csv   (tests/unit/experiments/data_index_test.sh checks it is current)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v jq >/dev/null || { echo "data_index.sh: jq is required" >&2; exit 2; }
csv() {  # FIELD: RFC 4180 quoting when needed
  local f=$1
  if [[ $f == *[,\"]* ]]; then f=\"${f//\"/\"\"}\"; fi
  printf '%s' "$f"
}
cited_by() {  # NAME: files outside data/ that mention it
  local files n
  files=$(git grep -l -F -e "$1" -- . ':(exclude)data' 2>/dev/null | LC_ALL=C sort || true)
  n=$(printf '%s' "$files" | grep -c . || true)
  if [ "$n" -gt 4 ]; then
    printf '%s; and %d more' "$(printf '%s\n' "$files" | head -4 | paste -sd';' - | sed 's/;/; /g')" $((n - 4))
  else
    printf '%s' "$files" | paste -sd';' - | sed 's/;/; /g'
  fi
}
row() {  # DATE COMMIT KIND FOLDER HEADLINE [ARCHIVED] (commit shortened to 7 hex digits)
  printf '%s,%s,%s,%s,%s,%s,%s\n' "$(csv "$1")" "$(csv "${2:0:7}")" "$(csv "$3")" "$(csv "$4")" \
    "$(csv "$5")" "$(csv "$(cited_by "$(basename "$4")")")" "$(csv "${6:-}")"
}
gpu_run_date() { basename "$(dirname "$1")" | grep -oE '^[0-9]{4}-[0-9]{2}-[0-9]{2}'; }
gpu_run_commit() { grep -oE -- '-[0-9a-f]{7}(-|$)' <<<"$(basename "$1")" | head -1 | tr -d '-' || true; }
echo "date,commit,kind,folder,headline,cited_by,archived"
{
  # Validation sessions: YYYY-MM-DD_<commit>_<kind> (a folder of runs, or a GPU test's log).
  for p in data/validation/*; do
    n=$(basename "$p")
    [ "$n" = README.md ] && continue
    IFS=_ read -r date commit kind <<<"${n%.log}"
    if [ -d "$p/runs" ]; then
      h="$(find "$p/runs" -mindepth 1 -maxdepth 1 -type d | wc -l) runs of $(find "$p/runs" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sed 's/__.*//' | sort -u | wc -l) scenarios (prestage run --gpu)"
    elif [ -f "$p/runs.log" ]; then
      h="runs.log only: $(grep -c '(GPU):' "$p/runs.log") runs' summary lines"
    else
      if grep -q "No errors detected" "$p"; then h="GPU test log: no errors detected"
      else h="GPU test log: errors (see the file)"; fi
    fi
    row "$date" "$commit" "validation ${kind}" "$p" "$h"
  done
  # Probe outputs and the calibrations made from them.
  for p in data/measurements/*-probe-*.json; do
    h="prestage-probe: $(jq -r '"\(.meta.total_s // 0 | . * 10 | round / 10) s, \(.errors | length) error(s)"' "$p")"
    row "$(jq -r '.meta.date // "-"' "$p")" "$(jq -r '.meta.commit // "-"' "$p")" "probe" "$p" "$h"
  done
  for p in data/calibration/*.yaml; do
    dev=$(sed -n 's/^  name: *//p' "$p" | head -1 | tr -d '"')
    date=$(sed -n 's/^  measured_on: *//p' "$p" | head -1 | tr -d '"')
    commit=$(sed -n 's/^  probe_commit: *//p' "$p" | head -1 | tr -d '"')
    row "${date:--}" "${commit:--}" "calibration" "$p" "$dev, from $(sed -n 's/^  raw: *//p' "$p" | head -1)"
  done
  # The GPU kernel suite's runs: data/gpu-runs/<date>-<card>/<run>[-<commit>].
  for p in data/gpu-runs/*/*/; do
    p=${p%/}
    commit=$(gpu_run_commit "$p")
    h=-
    [ -f "$p/summary.txt" ] && h=$(grep -m1 . "$p/summary.txt" | cut -c1-120)
    row "$(gpu_run_date "$p")" "${commit:--}" "gpu suite / kernel study" "$p" "$h"
  done
  # The GPU runs removed from the tree: ARCHIVE.md's rows "| `<date>-<card>/<run>` | headline |
  # ...", kept by the tag and commit it names (the headline was read from the run's summary.txt).
  arch=data/gpu-runs/ARCHIVE.md
  tag=$(grep -m1 -oE 'archive/gpu-runs-[0-9-]+' "$arch")
  hash=$(grep -m1 -oE '\b[0-9a-f]{40}\b' "$arch")
  sed -n 's/^| `\([0-9]\{4\}-[0-9][0-9]-[0-9][0-9]-[a-z0-9]*\/[^`]*\)` | \([^|]*[^ |]\) |.*/\1\t\2/p' "$arch" |
    while IFS=$'\t' read -r f h; do
      p=data/gpu-runs/$f
      [ -e "$p" ] && { echo "data_index.sh: $p is in the tree and in $arch" >&2; exit 1; }
      commit=$(gpu_run_commit "$p")
      row "$(gpu_run_date "$p")" "${commit:--}" "gpu suite / kernel study" "$p" "$h" \
        "git history: $tag ($hash); not in the tree"
    done
  # Host benchmarks: one row per folder, dated by its files' names.
  for p in data/bench/*/; do
    p=${p%/}
    dates=$(find "$p" -type f -printf '%f\n' | grep -oE '^[0-9]{4}-[0-9]{2}-[0-9]{2}' | sort -u)
    row "$(echo "$dates" | head -1)" "-" "benchmark" "$p" \
      "$(find "$p" -type f ! -name README.md | wc -l) result files, $(echo "$dates" | head -1) to $(echo "$dates" | tail -1)"
  done
} | LC_ALL=C sort -t, -k1,1 -k4,4
