#!/usr/bin/env bash
# README command 1: installs what is missing, builds, and runs the main job on the embedded
# default: the seed experiments (experiments/run_all.sh), which write their report and figures
# under out/seed/ (override with PRESTAGE_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
bash scripts/build.sh default
out=${PRESTAGE_OUT:-out/seed}
bash experiments/run_all.sh build/default "$out"
echo "prestage: seed experiments done; report: $out/REPORT.md"
