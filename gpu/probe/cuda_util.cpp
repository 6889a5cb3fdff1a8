#include "gpu/probe/cuda_util.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace prestage::probe {

cudaError_t probe_try(cudaError_t code) {
  if (code != cudaSuccess) (void)cudaGetLastError();
  return code;
}

void host_sleep(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

std::string cuda_error_name(cudaError_t e) {
  return cudaGetErrorName(e);
}

gpu::DeviceBuffer<std::uint8_t> device_bytes(std::size_t bytes) {
  static gpu::SyncAllocator cuda_malloc;  // stateless: cudaMalloc / cudaFree
  return gpu::DeviceBuffer<std::uint8_t>(cuda_malloc, bytes, nullptr);
}

PageableBuffer::PageableBuffer(std::size_t bytes) : n_(bytes) {
  const std::size_t rounded = (bytes + 4095) / 4096 * 4096;
  p_ = static_cast<std::uint8_t*>(std::aligned_alloc(4096, rounded));
  if (!p_) throw std::runtime_error(fmt::format("aligned_alloc of {} B failed", rounded));
  fill_host_pattern(p_, bytes, 0x5eed0001);
}
PageableBuffer::~PageableBuffer() {
  std::free(p_);
}

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

void fill_host_pattern(std::uint8_t* p, std::size_t bytes, std::uint64_t seed) {
  const std::size_t words = bytes / 8;
  const unsigned hw = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  const std::size_t per = (words + hw - 1) / hw;
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < hw; ++t) {
    ts.emplace_back([=] {
      const std::size_t lo = std::min(words, t * per), hi = std::min(words, lo + per);
      for (std::size_t i = lo; i < hi; ++i) {
        const std::uint64_t v = splitmix64(seed ^ (i * 0x100000001b3ull)) | 1ull;  // never 0
        std::memcpy(p + 8 * i, &v, 8);
      }
    });
  }
  for (auto& t : ts) t.join();
  for (std::size_t i = words * 8; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(0xa5 ^ i);
}

PoolState read_pool(cudaMemPool_t pool) {
  PoolState s;
  std::uint64_t v = 0;
  PROBE_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &v));
  s.reserved = v;
  PROBE_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v));
  s.used = v;
  return s;
}

}  // namespace prestage::probe
