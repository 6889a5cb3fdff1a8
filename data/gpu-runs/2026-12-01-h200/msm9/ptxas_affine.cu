// ptxas resource probe of the batch-affine kernels (msm9; msm7's probe with msm9's kernels):
// only these kernels, instantiated for G1 and G2 from gpu/msm/gpu_msm_impl.cuh, so
// `nvcc -Xptxas -v` reports their registers, stack and spills without compiling the whole MSM.
// Not part of the build.
// nvcc -O3 -DNDEBUG -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -Xptxas -v -c \
//   data/gpu-runs/2026-12-01-h200/msm9/ptxas_affine.cu -o /tmp/ptxas_affine.o
#include "gpu/msm/gpu_msm_impl.cuh"

namespace prestage::gpu {
namespace {

template <class Affine>
void launch_all(const Affine* pts, const uint32_t* vals, const uint32_t* map,
                typename Affine::Field* f, Affine* out) {
  using Field = typename Affine::Field;
  using affine_batch::InverseKind;
  affine_prep_kernel<Affine, affine_prep_default_blocks<Affine>()>
      <<<1, kThreads>>>({pts, vals}, map, 1, 1, 1, f, f);
  affine_invert_kernel<Field, InverseKind::Bingcd><<<1, kThreads>>>(1, 1, f, f);
  affine_invert_kernel<Field, InverseKind::Binary><<<1, kThreads>>>(1, 1, f, f);
  affine_add_kernel<Affine><<<1, kThreads>>>({pts, vals}, map, 1, 1, 1, f, f, out);
  launch_lean_add<Affine, false>({pts, nullptr}, map, 1, 1, 1, f, f, out, nullptr);
  launch_lean_add<Affine, true>({pts, nullptr}, map, 1, 1, 1, f, f, out, nullptr);
  launch_lean_add<Affine, false, true>({pts, vals}, map, 1, 1, 1, f, f, out, nullptr);
  launch_lean_add<Affine, true, true>({pts, vals}, map, 1, 1, 1, f, f, out, nullptr);
}

}  // namespace

void ptxas_affine_probe() {
  launch_all<ec::G1Affine>(nullptr, nullptr, nullptr, nullptr, nullptr);
  launch_all<ec::G2Affine>(nullptr, nullptr, nullptr, nullptr, nullptr);
}

}  // namespace prestage::gpu
