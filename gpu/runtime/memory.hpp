#pragma once
// The one device-memory layer of the prover: kernels never allocate; they take buffers made here.
//
// Two allocators, the two the real prover uses (docs/story.md, "The workload"):
//   SyncAllocator           cudaMalloc / cudaFree            (NTT path: d_a, d_bc, twiddles)
//   StreamOrderedAllocator  cudaMallocFromPoolAsync / cudaFreeAsync on the device's default
//                           memory pool, ordered on a stream (MSM path: scratch)
// both behind DeviceAllocator, so a staging policy can pick and drive them. DeviceBuffer<T> owns
// `count` elements from one allocator (RAII); PinnedHostBuffer<T> and HostRegistration give
// page-locked host memory; Stream/Event wrap the handles; VramBallast holds device memory so a
// large card behaves like a smaller one. Every CUDA call is checked (gpu/runtime/cuda_check.hpp).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <utility>

#include "gpu/runtime/cuda_check.hpp"

namespace prestage::gpu {

enum class AllocatorKind { Synchronous, StreamOrdered };

// Contract: allocate() returns device memory of at least `bytes` bytes (nullptr for 0 bytes) or
// throws CudaError (out_of_memory() true when the device is full); deallocate() takes exactly
// what allocate() returned with the same size and stream. For the stream-ordered allocator the
// memory is usable by work ordered after the allocation on `stream` and must not be touched by
// work after the free on `stream`; the synchronous allocator ignores the stream (cudaFree waits
// for the whole device).
class DeviceAllocator {
 public:
  virtual ~DeviceAllocator() = default;
  virtual void* allocate(std::size_t bytes, cudaStream_t stream) = 0;
  virtual void deallocate(void* p, std::size_t bytes, cudaStream_t stream) noexcept = 0;
  virtual AllocatorKind kind() const = 0;
  virtual const char* name() const = 0;
};

// cudaMalloc / cudaFree on the current device.
class SyncAllocator final : public DeviceAllocator {
 public:
  void* allocate(std::size_t bytes, cudaStream_t stream) override;
  void deallocate(void* p, std::size_t bytes, cudaStream_t stream) noexcept override;
  AllocatorKind kind() const override { return AllocatorKind::Synchronous; }
  const char* name() const override { return "cudaMalloc"; }
};

// cudaMallocFromPoolAsync / cudaFreeAsync on the current device's default memory pool (the pool
// cudaMallocAsync uses). Freed memory returns to the pool, not to the device (the pool keeps it
// up to its release threshold; trim() gives it back).
class StreamOrderedAllocator final : public DeviceAllocator {
 public:
  StreamOrderedAllocator();  // binds the current device's default pool
  void* allocate(std::size_t bytes, cudaStream_t stream) override;
  void deallocate(void* p, std::size_t bytes, cudaStream_t stream) noexcept override;
  AllocatorKind kind() const override { return AllocatorKind::StreamOrdered; }
  const char* name() const override { return "cudaMallocAsync(default pool)"; }
  cudaMemPool_t pool() const { return pool_; }
  // cudaMemPoolTrimTo(pool, keep_bytes): releases unused pool memory above keep_bytes.
  void trim(std::size_t keep_bytes = 0);

 private:
  cudaMemPool_t pool_{};
};

// `count` elements of T in device memory from `alloc`; freed on destruction (on the stream it
// was allocated on). Move-only. The contents are uninitialised.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceAllocator& alloc, std::size_t count, cudaStream_t stream = nullptr)
      : alloc_(&alloc), stream_(stream), count_(count) {
    ptr_ = static_cast<T*>(alloc.allocate(bytes(), stream));
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    DeviceBuffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { reset(); }

  void reset() noexcept {
    if (ptr_ != nullptr) alloc_->deallocate(ptr_, bytes(), stream_);
    ptr_ = nullptr;
    count_ = 0;
  }
  T* data() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  cudaStream_t stream() const { return stream_; }

 private:
  void swap(DeviceBuffer& o) noexcept {
    std::swap(alloc_, o.alloc_);
    std::swap(stream_, o.stream_);
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
  }
  DeviceAllocator* alloc_ = nullptr;
  cudaStream_t stream_ = nullptr;
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// `count` elements of T in page-locked host memory (cudaMallocHost); move-only.
template <class T>
class PinnedHostBuffer {
 public:
  PinnedHostBuffer() = default;
  explicit PinnedHostBuffer(std::size_t count) : count_(count) {
    if (count > 0) {
      void* p = nullptr;
      PRESTAGE_CUDA_CHECK(cudaMallocHost(&p, count * sizeof(T)));
      ptr_ = static_cast<T*>(p);
    }
  }
  PinnedHostBuffer(PinnedHostBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  PinnedHostBuffer& operator=(PinnedHostBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  PinnedHostBuffer(const PinnedHostBuffer&) = delete;
  PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;
  ~PinnedHostBuffer() {
    if (ptr_ != nullptr) {
      cudaError_t e = cudaFreeHost(ptr_);
      if (e != cudaSuccess) std::fprintf(stderr, "cudaFreeHost: %s\n", cudaGetErrorString(e));
    }
  }
  T* data() const { return ptr_; }
  std::size_t size() const { return count_; }
  T& operator[](std::size_t i) const { return ptr_[i]; }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// Page-locks existing host memory [p, p + bytes) for the lifetime of the object
// (cudaHostRegister / cudaHostUnregister). Move-only.
class HostRegistration {
 public:
  HostRegistration() = default;
  HostRegistration(void* p, std::size_t bytes, unsigned flags = cudaHostRegisterDefault);
  HostRegistration(HostRegistration&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)) {}
  HostRegistration& operator=(HostRegistration&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    return *this;
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  ~HostRegistration();

 private:
  void* ptr_ = nullptr;
};

// A CUDA stream (non-blocking with respect to the legacy default stream by default).
class Stream {
 public:
  explicit Stream(unsigned flags = cudaStreamNonBlocking);
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();
  cudaStream_t get() const { return s_; }
  operator cudaStream_t() const { return s_; }
  void synchronize() const { PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_{};
};

// A CUDA event; elapsed_ms() times the device work between two recorded events.
class Event {
 public:
  explicit Event(unsigned flags = cudaEventDefault);
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();
  cudaEvent_t get() const { return e_; }
  operator cudaEvent_t() const { return e_; }
  void record(cudaStream_t stream) { PRESTAGE_CUDA_CHECK(cudaEventRecord(e_, stream)); }
  void synchronize() const { PRESTAGE_CUDA_CHECK(cudaEventSynchronize(e_)); }
  // Milliseconds from `start` to `end` (both recorded and complete).
  static float elapsed_ms(const Event& start, const Event& end);

 private:
  cudaEvent_t e_{};
};

// Device memory snapshot (cudaMemGetInfo).
struct MemInfo {
  std::size_t free_bytes;
  std::size_t total_bytes;
};
MemInfo mem_info();

// Holds device memory with cudaMalloc so that only `usable_bytes` (plus whatever was already
// in use) stay free: a large card then behaves like a smaller one. usable_bytes >= free memory
// holds nothing. Throws CudaError if the ballast cannot be allocated.
class VramBallast {
 public:
  explicit VramBallast(std::size_t usable_bytes);
  VramBallast(const VramBallast&) = delete;
  VramBallast& operator=(const VramBallast&) = delete;
  ~VramBallast();
  std::size_t held_bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace prestage::gpu
