#!/usr/bin/env bash
# Configures and builds with a CMake preset (default: "default"), all targets or only the TARGETs
# given after the preset. CUDA code is built when nvcc is found (on PATH or /usr/local/cuda/bin).
# usage: scripts/build.sh [PRESET [TARGET...]]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
[ $# -gt 0 ] && shift
targets=()
[ $# -gt 0 ] && targets=(--target "$@")
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
jobs=${PRESTAGE_JOBS:-$(nproc)}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs" "${targets[@]}"
