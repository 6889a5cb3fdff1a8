#!/usr/bin/env bash
# Experiment 05: the model against the measured prover. Validates the committed measured runs
# of the staging runtime (data/validation/*_h200-staging/: `prestage run --gpu` on the H200)
# against a fresh simulation of the same scenario files, twice:
#   - with the committed calibration the scenarios name (data/calibration/h200.yaml, probed
#     2026-11-30 on another lent machine of the same kind), and
#   - with the probe of the session that measured the runs (data/calibration/h200-2026-12-01.yaml,
#     same machine, same device session), which the validation issue asks for.
# The held-back part (HOLDOUT.md) is reported in its own section. No calibration number is fitted
# to these runs. Needs no GPU.
# usage: run.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR default: build/default)
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
EXP_COMMAND="experiments/05_validation/run.sh $*"
exp_init "$@"
runs=$ROOT/data/validation/2026-12-01_d313ead_h200-staging/runs
holdout=e01_one_worker_tiers
cd "$ROOT"
"$PRESTAGE" validate --from "$runs" --holdout "$holdout" -o "$OUT/committed_calibration" --force \
  >/dev/null
"$PRESTAGE" validate --from "$runs" --holdout "$holdout" \
  --calibration data/calibration/h200-2026-12-01.yaml -o "$OUT/session_calibration" --force \
  >/dev/null
# Ablation: the session calibration without the driver-serialisation finding (the model change
# this experiment motivated), to show what that change alone does.
sed 's/pinning_serialises_driver: {value: true/pinning_serialises_driver: {value: false/' \
  data/calibration/h200-2026-12-01.yaml >"$OUT/h200-2026-12-01-no-driver-serialisation.yaml"
"$PRESTAGE" validate --from "$runs" --holdout "$holdout" \
  --calibration "$OUT/h200-2026-12-01-no-driver-serialisation.yaml" \
  -o "$OUT/session_calibration_no_serialisation" --force >/dev/null
# Spin kernels: every kernel step spins for the simulator's own duration, so the comparison
# isolates memory, pinning, copies and synchronisation (no key points are read either).
"$PRESTAGE" validate --from "$ROOT/data/validation/2026-12-01_4573caa_h200-staging-spin/runs" \
  --holdout "$holdout" --calibration data/calibration/h200-2026-12-01.yaml \
  -o "$OUT/session_calibration_spin" --force >/dev/null
grid() {  # REPORT_JSON: "k of n within every goal"
  jq -r '[.scenarios[] | select(.held_back | not)] as $d
    | "\([$d[] | select(.pass)] | length) of \($d | length)"' "$1"
}
mk() {  # REPORT_JSON SCENARIO FIELD
  jq -r --arg s "$2" --arg f "$3" '.scenarios[] | select(.scenario == $s) | .figures[]
    | select(.name == "makespan") | .[$f]' "$1"
}
{
  echo "## 05 — validation: the model against the measured prover (H200)"
  echo
  echo "Measured: \`prestage run --gpu\` on one H200 (the staging runtime: real allocations,"
  echo "pinning, copies, policies and the prover's NTT and MSM kernels at n = 2^27), 2 runs per"
  echo "scenario; simulated: \`prestage simulate\` of the same files. Held back: $holdout."
  echo
  echo "| calibration | development scenarios within every goal | report |"
  echo "|---|---|---|"
  echo "| committed (probe 2026-11-30, other machine) | $(grid "$OUT/committed_calibration/report.json") | [report](committed_calibration/report.md) |"
  echo "| session, without the driver-serialisation finding | $(grid "$OUT/session_calibration_no_serialisation/report.json") | [report](session_calibration_no_serialisation/report.md) |"
  echo "| session (probe 2026-12-01, same machine) | $(grid "$OUT/session_calibration/report.json") | [report](session_calibration/report.md) |"
  echo "| session, spin kernels (the simulator's kernel times on the GPU) | $(grid "$OUT/session_calibration_spin/report.json") | [report](session_calibration_spin/report.md) |"
  echo
  echo "Makespan with spin kernels, measured median vs model (session calibration):"
  echo
  echo "| scenario | measured (s) | model (s) | error |"
  echo "|---|---|---|---|"
  for s in $(jq -r '.scenarios[].scenario' "$OUT/session_calibration_spin/report.json"); do
    r=$OUT/session_calibration_spin/report.json
    printf '| %s | %.2f | %.2f | %+.1f%% |\n' "$s" "$(mk "$r" "$s" median)" "$(mk "$r" "$s" model)" \
      "$(echo "$(mk "$r" "$s" rel_error)" | awk '{print $1 * 100}')"
  done
  echo
  echo "Makespan with the prover's kernels, measured median vs model:"
  echo
  echo "| scenario | measured (s) | committed cal. (s) | session cal., no serialisation (s) | session cal. (s) | error (session) |"
  echo "|---|---|---|---|---|---|"
  for s in $(jq -r '.scenarios[].scenario' "$OUT/session_calibration/report.json"); do
    r=$OUT/session_calibration/report.json
    printf '| %s | %.2f | %.2f | %.2f | %.2f | %+.1f%% |\n' "$s" "$(mk "$r" "$s" median)" \
      "$(mk "$OUT/committed_calibration/report.json" "$s" model)" \
      "$(mk "$OUT/session_calibration_no_serialisation/report.json" "$s" model)" \
      "$(mk "$r" "$s" model)" "$(echo "$(mk "$r" "$s" rel_error)" | awk '{print $1 * 100}')"
  done
  echo
} >"$OUT/REPORT.md"
exp_manifest "05_validation" data/scenarios/gpu/*.yaml
echo "05: validation reports -> $OUT/REPORT.md"
