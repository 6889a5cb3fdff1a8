#!/usr/bin/env bash
# CI, after scripts/run_tests.sh: builds the `asan` preset (host code with ASan/UBSan, no CUDA)
# and runs its tests with CTest; any sanitizer report fails the test that raised it.
# usage: scripts/run_asan_tests.sh [CTEST ARGS...]
#   PRESTAGE_ASAN_SUBSET=sim: only the simulator's, CLI's and figures' tests (and the targets they
#   need), for a CI that has no time for the whole suite under ASan; unset: everything.
set -euo pipefail
cd "$(dirname "$0")/.."
# Leaks count; the first report stops the program (UBSan: -fno-sanitize-recover too).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
jobs=${PRESTAGE_JOBS:-$(nproc)}
if [ "${PRESTAGE_ASAN_SUBSET:-}" = sim ]; then
  tests=(unit_cli_help unit_sim_model unit_sim_engine unit_sim_cli unit_sim_replay unit_run_cli unit_errors
         unit_validation unit_output_files unit_plot unit_calib golden_sim golden_experiments
         fidelity_sim fidelity_sim_probe)
  bash scripts/build.sh asan prestage prestage-plot "${tests[@]}"
  regex="^($(IFS='|'; echo "${tests[*]}")|unit_calib_cli|unit_experiment_scripts_outputs)\$"
  ctest --preset asan -j "$jobs" -R "$regex" "$@"
else
  bash scripts/build.sh asan
  ctest --preset asan -j "$jobs" "$@"
fi
