#pragma once
// Host/device portability: code marked PRESTAGE_HD compiles with g++ (host, tested in CI) and
// with nvcc (device kernels). Field and curve arithmetic is written once with it.
#if defined(__CUDACC__)
#define PRESTAGE_HD __host__ __device__
#define PRESTAGE_HD_INLINE __host__ __device__ __forceinline__
#else
#define PRESTAGE_HD
#define PRESTAGE_HD_INLINE inline __attribute__((always_inline))
#endif

#if defined(__CUDA_ARCH__)
#define PRESTAGE_DEVICE_CODE 1
#else
#define PRESTAGE_DEVICE_CODE 0
#endif
