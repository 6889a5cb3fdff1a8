#include "gpu/runtime/cuda_check.hpp"
#include "gpu/staging/staging_kernels.hpp"

namespace prestage::staging {
namespace {

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__global__ void fill_scalars_kernel(ff::Fr* out, std::size_t n, std::uint64_t seed, int porep) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += stride) {
    const std::uint64_t h = mix64(seed ^ mix64(i));
    ff::Fr x{};
    for (int k = 0; k < 4; ++k) x.limb[k] = mix64(h + k);
    x.limb[3] %= ff::Fr::modulus[3];
    if (porep) {
      const unsigned u = static_cast<unsigned>(mix64(h ^ 0x5555) % 100);
      if (u < 50)
        x = ff::Fr::zero();
      else if (u < 95)
        x = ff::Fr::one();
    }
    out[i] = x;
  }
}

__device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin_kernel(std::uint64_t ns, unsigned* sink) {
  const std::uint64_t t0 = global_ns();
  unsigned polls = 0;
  while (global_ns() - t0 < ns) ++polls;
  if (polls == 0xffffffffu) *sink = polls;  // keeps the loop; never true in practice
}

}  // namespace

void fill_scalars(ff::Fr* d_out, std::size_t n, std::uint64_t seed, ScalarShape shape,
                  cudaStream_t stream) {
  if (n == 0) return;
  int sms = 0, dev = 0;
  PRESTAGE_CUDA_CHECK(cudaGetDevice(&dev));
  PRESTAGE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  fill_scalars_kernel<<<sms * 8, 256, 0, stream>>>(d_out, n, seed,
                                                   shape == ScalarShape::porep ? 1 : 0);
  PRESTAGE_CUDA_CHECK_LAUNCH();
}

void spin(double seconds, cudaStream_t stream) {
  if (seconds <= 0) return;
  int sms = 0, dev = 0;
  PRESTAGE_CUDA_CHECK(cudaGetDevice(&dev));
  PRESTAGE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  spin_kernel<<<sms, 128, 0, stream>>>(static_cast<std::uint64_t>(seconds * 1e9), nullptr);
  PRESTAGE_CUDA_CHECK_LAUNCH();
}

}  // namespace prestage::staging
