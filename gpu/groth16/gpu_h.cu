// Groth16 H computation on the GPU (see gpu/groth16/gpu_h.hpp).
#include <stdexcept>

#include "gpu/groth16/gpu_h.hpp"

namespace prestage::gpu {

namespace {

// a[i] = (a[i] * b[i] - c[i]) * zinv, or without the factor when scale is false.
__global__ void abc_kernel(Fr* a, const Fr* b, const Fr* c, std::size_t n, Fr zinv, bool scale) {
  std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  Fr h = a[i] * b[i] - c[i];
  a[i] = scale ? h * zinv : h;
}

}  // namespace

void compute_h(const DeviceNttDomain& domain, const DeviceCosetShift& shift, HReduction reduction,
               Fr* d_a, Fr* d_b, Fr* d_c, cudaStream_t stream) {
  Fr zinv = Fr::one();
  if (reduction == HReduction::Textbook) {
    Fr gn = shift.shift();
    for (unsigned i = 0; i < domain.log_size(); ++i) gn = gn * gn;
    const Fr z = gn - Fr::one();
    if (z.is_zero()) throw std::invalid_argument("compute_h: textbook shift is an n-th root of 1");
    zinv = z.inverse();
  }
  for (Fr* x : {d_a, d_b, d_c}) {
    ntt_inverse(domain, x, stream);
    ntt_coset_forward(domain, shift, x, stream);
  }
  const std::size_t n = domain.size();
  abc_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(
      d_a, d_b, d_c, n, zinv, reduction == HReduction::Textbook);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  if (reduction == HReduction::Textbook) ntt_coset_inverse(domain, shift, d_a, stream);
}

}  // namespace prestage::gpu
