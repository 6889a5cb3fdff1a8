#include "gpu/probe/cuda_util.hpp"
#include "gpu/probe/kernels.hpp"

namespace prestage::probe {
namespace {

__device__ __forceinline__ std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Spins until `ns` of %globaltimer have passed; bounded also by 4 SM cycles per ns (at most
// 2x the requested time at the H200's ~2 GHz boost clock) so a stalled timer cannot hang the probe.
__global__ void spin_kernel(std::uint64_t ns) {
  const std::uint64_t t0 = global_timer_ns();
  const long long c0 = clock64();
  const long long max_cycles = static_cast<long long>(4 * ns);
  while (global_timer_ns() - t0 < ns && clock64() - c0 < max_cycles) {
  }
}

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// words: n x 8 B, written with a non-zero pattern.
__global__ void fill_kernel(std::uint64_t* words, std::size_t n, std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    words[i] = mix64(seed ^ (i * 0x100000001b3ull)) | 1ull;
}

__global__ void empty_kernel() {}

}  // namespace

void launch_spin(cudaStream_t stream, double seconds) {
  spin_kernel<<<1, 1, 0, stream>>>(static_cast<std::uint64_t>(seconds * 1e9));
  PROBE_CUDA(cudaGetLastError());
}

void launch_fill(void* device_ptr, std::size_t bytes, std::uint64_t seed, cudaStream_t stream) {
  const std::size_t n = bytes / 8;
  if (n == 0) return;
  fill_kernel<<<1024, 256, 0, stream>>>(static_cast<std::uint64_t*>(device_ptr), n, seed);
  PROBE_CUDA(cudaGetLastError());
}

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  PROBE_CUDA(cudaGetLastError());
}

}  // namespace prestage::probe
