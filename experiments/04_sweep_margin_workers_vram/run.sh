#!/usr/bin/env bash
# Experiment 04: sweep safety margin x workers per GPU (1, 2) x VRAM (16, 24, 48, 80, 141 GiB)
# with `prestage sweep`: throughput and out-of-memory map of the tiers policy, and of naive
# pre-staging (which has no margin) over workers x VRAM.
# usage: run.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR default: build/default)
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
exp_init "$@"
JOBS=${PRESTAGE_JOBS:-2}
MARGINS=0,256MiB,512MiB,1GiB,2GiB,4GiB
WORKERS=1,2
VRAMS=16GiB,24GiB,48GiB,80GiB,141GiB

"$PRESTAGE" sweep "$here/tiers.yaml" --vary "policy.params.margin=$MARGINS" \
  --vary "gpus.workers_per_gpu=$WORKERS" --vary "gpus.vram=$VRAMS" -j "$JOBS" -o "$OUT/tiers.csv" --force
"$PRESTAGE" sweep "$here/naive.yaml" --vary "gpus.workers_per_gpu=$WORKERS" \
  --vary "gpus.vram=$VRAMS" -j "$JOBS" -o "$OUT/naive.csv" --force

"$PLOT" heatmap "$OUT/tiers.csv" --x gpus.vram --y policy.params.margin --facet gpus.workers_per_gpu \
  --value throughput_proofs_per_hour --value-label "throughput (proofs/h)" --x-label "VRAM" \
  --y-label "tiers safety margin" \
  --title "04: tiers policy, throughput and out-of-memory map (model, H200 link/allocator)" \
  -o "$OUT/figures/heatmap_tiers.png" --force
# Partitions per hour beside proofs per hour: a cell that loses a partition of every proof shows
# 0 proofs/h however much work it did.
"$PLOT" heatmap "$OUT/tiers.csv" --x gpus.vram --y policy.params.margin --facet gpus.workers_per_gpu \
  --value throughput_partitions_per_hour --value-label "throughput (partitions/h)" --x-label "VRAM" \
  --y-label "tiers safety margin" \
  --title "04: tiers policy, partitions per hour and out-of-memory map (model, H200 link/allocator)" \
  -o "$OUT/figures/heatmap_tiers_partitions.png" --force
"$PLOT" heatmap "$OUT/tiers.csv" --x gpus.vram --y policy.params.margin --facet gpus.workers_per_gpu \
  --value device_wide_wait_s --value-label "device-wide wait, all workers (s)" --x-label "VRAM" \
  --y-label "tiers safety margin" --title "04: tiers policy, time stalled in device-wide waits" \
  -o "$OUT/figures/heatmap_tiers_device_wait.png" --force
"$PLOT" heatmap "$OUT/naive.csv" --x gpus.vram --y gpus.workers_per_gpu \
  --value throughput_proofs_per_hour --value-label "throughput (proofs/h)" --x-label "VRAM" \
  --y-label "GPU workers" --title "04: naive pre-staging, throughput and out-of-memory map" \
  -o "$OUT/figures/heatmap_naive.png" --force

# Summaries read from the CSVs (columns by name).
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
count_rows() {  # CSV -> "points, points with OOM"
  local c
  c=$(col "$1" oom_events)
  awk -F, -v c="$c" 'NR > 1 { n++; if ($c > 0) o++ } END { printf "%d points, %d with out-of-memory", n, o }' "$1"
}
oom_free_vrams() {  # CSV WORKERS -> VRAMs (in sweep order) where no point with that worker count ran out of memory
  local w v o
  w=$(col "$1" gpus.workers_per_gpu); v=$(col "$1" gpus.vram); o=$(col "$1" oom_events)
  awk -F, -v w="$w" -v v="$v" -v o="$o" -v k="$2" '
    NR > 1 && $w == k { if (!($v in seen)) { seen[$v] = 1; order[++n] = $v } if ($o > 0) bad[$v] = 1 }
    END { s = ""; for (i = 1; i <= n; i++) if (!(order[i] in bad)) s = s (s == "" ? "" : ", ") order[i]; print (s == "" ? "none" : s) }' "$1"
}
{
  echo "## 04 — sweep: margin x workers x VRAM"
  echo
  echo "Question: over safety margin ($MARGINS), GPU workers ($WORKERS) and VRAM ($VRAMS),"
  echo "where do the tiers keep clear of out-of-memory, and at what throughput? Naive pre-staging"
  echo "over workers x VRAM for comparison."
  echo
  echo "| sweep | points | VRAM with no OOM at any margin, 1 worker | same, 2 workers |"
  echo "|---|---|---|---|"
  echo "| tiers | $(count_rows "$OUT/tiers.csv") | $(oom_free_vrams "$OUT/tiers.csv" 1) | $(oom_free_vrams "$OUT/tiers.csv" 2) |"
  echo "| naive | $(count_rows "$OUT/naive.csv") | $(oom_free_vrams "$OUT/naive.csv" 1) | $(oom_free_vrams "$OUT/naive.csv" 2) |"
  echo
  echo "Story: no sweep was reported (one 16 GiB card); this map is the model's prediction."
  echo
  echo "Data: [tiers.csv](tiers.csv), [naive.csv](naive.csv). Figures: [tiers throughput/OOM](figures/heatmap_tiers.png),"
  echo "[tiers partitions/h](figures/heatmap_tiers_partitions.png),"
  echo "[tiers device-wide waits](figures/heatmap_tiers_device_wait.png), [naive throughput/OOM](figures/heatmap_naive.png)."
  echo
} >"$OUT/REPORT.md"
exp_manifest "04_sweep_margin_workers_vram" "$here/tiers.yaml" "$here/naive.yaml"
echo "04: sweeps done -> $OUT/REPORT.md"
