#!/usr/bin/env bash
# README command 1: installs what is missing, builds, and runs the main job on the embedded
# default: the seed experiments (experiments/run_all.sh), which write their report and figures
# under out/seed/ (override with PRESTAGE_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
# Only what the experiments run: the simulator CLI and the figure program (not the prover, its
# CUDA kernels or the tests), so the main job takes minutes on 2 cores.
bash scripts/build.sh default prestage prestage-plot
out=${PRESTAGE_OUT:-out/seed}
bash experiments/run_all.sh build/default "$out"
echo "prestage: seed experiments done; report: $out/REPORT.md"
