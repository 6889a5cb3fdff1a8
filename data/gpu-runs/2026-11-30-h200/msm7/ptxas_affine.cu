// ptxas resource probe of the batch-affine kernels (msm7): only these kernels, instantiated
// for G1 and G2 from gpu/msm/gpu_msm_impl.cuh, so `nvcc -Xptxas -v` reports their registers,
// stack and spills in ~a minute instead of compiling the whole MSM. Not part of the build.
// nvcc -O3 -DNDEBUG -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -Xptxas -v -c \
//   data/gpu-runs/2026-11-30-h200/msm7/ptxas_affine.cu -o /tmp/ptxas_affine.o
#include "gpu/msm/gpu_msm_impl.cuh"

namespace prestage::gpu {
namespace {

template <class Affine>
void launch_all(const Affine* pts, const uint32_t* vals, const uint32_t* map,
                typename Affine::Field* f, Affine* out) {
  using Field = typename Affine::Field;
  affine_gather_kernel<Affine><<<1, kThreads>>>({pts, vals}, 1, out);
  affine_prep_kernel<Affine, 1><<<1, kThreads>>>({pts, nullptr}, map, 1, 1, 1, f, f);
  affine_prep_kernel<Affine, 2><<<1, kThreads>>>({pts, nullptr}, map, 1, 1, 1, f, f);
  affine_prep_kernel<Affine, 3><<<1, kThreads>>>({pts, nullptr}, map, 1, 1, 1, f, f);
  affine_invert_kernel<Field, false><<<1, kThreads>>>(1, 1, f, f);
  affine_invert_kernel<Field, true><<<1, kThreads>>>(1, 1, f, f);
  affine_add_kernel<Affine><<<1, kThreads>>>({pts, nullptr}, map, 1, 1, 1, f, f, out);
  launch_lean_add<Affine, false>(pts, map, 1, 1, 1, f, f, out, nullptr);
  launch_lean_add<Affine, true>(pts, map, 1, 1, 1, f, f, out, nullptr);
}

}  // namespace

void ptxas_affine_probe() {
  launch_all<ec::G1Affine>(nullptr, nullptr, nullptr, nullptr, nullptr);
  launch_all<ec::G2Affine>(nullptr, nullptr, nullptr, nullptr, nullptr);
}

}  // namespace prestage::gpu
