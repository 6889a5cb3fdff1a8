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
# FILE KEY: the value of `  KEY: value` (quotes dropped) in FILE's device header (before pcie:).
field() { sed -n "0,/^pcie:/s/^  $2: \"\{0,1\}\([^\"]*\)\"\{0,1\}$/\1/p" "$1" | head -1; }
for f in data/calibration/h*.yaml; do
  commit=$(field "$f" probe_commit)
  driver=$(field "$f" driver)
  date=$(field "$f" measured_on)
  raw=$(field "$f" raw)
  bench=$(grep -o 'raw: data/gpu-runs/[^"; ]*gpu_bench[^"; ]*\.json' "$f" | sort | uniq -c | sort -rn |
    awk 'NR == 1 {print $3}')
  args=(--from-json "$raw" --commit "$commit" --driver "$driver" --date "$date" --raw-path "$raw"
    --kernels data/calibration/estimates/h200-kernels.yaml --extrapolate 27)
  [ -n "$bench" ] && args+=(--gpu-bench "$bench")
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
