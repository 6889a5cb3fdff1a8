// GPU MSM for G2 (see gpu/msm/gpu_msm.hpp).
#include "gpu/msm/gpu_msm_fixed_base.cuh"
#include "gpu/msm/gpu_msm_impl.cuh"

namespace prestage::gpu {

template ec::G2Jacobian gpu_msm<GpuG2>(const ec::G2Affine*, const Fr*, std::size_t,
                                       DeviceAllocator&, cudaStream_t, const GpuMsmOptions&);
template ec::G2Jacobian gpu_msm_streamed<GpuG2>(const ec::G2Affine*, const Fr*, std::size_t,
                                                std::size_t, DeviceAllocator&, cudaStream_t,
                                                const GpuMsmOptions&);

template ec::G2Jacobian gpu_msm<GpuG2>(const ec::G2Affine*, const Fr*, std::size_t,
                                       const GpuMsmWorkspace&, cudaStream_t, const GpuMsmOptions&);
template ec::G2Jacobian gpu_msm_streamed<GpuG2>(const ec::G2Affine*, const Fr*, std::size_t,
                                                std::size_t, const GpuMsmWorkspace&, cudaStream_t,
                                                const GpuMsmOptions&);
template std::size_t gpu_msm_workspace_bytes<GpuG2>(std::size_t, const GpuMsmOptions&);
template std::size_t gpu_msm_streamed_workspace_bytes<GpuG2>(std::size_t, std::size_t,
                                                             const GpuMsmOptions&);

template std::size_t gpu_msm_base_table_bytes<GpuG2>(std::size_t, unsigned);
template GpuMsmBaseTable<GpuG2> gpu_msm_build_base_table<GpuG2>(const ec::G2Affine*, std::size_t,
                                                                unsigned, void*, std::size_t,
                                                                DeviceAllocator&, cudaStream_t);
template std::size_t gpu_msm_fixed_base_workspace_bytes<GpuG2>(std::size_t, unsigned,
                                                               const GpuMsmOptions&);
template ec::G2Jacobian gpu_msm_fixed_base<GpuG2>(const GpuMsmBaseTable<GpuG2>&, const Fr*,
                                                  std::size_t, const GpuMsmWorkspace&, cudaStream_t,
                                                  const GpuMsmOptions&);

}  // namespace prestage::gpu
