// The level-0 and reduction kernels alone, for SASS opcode counts (run 2: sass.txt). Built by
// hand with the flags of prestage_cuda (nvcc -O3 -DNDEBUG sm_90 -lineinfo, its includes).
#include "gpu/msm/gpu_msm_impl.cuh"
namespace prestage::gpu { namespace {
#define L0(C, MB) template __global__ void accumulate_points_kernel<C, MB>(const C::Affine*, const uint32_t*, const unsigned*, const unsigned*, const unsigned*, std::size_t, unsigned, C::Xyzz*);
#define RED(C) template __global__ void bucket_reduce_kernel<C>(const C::Xyzz*, const unsigned*, const unsigned*, unsigned, unsigned, unsigned, unsigned, C::Xyzz*);
L0(GpuG1, 2) L0(GpuG2, 1) RED(GpuG1) RED(GpuG2)
}}
