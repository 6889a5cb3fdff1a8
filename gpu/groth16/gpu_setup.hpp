#pragma once
// Groth16 setup with its scalar multiplications on the GPU: the key groth16::setup makes, point
// for point, with the ~5n G1 and n G2 products k_i * G computed on the current CUDA device
// instead of on the host's threads (the host setup takes about 28 min at 2^27 on 16 cores; the
// products are nearly all of it). The scalars (tau's powers, the QAP's evaluations at tau) are
// still computed on the host.
#include <span>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/groth16/groth16.hpp"

namespace prestage::groth16 {

// out[i] = scalars[i] * G for the group's generator G, in affine form (identity for a zero
// scalar), on the current CUDA device: 8-bit windows over groth16::FixedBase's table (32 x 255
// affine multiples of G), at most 32 mixed additions a product (XYZZ), then affine with one
// inversion per 32 points. Works in chunks of 2^22 products (device memory: G1 1.5 GiB, G2
// 2.8 GiB: 376 and 712 B a product). scalars: Montgomery form, any value < r; out.size() ==
// scalars.size() (else std::invalid_argument). Synchronous; CudaError on a CUDA failure.
void gpu_generator_multiples(std::span<const ff::Fr> scalars, std::span<ec::G1Affine> out);
void gpu_generator_multiples(std::span<const ff::Fr> scalars, std::span<ec::G2Affine> out);

// `options` with its products on the GPU (SetupOptions::g1_multiples / g2_multiples).
inline SetupOptions with_gpu_multiples(SetupOptions options) {
  options.g1_multiples = [](std::span<const ff::Fr> s, std::span<ec::G1Affine> out) {
    gpu_generator_multiples(s, out);
  };
  options.g2_multiples = [](std::span<const ff::Fr> s, std::span<ec::G2Affine> out) {
    gpu_generator_multiples(s, out);
  };
  return options;
}

}  // namespace prestage::groth16
