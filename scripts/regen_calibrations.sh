#!/usr/bin/env bash
# Rebuilds every committed calibration (data/calibration/h*.yaml) from its raw probe JSON with
# `prestage-probe --from-json`, taking each file's own arguments from its header and sources
# (probe commit, driver, measured_on date, raw path, the gpu_bench file its kernel curves cite,
# extrapolation to 2^27; the kernel estimates file: data/calibration/estimates/h200-kernels.yaml).
#   scripts/regen_calibrations.sh PRESTAGE_PROBE [--check]
# Without --check: rewrites the files in place (after a change of the calibration writer).
# With --check: writes nothing; exits 1 naming each file that does not regenerate byte for byte.
set -euo pipefail
probe=${1:?usage: regen_calibrations.sh PRESTAGE_PROBE [--check]}
check=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
# shellcheck source=calibration_rebuild_args.sh
source "$root/scripts/calibration_rebuild_args.sh"
for f in data/calibration/h*.yaml; do
  raw=$(calibration_header_field "$f" raw)
  calibration_rebuild_args "$f" "$raw"
  args=(--from-json "$raw" "${rebuild_args[@]}")
  rm -f "$tmp/out.yaml"
  "$probe" "${args[@]}" --out-yaml "$tmp/out.yaml" >/dev/null
  if [ "$check" = --check ]; then
    if ! cmp -s "$tmp/out.yaml" "$f"; then
      diff "$tmp/out.yaml" "$f" | head -6 >&2 || true
      echo "regen_calibrations: $f does not regenerate byte for byte from $raw" >&2
      bad=1
    fi
  else
    cp "$tmp/out.yaml" "$f"
  fi
done
exit $bad
