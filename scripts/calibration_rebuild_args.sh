# Sourced by scripts/regen_calibrations.sh and scripts/record_validation_session.sh: the
# `prestage-probe --from-json` arguments that rebuild a calibration YAML from its raw probe JSON,
# read from the YAML itself (its device header's probe_commit, driver and measured_on; the
# gpu_bench file its kernel curves cite most) with the committed kernel estimates and the 2^27
# extrapolation every calibration uses.
# calibration_rebuild_args YAML RAW_PATH -> sets the array rebuild_args (--commit ... --raw-path
#   RAW_PATH ..., and --gpu-bench when the YAML cites one) and rebuild_bench (that file, or empty).

# FILE KEY: the value of `  KEY: value` (quotes dropped) in FILE's device header (before pcie:).
calibration_header_field() {
  sed -n "0,/^pcie:/s/^  $2: \"\{0,1\}\([^\"]*\)\"\{0,1\}$/\1/p" "$1" | head -1
}

calibration_rebuild_args() {
  local yaml=$1 raw=$2
  rebuild_bench=$(grep -o 'raw: data/gpu-runs/[^"; ]*gpu_bench[^"; ]*\.json' "$yaml" | sort |
    uniq -c | sort -rn | awk 'NR == 1 {print $3}')
  rebuild_args=(--commit "$(calibration_header_field "$yaml" probe_commit)"
    --driver "$(calibration_header_field "$yaml" driver)"
    --date "$(calibration_header_field "$yaml" measured_on)" --raw-path "$raw"
    --kernels data/calibration/estimates/h200-kernels.yaml --extrapolate 27)
  if [ -n "$rebuild_bench" ]; then rebuild_args+=(--gpu-bench "$rebuild_bench"); fi
}
