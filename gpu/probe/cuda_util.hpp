#pragma once
// CUDA runtime helpers for the probe (host code, compiles with g++ against cudart):
// every call is checked (PROBE_CUDA throws gpu::CudaError naming file:line and the call text);
// calls whose failure *is* the measurement go through probe_try, which returns the code and
// clears the (non-sticky) last error. RAII owners release what they hold without throwing.
#include <cuda_runtime_api.h>

#include "gpu/runtime/cuda_check.hpp"
#include "gpu/runtime/memory.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace prestage::probe {

// The one CUDA error type of the project (gpu/runtime/cuda_check.hpp).
using CudaError = ::prestage::gpu::CudaError;

// Returns the call's result and clears the runtime's last-error slot (so an expected
// cudaErrorMemoryAllocation does not leak into the next check). Sticky errors are not cleared by
// the runtime; the caller sees them again on its next call.
cudaError_t probe_try(cudaError_t code);

constexpr std::uint64_t KiB = 1024ull, MiB = 1024ull * KiB, GiB = 1024ull * MiB;

// Host monotonic clock in seconds.
inline double host_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
// Sleeps the host thread without any CUDA call.
void host_sleep(double seconds);

// Streams, events, device and pinned buffers and cudaMemGetInfo are gpu/runtime/memory.hpp's
// (gpu::Stream, gpu::Event, gpu::DeviceBuffer, gpu::PinnedHostBuffer, gpu::mem_info).
using gpu::Event;
using gpu::Stream;

// Seconds of device time from `from` to `to` (both recorded; synchronises neither).
inline double seconds_between(const gpu::Event& from, const gpu::Event& to) {
  return gpu::Event::elapsed_ms(from, to) * 1e-3;
}

// `bytes` of device memory from cudaMalloc (the probe's buffers take no part in any pool).
gpu::DeviceBuffer<std::uint8_t> device_bytes(std::size_t bytes);

class PageableBuffer {  // page-aligned malloc'd host memory, every page touched at construction
 public:
  explicit PageableBuffer(std::size_t bytes);
  ~PageableBuffer();
  PageableBuffer(const PageableBuffer&) = delete;
  PageableBuffer& operator=(const PageableBuffer&) = delete;
  std::uint8_t* get() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  std::uint8_t* p_ = nullptr;
  std::size_t n_ = 0;
};

// Fills host memory with a seeded non-zero pseudo-random pattern (splitmix64 of the word index),
// multithreaded. bytes need not be a multiple of 8.
void fill_host_pattern(std::uint8_t* p, std::size_t bytes, std::uint64_t seed);

// State of the default memory pool and of cudaMemGetInfo, bytes.
struct PoolState {
  std::uint64_t reserved = 0;  // cudaMemPoolAttrReservedMemCurrent
  std::uint64_t used = 0;      // cudaMemPoolAttrUsedMemCurrent
};
PoolState read_pool(cudaMemPool_t pool);

std::string cuda_error_name(cudaError_t e);

}  // namespace prestage::probe

// Every probe call is checked through the project's one checker.
#define PROBE_CUDA(call) PRESTAGE_CUDA_CHECK(call)
