#!/usr/bin/env bash
# Packs GPU executables built on a machine without a GPU (preset ci or gpu, sm_90), with the
# shared libraries the GPU machine's image may lack, into one tarball to carry there.
# Usage: scripts/pack_gpu_bins.sh BUILD_DIR OUT_TAR [executable names...]
#   default names: the 8 GPU test executables and gpu_bench (what scripts/gpu_suite.sh runs).
# On the GPU machine: tar -xJf OUT_TAR -C /tmp && export LD_LIBRARY_PATH=/tmp/suite_bins &&
#   PRESTAGE_PREBUILT=/tmp/suite_bins scripts/gpu_suite.sh OUTDIR COMMIT
set -euo pipefail
build=${1:?build dir}; out=${2:?out tar}; shift 2
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(gpu_ff_device gpu_ff_mont32 gpu_ptx_mul_test gpu_ntt_arith_test gpu_runtime_test gpu_ntt_test gpu_inverse_bingcd gpu_msm_test gpu_groth16_test gpu_bench prove_bench)
stage=$(mktemp -d)/suite_bins; mkdir -p "$stage"
for b in "${names[@]}"; do
  f=$(find "$build" -name "$b" -type f -perm -u+x | head -1)
  [ -n "$f" ] || { echo "pack.sh: $b not found under $build" >&2; exit 1; }
  cp "$f" "$stage/"
  ldd "$f" | awk '/=> \//{print $3}' | while read -r lib; do
    case $(basename "$lib") in
      libc.so*|libm.so*|libpthread*|libdl*|librt*|libgcc_s*|libstdc++*|ld-linux*|libcuda.so*) ;;
      *) cp -n "$lib" "$stage/" ;;
    esac
  done
done
strip --strip-debug "$stage"/* 2>/dev/null || true
mkdir -p "$(dirname "$out")"
tar -cJf "$out" -C "$(dirname "$stage")" suite_bins
ls -la "$out"
