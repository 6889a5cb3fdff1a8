// GPU MSM for G1, and the window-size rule (see gpu/msm/gpu_msm.hpp); the fixed-base MSM for G1
// and its window-size rule (gpu/msm/gpu_msm_fixed_base.hpp).
#include "gpu/msm/gpu_msm_fixed_base.cuh"
#include "gpu/msm/gpu_msm_impl.cuh"

namespace prestage::msm {

unsigned device_num_windows(unsigned c) {
  unsigned w = (255 + c - 1) / c;
  if (255 - c * (w - 1) > c - 1) ++w;  // the top window's digit plus a carry must stay <= 2^(c-1)
  return w;
}

unsigned device_window_bits(std::size_t n) {
  unsigned best = 2;
  double best_cost = 1e300;
  for (unsigned c = 2; c <= 20; ++c) {
    const double cost = device_num_windows(c) * (double(n) + 8.0 * std::ldexp(1.0, c));
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

// The fixed-base rule (gpu_msm_fixed_base.hpp has the measurements): ties go to the larger c
// (2^22: c = 19 and 20 cost the same; G1 19 / 20 -> 27.18 / 26.17 ms on the H200).
unsigned fixed_base_window_bits(bool /*g2*/, std::size_t n) {
  unsigned best = 2;
  double best_cost = 1e300;
  for (unsigned c = 2; c <= kFixedMaxBits; ++c) {
    const double cost = device_num_windows(c) * double(n) + 8.0 * std::ldexp(1.0, c);
    if (cost <= best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

// G1's batch-affine range under Auto (scalars left after step 0): device_auto_batch_affine.
constexpr std::size_t kG1AffineMin = std::size_t{1} << 17;
constexpr std::size_t kG1AffineMax = std::size_t{1} << 27;

bool device_auto_batch_affine(bool g2, std::size_t n) {
  // G2: batch-affine from 2^20 to 2^23 (rows msm_auto_rule on the H200: 2^23 201.6 vs XYZZ 249.4
  // ms, 7.6 vs 1.4 GiB; 2^19 26.3 vs 27.9 ms at 2.4 vs 0.4 GiB and 2^18 a tie: XYZZ below 2^20).
  if (g2) return n >= (std::size_t{1} << 20) && n <= (std::size_t{1} << 23);
  // G1: batch-affine from 2^17 to 2^27 (faster at every size measured, 2^17 to 2^27; at 2^16 no
  // round has affine_min_pairs' 2^20 pair additions, so batch-affine is XYZZ with a larger
  // workspace: XYZZ; above 2^27 not measured: XYZZ). Figures in gpu_msm.hpp, history in
  // gpu/msm/DECISIONS.md #13. A caller short of memory caps it by
  // DeviceOptions::max_workspace_bytes (Auto then falls back to XYZZ).
  return n >= kG1AffineMin && n <= kG1AffineMax;
}

template ec::G1Jacobian on_device<G1Curve>(const ec::G1Affine*, const Fr*, std::size_t,
                                           gpu::DeviceAllocator&, cudaStream_t,
                                           const DeviceOptions&);
template ec::G1Jacobian on_device_streamed<G1Curve>(const ec::G1Affine*, const Fr*, std::size_t,
                                                    std::size_t, gpu::DeviceAllocator&,
                                                    cudaStream_t, const DeviceOptions&);

template ec::G1Jacobian on_device<G1Curve>(const ec::G1Affine*, const Fr*, std::size_t,
                                           const DeviceWorkspace&, cudaStream_t,
                                           const DeviceOptions&);
template ec::G1Jacobian on_device_streamed<G1Curve>(const ec::G1Affine*, const Fr*, std::size_t,
                                                    std::size_t, const DeviceWorkspace&,
                                                    cudaStream_t, const DeviceOptions&);
template std::size_t device_workspace_bytes<G1Curve>(std::size_t, const DeviceOptions&);
template std::size_t device_streamed_workspace_bytes<G1Curve>(std::size_t, std::size_t,
                                                              const DeviceOptions&);

template std::size_t base_table_bytes<G1Curve>(std::size_t, unsigned);
template DeviceBaseTable<G1Curve> build_base_table<G1Curve>(const ec::G1Affine*, std::size_t,
                                                            unsigned, void*, std::size_t,
                                                            gpu::DeviceAllocator&, cudaStream_t);
template std::size_t fixed_base_workspace_bytes<G1Curve>(std::size_t, unsigned,
                                                         const DeviceOptions&);
template ec::G1Jacobian on_device_fixed_base<G1Curve>(const DeviceBaseTable<G1Curve>&, const Fr*,
                                                      std::size_t, const DeviceWorkspace&,
                                                      cudaStream_t, const DeviceOptions&);

}  // namespace prestage::msm
