#!/usr/bin/env bash
# Experiment 03: the memory-aware tiers on the 16 GiB card with two workers: no out-of-memory,
# and the throughput cost of device-wide synchronisation; our budget policy beside it.
# usage: run.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR default: build/default)
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
exp_init "$@"

exp_simulate baseline_2w "$here/../02_two_workers_naive_16g/baseline_2w.yaml"
exp_simulate tiers_device_2w "$here/tiers_device_2w.yaml"
exp_simulate tiers_stream_2w "$here/tiers_stream_2w.yaml"
exp_simulate budget_2w "$here/budget_2w.yaml"
# The control: budget's pinning and stream sync without its staging (policy pinned).
exp_simulate pinned_2w "$here/pinned_2w.yaml"
# The tiers with the trim after each partition (the best point of the trim x sync sweep), as a
# run, so the report can say from its event log what it pre-staged.
exp_simulate tiers_trim_after_2w "$here/tiers_device_2w.yaml" --set policy.params.trim=after_partition
# Is the tiers' out-of-memory a same-instant race (jitter would break it) or structural? Sweep
# the tiers' trim timing x sync kind, and kernel/synthesis jitter x seed.
"$PRESTAGE" sweep "$here/tiers_device_2w.yaml" --vary "policy.params.trim=before_check,after_partition,never" \
  --vary "policy.params.sync=device,stream" -j 2 -o "$OUT/tiers_trim_sync.csv" --force >/dev/null
"$PRESTAGE" sweep "$here/tiers_device_2w.yaml" --vary "run.jitter=0,0.01,0.05" \
  --vary "run.seed=1,2,3" -j 2 -o "$OUT/tiers_jitter.csv" --force >/dev/null

"$PLOT" bars --run "no pre-staging=$OUT/runs/baseline_2w" \
  --run "tiers, device sync=$OUT/runs/tiers_device_2w" \
  --run "tiers, stream sync=$OUT/runs/tiers_stream_2w" \
  --run "budget (ours)=$OUT/runs/budget_2w" \
  --run "pinned control=$OUT/runs/pinned_2w" \
  --title "03: 2 workers, 16 GiB card (model, H200 link/allocator): throughput" \
  -o "$OUT/figures/throughput.png" --force
"$PLOT" bars --run "no pre-staging=$OUT/runs/baseline_2w" \
  --run "tiers, device sync=$OUT/runs/tiers_device_2w" \
  --run "tiers, stream sync=$OUT/runs/tiers_stream_2w" \
  --run "budget (ours)=$OUT/runs/budget_2w" \
  --value workers.0.device_wide_wait_s --value workers.1.device_wide_wait_s \
  --series "worker 0" --series "worker 1" --y-label "stalled in device-wide waits (s)" \
  --title "03: time each worker waited for the whole device" -o "$OUT/figures/device_wait.png" \
  --force
exp_run_figures tiers_device_2w "03 tiers (device sync), 2 workers, 16 GiB"
exp_run_figures tiers_stream_2w "03 tiers (stream sync), 2 workers, 16 GiB"
exp_run_figures budget_2w "03 budget, 2 workers, 16 GiB"

t=$OUT/runs/tiers_device_2w
ooms=$(exp_json "$t" '.oom_events | length')
verdict="no out-of-memory"
[ "$ooms" -gt 0 ] && verdict="$ooms out-of-memory events (first: partition $(exp_json "$t" '.oom_events[0].partition'), $(exp_json "$t" '.oom_events[0].where'))"
cost=$(exp_gain "$OUT/runs/tiers_stream_2w" "$t")
vs_base=$(exp_gain "$OUT/runs/baseline_2w" "$t")
budget_vs=$(exp_gain "$t" "$OUT/runs/budget_2w")
{
  echo "## 03 — memory-aware tiers, two workers, 16 GiB"
  echo
  echo "Question: do the tiers (synchronise, trim, read free memory, place d_a+d_bc / d_a / nothing"
  echo "with a 512 MiB margin) avoid running out of memory, and what does the device-wide"
  echo "synchronisation they need cost? Our budget policy needs no device-wide synchronisation."
  echo
  exp_table_header
  exp_row "no pre-staging" "$OUT/runs/baseline_2w"
  exp_row "tiers, device sync" "$t"
  exp_row "tiers, stream sync" "$OUT/runs/tiers_stream_2w"
  exp_row "budget (ours)" "$OUT/runs/budget_2w"
  exp_row "pinned control (no staging)" "$OUT/runs/pinned_2w"
  exp_row "tiers, device sync, trim after each partition" "$OUT/runs/tiers_trim_after_2w"
  echo
  echo "| | story | model |"
  echo "|---|---|---|"
  echo "| tiers, 2 workers, 16 GiB: out of memory? | none | $verdict |"
  echo "| tiers: throughput with device-wide sync vs stream sync (the cost of device sync) | a cost, not quantified | ${cost} |"
  echo "| tiers (device sync) vs no pre-staging | not reported | ${vs_base} |"
  echo "| budget (ours) vs tiers (device sync) | — | ${budget_vs} |"
  echo
  exp_details "tiers, device sync" "$t"
  exp_details "tiers, stream sync" "$OUT/runs/tiers_stream_2w"
  exp_details "budget (ours)" "$OUT/runs/budget_2w"
  echo
  echo "What each result owes to other than its policy's idea (from each run's summary.json phases,"
  echo "events.jsonl and manifest.json; the pinned control pre-stages nothing by design):"
  echo
  exp_explain "budget (ours)" "$OUT/runs/budget_2w" "no pre-staging" "$OUT/runs/baseline_2w" \
    "pinned control" "$OUT/runs/pinned_2w"
  exp_explain "tiers, device sync" "$t" "no pre-staging" "$OUT/runs/baseline_2w" \
    "pinned control" "$OUT/runs/pinned_2w"
  exp_explain "tiers, trim after each partition" "$OUT/runs/tiers_trim_after_2w" "no pre-staging" \
    "$OUT/runs/baseline_2w" "pinned control" "$OUT/runs/pinned_2w"
  exp_contrast "budget (ours)" "$OUT/runs/budget_2w" "tiers, trim after each partition" \
    "$OUT/runs/tiers_trim_after_2w"
  echo
  exp_notes "no pre-staging=$OUT/runs/baseline_2w" "tiers, device sync=$t" \
    "tiers, stream sync=$OUT/runs/tiers_stream_2w" "budget (ours)=$OUT/runs/budget_2w" \
    "pinned control=$OUT/runs/pinned_2w"
  first_lock=$(exp_json "$t" '[.oom_events[] | select(.where == "alloc_d_bc")][0] // empty | "partition \(.partition), worker \(.worker), at \(.t_s * 1000 | round / 1000) s: asked \(.bytes / 1073741824 * 100 | round / 100) GiB, cudaMemGetInfo free \(.meminfo_free_B / 1073741824 * 100 | round / 100) GiB"')
  [ -n "$first_lock" ] && echo "First out-of-memory inside the lock (tiers, device sync): $first_lock." && echo
  echo "Tiers, trim timing x sync kind ([tiers_trim_sync.csv](tiers_trim_sync.csv)):"
  echo
  echo "| trim | sync | OOM events | partitions retried / lost | partitions done | throughput (proofs/h) | throughput (partitions/h) |"
  echo "|---|---|---|---|---|---|---|"
  exp_csv_table "$OUT/tiers_trim_sync.csv" policy.params.trim policy.params.sync oom_events \
    partitions_retried/partitions_lost partitions_done throughput_proofs_per_hour \
    throughput_partitions_per_hour
  echo
  echo "Tiers (device sync), jitter x seed ([tiers_jitter.csv](tiers_jitter.csv)):"
  echo
  echo "| jitter | seed | OOM events | first OOM at | partitions done | throughput (proofs/h) | throughput (partitions/h) |"
  echo "|---|---|---|---|---|---|---|"
  exp_csv_table "$OUT/tiers_jitter.csv" run.jitter run.seed oom_events first_oom_where \
    partitions_done throughput_proofs_per_hour throughput_partitions_per_hour
  echo
  echo "Per partition (means): where the upload time went (pinned uploads inside the lock are the"
  echo "unstaged path of a pre-staging policy: its inputs are registered either way)."
  echo
  for r in baseline_2w tiers_device_2w tiers_stream_2w budget_2w pinned_2w tiers_trim_after_2w; do
    echo "- $r: $(exp_partition_breakdown "$OUT/runs/$r")."
  done
  echo
  echo "Figures: [throughput](figures/throughput.png), [device-wide waits](figures/device_wait.png),"
  echo "[timeline tiers device](figures/timeline_tiers_device_2w.png), [memory tiers device](figures/memory_tiers_device_2w.png),"
  echo "[timeline tiers stream](figures/timeline_tiers_stream_2w.png), [memory tiers stream](figures/memory_tiers_stream_2w.png),"
  echo "[timeline budget](figures/timeline_budget_2w.png), [memory budget](figures/memory_budget_2w.png)."
  echo
} >"$OUT/REPORT.md"
exp_manifest "03_tiers_16g" "$here/../02_two_workers_naive_16g/baseline_2w.yaml" \
  "$here/tiers_device_2w.yaml" "$here/tiers_stream_2w.yaml" "$here/budget_2w.yaml" \
  "$here/pinned_2w.yaml"
echo "03: tiers (device sync), 2 workers, 16 GiB: $verdict; device vs stream sync ${cost} -> $OUT/REPORT.md"
