#pragma once
// Small device kernels of the staging runtime (gpu/staging/runtime.hpp): the synthetic `spin`
// step, and the scalar fills that stand in for data the pipeline does not upload.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/ff/fr.hpp"

namespace prestage::staging {

// Scalars' shape: uniform below r, or PoRep-shaped (50% zero, 45% one, 5% uniform: the shape
// the calibration's msm_g1_porep curve was measured with, gpu/bench/bench_common.cu random_fr
// kind 1).
enum class ScalarShape { uniform, porep };

// d_out[i] <- a pseudo-random Fr (Montgomery limbs, < r) of `shape`, seeded by (seed, i).
// d_out: n x 32 B, device. Ordered on `stream`; does not synchronise.
void fill_scalars(ff::Fr* d_out, std::size_t n, std::uint64_t seed, ScalarShape shape,
                  cudaStream_t stream);

// A kernel that keeps every SM busy for `seconds` of GPU time (one block of 128 threads per SM,
// each polling %globaltimer from its own start). Ordered on `stream`; does not synchronise.
void spin(double seconds, cudaStream_t stream);

}  // namespace prestage::staging
