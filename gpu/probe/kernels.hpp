#pragma once
// Device work the probe needs, callable from host code compiled by g++ (defined in kernels.cu).
// Every launch is checked (cudaGetLastError) and throws CudaError on failure.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace prestage::probe {

// One thread spins on %globaltimer for `seconds` of wall time on the GPU, occupying `stream`.
// Used as "a long kernel of the other worker" and as a gate that holds a stream closed.
void launch_spin(cudaStream_t stream, double seconds);

// Writes a seeded non-zero pseudo-random pattern over `bytes` of device memory (bytes / 8 words,
// a trailing remainder < 8 B is left as is), grid-stride, on `stream`.
void launch_fill(void* device_ptr, std::size_t bytes, std::uint64_t seed, cudaStream_t stream);

// An empty kernel (launch overhead reference).
void launch_empty(cudaStream_t stream);

}  // namespace prestage::probe
