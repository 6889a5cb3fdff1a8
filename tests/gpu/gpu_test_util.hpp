#pragma once
// Helpers shared by the GPU kernel tests: size knobs from the environment, seeded random data,
// device upload/download with poisoning.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpu/ff/fr.hpp"
#include "gpu/runtime/memory.hpp"

namespace prestage::gpu::test {

// Largest log2 size a test runs, from environment variable `name` (the sanitizer runs of
// scripts/gpu_suite.sh set small values); `fallback` when unset.
inline unsigned env_log(const char* name, unsigned fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? static_cast<unsigned>(std::stoul(v)) : fallback;
}

// A fresh seed per run (printed by the tests so a failure can be replayed with PRESTAGE_SEED).
inline uint64_t fresh_seed() {
  if (const char* v = std::getenv("PRESTAGE_SEED")) return std::stoull(v);
  std::random_device rd;
  return (uint64_t{rd()} << 32) ^ rd();
}

inline std::vector<ff::Fr> random_fr(std::size_t n, std::mt19937_64& rng) {
  std::vector<ff::Fr> v(n);
  for (auto& x : v) x = ff::Fr::random(rng);
  return v;
}

// Device buffer filled with 0xFF bytes (poison), then with `host` when given; the fill is complete
// when it returns. cudaMemset runs on the legacy default stream and may return before it is done
// (device memory); the code under test works on non-blocking streams (g::Stream's default), which
// do not wait for the legacy stream: run 16 (data/gpu-runs/2026-12-01-h200/run16-4e1a0ef) caught a
// workspace's poison landing after the MSM's own zeroing of its counters under compute-sanitizer
// (a wild write 16 GiB past the index list), hence the device synchronisation.
template <class T>
DeviceBuffer<T> poisoned(DeviceAllocator& alloc, std::size_t n, const T* host = nullptr) {
  DeviceBuffer<T> d(alloc, n);
  PRESTAGE_CUDA_CHECK(cudaMemset(d.data(), 0xFF, d.bytes()));
  PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
  if (host != nullptr) {
    PRESTAGE_CUDA_CHECK(cudaMemcpy(d.data(), host, d.bytes(), cudaMemcpyHostToDevice));
  }
  return d;
}

template <class T>
std::vector<T> download(const DeviceBuffer<T>& d) {
  std::vector<T> h(d.size());
  PRESTAGE_CUDA_CHECK(cudaMemcpy(h.data(), d.data(), d.bytes(), cudaMemcpyDeviceToHost));
  return h;
}

// Index of the first element where a and b differ, or a.size() when all are equal.
template <class T>
std::size_t first_mismatch(const std::vector<T>& a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i])) return i;
  }
  return a.size();
}

}  // namespace prestage::gpu::test
