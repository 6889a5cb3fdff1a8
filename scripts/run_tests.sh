#!/usr/bin/env bash
# README command 2: installs what is missing, builds (CUDA code too when nvcc exists) and runs
# the whole test suite with CTest. GPU tests skip visibly on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${PRESTAGE_PRESET:-ci}
bash scripts/install_deps.sh --interop
bash scripts/build.sh "$preset"
ctest --preset "$preset" -j "${PRESTAGE_JOBS:-$(nproc)}" "$@"
