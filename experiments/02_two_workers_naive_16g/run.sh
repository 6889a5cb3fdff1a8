#!/usr/bin/env bash
# Experiment 02: two GPU workers on a 16 GiB card with naive pre-staging: where and why it runs
# out of memory. Regenerates runs, figures and REPORT.md into OUT_DIR.
# usage: run.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR default: build/default)
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
exp_init "$@"

exp_simulate baseline_2w "$here/baseline_2w.yaml"
exp_simulate naive_1w "$here/naive_1w.yaml"
exp_simulate naive_2w "$here/naive_2w.yaml"

"$PLOT" bars --run "2 workers, no pre-staging=$OUT/runs/baseline_2w" \
  --run "1 worker, naive pre-staging=$OUT/runs/naive_1w" \
  --run "2 workers, naive pre-staging=$OUT/runs/naive_2w" \
  --title "02: 16 GiB card (model, H200 link/allocator): throughput" -o "$OUT/figures/throughput.png" --force
exp_run_figures naive_2w "02 naive, 2 workers, 16 GiB"
exp_run_figures naive_1w "02 naive, 1 worker, 16 GiB"
exp_run_figures baseline_2w "02 no pre-staging, 2 workers, 16 GiB"

n=$OUT/runs/naive_2w
ooms=$(exp_json "$n" '.oom_events | length')
first=$(exp_json "$n" 'if (.oom_events | length) > 0 then "partition \(.oom_events[0].partition) (worker \(.oom_events[0].worker), \(.oom_events[0].where), at \(.oom_events[0].t_s * 1000 | round / 1000) s: asked \(.oom_events[0].bytes / 1073741824 * 100 | round / 100) GiB, cudaMemGetInfo free \(.oom_events[0].meminfo_free_B / 1073741824 * 100 | round / 100) GiB)" else "none" end')
verdict="no out-of-memory"
[ "$ooms" -gt 0 ] && verdict="out of memory: $ooms events, first at $first"
{
  echo "## 02 — two workers, naive pre-staging, 16 GiB"
  echo
  echo "Question: with two GPU workers on a 16 GiB card, does naive pre-staging (no memory check)"
  echo "run out of device memory, where, and why?"
  echo
  exp_table_header
  exp_row "2 workers, no pre-staging" "$OUT/runs/baseline_2w"
  exp_row "1 worker, naive" "$OUT/runs/naive_1w"
  exp_row "2 workers, naive" "$n"
  echo
  echo "| | story | model |"
  echo "|---|---|---|"
  echo "| 2 workers, naive pre-staging | out of memory from the second partition on, then a cascade of failures | $verdict |"
  echo
  exp_details "2 workers, naive" "$n"
  exp_details "1 worker, naive" "$OUT/runs/naive_1w"
  echo
  echo "Peak device memory (2 workers, naive): used $(exp_json "$n" '.gpus[0].peak_device_memory_used_B / 1073741824 * 100 | round / 100') GiB,"
  echo "reserved $(exp_json "$n" '.gpus[0].peak_device_memory_reserved_B / 1073741824 * 100 | round / 100') GiB of 16 GiB."
  echo
  echo "Figures: [throughput](figures/throughput.png), [timeline 2w naive](figures/timeline_naive_2w.png),"
  echo "[memory 2w naive](figures/memory_naive_2w.png), [timeline 1w naive](figures/timeline_naive_1w.png),"
  echo "[memory 1w naive](figures/memory_naive_1w.png), [memory 2w no pre-staging](figures/memory_baseline_2w.png)."
  echo
} >"$OUT/REPORT.md"
exp_manifest "02_two_workers_naive_16g" "$here/baseline_2w.yaml" "$here/naive_1w.yaml" "$here/naive_2w.yaml"
echo "02: 2 workers naive on 16 GiB: $verdict -> $OUT/REPORT.md"
