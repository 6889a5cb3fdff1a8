#!/usr/bin/env bash
# Packs this worktree's ci build (gpu_inverse_bingcd, gpu_msm_test, gpu_bench; stripped), main's gpu_bench
# (/work/briefs/s7/gpu_bench_main_4b664b5), the CUDA runtime, yaml-cpp and run.sh into
# /work/main/.carry/msm9.tar.xz (git-ignored there; the device copies the lead's tree).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
B=/tmp/msm9_bins; rm -rf $B; mkdir -p $B
cp build/ci/tests/gpu_msm_test $B/ 2>/dev/null || cp "$(find build/ci/tests -name gpu_msm_test -type f | head -1)" $B/
cp "$(find build/ci/tests -name gpu_inverse_bingcd -type f | head -1)" $B/
cp build/ci/gpu/gpu_bench $B/
strip $B/gpu_msm_test $B/gpu_bench $B/gpu_inverse_bingcd
cp /work/briefs/s7/gpu_bench_main_4b664b5 $B/gpu_bench_main
strip $B/gpu_bench_main || true
cp /usr/local/cuda/lib64/libcudart.so.13 $B/
cp /lib/x86_64-linux-gnu/libyaml-cpp.so.0.7 $B/
cp data/gpu-runs/2026-12-01-h200/msm9/run.sh $B/
mkdir -p /work/main/.carry && tar -C /tmp -cJf /work/main/.carry/msm9.tar.xz msm9_bins
ls -la /work/main/.carry/msm9.tar.xz
