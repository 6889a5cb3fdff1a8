// GPU MSM for G2 (see gpu/msm/gpu_msm.hpp).
#include "gpu/msm/gpu_msm_fixed_base.cuh"
#include "gpu/msm/gpu_msm_impl.cuh"

namespace prestage::msm {

template ec::G2Jacobian on_device<G2Curve>(const ec::G2Affine*, const Fr*, std::size_t,
                                           gpu::DeviceAllocator&, cudaStream_t,
                                           const DeviceOptions&);
template ec::G2Jacobian on_device_streamed<G2Curve>(const ec::G2Affine*, const Fr*, std::size_t,
                                                    std::size_t, gpu::DeviceAllocator&,
                                                    cudaStream_t, const DeviceOptions&);

template ec::G2Jacobian on_device<G2Curve>(const ec::G2Affine*, const Fr*, std::size_t,
                                           const DeviceWorkspace&, cudaStream_t,
                                           const DeviceOptions&);
template ec::G2Jacobian on_device_streamed<G2Curve>(const ec::G2Affine*, const Fr*, std::size_t,
                                                    std::size_t, const DeviceWorkspace&,
                                                    cudaStream_t, const DeviceOptions&);
template std::size_t device_workspace_bytes<G2Curve>(std::size_t, const DeviceOptions&);
template std::size_t device_streamed_workspace_bytes<G2Curve>(std::size_t, std::size_t,
                                                              const DeviceOptions&);

template std::size_t base_table_bytes<G2Curve>(std::size_t, unsigned);
template DeviceBaseTable<G2Curve> build_base_table<G2Curve>(const ec::G2Affine*, std::size_t,
                                                            unsigned, void*, std::size_t,
                                                            gpu::DeviceAllocator&, cudaStream_t);
template std::size_t fixed_base_workspace_bytes<G2Curve>(std::size_t, unsigned,
                                                         const DeviceOptions&);
template ec::G2Jacobian on_device_fixed_base<G2Curve>(const DeviceBaseTable<G2Curve>&, const Fr*,
                                                      std::size_t, const DeviceWorkspace&,
                                                      cudaStream_t, const DeviceOptions&);

}  // namespace prestage::msm
