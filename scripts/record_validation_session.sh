#!/usr/bin/env bash
# Files a validation session that scripts/gpu_probe_and_runs.sh brought back (its
# session.tar.xz) where the project keeps its records:
#   data/validation/NAME/{runs/, runs.log, nvidia-smi.txt, skipped.log}  the measured runs
#   data/measurements/<probe>.json, .log                                  the probe's raw output
#   data/calibration/<card>-<date>.yaml                                   its calibration
# The calibration is rebuilt here from the raw JSON with `prestage-probe --from-json` (the
# arguments the device used, read from the device's YAML: scripts/calibration_rebuild_args.sh)
# and must equal the device's YAML byte for byte; the script stops (exit 1, nothing written)
# when it does not. It never replaces an existing file or folder: a name already taken is an
# error (exit 2).
# usage: scripts/record_validation_session.sh SESSION_TAR NAME PRESTAGE_PROBE
#   NAME: YYYY-MM-DD_<commit>_<card>-staging-<session>, e.g. 2026-12-07_821b847_h100-staging-i
#   PRESTAGE_RECORD_ROOT: the tree to file into (default: this repository; its test uses a copy)
set -euo pipefail
tarball=${1:?usage: record_validation_session.sh SESSION_TAR NAME PRESTAGE_PROBE}
name=${2:?name}; probe=${3:?prestage-probe}
scripts=$(cd "$(dirname "$0")" && pwd)
root=${PRESTAGE_RECORD_ROOT:-$(dirname "$scripts")}
cd "$root"
[[ $name =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9a-f]{7,}_[a-z0-9]+-[a-z0-9_-]+$ ]] ||
  { echo "record_validation_session: NAME '$name' is not YYYY-MM-DD_<commit>_<card>-<what>" >&2; exit 2; }
dest=data/validation/$name
[ -e "$dest" ] && { echo "record_validation_session: $dest exists; give a new name" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$tarball" -C "$tmp"
json=$(ls "$tmp"/session/*-probe-*.json 2>/dev/null | head -1)
yaml=$(ls "$tmp"/session/*.yaml 2>/dev/null | head -1)
[ -n "$json" ] && [ -n "$yaml" ] ||
  { echo "record_validation_session: no probe JSON and YAML under session/ in $tarball" >&2; exit 2; }
raw=data/measurements/$(basename "$json")
cal=data/calibration/$(basename "$yaml")
for f in "$raw" "$cal"; do
  [ -e "$f" ] && { echo "record_validation_session: $f exists; nothing written" >&2; exit 2; }
done
# shellcheck source=calibration_rebuild_args.sh
source "$scripts/calibration_rebuild_args.sh"
calibration_rebuild_args "$yaml" "$raw"
[ -z "$rebuild_bench" ] || [ -f "$rebuild_bench" ] ||
  { echo "record_validation_session: the calibration cites $rebuild_bench; commit it first" >&2; exit 2; }
args=(--from-json "$json" "${rebuild_args[@]}")
"$probe" "${args[@]}" --out-yaml "$tmp/rebuilt.yaml" >/dev/null
if ! cmp -s "$tmp/rebuilt.yaml" "$yaml"; then
  diff "$tmp/rebuilt.yaml" "$yaml" | head -10 >&2 || true
  echo "record_validation_session: the calibration does not regenerate byte for byte" >&2
  exit 1
fi
mkdir -p "$dest"
[ -d "$tmp/runs" ] && cp -r "$tmp/runs" "$dest/"
for f in runs.log session/nvidia-smi.txt session/skipped.log; do
  [ -f "$tmp/$f" ] && cp "$tmp/$f" "$dest/"
done
cp "$json" "$raw"
log=${json%.json}.log
[ -f "$log" ] && cp "$log" "${raw%.json}.log"
cp "$yaml" "$cal"
echo "recorded: $dest ($(ls "$dest/runs" 2>/dev/null | wc -l) runs), $raw, $cal"
