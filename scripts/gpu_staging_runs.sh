#!/usr/bin/env bash
# On a GPU machine: runs scenarios with the staging runtime (`prestage run --gpu`), each under the
# kernel modes and repeats given, into OUTDIR/<scenario>__<mode>__r<k>/ (one run directory each),
# and packs them into OUTDIR/runs.tar.xz after every scenario (so a call stopped at its time
# limit keeps what finished); with PRESTAGE_PACK_TO=DIR the tarball and runs.log are copied there
# too after every scenario (the device tool's $OUT, where run folders would be too deep to come
# back). A failed run is recorded (its exit code and stderr in OUTDIR/runs.log) and the next one
# goes on.
# Usage: scripts/gpu_staging_runs.sh PRESTAGE_BIN OUTDIR "MODES" REPEATS SCENARIO.yaml...
#   e.g. scripts/gpu_staging_runs.sh /tmp/suite_bins/prestage "$OUT/x" "real spin" 2 data/scenarios/gpu/*.yaml
# PRESTAGE_FIRST_REPEAT=K numbers the runs from K (a later call adding repeats).
# Each run is stopped after PRESTAGE_RUN_TIMEOUT seconds (default 240; exit 124 in the log).
# PRESTAGE_PROOFS=verified|stand-in|auto passes --proofs (default: the runtime's, auto), e.g.
#   PRESTAGE_PROOFS=verified PRESTAGE_RUN_TIMEOUT=330 scripts/gpu_staging_runs.sh BIN OUT real 1 \
#     data/scenarios/gpu/proofs/p26_two_workers_24g_tiers_b_g2_gpu.yaml (real proofs at 2^26).
# Host memory: the lent VMs' MemTotal grows with use; PRESTAGE_HOST_MEMORY_BYTES tells the
# runtime the machine's real size (default here: 128 GiB).
set -uo pipefail
bin=${1:?prestage binary}; outdir=${2:?out dir}; modes=${3:?modes}; repeats=${4:?repeats}; shift 4
export PRESTAGE_HOST_MEMORY_BYTES=${PRESTAGE_HOST_MEMORY_BYTES:-137438953472}
mkdir -p "$outdir/runs"
log="$outdir/runs.log"
for sc in "$@"; do
  name=$(basename "$sc" .yaml)
  for mode in $modes; do
    first=${PRESTAGE_FIRST_REPEAT:-1}  # runs are named r<first> .. r<first + repeats - 1>
    for k in $(seq "$first" $((first + repeats - 1))); do
      dir="$outdir/runs/${name}__${mode}__r${k}"
      t0=$(date +%s.%N)
      timeout "${PRESTAGE_RUN_TIMEOUT:-240}" "$bin" run "$sc" --gpu --kernels "$mode" --progress \
        ${PRESTAGE_PROOFS:+--proofs "$PRESTAGE_PROOFS"} -o "$dir" >>"$log" 2>"$dir.stderr"
      rc=$?
      t1=$(date +%s.%N)
      echo "run $name $mode r$k: rc $rc, wall $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s" | tee -a "$log"
      [ -s "$dir.stderr" ] && sed 's/^/  stderr: /' "$dir.stderr" | tail -5 | tee -a "$log"
      rm -f "$dir.stderr"
    done
  done
  tar -cJf "$outdir/runs.tar.xz.tmp" -C "$outdir" runs && mv "$outdir/runs.tar.xz.tmp" "$outdir/runs.tar.xz"
  if [ -n "${PRESTAGE_PACK_TO:-}" ]; then
    cp "$outdir/runs.tar.xz" "$PRESTAGE_PACK_TO/runs.tar.xz.tmp" &&
      mv "$PRESTAGE_PACK_TO/runs.tar.xz.tmp" "$PRESTAGE_PACK_TO/runs.tar.xz"
    cp "$log" "$PRESTAGE_PACK_TO/runs.log"
  fi
done
