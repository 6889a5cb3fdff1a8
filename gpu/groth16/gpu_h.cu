// Groth16 H computation on the GPU (see gpu/groth16/gpu_h.hpp).
//
// Work per input X in {A, B, C}: evaluations -> coefficients -> coset evaluations, as one chain
// of passes with no bit reversal (gpu/ntt/gpu_ntt.hpp, ntt::detail::interpolate_to_coset): at
// 2^27, 5 global read+write passes (DIF, DIF, DIF+scale+DIT fused, DIT, DIT) instead of
// 2 x (3 passes + 1 bit reversal). The pointwise a*b - c (and 1/Z for the textbook reduction)
// is fused into the store of C's last pass, so C's coset evaluations never reach memory.
#include <stdexcept>

#include "gpu/groth16/gpu_h.hpp"

namespace prestage::groth16 {

using ff::Fr;

void compute_h_on_device(const ntt::DeviceDomain& domain, const ntt::DeviceCosetShift& shift,
                         HReduction reduction, Fr* d_a, Fr* d_b, Fr* d_c, cudaStream_t stream) {
  Fr zinv = Fr::one();
  const bool textbook = reduction == HReduction::Textbook;
  if (textbook) {
    Fr gn = shift.shift();
    for (unsigned i = 0; i < domain.log_size(); ++i) gn = gn * gn;
    const Fr z = gn - Fr::one();
    if (z.is_zero())
      throw std::invalid_argument("compute_h_on_device: textbook shift is an n-th root of 1");
    zinv = z.inverse();
  }
  ntt::detail::interpolate_to_coset(domain, shift, d_a, nullptr, nullptr, zinv, false, stream);
  ntt::detail::interpolate_to_coset(domain, shift, d_b, nullptr, nullptr, zinv, false, stream);
  // C's last pass writes d_a <- (a * b - c) (* zinv): the coset evaluations of h.
  ntt::detail::interpolate_to_coset(domain, shift, d_c, d_a, d_b, zinv, textbook, stream);
  // d_b is free once C's last pass has read it: the scratch that fuses the bit reversal.
  if (textbook) ntt::coset_inverse(domain, shift, d_a, stream, d_b);
}

}  // namespace prestage::groth16
