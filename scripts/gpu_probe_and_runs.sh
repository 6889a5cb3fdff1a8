#!/usr/bin/env bash
# On a GPU machine, one device call of a validation session: the probe (the calibration of this
# machine, this session), then the scenarios' measured runs, repeat by repeat round-robin (every
# scenario gets run k before any gets run k + 1), stopping before a run that would not finish
# within the call's time budget. Everything goes into one file, OUT/session.tar.xz (the device tool
# brings back at most 8 files a call): session/ (the probe's JSON, YAML and log, nvidia-smi.txt,
# skipped.log), runs/<scenario>__<kernels>__r<k>/ and runs.log; it is rewritten after the probe
# and after every run, so a call stopped at its limit keeps what finished.
# usage: scripts/gpu_probe_and_runs.sh BIN_DIR OUT DATE COMMIT BUDGET_S REPEATS SCENARIO.yaml...
#   BIN_DIR: prestage and prestage-probe (scripts/pack_gpu_bins.sh); DATE: YYYY-MM-DD, names the
#   probe's files with the card (h200-probe-DATE.json, h200-DATE.yaml; h100-... on an H100, the
#   card's model token from nvidia-smi, lower case); BUDGET_S: seconds the whole script
#   may take; PRESTAGE_RUN_SECONDS_ESTIMATE (default 50) is what one run is assumed to take.
#   PRESTAGE_GPU_BENCH: the gpu_bench JSON whose kernel curves the calibration takes (default:
#   the H200 run18 bench; give this session's when it has one, which the card's own curves need);
#   PRESTAGE_PROBE_SECONDS (default 240): the probe's --max-seconds.
# A later call on the same warm machine adds repeats: PRESTAGE_SKIP_PROBE=1 skips the probe, and
# with PRESTAGE_WORK=DIR (the same DIR in both calls) a run whose folder DIR/runs/<name> exists is
# not run again; OUT/session.tar.xz then holds every run in DIR and the first call's probe.
set -uo pipefail
bin=${1:?bin dir}; out=${2:?out}; date=${3:?date}; commit=${4:?commit}; budget=${5:?budget s}
repeats=${6:?repeats}; shift 6
start=$(date +%s)
drv=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 |
  grep -oiE '\b[A-Z]+[0-9]{2,}[A-Z]*\b' | head -1 | tr '[:upper:]' '[:lower:]')
card=${card:-gpu}
work=${PRESTAGE_WORK:-$(mktemp -d)}
sess=$work/session
mkdir -p "$sess"
pack() {  # OUT/session.tar.xz from the work folder (not gpu_staging_runs.sh's own runs.tar.xz)
  tar -cJf "$out/session.tar.xz.tmp" -C "$work" --exclude=runs.tar.xz . &&
    mv "$out/session.tar.xz.tmp" "$out/session.tar.xz"
}
nvidia-smi >"$sess/nvidia-smi.txt" 2>&1
if [ "${PRESTAGE_SKIP_PROBE:-0}" != 1 ]; then
"$bin/prestage-probe" --commit "$commit" --driver "$drv" --date "$date" \
  --out-json "$sess/$card-probe-$date.json" --out-yaml "$sess/$card-$date.yaml" \
  --raw-path "data/measurements/$card-probe-$date.json" \
  --kernels data/calibration/estimates/h200-kernels.yaml \
  --gpu-bench "${PRESTAGE_GPU_BENCH:-data/gpu-runs/2026-12-01-h200/run18-c6677ef/gpu_bench.json}" \
  --extrapolate 27 --max-seconds "${PRESTAGE_PROBE_SECONDS:-240}" >"$sess/$card-probe-$date.log" 2>&1
echo "probe: exit $?, $(($(date +%s) - start)) s"
fi
pack
est=${PRESTAGE_RUN_SECONDS_ESTIMATE:-50}
for k in $(seq 1 "$repeats"); do
  for sc in "$@"; do
    mode=real  # synthetic pipelines (spin kernels only) run with --kernels spin
    case $sc in */synthetic/*) mode=spin ;; esac
    [ -d "$work/runs/$(basename "$sc" .yaml)__${mode}__r$k" ] && continue
    if [ $(($(date +%s) - start + est)) -gt "$budget" ]; then
      echo "skipped $(basename "$sc" .yaml) r$k: the call's budget ($budget s) would be exceeded" |
        tee -a "$sess/skipped.log"
      continue
    fi
    PRESTAGE_FIRST_REPEAT=$k bash "$(dirname "$0")/gpu_staging_runs.sh" \
      "$bin/prestage" "$work" "$mode" 1 "$sc" | grep '^run '
    pack
  done
done
pack
echo "total: $(($(date +%s) - start)) s"
