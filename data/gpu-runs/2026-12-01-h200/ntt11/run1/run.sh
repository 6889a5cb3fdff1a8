#!/usr/bin/env bash
# ntt11 run 1 (one `run` call): correctness, then the in-place last pass's two forms A/B.
# Usage: bash run.sh OUT_DIR COMMIT BIN_DIR
set -u
out=$1; commit=$2; bin=$3
mkdir -p "$out"
export LD_LIBRARY_PATH=$bin
t0=$SECONDS
step() { echo "[$((SECONDS - t0)) s] $*" | tee -a "$out/env.txt"; }
nvidia-smi --query-gpu=name,driver_version,memory.total,power.limit,clocks.sm,clocks.mem,temperature.gpu,persistence_mode --format=csv >> "$out/env.txt" 2>&1
step "gpu_ntt_test (defaults; mirror forms at 12,16,17,18,21,22,27)"
set -o pipefail
PRESTAGE_GPU_TEST_NTT_MIRROR_LOGS=12,16,17,18,21,22,27 timeout 60 "$bin/gpu_ntt_test" --log_level=message 2>&1 | tee "$out/tests.log"
step "gpu_ntt_test rc $?"
step "gpu_bench ntt,mirror_ab at 2^24, 2^27"
timeout $((112 - (SECONDS - t0))) "$bin/gpu_bench" --rows ntt,mirror_ab --ntt-logs 24,27 --max-log 27 --commit "$commit" --out "$out/gpu_bench.json" 2>&1 | tee "$out/bench.log"
step "gpu_bench rc $?"
