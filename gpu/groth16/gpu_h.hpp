#pragma once
// The H computation of Groth16 on the GPU (docs/story.md, steps 3-4): from the evaluations of
// A, B, C on the domain to the scalars of the H MSM.
//
//   circom reduction (snarkjs): for X in {A, B, C}: iNTT, coset NTT on the odd points of the 2n
//     domain (shift g = w_2n, domain.circom_coset_shift()); then h = a*b - c pointwise. Z = -1 on
//     those points, so no division and no final iNTT: h holds the evaluations snarkjs feeds to its
//     H MSM (with zkey H points that absorb the sign).
//   textbook: the same with any shift g that is not an n-th root of unity, then
//     h = (a*b - c) / (g^n - 1) on the coset and a coset iNTT: h holds the coefficients of
//     H = (A B - C) / Z, degree <= n - 2.
#include <cuda_runtime.h>

#include "gpu/ntt/gpu_ntt.hpp"

namespace prestage::groth16 {

enum class HReduction { Circom, Textbook };

// d_a, d_b, d_c: n x 32 B each (Montgomery, natural order): the evaluations of A, B, C on the
// domain. All three are overwritten; on return d_a holds h (n x 32 B, Montgomery) as above.
// `shift` must be built on `domain` with the shift the reduction needs (throws
// std::invalid_argument for the textbook reduction when g^n = 1). Work is ordered on `stream`.
void compute_h_on_device(const ntt::DeviceDomain& domain, const ntt::DeviceCosetShift& shift,
                         HReduction reduction, ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c,
                         cudaStream_t stream);

}  // namespace prestage::groth16
