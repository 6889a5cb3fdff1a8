#!/usr/bin/env bash
# Experiment 05's figures: one measured run of a scenario beside the model's run of the same file
# with the same calibration, device memory over time (used / reserved / free, out-of-memory lines).
# It reads what experiments/05_validation/run.sh validated from that run's output (the session
# calibration's report.json: the measured run directories and the calibration of each scenario),
# so it follows whichever measured runs run.sh uses. Needs no GPU.
# usage: figures.sh VAL_OUT [BUILD_DIR] [SCENARIO...]
#   VAL_OUT: run.sh's output folder (figures go to VAL_OUT/figures, the model runs to VAL_OUT/runs);
#   SCENARIO: scenario names (default: e03_two_workers_16g_tiers, the verdict the model gets wrong,
#   and e02_two_workers_16g_naive).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: figures.sh VAL_OUT [BUILD_DIR] [SCENARIO...]" >&2; exit 2; }
val=$(cd "$1" && pwd)
build=${2:-$root/build/default}
case $build in /*) ;; *) build=$PWD/$build ;; esac
shift $(($# >= 2 ? 2 : 1))
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(e03_two_workers_16g_tiers e02_two_workers_16g_naive)
prestage=$build/apps/prestage/prestage
plot=$build/experiments/plot/prestage-plot
[ -f "$val/.prestage-experiment" ] || { echo "figures.sh: $val is not an output of run.sh" >&2; exit 2; }
report=$val/a/report.json  # session a: the runs of 2026-12-02 with their own probe
[ -f "$report" ] || { echo "figures.sh: missing $report (run run.sh first)" >&2; exit 2; }
mkdir -p "$val/figures" "$val/runs"
cd "$root"
for s in "${scenarios[@]}"; do
  src=$(jq -c --arg s "$s" '[.sources[] | select(.scenario == $s and .kernels == "real")][0]' "$report")
  [ "$src" != null ] || { echo "figures.sh: no real-kernel run set of $s in $report" >&2; exit 2; }
  measured=$(jq -r '.measured_runs | sort | .[0]' <<<"$src")
  file=$(jq -r .file <<<"$src")
  cal=$(jq -r .calibration <<<"$src")
  case $cal in /*) ;; *) cal=$root/$cal ;; esac
  "$prestage" simulate "$file" --set "calibration=$cal" -o "$val/runs/${s}__model" --force -q
  "$plot" memory "$measured" -o "$val/figures/memory_${s}_measured.png" --force \
    --title "05 $s: device memory, measured (H200, $(basename "$measured"))"
  "$plot" memory "$val/runs/${s}__model" -o "$val/figures/memory_${s}_model.png" --force \
    --title "05 $s: device memory, model ($(basename "$cal"))"
done
echo "05: figures -> $val/figures"
