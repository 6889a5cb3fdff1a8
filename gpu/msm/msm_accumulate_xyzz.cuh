#pragma once
// Step 3 of on_device (gpu/msm/gpu_msm.hpp), the XYZZ levels: every bucket cut into segments of at
// most kSegment items, one thread a segment, level after level until one item a bucket remains.
// Internal to gpu_msm_impl.cuh: included only from there (after msm_sort.cuh), once per curve TU
// (gpu_msm_g1.cu, gpu_msm_g2.cu); everything here is in the anonymous namespace (internal linkage,
// one copy per TU), so never include it anywhere else.
//
// Takes: nb buckets' ranges start / end (nb x unsigned each: bucket b's items at [start[b],
// end[b])) over level 0's items (the points, Curve::Affine or the fixed-base table's PackedAffine
// with its infinity bits, through the sorted values point | sign << 31; or the last batch-affine
// round's Curve::Affine items in bucket order) or a level's XYZZ partial sums; segcount / segoff
// (nb + 1 x unsigned each: segments a bucket, then their exclusive scan).
// Produces: a level's partial sums, one Curve::Xyzz a segment (segoff[nb] of them), in
// LevelScratch's buffer of the level's parity. accumulate_buckets (msm_accumulate.cuh) drives it.

namespace prestage::msm {

namespace {

constexpr unsigned kSegment = 32;  // points (or partial sums) one thread adds up

// segcount[b] = ceil((end - start) / kSegment); segcount[nb] = 0; *max_seg = max over b.
__global__ void segcount_kernel(const unsigned* start, const unsigned* end, std::size_t nb,
                                unsigned* segcount, unsigned* max_seg) {
  const std::size_t b = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (b > nb) return;
  unsigned s = 0;
  if (b < nb) s = (end[b] - start[b] + kSegment - 1) / kSegment;
  segcount[b] = s;
  if (s > 0) atomicMax(max_seg, s);
}

__device__ __forceinline__ std::size_t find_bucket(const unsigned* segoff, std::size_t nb,
                                                   unsigned s) {
  std::size_t lo = 0, hi = nb + 1;  // largest b with segoff[b] <= s
  while (hi - lo > 1) {
    std::size_t mid = (lo + hi) / 2;
    if (segoff[mid] <= s)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Level 0: partial[s] = sum of the (signed) points of segment s. kMinBlocks: resident blocks
// per SM asked of ptxas (registers <= 65536 / (kThreads kMinBlocks)); see DeviceOptions.
// Point: Affine, or the fixed-base table's affine_batch::PackedAffine with its infinity flags
// in inf_bits (bit i of word i / 32; unused for Affine).
template <class Curve, int kMinBlocks, class Point = typename Curve::Affine>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    accumulate_points_kernel(const Point* points, const uint32_t* vals, const unsigned* start,
                             const unsigned* end, const unsigned* segoff, std::size_t nb,
                             unsigned total, typename Curve::Xyzz* partial,
                             const uint32_t* inf_bits) {
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= total) return;
  const std::size_t b = find_bucket(segoff, nb, s);
  const unsigned first = start[b] + (s - segoff[b]) * kSegment;
  const unsigned last = min(first + kSegment, end[b]);
  auto acc = Ops<Curve>::zero();
  for (unsigned p = first; p < last; ++p) {
    const uint32_t v = vals != nullptr ? vals[p] : p;  // nullptr: affine items in bucket order
    // The one call site of the mixed addition: inlined (no by-value struct passing on the
    // stack in the hottest loop).
    if constexpr (std::is_same_v<Point, typename Curve::Affine>) {
      typename Curve::Affine q = points[v & 0x7fffffffu];
      if (q.infinity) continue;
      if (v >> 31) q.y = -q.y;
      acc = acc.add_mixed(q);
    } else {
      const unsigned idx = v & 0x7fffffffu;
      if ((inf_bits[idx >> 5] >> (idx & 31)) & 1u) continue;
      typename Curve::Affine q{points[idx].x, points[idx].y, false};
      if (v >> 31) q.y = -q.y;
      acc = acc.add_mixed(q);
    }
  }
  partial[s] = acc;
}

// Level >= 1: partial_out[s] = sum of the partial sums of segment s.
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    accumulate_partials_kernel(const typename Curve::Xyzz* in, const unsigned* start,
                               const unsigned* end, const unsigned* segoff, std::size_t nb,
                               unsigned total, typename Curve::Xyzz* out) {
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= total) return;
  const std::size_t b = find_bucket(segoff, nb, s);
  const unsigned first = start[b] + (s - segoff[b]) * kSegment;
  const unsigned last = min(first + kSegment, end[b]);
  auto acc = in[first];
  for (unsigned p = first + 1; p < last; ++p) acc = Ops<Curve>::add(acc, in[p]);
  out[s] = acc;
}

// Level-0 occupancy per curve (DeviceOptions::accumulate_min_blocks = 0).
// Measured on the H200 (bench rows *_occupancy_mb*): G1 2^22 mb1/2/3 -> 117.8/75.6/108.8 ms (mb1
// lets ptxas take 255 registers: one block per SM; mb3 spills); G2 2^20 -> 117.1/149.2/152.1 ms
// (gpu/msm/DECISIONS.md #2).
constexpr unsigned gpu_msm_default_min_blocks(G1Curve) {
  return 2;
}
constexpr unsigned gpu_msm_default_min_blocks(G2Curve) {
  return 1;
}

// The XYZZ levels' partial sums (step 3): level k writes buf[k & 1] (cap[k & 1] entries), reading
// the previous level's. Level 0 of m items over nb buckets writes sum ceil(len / kSegment) <=
// ceil(m / kSegment) + nb sums, level k + 1 at most ceil(level k / kSegment) + nb.
template <class Xyzz>
struct LevelScratch {
  Xyzz* buf[2] = {nullptr, nullptr};
  std::size_t cap[2] = {0, 0};
};

}  // namespace

}  // namespace prestage::msm
