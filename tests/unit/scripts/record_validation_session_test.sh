#!/usr/bin/env bash
# System: scripts/record_validation_session.sh (filing a device session's probe, calibration and
# runs under data/) on a session tarball made from session h's committed files (probe JSON and
# log, calibration, one run, runs.log), into a scratch tree holding the kernel estimates and the
# gpu_bench file the calibration cites. PRESTAGE_PROBE is $1.
# Expectations: the first call exits 0 and files the run folder, runs.log, nvidia-smi.txt, the
# probe's JSON and log and the calibration, each equal to the committed file; a second call with
# the same NAME exits 2 and changes nothing; a tarball whose calibration has one number changed
# (so it does not regenerate byte for byte) exits 1 and writes nothing; a malformed NAME exits 2.
# Tolerance: exact (exit codes, byte-equal files).
set -euo pipefail
probe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
H=data/validation/2026-12-07_5692b7f_h100-staging-h
run=e02_two_workers_16g_naive__real__r1
bench=data/gpu-runs/2026-12-07-h100-bench-g2porep-d66b194/gpu_bench_merged.json
# The session as gpu_probe_and_runs.sh packs it.
mkdir -p "$work/s/session" "$work/s/runs"
cp "$src"/data/measurements/h100-probe-2026-12-07b.{json,log} "$src/$H/nvidia-smi.txt" "$work/s/session/"
cp "$src/data/calibration/h100-2026-12-07b.yaml" "$work/s/session/"
cp -r "$src/$H/runs/$run" "$work/s/runs/"
cp "$src/$H/runs.log" "$work/s/"
tar -cJf "$work/session.tar.xz" -C "$work/s" .
# The scratch tree: what the rebuild reads.
root=$work/root
mkdir -p "$root/data/calibration/estimates" "$root/data/measurements" "$root/data/validation" \
  "$root/$(dirname "$bench")"
cp "$src/data/calibration/estimates/h200-kernels.yaml" "$root/data/calibration/estimates/"
cp "$src/$bench" "$root/$bench"
rec() { PRESTAGE_RECORD_ROOT=$root bash "$src/scripts/record_validation_session.sh" "$@" "$probe"; }
name=2026-12-07_5692b7f_h100-staging-test
rec "$work/session.tar.xz" "$name" >/dev/null || fail "the first call failed"
cmp "$root/data/calibration/h100-2026-12-07b.yaml" "$src/data/calibration/h100-2026-12-07b.yaml" ||
  fail "the filed calibration differs"
for f in json log; do
  cmp "$root/data/measurements/h100-probe-2026-12-07b.$f" "$src/data/measurements/h100-probe-2026-12-07b.$f" ||
    fail "the filed probe .$f differs"
done
cmp "$root/data/validation/$name/runs/$run/events.jsonl" "$src/$H/runs/$run/events.jsonl" ||
  fail "the filed run differs"
for f in runs.log nvidia-smi.txt; do
  [ -f "$root/data/validation/$name/$f" ] || fail "$f not filed"
done
before=$(find "$root" -type f | sort | xargs md5sum)
set +e
rec "$work/session.tar.xz" "$name" 2>/dev/null; rc=$?
set -e
[ $rc -eq 2 ] || fail "a second call with the same name exited $rc, not 2"
[ "$before" = "$(find "$root" -type f | sort | xargs md5sum)" ] || fail "a refused call changed files"
# A calibration that does not regenerate: nothing written.
sed -i 's/pinning_handoff: {value: 0\./pinning_handoff: {value: 1./' "$work/s/session/h100-2026-12-07b.yaml"
tar -cJf "$work/bad.tar.xz" -C "$work/s" .
rm -rf "$root/data/validation/$name" "$root"/data/measurements/* "$root/data/calibration/h100-2026-12-07b.yaml"
set +e
rec "$work/bad.tar.xz" "$name" 2>/dev/null; rc=$?
set -e
[ $rc -eq 1 ] || fail "a calibration that does not regenerate exited $rc, not 1"
[ ! -e "$root/data/validation/$name" ] && [ -z "$(ls "$root/data/measurements")" ] &&
  [ ! -e "$root/data/calibration/h100-2026-12-07b.yaml" ] || fail "a refused call wrote files"
set +e
rec "$work/session.tar.xz" "not-a-name" 2>/dev/null; rc=$?
set -e
[ $rc -eq 2 ] || fail "a malformed NAME exited $rc, not 2"
echo "record_validation_session: all expectations met"
