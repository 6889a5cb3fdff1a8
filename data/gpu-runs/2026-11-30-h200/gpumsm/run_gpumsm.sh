#!/usr/bin/env bash
# The gpumsm measurement in one call on the GPU machine: the MSM test, then the MSM benchmark
# rows, into OUTDIR (env.txt, gpu_msm_test.log, bench.log, gpu_bench.json).
# Usage: run_gpumsm.sh OUTDIR COMMIT [ROWS]
#   Executables come from PRESTAGE_BIN (prebuilt elsewhere; PRESTAGE_LIB holds the shared
#   libraries they need that the machine lacks) when they load there, else this builds them
#   (preset gpu). ROWS: gpu_bench --rows (default "msm": the MSM rows; add ",msm_occupancy" for
#   the level-0 occupancy variants).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
out=${1:?usage: run_gpumsm.sh OUTDIR COMMIT [ROWS]}
commit=${2:-unknown}
rows=${3:-msm}
mkdir -p "$out"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $commit"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv 2>&1
} >"$out/env.txt"
export LD_LIBRARY_PATH=${PRESTAGE_LIB:-}:${LD_LIBRARY_PATH:-}
bin=${PRESTAGE_BIN:-}
if [ -z "$bin" ] || ldd "$bin/gpu_bench" "$bin/gpu_msm_test" | grep -q "not found"; then
  echo "building (preset gpu)" | tee -a "$out/env.txt"
  export PATH=/usr/local/cuda/bin:$PATH
  { cmake --preset gpu && cmake --build --preset gpu -j "$(nproc)" --target gpu_msm_test gpu_bench; } \
    >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
  bin=build/gpu/bin
  mkdir -p "$bin"
  cp build/gpu/tests/gpu_msm_test build/gpu/gpu/gpu_bench "$bin/"
else
  echo "prebuilt executables from $bin" | tee -a "$out/env.txt"
fi
timeout 200 "$bin/gpu_msm_test" --log_level=message --report_level=short >"$out/gpu_msm_test.log" 2>&1
echo "gpu_msm_test rc $?" | tee -a "$out/env.txt"
timeout 300 "$bin/gpu_bench" --rows "$rows" --commit "$commit" --out "$out/gpu_bench.json" \
  >"$out/bench.log" 2>&1
echo "gpu_bench rc $?" | tee -a "$out/env.txt"
grep -E "msm|ceilings" "$out/bench.log" | cut -c1-140
