// Implementation of the device-memory layer (gpu/runtime/memory.hpp).
#include "gpu/runtime/memory.hpp"

namespace prestage::gpu {

namespace {
void report_noexcept(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    std::fprintf(stderr, "prestage: %s failed: %s\n", call, cudaGetErrorString(e));
}
}  // namespace

void* SyncAllocator::allocate(std::size_t bytes, cudaStream_t) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  PRESTAGE_CUDA_CHECK(cudaMalloc(&p, bytes));
  return p;
}

void SyncAllocator::deallocate(void* p, std::size_t, cudaStream_t) noexcept {
  if (p != nullptr) report_noexcept(cudaFree(p), "cudaFree");
}

StreamOrderedAllocator::StreamOrderedAllocator() {
  int dev = 0;
  PRESTAGE_CUDA_CHECK(cudaGetDevice(&dev));
  PRESTAGE_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool_, dev));
}

void* StreamOrderedAllocator::allocate(std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  PRESTAGE_CUDA_CHECK(cudaMallocFromPoolAsync(&p, bytes, pool_, stream));
  return p;
}

void StreamOrderedAllocator::deallocate(void* p, std::size_t, cudaStream_t stream) noexcept {
  if (p != nullptr) report_noexcept(cudaFreeAsync(p, stream), "cudaFreeAsync");
}

void StreamOrderedAllocator::trim(std::size_t keep_bytes) {
  PRESTAGE_CUDA_CHECK(cudaMemPoolTrimTo(pool_, keep_bytes));
}

HostRegistration::HostRegistration(void* p, std::size_t bytes, unsigned flags) {
  if (p != nullptr && bytes > 0) {
    PRESTAGE_CUDA_CHECK(cudaHostRegister(p, bytes, flags));
    ptr_ = p;
  }
}

HostRegistration::~HostRegistration() {
  if (ptr_ != nullptr) report_noexcept(cudaHostUnregister(ptr_), "cudaHostUnregister");
}

Stream::Stream(unsigned flags) {
  PRESTAGE_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, flags));
}
Stream::~Stream() {
  report_noexcept(cudaStreamDestroy(s_), "cudaStreamDestroy");
}

Event::Event(unsigned flags) {
  PRESTAGE_CUDA_CHECK(cudaEventCreateWithFlags(&e_, flags));
}
Event::~Event() {
  report_noexcept(cudaEventDestroy(e_), "cudaEventDestroy");
}

float Event::elapsed_ms(const Event& start, const Event& end) {
  float ms = 0;
  PRESTAGE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, end.e_));
  return ms;
}

MemInfo mem_info() {
  MemInfo m{};
  PRESTAGE_CUDA_CHECK(cudaMemGetInfo(&m.free_bytes, &m.total_bytes));
  return m;
}

VramBallast::VramBallast(std::size_t usable_bytes) {
  MemInfo m = mem_info();
  if (m.free_bytes <= usable_bytes) return;
  bytes_ = m.free_bytes - usable_bytes;
  PRESTAGE_CUDA_CHECK(cudaMalloc(&ptr_, bytes_));
}

VramBallast::~VramBallast() {
  if (ptr_ != nullptr) report_noexcept(cudaFree(ptr_), "cudaFree(ballast)");
}

}  // namespace prestage::gpu
