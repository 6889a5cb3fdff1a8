// The level-0 and reduction kernels alone, for SASS opcode counts (same flags as prestage_cuda).
#include "gpu/msm/gpu_msm_impl.cuh"
namespace prestage::gpu { namespace {
#define L0(C, MB) template __global__ void accumulate_points_kernel<C, MB>(const C::Affine*, const uint32_t*, const unsigned*, const unsigned*, const unsigned*, std::size_t, unsigned, C::Xyzz*);
#define RED(C) template __global__ void bucket_reduce_kernel<C>(const C::Xyzz*, const unsigned*, const unsigned*, unsigned, unsigned, unsigned, unsigned, C::Xyzz*);
L0(GpuG1, 2) L0(GpuG2, 1) RED(GpuG1) RED(GpuG2)
}}
