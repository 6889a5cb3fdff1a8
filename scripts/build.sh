#!/usr/bin/env bash
# Configures and builds with a CMake preset (default: "default"). CUDA code is built when nvcc is
# found (on PATH or in /usr/local/cuda/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
jobs=${PRESTAGE_JOBS:-$(nproc)}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs"
