#pragma once
// Error checking for every CUDA runtime call and kernel launch. A failing call throws
// prestage::gpu::CudaError naming file:line, the call text and cudaGetErrorString; nothing is
// silent. Kernel launches are checked with PRESTAGE_CUDA_CHECK_LAUNCH() right after the <<<>>>.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace prestage::gpu {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& call, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                           " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) +
                           ")"),
        code_(code) {}
  cudaError_t code() const { return code_; }
  // True for an out-of-memory failure (the staging policies treat it as a result).
  bool out_of_memory() const { return code_ == cudaErrorMemoryAllocation; }

 private:
  cudaError_t code_;
};

// Throws CudaError when `code` is not cudaSuccess. For out-of-memory the error is cleared from
// the runtime's last-error slot (it is not sticky), so later checks do not see it again.
inline void cuda_check(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) {
    if (code == cudaErrorMemoryAllocation) (void)cudaGetLastError();
    throw CudaError(code, call, file, line);
  }
}

}  // namespace prestage::gpu

#define PRESTAGE_CUDA_CHECK(call) ::prestage::gpu::cuda_check((call), #call, __FILE__, __LINE__)
// After every kernel launch: launch-configuration errors and earlier asynchronous faults.
#define PRESTAGE_CUDA_CHECK_LAUNCH() \
  ::prestage::gpu::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
