#!/usr/bin/env bash
# README command 1: installs what is missing, builds, and runs the main job on the embedded
# default: the seed experiments (experiments/run_all.sh), which write their report and figures
# under out/seed/ (override with PRESTAGE_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
# Only what the experiments run (prestage simulate/sweep and prestage-plot), in the `sim` preset:
# no CUDA kernels, no host prover, no tests (`prestage prove` and the like exit 4 in this build;
# the `default` preset and scripts/run_tests.sh build everything).
bash scripts/build.sh sim prestage prestage-plot
out=${PRESTAGE_OUT:-out/seed}
bash experiments/run_all.sh build/sim "$out"
echo "prestage: seed experiments done; report: $out/REPORT.md"
