// ptxas exploration only (compiled by hand, not part of the build; README "Next"): the G2
// level-0 body with madd-2008-s reordered so each input coordinate dies at its last product,
// and the doubling out of line. nvcc -O3 -DNDEBUG sm_90 -Xptxas -v, includes as prestage_cuda.
#include "gpu/msm/gpu_msm_impl.cuh"
namespace prestage::gpu { namespace {
using X = GpuG2::Xyzz; using A = GpuG2::Affine; using F = X::Field;
__device__ __noinline__ X rare(X acc) { return acc.dbl(); }
__device__ __forceinline__ X madd(const X& a, const A& q) {
  if (a.ZZ.is_zero()) return X::from_affine(q);
  const F U2 = q.x * a.ZZ;
  const F P = U2 - a.X;
  const F S2 = q.y * a.ZZZ;
  const F R = S2 - a.Y;
  if (P.is_zero()) return R.is_zero() ? rare(a) : X::identity();
  const F PP = P.sqr();
  const F ZZ3 = a.ZZ * PP;
  const F Q = a.X * PP;
  const F PPP = P * PP;
  const F ZZZ3 = a.ZZZ * PPP;
  const F W = a.Y * PPP;
  const F X3 = R.sqr() - PPP - Q.dbl();
  return {X3, R * (Q - X3) - W, ZZ3, ZZZ3};
}
template <int kT, int kMB>
__global__ void __launch_bounds__(kT, kMB) l0(const A* points, const uint32_t* vals, const unsigned* start, const unsigned* end, const unsigned* segoff, std::size_t nb, unsigned total, X* partial) {
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= total) return;
  const std::size_t b = find_bucket(segoff, nb, s);
  const unsigned first = start[b] + (s - segoff[b]) * kSegment;
  const unsigned last = min(first + kSegment, end[b]);
  X acc = X::identity();
  for (unsigned p = first; p < last; ++p) {
    const uint32_t v = vals[p];
    A q = points[v & 0x7fffffffu];
    if (q.infinity) continue;
    if (v >> 31) q.y = -q.y;
    acc = madd(acc, q);
  }
  partial[s] = acc;
}
template __global__ void l0<256, 1>(const A*, const uint32_t*, const unsigned*, const unsigned*, const unsigned*, std::size_t, unsigned, X*);
template __global__ void l0<128, 3>(const A*, const uint32_t*, const unsigned*, const unsigned*, const unsigned*, std::size_t, unsigned, X*);
template __global__ void l0<128, 2>(const A*, const uint32_t*, const unsigned*, const unsigned*, const unsigned*, std::size_t, unsigned, X*);
}}
