#pragma once
// GPU Pippenger MSM implementation (see gpu/msm/gpu_msm.hpp for the contract and the algorithm),
// included once per curve (gpu_msm_g1.cu, gpu_msm_g2.cu) so the two compile in parallel.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <cmath>

#include "gpu/msm/affine_batch.hpp"
#include "gpu/msm/gpu_msm.hpp"

namespace prestage::gpu {

namespace {

using ff::Fr;

constexpr unsigned kSegment = 32;  // points (or partial sums) one thread adds up
// Buckets one thread reduces (step 4): kPartLong, or the curve's short part when the group has
// at most kShortBuckets buckets (the reduction is then latency-bound: a shorter serial chain of
// 2 part_len additions + the double-and-add by j part_len + log2(parts) tree levels). Measured
// on the H200, one group of 20 windows at 2^20, c = 13: G1 3.1 ms with parts of 4 vs 3.5 with
// parts of 16; G2 parts of 8 beat 4, 16 and 32 (3.30 vs 4.12 / 3.52 / 5.14 ms in blocks of 32:
// its additions spill, so more parts cost more than the shorter chain saves). A recursive
// reduction lost (gpu/msm/DECISIONS.md #5).
constexpr unsigned kPartLong = 16;
constexpr std::size_t kShortBuckets = std::size_t{1} << 17;
constexpr unsigned reduce_part_short(GpuG1) {
  return 4;
}
constexpr unsigned reduce_part_short(GpuG2) {
  return 8;  // beats 4, 16 and 32 in blocks of 32 (above)
}
// The same for GpuMsmReduce::SuffixScan (nb: the group's buckets), whose chain a thread is 2 M
// additions + log2 M doublings (no per-part double-and-add), then log2(N / M) scan steps, one
// addition and log2(N / M) tree levels (N buckets a window). Shorter parts shorten the chain but
// every step then runs more threads. G2 takes the shortest part (>= 2) that leaves at most
// kScanThreads threads: M = 8 at 2^20, 4 at 2^22. Measured on the H200, G2 2^20 reduce phase at
// M = 2/4/8/16 -> 4.26/2.77/2.53/3.26 ms (gpu/msm/DECISIONS.md #21). G1 (SuffixScan not its
// default): 4 (G1 2^20 reduce 0.85 vs DoubleAdd's 1.05 ms).
constexpr std::size_t kScanThreads = 12288;
constexpr unsigned reduce_part_short_scan(GpuG1, std::size_t) {
  return 4;
}
constexpr unsigned reduce_part_short_scan(GpuG2, std::size_t nb) {
  unsigned m = 2;
  while (nb / m > kScanThreads) m *= 2;
  return m;
}
// Bound on a group's parts under that rule (nb_max buckets; groups of at most kShortBuckets
// buckets take the short part, larger ones kPartLong), for the workspace.
constexpr std::size_t reduce_scan_parts_max(GpuG1, std::size_t nb_max) {
  return nb_max / 4;
}
constexpr std::size_t reduce_scan_parts_max(GpuG2, std::size_t nb_max) {
  return std::max(nb_max / kPartLong, kScanThreads);
}
constexpr std::size_t kMaxPairsPerGroup = std::size_t{1} << 25;  // windows per group: G n <= this
constexpr unsigned kThreads = 256;

// ---- curve operations used by the kernels (the ec API, in one place) ----
// Each operation is one out-of-line device function per curve: a kernel calls it instead of
// inlining its ~10-20 field multiplications at every call site, which keeps ptxas time and code
// size down (the call costs a few instructions against thousands in the body).
template <class Curve>
__device__ __noinline__ typename Curve::Xyzz dev_add_affine(typename Curve::Xyzz acc,
                                                            typename Curve::Affine p, bool negate) {
  if (p.infinity) return acc;
  if (negate) p.y = -p.y;
  return acc.add_mixed(p);
}
template <class Curve>
__device__ __noinline__ typename Curve::Xyzz dev_add(typename Curve::Xyzz a,
                                                     typename Curve::Xyzz b) {
  return a.add(b);
}
template <class Curve>
__device__ __noinline__ typename Curve::Xyzz dev_dbl(typename Curve::Xyzz a) {
  return a.dbl();
}

template <class Curve>
struct Ops {
  using Affine = typename Curve::Affine;
  using Xyzz = typename Curve::Xyzz;
  __device__ __forceinline__ static Xyzz zero() { return Xyzz::identity(); }
  // acc + (negate ? -p : p); p may be the point at infinity.
  __device__ __forceinline__ static Xyzz add_affine(const Xyzz& acc, const Affine& p, bool negate) {
    return dev_add_affine<Curve>(acc, p, negate);
  }
  __device__ __forceinline__ static Xyzz add(const Xyzz& a, const Xyzz& b) {
    return dev_add<Curve>(a, b);
  }
  __device__ __forceinline__ static Xyzz dbl(const Xyzz& a) { return dev_dbl<Curve>(a); }
};

__device__ __forceinline__ uint64_t limb_at(const uint64_t (&l)[4], unsigned i) {
  return i == 0 ? l[0] : i == 1 ? l[1] : i == 2 ? l[2] : i == 3 ? l[3] : 0;
}

// Bits [off, off + c) of the 256-bit canonical scalar (c <= 32).
__device__ __forceinline__ uint32_t scalar_bits(const uint64_t (&l)[4], unsigned off, unsigned c) {
  const unsigned idx = off >> 6, sh = off & 63;
  uint64_t v = limb_at(l, idx) >> sh;
  if (sh + c > 64) v |= limb_at(l, idx + 1) << (64 - sh);
  return static_cast<uint32_t>(v & ((uint64_t{1} << c) - 1));
}

// The signed c-bit digit of window value v (its c bits plus the previous window's carry; half =
// 2^(c-1)): in [-2^(c-1), 2^(c-1)], `carry` set for the next window.
__device__ __forceinline__ int32_t signed_digit(uint32_t v, uint32_t half, uint32_t& carry) {
  if (v > half) {
    carry = 1;
    return static_cast<int32_t>(v) - static_cast<int32_t>(half << 1);
  }
  carry = 0;
  return static_cast<int32_t>(v);
}

// l = the canonical value of s (Montgomery form: s * 1, the product's reduction), limbs
// little-endian.
__device__ __forceinline__ void canonical_limbs(const Fr& s, uint64_t (&l)[4]) {
  Fr one_raw{};
  one_raw.limb[0] = 1;
  const Fr v = s * one_raw;
#pragma unroll
  for (int k = 0; k < 4; ++k) l[k] = v.limb[k];
}

// Position of this thread's item in a list that `counter` counts, for the threads with `pred`:
// one atomic per block (blockDim.x == kThreads). Every thread of the block must call it (it
// synchronises the block).
__device__ __forceinline__ unsigned block_append(bool pred, unsigned* counter) {
  __shared__ unsigned warp_base[kThreads / 32];
  __shared__ unsigned block_base;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned mask = __ballot_sync(0xffffffffu, pred);
  if (lane == 0) warp_base[warp] = __popc(mask);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (unsigned k = 0; k < kThreads / 32; ++k) {
      const unsigned c = warp_base[k];
      warp_base[k] = sum;
      sum += c;
    }
    block_base = sum > 0 ? atomicAdd(counter, sum) : 0;
  }
  __syncthreads();
  const unsigned pos = block_base + warp_base[warp] + __popc(mask & ((1u << lane) - 1));
  __syncthreads();  // the next call reuses the shared words
  return pos;
}

// Step 0 on raw Montgomery limbs (0 -> all zero, 1 -> R mod r; values < r are unique).
// counts = [zeros, ones, others]. With lists (ones != nullptr): the indices of 1-scalars go to
// `ones` and those of the others (neither 0 nor 1) to `others`, in no particular order.
__global__ void __launch_bounds__(kThreads)
    classify_kernel(const Fr* scalars, std::size_t n, unsigned* counts, uint32_t* ones,
                    uint32_t* others) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  bool zero = false, one = false, other = false;
  if (i < n) {
    const Fr s = scalars[i];
    const Fr r1 = Fr::one();
    zero = (s.limb[0] | s.limb[1] | s.limb[2] | s.limb[3]) == 0;
    one = s.limb[0] == r1.limb[0] && s.limb[1] == r1.limb[1] && s.limb[2] == r1.limb[2] &&
          s.limb[3] == r1.limb[3];
    other = !zero && !one;
  }
  const unsigned pz = block_append(zero, counts);
  const unsigned po = block_append(one, counts + 1);
  const unsigned pg = block_append(other, counts + 2);
  (void)pz;
  if (ones != nullptr) {
    if (one) ones[po] = static_cast<uint32_t>(i);
    if (other) others[pg] = static_cast<uint32_t>(i);
  }
}

// A scalar out of Montgomery form: its canonical 256-bit value, limbs little-endian.
struct alignas(32) CanonScalar {
  uint64_t limb[4];
};

// canon[i] = scalar i of the run (scalars[idx[i]], idx == nullptr: scalars[i]) out of Montgomery
// form, for i < n: once per call (GpuMsmOptions::scalars_once), in the run's order.
__global__ void __launch_bounds__(kThreads)
    canon_scalars_kernel(const Fr* scalars, const uint32_t* idx, std::size_t n,
                         CanonScalar* canon) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  CanonScalar out;
  canonical_limbs(scalars[idx != nullptr ? idx[i] : i], out.limb);
  canon[i] = out;
}

// Signed digits of windows [w0, w0 + G) -> compacted (key, value) pairs; zero digits dropped.
// Scalar i of the run is scalars[idx[i]] with point idx[i] (idx == nullptr: the identity), or,
// with canon != nullptr, canon[i] (canon_scalars_kernel's, already canonical; scalars unread).
// key = (w - w0) << (c - 1) | (|d| - 1); value = point index | (d < 0) << 31.
__global__ void __launch_bounds__(kThreads)
    digits_kernel(const Fr* scalars, const CanonScalar* canon, const uint32_t* idx, std::size_t n,
                  unsigned c, unsigned w0, unsigned groups, uint32_t* keys, uint32_t* vals,
                  unsigned* counter) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  const bool active = i < n;
  uint64_t l[4] = {0, 0, 0, 0};
  uint32_t point = static_cast<uint32_t>(i);
  if (active) {
    if (idx != nullptr) point = idx[i];
    if (canon != nullptr) {
      const CanonScalar v = canon[i];
#pragma unroll
      for (int k = 0; k < 4; ++k) l[k] = v.limb[k];
    } else {
      canonical_limbs(scalars[point], l);
    }
  }
  const uint32_t half = 1u << (c - 1);
  uint32_t carry = 0;
  for (unsigned w = 0; w < w0 + groups; ++w) {
    const int32_t d = signed_digit(scalar_bits(l, w * c, c) + carry, half, carry);
    if (w < w0) continue;
    const bool nz = active && d != 0;
    // One atomic per block: per-warp atomics on this one counter cost ~10 ms of digits at 2^24
    // (1M atomics per window group) on the H200, against 6.9 (gpu/msm/DECISIONS.md #3).
    const unsigned pos = block_append(nz, counter);
    if (nz) {
      const uint32_t mag = static_cast<uint32_t>(d < 0 ? -d : d);
      keys[pos] = ((w - w0) << (c - 1)) | (mag - 1);
      vals[pos] = point | (d < 0 ? 0x80000000u : 0u);
    }
  }
}

// start[b], end[b]: the range of sorted positions with key b (buckets never seen keep 0, 0).
__global__ void ranges_kernel(const uint32_t* keys, std::size_t m, unsigned* start, unsigned* end) {
  const std::size_t p = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (p >= m) return;
  const uint32_t k = keys[p];
  if (p == 0 || keys[p - 1] != k) start[k] = static_cast<unsigned>(p);
  if (p + 1 == m || keys[p + 1] != k) end[k] = static_cast<unsigned>(p + 1);
}

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
// per SM asked of ptxas (registers <= 65536 / (kThreads kMinBlocks)); see GpuMsmOptions.
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

// ---- batch-affine rounds (gpu/msm/affine_batch.hpp has the thread bodies and the algorithm) ----
// Outputs per thread of the prep/add kernels, and the most thread products per inversion (the
// rule affine_per_inversion below picks K2 <= this). K2 = 64: one inversion per 512 outputs.
// Measured on the H200, G1 2^24 batch-affine: K = 6/8/12 -> 113.2/108.1/109.3 ms
// (gpu/msm/DECISIONS.md #7, with the K2 sweep).
constexpr unsigned kAffinePerThread = 8;
constexpr unsigned kAffinePerInversion = 64;
// A round runs only when it has at least this many pair additions (GpuMsmOptions::
// affine_min_pairs = 0): below it the round's fixed latency (the serial Fermat chain, ~1 ms on
// the H200; ~6 launches and a host wait) outweighs the products it saves over XYZZ additions.
// Per curve: affine_min_pairs_default, G1 2^20, G2 2^18. Measured on the H200, G1 2^24
// 2^19/2^20/2^21 -> 109.1/108.1/111.9 ms; G2 2^20 2^18/2^20/2^22 -> 39.0/38.6/41.0 ms (2^18
// kept; gpu/msm/DECISIONS.md #8).
constexpr std::size_t kAffineMinPairs = std::size_t{1} << 18;
constexpr std::size_t affine_min_pairs_default(bool g2) {
  return g2 ? kAffineMinPairs : std::size_t{1} << 20;
}
// Window groups of the batch-affine path (GpuMsmOptions::max_group_pairs = 0): G1 2^26 pairs
// (half the rounds of 2^25, so half the rounds' latency-bound inversions), G2 kMaxPairsPerGroup.
// Larger G1 groups are faster at 4x the memory: G1 2^24 2^26/2^28 -> 108.4/102.1 ms at
// 8.85/33.4 GiB on the H200 (GpuMsmOptions::max_group_pairs; gpu/msm/DECISIONS.md #14).
constexpr std::size_t affine_group_pairs_default(bool g2) {
  return g2 ? kMaxPairsPerGroup : std::size_t{1} << 26;
}

// A fresh id per gpu_msm call (AffineParams::call), so scratch kept across calls never reuses
// one call's infinity bits for another call's points at the same address.
inline uint64_t next_affine_call() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

// The batch-affine rounds' parameters (GpuMsmOptions, defaults filled in); min_pairs = 0: none.
struct AffineParams {
  std::size_t min_pairs = 0;
  unsigned per_thread = kAffinePerThread;
  unsigned per_inversion = 0;   // 0: affine_per_inversion(T, invert_threads)
  unsigned invert_threads = 0;  // the rule's cap; 0: affine_invert_threads_default
  bool gather = false;
  bool fermat = false;
  GpuMsmAffineInverse inverse = GpuMsmAffineInverse::Auto;  // fermat overrides
  GpuMsmAffineAdd add = GpuMsmAffineAdd::Auto;
  unsigned lean_round0 = 0;   // GpuMsmOptions::affine_lean_round0
  bool map_search = false;    // GpuMsmOptions::affine_map_search
  bool map_bucket = true;     // GpuMsmOptions::affine_map_bucket
  bool inf_bits = true;       // GpuMsmOptions::affine_inf_bits
  std::size_t n_points = 0;   // the call's points (inf_bits' size)
  uint64_t call = 0;          // the gpu_msm call (next_affine_call): inf_bits are built per call
  unsigned prep_blocks = 0;   // 0: affine_prep_default_blocks
  bool eager_round0 = false;  // GpuMsmOptions::affine_eager_round0 (packed points only)
};

// The batch-affine rounds' parameters of a call taking them, from its options (defaults filled
// in), for n_points points (the infinity bitmap's size), with a fresh call id.
inline AffineParams affine_params(const GpuMsmOptions& o, bool g2, std::size_t n_points) {
  AffineParams a;
  a.min_pairs = o.affine_min_pairs != 0 ? o.affine_min_pairs : affine_min_pairs_default(g2);
  if (o.affine_per_thread != 0) a.per_thread = o.affine_per_thread;
  a.per_inversion = o.affine_per_inversion;
  a.invert_threads = o.affine_invert_threads;
  a.gather = o.affine_gather;
  a.fermat = o.affine_fermat;
  a.inverse = o.affine_inverse;
  a.lean_round0 = o.affine_lean_round0;
  a.map_search = o.affine_map_search;
  a.map_bucket = o.affine_map_bucket;
  a.inf_bits = o.affine_inf_bits;
  a.n_points = n_points;
  a.call = next_affine_call();
  a.add = o.affine_add;
  a.prep_blocks = o.affine_prep_min_blocks;
  a.eager_round0 = o.affine_eager_round0;
  return a;
}

// K2 when GpuMsmOptions::affine_per_inversion is 0: the smallest power of 2 in [8, 64] that
// leaves at most kAffineInvertThreads invert threads for T thread products. The invert kernel
// is a serial chain per thread (3 K2 products + one inversion) with few threads, so its time is
// that chain's latency: big rounds keep K2 = 64 (fewer inversions: each is ~250 products' worth
// of instructions), small rounds (later rounds, few threads anyway) take shorter chains.
// Measured on the H200 (binary-Euclid inversions), invert phase G1 2^24 28.2 ms with the rule
// vs 38.5 with K2 = 64 fixed (gpu/msm/DECISIONS.md #9).
constexpr unsigned kAffineInvertThreads = 1u << 15;  // ~one block of 256 per SM of the H200
// The cap per curve (GpuMsmOptions::affine_invert_threads = 0): G1 2^16, G2 kAffineInvertThreads.
// Measured on the H200, G1 2^24 cap 2^15/2^16/2^17 -> 109.8/108.1/109.9 ms; G2 2^20 invert phase
// 2.6 ms at 2^15 vs 2.9 at 2^16 (gpu/msm/DECISIONS.md #9).
constexpr unsigned affine_invert_threads_default(bool g2) {
  return g2 ? kAffineInvertThreads : 1u << 16;
}
inline unsigned affine_per_inversion(unsigned T, unsigned max_threads = kAffineInvertThreads) {
  unsigned k2 = 8;
  while (k2 < kAffinePerInversion && (T + k2 - 1) / k2 > max_threads) k2 *= 2;
  return k2;
}

// cnt[b] = ceil((end - start) / 2), cnt[nb] = 0; *pairs += sum floor((end - start) / 2).
__global__ void __launch_bounds__(kThreads)
    paircount_kernel(const unsigned* start, const unsigned* end, std::size_t nb, unsigned* cnt,
                     unsigned* pairs) {
  const std::size_t b = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  unsigned len = 0;
  if (b < nb) len = end[b] - start[b];
  if (b <= nb) cnt[b] = affine_batch::round_count(len);
  const unsigned sum = __reduce_add_sync(0xffffffffu, len / 2);
  if ((threadIdx.x & 31) == 0 && sum > 0) atomicAdd(pairs, sum);
}

// Resident blocks per SM asked of ptxas (__launch_bounds__) for the batch-affine kernels, by
// nvcc 13.0 -Xptxas -v for sm_90 (gpu/msm/DECISIONS.md #10 has the script):
//  prep (GpuMsmOptions::affine_prep_min_blocks): G1 2 -> 100 registers, 3 -> 79
//    (none spilled: the default), 4 -> 64 (84 B spilled); G2 1 -> 182, 2 -> 128
//    (136 B spilled: the default), 3 -> 80 (568 B).
//  add, the Msmaffine thread body (add_thread): G1 2 blocks of 256 -> 128 registers, 64 B
//    spilled; G2 1 -> 255, none (2 blocks: 1692 B spilled).
//  add, lean thread body (add_thread_lean; GpuMsmOptions::affine_add): G1 2 blocks of 256 ->
//    110 registers, none; 3 blocks of 256 -> 80, 32 B spilled (the default); G2 1 block of
//    256 -> 204, none; 3 blocks of 128 -> 168, 48 B spilled (the default).
// Prediction: these kernels wait on memory between short product chains, so more resident
// warps (16 -> 24 for G1, 8 -> 12 or 16 for G2) should outweigh a few spilled words. Measured
// on the H200, phases at G1 2^24 / G2 2^20: prep G1 3 vs 2 blocks 26.8 vs 27.6 ms, G2 2 vs 1
// 4.2 vs 5.2 ms; add: G1 lean high 57.4 ms beats lean low 60.9 and Msmaffine 62.9, G2
// Msmaffine 18.7 beats both lean shapes: hence GpuMsmAffineAdd::Auto (gpu/msm/DECISIONS.md #10).
template <class Affine>
constexpr bool is_g2() {
  return sizeof(typename Affine::Field) > 48;
}
template <class Affine>
constexpr unsigned affine_prep_default_blocks() {
  return is_g2<Affine>() ? 2 : 3;
}
// Lean add kernel launch: threads a block and resident blocks per SM, low (the Msmaffine
// kernel's occupancy) or high (the default).
template <class Affine, bool kHigh>
struct LeanAddShape {
  static constexpr int block = is_g2<Affine>() && kHigh ? 128 : 256;
  static constexpr int min_blocks = is_g2<Affine>() ? (kHigh ? 3 : 1) : (kHigh ? 3 : 2);
};

// map[j] for j < P (affine_batch::map_entry). kWarpSearch (GpuMsmOptions::affine_map_search,
// off by default: measured no faster): lane 0 binary-searches the bucket of the warp's first output
// and the lanes walk on from it (find_bucket_from: one binary search a warp instead of one an
// output, ~17 dependent loads of off each at 2^17 buckets); else every thread searches (the
// default).
template <bool kWarpSearch>
__global__ void __launch_bounds__(kThreads)
    affine_map_kernel(const unsigned* start, const unsigned* end, const unsigned* off,
                      std::size_t nb, unsigned P, uint32_t* map) {
  const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  if constexpr (kWarpSearch) {
    const unsigned j0 = j & ~31u;  // the warp's first output (blocks are whole warps)
    if (j0 >= P) return;           // the whole warp is past the end
    std::size_t b0 = 0;
    if ((threadIdx.x & 31) == 0) b0 = affine_batch::find_bucket(off, nb, j0);
    b0 = __shfl_sync(0xffffffffu, b0, 0);
    if (j < P) map[j] = affine_batch::map_entry_from(j, start, end, off, nb, b0);
  } else {
    if (j < P) map[j] = affine_batch::map_entry(j, start, end, off, nb);
  }
}

// map[j] for the outputs j of bucket b in [off[b], off[b + 1]), one warp a bucket
// (GpuMsmOptions::affine_map_bucket, the default; affine_batch::map_bucket_lane): the lanes take
// the bucket's outputs in turn (coalesced stores of map_entry's entries), no search. nb warps a
// round (round 0 at G1 2^24: 2^17 buckets of ~256 outputs) instead of P threads each searching off.
// One warp writes a whole bucket, so a round of few large buckets (the 1-scalars' one bucket of
// step 0's split: up to 2^25 outputs) would leave the GPU idle behind one warp: below
// kMapBucketMinBuckets buckets a round takes affine_map_kernel (a search of a few steps).
constexpr std::size_t kMapBucketMinBuckets = std::size_t{1} << 10;
__global__ void __launch_bounds__(kThreads)
    affine_map_bucket_kernel(const unsigned* start, const unsigned* end, const unsigned* off,
                             std::size_t nb, uint32_t* map) {
  const std::size_t b = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) >> 5;
  if (b < nb) affine_batch::map_bucket_lane(b, threadIdx.x & 31, 32, start, end, off, map);
}

// bits[w] bit l = points[32 w + l].infinity, for the n points (ceil(n / 32) words; 0 past n):
// affine_batch::ItemSource::inf_bits (GpuMsmOptions::affine_inf_bits). One flag read a point.
template <class Affine>
__global__ void __launch_bounds__(kThreads)
    affine_inf_bits_kernel(const Affine* points, unsigned n, uint32_t* bits) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i & ~31u) >= n) return;  // the whole warp is past the end
  const uint32_t word = __ballot_sync(0xffffffffu, i < n && points[i].infinity);
  if ((threadIdx.x & 31) == 0) bits[i >> 5] = word;
}

// Round 0's items in bucket order (GpuMsmOptions::affine_gather, off by default: measured
// slower as a whole, see there): out[i] = the point of sorted value i, negated when its sign
// bit is set (i < m; out: m x Affine). One random read per item, coalesced writes; the rounds
// then read their items coalesced, and the points are gathered once instead of by prep (x) and
// add (x, y) each.
template <class Affine, class Point>
__global__ void __launch_bounds__(kThreads)
    affine_gather_kernel(affine_batch::ItemSource<Affine, Point> src, unsigned m, Affine* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) out[i] = src.load(i);
}

template <class Affine, int kMinBlocks, class Point = Affine, bool kEager = false>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    affine_prep_kernel(affine_batch::ItemSource<Affine, Point> src, const uint32_t* map, unsigned T,
                       unsigned P, unsigned K, typename Affine::Field* pre,
                       typename Affine::Field* tprod) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  affine_batch::prep_thread<kEager>(t, T, P, K, src, map, pre, tprod);
}

template <class Field, affine_batch::InverseKind kInv>
__global__ void __launch_bounds__(kThreads)
    affine_invert_kernel(unsigned T, unsigned K2, Field* tprod, Field* scratch) {
  const unsigned u = blockIdx.x * blockDim.x + threadIdx.x;
  affine_batch::invert_thread<kInv>(u, T, K2, tprod, scratch);
}

// The Msmaffine add kernel (GpuMsmAffineAdd::Msmaffine; also round 0 without the gather).
template <class Affine, class Point = Affine, bool kEager = false>
__global__ void __launch_bounds__(kThreads, is_g2<Affine>() ? 1 : 2)
    affine_add_kernel(affine_batch::ItemSource<Affine, Point> src, const uint32_t* map, unsigned T,
                      unsigned P, unsigned K, const typename Affine::Field* pre,
                      const typename Affine::Field* tinv, Affine* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  affine_batch::add_thread<kEager>(t, T, P, K, src, map, pre, tinv, out);
}

template <class Affine, int kBlock, int kMinBlocks, bool kDirect, class Point = Affine>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    affine_add_lean_kernel(affine_batch::ItemSource<Affine, Point> src, const uint32_t* map,
                           unsigned T, unsigned P, unsigned K, const typename Affine::Field* pre,
                           const typename Affine::Field* tinv, Affine* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  affine_batch::add_thread_lean<kDirect>(t, T, P, K, src, map, pre, tinv, out);
}

// kDirect: round 0 through the sorted values (src.vals), else items in memory (src.points).
template <class Affine, bool kHigh, bool kDirect = false, class Point = Affine>
void launch_lean_add(const affine_batch::ItemSource<Affine, Point>& src, const uint32_t* map,
                     unsigned T, unsigned P, unsigned K, const typename Affine::Field* pre,
                     const typename Affine::Field* tinv, Affine* out, cudaStream_t stream) {
  using S = LeanAddShape<Affine, kHigh>;
  affine_add_lean_kernel<Affine, S::block, S::min_blocks, kDirect, Point>
      <<<(T + S::block - 1) / S::block, S::block, 0, stream>>>(src, map, T, P, K, pre, tinv, out);
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

// After a level: bucket b's items are its segments' partial sums.
__global__ void next_ranges_kernel(const unsigned* segoff, std::size_t nb, unsigned* start,
                                   unsigned* end) {
  const std::size_t b = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (b >= nb) return;
  start[b] = segoff[b];
  end[b] = segoff[b + 1];
}

// Thread t = w parts + j of a reduction kernel: the running sums over part j of window w
// (buckets j M .. j M + M - 1 of the window's 2^(c-1), M = part_len), from the top bucket down:
// running = sum_k B_k, acc = sum_k (k - j M + 1) B_k (an empty bucket, end <= start, adds
// nothing); returns j. Shared by both reduction schemes.
template <class Curve>
__device__ __forceinline__ unsigned part_running_sums(const typename Curve::Xyzz* partial,
                                                      const unsigned* start, const unsigned* end,
                                                      unsigned c, unsigned parts, unsigned part_len,
                                                      unsigned t, typename Curve::Xyzz& running,
                                                      typename Curve::Xyzz& acc) {
  using O = Ops<Curve>;
  const unsigned w = t / parts, j = t % parts;
  const std::size_t bucket0 = std::size_t{w} << (c - 1);
  running = O::zero();
  acc = O::zero();
  for (unsigned k = (j + 1) * part_len; k-- > j * part_len;) {
    const std::size_t b = bucket0 + k;
    if (end[b] > start[b]) running = O::add(running, partial[start[b]]);
    acc = O::add(acc, running);
  }
  return j;
}

// Running-sum reduction of one part (part_len buckets) of one window (t = w parts + j):
// out[t] = sum_{k in part} (k + 1) B_k = sum (k - j M + 1) B_k + j M sum B_k, M = part_len.
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    bucket_reduce_kernel(const typename Curve::Xyzz* partial, const unsigned* start,
                         const unsigned* end, unsigned c, unsigned groups, unsigned parts,
                         unsigned part_len, typename Curve::Xyzz* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * parts) return;
  using O = Ops<Curve>;
  typename Curve::Xyzz running, acc;
  const unsigned j =
      part_running_sums<Curve>(partial, start, end, c, parts, part_len, t, running, acc);
  const unsigned mult = j * part_len;
  auto scaled = O::zero();
  for (int bit = mult == 0 ? -1 : 31 - __clz(mult); bit >= 0; --bit) {
    scaled = O::dbl(scaled);
    if ((mult >> bit) & 1) scaled = O::add(scaled, running);
  }
  out[t] = O::add(acc, scaled);
}

// parts_sum[w parts + j] += parts_sum[w parts + j + half] for j < half (one tree level).
template <class Curve>
__global__ void tree_kernel(typename Curve::Xyzz* parts_sum, unsigned groups, unsigned parts,
                            unsigned half) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * half) return;
  const unsigned w = t / half, j = t % half;
  auto& a = parts_sum[std::size_t{w} * parts + j];
  a = Ops<Curve>::add(a, parts_sum[std::size_t{w} * parts + j + half]);
}

// GpuMsmReduce::SuffixScan, the parts (t = w parts + j, part_len = M buckets): acc[t] = sum_k
// (k - j M + 1) B_k over the part's buckets k (the running sums, as bucket_reduce_kernel) and
// scaled[t] = M sum_k B_k (log2 M doublings; M a power of 2).
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    bucket_part_scan_kernel(const typename Curve::Xyzz* partial, const unsigned* start,
                            const unsigned* end, unsigned c, unsigned groups, unsigned parts,
                            unsigned part_len, typename Curve::Xyzz* acc_out,
                            typename Curve::Xyzz* scaled_out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * parts) return;
  using O = Ops<Curve>;
  typename Curve::Xyzz running, acc;
  part_running_sums<Curve>(partial, start, end, c, parts, part_len, t, running, acc);
  for (unsigned m = part_len; m > 1; m >>= 1) running = O::dbl(running);
  acc_out[t] = acc;
  scaled_out[t] = running;
}

// One step of the inclusive suffix scan over each window's parts (Hillis-Steele): out[w parts +
// j] = in[w parts + j] + in[w parts + j + stride] when j + stride < parts, else in[w parts + j].
// The last step (acc != nullptr) writes no out: it adds the scan's S_j to acc[w parts + j] for j
// >= 1 instead (sum_{j >= 1} S_j = sum_j j M sum(part j): the parts' offsets).
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    suffix_scan_step_kernel(const typename Curve::Xyzz* in, typename Curve::Xyzz* out,
                            typename Curve::Xyzz* acc, unsigned groups, unsigned parts,
                            unsigned stride) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * parts) return;
  const unsigned j = t % parts;
  if (acc != nullptr && j == 0) return;
  const auto s = j + stride < parts ? Ops<Curve>::add(in[t], in[t + stride]) : in[t];
  if (acc != nullptr)
    acc[t] = Ops<Curve>::add(acc[t], s);
  else
    out[t] = s;
}

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

template <class T>
void download(T* host, const T* dev, std::size_t count, cudaStream_t stream) {
  PRESTAGE_CUDA_CHECK(
      cudaMemcpyAsync(host, dev, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

// Device time per phase: mark(p) attributes the stream time since the previous mark to phase p
// (off when no stats are asked for). Read after the stream has been synchronised.
class PhaseClock {
 public:
  PhaseClock(GpuMsmStats* stats, cudaStream_t stream) : stats_(stats), stream_(stream) {
    if (stats_ != nullptr) push(nullptr);
  }
  void mark(double GpuMsmStats::*phase) {
    if (stats_ != nullptr) push(phase);
  }
  // Adds the spans to the stats (every recorded event must be complete).
  void finish() {
    if (stats_ == nullptr) return;
    for (std::size_t k = 1; k < events_.size(); ++k)
      stats_->*phases_[k] += Event::elapsed_ms(*events_[k - 1], *events_[k]);
  }

 private:
  void push(double GpuMsmStats::*phase) {
    events_.push_back(std::make_unique<Event>());
    events_.back()->record(stream_);
    phases_.push_back(phase);
  }
  GpuMsmStats* stats_;
  cudaStream_t stream_;
  std::vector<std::unique_ptr<Event>> events_;
  std::vector<double GpuMsmStats::*> phases_;
};

// Level-0 occupancy per curve (GpuMsmOptions::accumulate_min_blocks = 0).
// Measured on the H200 (bench rows *_occupancy_mb*): G1 2^22 mb1/2/3 -> 117.8/75.6/108.8 ms (mb1
// lets ptxas take 255 registers: one block per SM; mb3 spills); G2 2^20 -> 117.1/149.2/152.1 ms
// (gpu/msm/DECISIONS.md #2).
constexpr unsigned gpu_msm_default_min_blocks(GpuG1) {
  return 2;
}
constexpr unsigned gpu_msm_default_min_blocks(GpuG2) {
  return 1;
}

// Scratch of the bucket accumulation for up to nb_max buckets (unsigned arrays, device).
struct BucketScratch {
  unsigned* start;     // nb_max: first item of bucket b
  unsigned* end;       // nb_max: one past its last item
  unsigned* segcount;  // nb_max + 1
  unsigned* segoff;    // nb_max + 1: exclusive scan of segcount
  unsigned* max_seg;   // 1
  void* temp;          // CUB scan storage
  std::size_t temp_bytes;
};

// After a counting kernel has filled bs.segcount[0, nb] and a statistic in *bs.max_seg (zeroed
// before it): bs.segoff = the exclusive scan of segcount; returns [segoff[nb] (the total),
// *max_seg] on the host (synchronises `stream`).
std::array<unsigned, 2> scan_counts(const BucketScratch& bs, std::size_t nb, cudaStream_t stream) {
  std::size_t sbytes = bs.temp_bytes;
  PRESTAGE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(bs.temp, sbytes, bs.segcount, bs.segoff,
                                                    static_cast<int>(nb + 1), stream));
  std::array<unsigned, 2> info{0, 0};
  PRESTAGE_CUDA_CHECK(
      cudaMemcpyAsync(&info[0], bs.segoff + nb, sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
  PRESTAGE_CUDA_CHECK(
      cudaMemcpyAsync(&info[1], bs.max_seg, sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return info;
}

// ---- the workspace (GpuMsmWorkspace): one region, carved into the call's buffers ----
constexpr std::size_t kWorkspaceAlign = 256;  // every piece starts on a 256-B boundary

// A piece of the workspace: count elements of T at ptr (not owned); the DeviceBuffer accessors.
template <class T>
struct WsSpan {
  T* ptr = nullptr;
  std::size_t count = 0;
  T* data() const { return ptr; }
  std::size_t size() const { return count; }
  std::size_t bytes() const { return count * sizeof(T); }
};

// Lays pieces out one after another (each 256-B aligned) in [base, base + capacity). With a null
// base it only counts: gpu_msm_workspace_bytes runs the same layout code as the call, so the
// query and the call cannot disagree. take() past the capacity is a logic_error (the call checks
// the workspace's size against the query first).
class WsCarver {
 public:
  WsCarver(void* base, std::size_t capacity)
      : base_(static_cast<unsigned char*>(base)), capacity_(capacity) {}
  template <class T>
  WsSpan<T> take(std::size_t count) {
    used_ = (used_ + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
    WsSpan<T> s{base_ != nullptr ? reinterpret_cast<T*>(base_ + used_) : nullptr, count};
    used_ += count * sizeof(T);
    if (base_ != nullptr && used_ > capacity_)
      throw std::logic_error("gpu_msm: workspace layout past its capacity");
    return s;
  }
  std::size_t used() const { return used_; }

 private:
  unsigned char* base_;
  std::size_t capacity_;
  std::size_t used_ = 0;
};

// The allocator a workspace call hands to code that allocates only off the default path (the
// batch-affine rounds without the persistent scratch, refused up front): any allocation is a bug.
class NoAllocator final : public DeviceAllocator {
 public:
  void* allocate(std::size_t, cudaStream_t) override {
    throw std::logic_error("gpu_msm: a call on a workspace tried to allocate device memory");
  }
  void deallocate(void*, std::size_t, cudaStream_t) noexcept override {}
  AllocatorKind kind() const override { return AllocatorKind::StreamOrdered; }
  const char* name() const override { return "none (caller's workspace)"; }
};

// Batch-affine scratch kept for a whole gpu_msm call (GpuMsmOptions::affine_persistent_scratch),
// sized for the largest round 0 of the call and reused by every round and window group, so no
// round allocates. A round of P outputs over nb buckets of m items has P = sum ceil(len / 2) <=
// (m + nb) / 2, and each later round at most (P + nb) / 2: rounds write items[0] and items[1]
// in turn (even rounds items[0]). Pieces of the call's workspace.
template <class Affine>
struct AffineScratch {
  using Field = typename Affine::Field;
  std::size_t max_items = 0;        // m per call of accumulate_buckets at most
  std::size_t outputs[2] = {0, 0};  // capacity of items[0], items[1] (and of pre, map: [0])
  std::size_t threads = 0;          // capacity of tprod, scratch: ceil(outputs[0] / K)
  WsSpan<Affine> items[2];          // outputs[k] x Affine
  WsSpan<Affine> gathered;          // max_items x Affine (affine_gather only)
  WsSpan<Field> pre;                // outputs[0] x Field
  WsSpan<Field> tprod, scratch;     // threads x Field
  WsSpan<uint32_t> map;             // outputs[0] x 4 B
  // The points' infinity bits (ceil(n_points / 32) x 4 B; GpuMsmOptions::affine_inf_bits), filled
  // by the first round 0 of a call that reads through the sorted values (accumulate_buckets),
  // for the points at inf_points of call inf_call (AffineParams::call).
  WsSpan<uint32_t> inf_bits;
  const void* inf_points = nullptr;
  uint64_t inf_call = 0;
  AffineScratch(std::size_t m, std::size_t nb, unsigned K, bool gather, std::size_t n_points,
                WsCarver& ws)
      : max_items(m) {
    outputs[0] = affine_batch::max_outputs(m, nb);
    outputs[1] = affine_batch::max_outputs(outputs[0], nb);
    threads = (outputs[0] + K - 1) / K;
    items[0] = ws.take<Affine>(outputs[0]);
    items[1] = ws.take<Affine>(outputs[1]);
    if (gather) gathered = ws.take<Affine>(m);
    pre = ws.take<Field>(outputs[0]);
    tprod = ws.take<Field>(threads);
    scratch = ws.take<Field>(threads);
    map = ws.take<uint32_t>(outputs[0]);
    if (n_points > 0) inf_bits = ws.take<uint32_t>((n_points + 31) / 32);
  }
  std::size_t bytes() const {
    return items[0].bytes() + items[1].bytes() + gathered.bytes() + pre.bytes() + tprod.bytes() +
           scratch.bytes() + map.bytes() + inf_bits.bytes();
  }
};

// The XYZZ levels' partial sums (step 3): level k writes buf[k & 1] (cap[k & 1] entries), reading
// the previous level's. Level 0 of m items over nb buckets writes sum ceil(len / kSegment) <=
// ceil(m / kSegment) + nb sums, level k + 1 at most ceil(level k / kSegment) + nb.
template <class Xyzz>
struct LevelScratch {
  Xyzz* buf[2] = {nullptr, nullptr};
  std::size_t cap[2] = {0, 0};
};

// Step 3 for nb buckets whose (point | sign << 31) values sit in vals[start[b], end[b]) (all
// within vals[0, m)): the sum of bucket b ends up at items[start[b]] (start/end are rewritten level
// by level; a bucket with start == end is empty). Returns the last level's items (empty when no
// bucket has any). Batch-affine rounds first when affine.min_pairs > 0 (each round that has at
// least that many pair additions; then the XYZZ levels finish from the last round's affine items),
// marked as phases affine_gather_ms, affine_map_ms, affine_prep_ms, affine_invert_ms, affine_add_ms
// and affine_ms (the rest of the rounds) on `clock` when given. Point: the points' stored type,
// Affine or affine_batch::PackedAffine (the fixed-base table); point_inf_bits: the points'
// infinity bitmap when the caller has one (bit i of word i / 32: the table's, built with it;
// required for PackedAffine), else round 0 builds it in ps (GpuMsmOptions::affine_inf_bits).
template <class Curve, class Point = typename Curve::Affine>
const typename Curve::Xyzz* accumulate_buckets(
    const Point* points, const uint32_t* vals, unsigned m, std::size_t nb, const BucketScratch& bs,
    const LevelScratch<typename Curve::Xyzz>& levels, unsigned min_blocks, DeviceAllocator& alloc,
    cudaStream_t stream, GpuMsmStats* stats, const AffineParams& affine = {},
    PhaseClock* clock = nullptr, AffineScratch<typename Curve::Affine>* ps = nullptr,
    const uint32_t* point_inf_bits = nullptr) {
  using Xyzz = typename Curve::Xyzz;
  using Affine = typename Curve::Affine;
  using Field = typename Affine::Field;
  constexpr bool kPacked = !std::is_same_v<Point, Affine>;
  if (kPacked && point_inf_bits == nullptr)
    throw std::logic_error("gpu_msm: packed points without their infinity bitmap");
  DeviceBuffer<Affine> affine_items;  // owns cur_items when ps is null
  const Affine* cur_items = nullptr;  // the last batch-affine round's outputs (bucket order)
  const unsigned K = affine.per_thread;
  for (unsigned round = 0; affine.min_pairs > 0; ++round) {
    PRESTAGE_CUDA_CHECK(cudaMemsetAsync(bs.max_seg, 0, sizeof(unsigned), stream));
    paircount_kernel<<<blocks_for(nb + 1), kThreads, 0, stream>>>(bs.start, bs.end, nb, bs.segcount,
                                                                  bs.max_seg);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    const auto [P, pairs] = scan_counts(bs, nb, stream);  // outputs, pair additions
    if (pairs == 0 || pairs < affine.min_pairs) break;
    const unsigned T = (P + K - 1) / K;
    const unsigned K2 =
        affine.per_inversion != 0
            ? affine.per_inversion
            : affine_per_inversion(T, affine.invert_threads != 0
                                          ? affine.invert_threads
                                          : affine_invert_threads_default(is_g2<Affine>()));
    const unsigned U = (T + K2 - 1) / K2;
    // The round's scratch: from `ps` when given (GpuMsmOptions::affine_persistent_scratch),
    // else allocated here and freed at the end of the round.
    DeviceBuffer<Field> pre_b, tprod_b, scratch_b;
    DeviceBuffer<Affine> out_b;
    DeviceBuffer<uint32_t> map_b;
    Field *pre, *tprod, *scratch;  // P / T / T x Field: running products, thread products
    Affine* out;                   // P x Affine: the round's outputs
    uint32_t* map;                 // P x 4 B: first item | pair << 31
    if (ps != nullptr) {
      if (P > ps->outputs[round & 1] || T > ps->threads || (round == 0 && m > ps->max_items))
        throw std::logic_error("gpu_msm: batch-affine scratch too small");
      pre = ps->pre.data();
      tprod = ps->tprod.data();
      scratch = ps->scratch.data();
      out = ps->items[round & 1].data();
      map = ps->map.data();
    } else {
      pre_b = DeviceBuffer<Field>(alloc, P, stream);
      tprod_b = DeviceBuffer<Field>(alloc, T, stream);
      scratch_b = DeviceBuffer<Field>(alloc, T, stream);
      out_b = DeviceBuffer<Affine>(alloc, P, stream);
      map_b = DeviceBuffer<uint32_t>(alloc, P, stream);
      pre = pre_b.data();
      tprod = tprod_b.data();
      scratch = scratch_b.data();
      out = out_b.data();
      map = map_b.data();
    }
    if (clock != nullptr) clock->mark(&GpuMsmStats::affine_ms);
    if (round == 0 && affine.gather) {  // the items in bucket order (affine_gather_kernel)
      Affine* gathered = nullptr;       // m x Affine
      if (ps != nullptr) {
        gathered = ps->gathered.data();
      } else {
        affine_items = DeviceBuffer<Affine>(alloc, m, stream);
        gathered = affine_items.data();
      }
      affine_gather_kernel<Affine, Point><<<blocks_for(m), kThreads, 0, stream>>>(
          affine_batch::ItemSource<Affine, Point>{points, vals, point_inf_bits}, m, gathered);
      PRESTAGE_CUDA_CHECK_LAUNCH();
      cur_items = gathered;
      if (clock != nullptr) clock->mark(&GpuMsmStats::affine_gather_ms);
    }
    const bool direct = round == 0 && !affine.gather;  // round 0 through the sorted values
    // Round 0 through the sorted values reads `points` (src0), later rounds and the gathered
    // round 0 their items in memory (srcm).
    affine_batch::ItemSource<Affine, Point> src0{points, vals, point_inf_bits};
    const affine_batch::ItemSource<Affine> srcm{cur_items, nullptr};
    if constexpr (!kPacked) {
      if (direct && point_inf_bits == nullptr && ps != nullptr && affine.inf_bits &&
          affine.n_points > 0) {
        // The points' infinity bits (AffineScratch::inf_bits), built once per call: its time
        // lands in the map phase of the first round 0.
        const std::size_t words = (affine.n_points + 31) / 32;
        if (ps->inf_points != points || ps->inf_call != affine.call) {
          if (ps->inf_bits.size() < words)  // laid out by MsmSpace for the call's points
            throw std::logic_error("gpu_msm: the workspace's infinity bitmap is too small");
          affine_inf_bits_kernel<Affine><<<blocks_for(words * 32), kThreads, 0, stream>>>(
              points, static_cast<unsigned>(affine.n_points), ps->inf_bits.data());
          PRESTAGE_CUDA_CHECK_LAUNCH();
          ps->inf_points = points;
          ps->inf_call = affine.call;
          if (stats != nullptr) stats->affine_scratch_bytes = ps->bytes();
        }
        src0.inf_bits = ps->inf_bits.data();
      }
    }
    if (affine.map_bucket && nb >= kMapBucketMinBuckets)
      affine_map_bucket_kernel<<<blocks_for(32 * nb), kThreads, 0, stream>>>(bs.start, bs.end,
                                                                             bs.segoff, nb, map);
    else
      (affine.map_search ? affine_map_kernel<true>
                         : affine_map_kernel<false>)<<<blocks_for(P), kThreads, 0, stream>>>(
          bs.start, bs.end, bs.segoff, nb, P, map);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    if (clock != nullptr) clock->mark(&GpuMsmStats::affine_map_ms);
    const unsigned pb =
        affine.prep_blocks != 0 ? affine.prep_blocks : affine_prep_default_blocks<Affine>();
    const auto launch_prep = [&](const auto& src) {
      using P0 = std::remove_cv_t<std::remove_pointer_t<decltype(src.points)>>;
      // The eager reads (affine_batch::prep_thread kEager) exist for packed points only.
      constexpr bool kPackedSrc = !std::is_same_v<P0, Affine>;
      const auto prep = kPackedSrc && affine.eager_round0
                            ? (pb >= 3   ? affine_prep_kernel<Affine, 3, P0, kPackedSrc>
                               : pb == 2 ? affine_prep_kernel<Affine, 2, P0, kPackedSrc>
                                         : affine_prep_kernel<Affine, 1, P0, kPackedSrc>)
                        : pb >= 3 ? affine_prep_kernel<Affine, 3, P0>
                        : pb == 2 ? affine_prep_kernel<Affine, 2, P0>
                                  : affine_prep_kernel<Affine, 1, P0>;
      prep<<<blocks_for(T), kThreads, 0, stream>>>(src, map, T, P, K, pre, tprod);
    };
    if (direct)
      launch_prep(src0);
    else
      launch_prep(srcm);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    if (clock != nullptr) clock->mark(&GpuMsmStats::affine_prep_ms);
    {
      using affine_batch::InverseKind;
      const auto invert = affine.fermat ? affine_invert_kernel<Field, InverseKind::Fermat>
                          : affine.inverse == GpuMsmAffineInverse::Binary
                              ? affine_invert_kernel<Field, InverseKind::Binary>
                              : affine_invert_kernel<Field, InverseKind::Bingcd>;
      invert<<<blocks_for(U), kThreads, 0, stream>>>(T, K2, tprod, scratch);
    }
    PRESTAGE_CUDA_CHECK_LAUNCH();
    if (clock != nullptr) clock->mark(&GpuMsmStats::affine_invert_ms);
    GpuMsmAffineAdd add = affine.add;
    if (add == GpuMsmAffineAdd::Auto)  // GpuMsmAffineAdd: the faster add per curve
      add = is_g2<Affine>() ? GpuMsmAffineAdd::Msmaffine : GpuMsmAffineAdd::Lean;
    const auto launch_add = [&](const auto& src) {
      using P0 = std::remove_cv_t<std::remove_pointer_t<decltype(src.points)>>;
      if (direct && affine.lean_round0 >= 3)  // GpuMsmOptions::affine_lean_round0
        launch_lean_add<Affine, true, true>(src, map, T, P, K, pre, tprod, out, stream);
      else if (direct && affine.lean_round0 != 0)
        launch_lean_add<Affine, false, true>(src, map, T, P, K, pre, tprod, out, stream);
      else if (direct || add == GpuMsmAffineAdd::Msmaffine)
        (direct && affine.eager_round0
             ? affine_add_kernel<Affine, P0, !std::is_same_v<P0, Affine>>
             : affine_add_kernel<Affine, P0>)<<<blocks_for(T), kThreads, 0, stream>>>(
            src, map, T, P, K, pre, tprod, out);
      else if constexpr (std::is_same_v<P0, Affine>) {  // items in memory: Affine
        if (add == GpuMsmAffineAdd::LeanLow)
          launch_lean_add<Affine, false>(src, map, T, P, K, pre, tprod, out, stream);
        else
          launch_lean_add<Affine, true>(src, map, T, P, K, pre, tprod, out, stream);
      }
    };
    if (direct)
      launch_add(src0);
    else
      launch_add(srcm);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    if (clock != nullptr) clock->mark(&GpuMsmStats::affine_add_ms);
    next_ranges_kernel<<<blocks_for(nb), kThreads, 0, stream>>>(bs.segoff, nb, bs.start, bs.end);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    if (ps == nullptr) affine_items = std::move(out_b);  // frees the previous round's items
    cur_items = out;
    if (stats != nullptr) {
      stats->affine_adds += pairs;
      stats->affine_outputs += P;
      stats->affine_thread_products += T;
      stats->affine_inversions += U;
      stats->affine_rounds = std::max(stats->affine_rounds, round + 1);
    }
  }
  if (clock != nullptr) clock->mark(&GpuMsmStats::affine_ms);
  // Level 0 reads the last round's affine items in place (cur_items), else the points.
  const auto launch_level0 = [&](const auto* pts, const uint32_t* vv, const uint32_t* bits,
                                 std::size_t total, Xyzz* out) {
    using P0 = std::remove_cv_t<std::remove_pointer_t<decltype(pts)>>;
    const auto kernel = min_blocks >= 3   ? accumulate_points_kernel<Curve, 3, P0>
                        : min_blocks == 2 ? accumulate_points_kernel<Curve, 2, P0>
                                          : accumulate_points_kernel<Curve, 1, P0>;
    kernel<<<blocks_for(total), kThreads, 0, stream>>>(pts, vv, bs.start, bs.end, bs.segoff, nb,
                                                       static_cast<unsigned>(total), out, bits);
  };
  const Xyzz* items = nullptr;  // the current level's partial sums (none before level 0)
  std::size_t items_count = 0;
  // Levels: cut every bucket into segments of <= kSegment items until one item remains.
  for (int level = 0;; ++level) {
    PRESTAGE_CUDA_CHECK(cudaMemsetAsync(bs.max_seg, 0, sizeof(unsigned), stream));
    segcount_kernel<<<blocks_for(nb + 1), kThreads, 0, stream>>>(bs.start, bs.end, nb, bs.segcount,
                                                                 bs.max_seg);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    const auto [total, max_segments] = scan_counts(bs, nb, stream);  // per bucket: the maximum
    if (total == 0) return items;
    Xyzz* const out = levels.buf[level & 1];  // total x XYZZ (the workspace's level set)
    if (total > levels.cap[level & 1])
      throw std::logic_error("gpu_msm: XYZZ level past its workspace capacity");
    if (level == 0) {
      if (cur_items != nullptr)
        launch_level0(cur_items, nullptr, nullptr, total, out);
      else
        launch_level0(points, vals, point_inf_bits, total, out);
    } else {
      accumulate_partials_kernel<Curve><<<blocks_for(total), kThreads, 0, stream>>>(
          items, bs.start, bs.end, bs.segoff, nb, total, out);
    }
    PRESTAGE_CUDA_CHECK_LAUNCH();
    next_ranges_kernel<<<blocks_for(nb), kThreads, 0, stream>>>(bs.segoff, nb, bs.start, bs.end);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    if (stats != nullptr) {
      if (level > 0) stats->partial_adds += items_count - total;
      stats->max_levels = std::max(stats->max_levels, static_cast<unsigned>(level + 1));
    }
    items = out;
    items_count = total;
    if (max_segments <= 1) return items;
  }
}

// Step 4's launch: threads a block and buckets a thread (part_len 0: the rule above).
// GpuMsmOptions::reduce_block / reduce_part_len. The block size applies to the last window
// group's reduction only, the one nothing overlaps (the earlier groups' run on the side stream
// beside the next group's sort and accumulation, in blocks of kThreads). That one is
// latency-bound when few threads run: a G2 2^20 reduction (one group) is 20 windows x 4,096
// buckets / 16 = 5,120 threads, 20 blocks of 256 on 20 of the 132 SMs, 8 warps each; blocks of
// 32 spread it over every SM: G2 2^20 reduce phase 3.33 vs 4.19 ms in blocks of 256 on the
// H200. In every group the small blocks take the SMs the sort's kernels beside the first
// group's reduction wait for (G2 2^22 sort 2.4 -> 7.1 ms), hence the last group only
// (gpu/msm/DECISIONS.md #6).
struct ReduceConfig {
  unsigned block = kThreads;
  unsigned part_len = 0;
  bool scan = false;  // GpuMsmReduce::SuffixScan
};
constexpr unsigned reduce_block_default(GpuG1) {
  return kThreads;
}
constexpr unsigned reduce_block_default(GpuG2) {
  return 32;
}
// GpuMsmReduce::Auto per curve. G2 takes SuffixScan: measured on the H200, G2 2^22 98.13 ->
// 95.07 ms (reduce phase 7.1 -> 5.0; gpu/msm/DECISIONS.md #21). G1 keeps DoubleAdd although the
// scan measured faster there too (2^24 128.59 -> 127.86 ms): not measured at 2^26 / 2^27 (the
// pipeline's sizes), and its workspace grows (three part buffers instead of one).
constexpr GpuMsmReduce reduce_scheme_default(GpuG1) {
  return GpuMsmReduce::DoubleAdd;
}
constexpr GpuMsmReduce reduce_scheme_default(GpuG2) {
  return GpuMsmReduce::SuffixScan;
}
template <class Curve>
bool reduce_uses_scan(const GpuMsmOptions& o) {
  const GpuMsmReduce r = o.reduce != GpuMsmReduce::Auto ? o.reduce : reduce_scheme_default(Curve{});
  return r == GpuMsmReduce::SuffixScan;
}

// The options both gpu_msm and the fixed-base call check before any work (`who` names the
// caller in the std::invalid_argument): the reduction's block and part length (returned as the
// call's ReduceConfig), the prep kernel's occupancy, per-round scratch on a workspace
// (`on_workspace`: nothing to allocate it from) and the workspace's alignment.
template <class Curve>
ReduceConfig checked_msm_options(const GpuMsmOptions& o, const void* ws_data, bool on_workspace,
                                 const std::string& who) {
  ReduceConfig reduce;
  reduce.block = o.reduce_block != 0 ? o.reduce_block : reduce_block_default(Curve{});
  reduce.part_len = o.reduce_part_len;
  reduce.scan = reduce_uses_scan<Curve>(o);
  if (reduce.block > kThreads || reduce.block % 32 != 0)
    throw std::invalid_argument(who + ": reduce_block not a multiple of 32 in [32, 256]");
  if (reduce.part_len != 0 && (reduce.part_len & (reduce.part_len - 1)) != 0)
    throw std::invalid_argument(who + ": reduce_part_len not a power of 2");
  if (o.accumulation != GpuMsmAccumulation::Xyzz && o.affine_prep_min_blocks > 3)
    throw std::invalid_argument(who + ": affine_prep_min_blocks not in [0, 3]");
  if (on_workspace && !o.affine_persistent_scratch && o.accumulation != GpuMsmAccumulation::Xyzz)
    throw std::invalid_argument(
        who + ": affine_persistent_scratch = false allocates per round: not on a workspace");
  if (reinterpret_cast<std::uintptr_t>(ws_data) % kWorkspaceAlign != 0)
    throw std::invalid_argument(who + ": workspace not 256-B aligned");
  return reduce;
}

// Step 4 for `groups` windows of 2^(c-1) buckets (bucket b's sum at items[start[b]] when
// end[b] > start[b]): out[w] = sum_k (k + 1) B_wk, in parts reduced in parallel, then a tree.
// part_sums: groups x parts XYZZ (at most part_cap; MsmPlan::part_cap), three times that with
// rc.scan (the parts' sums, then the scan's two buffers), read until the stream's work is done.
template <class Curve>
void reduce_windows(const typename Curve::Xyzz* items, const unsigned* start, const unsigned* end,
                    unsigned c, unsigned groups, typename Curve::Xyzz* out, const ReduceConfig& rc,
                    typename Curve::Xyzz* part_sums, std::size_t part_cap, cudaStream_t stream) {
  using Xyzz = typename Curve::Xyzz;
  const unsigned buckets = 1u << (c - 1);
  const std::size_t nb = std::size_t{groups} * buckets;
  const unsigned short_len =
      rc.scan ? reduce_part_short_scan(Curve{}, nb) : reduce_part_short(Curve{});
  const unsigned part_len = std::min(rc.part_len != 0      ? rc.part_len
                                     : nb <= kShortBuckets ? short_len
                                                           : kPartLong,
                                     buckets);
  const unsigned parts = buckets / part_len;
  const unsigned bt = rc.block;
  const auto grid = [bt](std::size_t n) { return static_cast<unsigned>((n + bt - 1) / bt); };
  const std::size_t cap = rc.scan ? part_cap / 3 : part_cap;  // per buffer
  const std::size_t total = std::size_t{groups} * parts;
  if (total > cap) throw std::logic_error("gpu_msm: part sums past their workspace capacity");
  if (rc.scan) {
    Xyzz* scan_in = part_sums + cap;  // total x XYZZ each: the scan's ping-pong buffers
    Xyzz* scan_out = part_sums + 2 * cap;
    bucket_part_scan_kernel<Curve><<<grid(total), bt, 0, stream>>>(
        items, start, end, c, groups, parts, part_len, part_sums, scan_in);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    for (unsigned stride = 1; stride < parts; stride *= 2) {
      const bool last = 2 * stride >= parts;  // adds S_j to the part sums instead
      suffix_scan_step_kernel<Curve><<<grid(total), bt, 0, stream>>>(
          scan_in, scan_out, last ? part_sums : nullptr, groups, parts, stride);
      PRESTAGE_CUDA_CHECK_LAUNCH();
      std::swap(scan_in, scan_out);
    }
  } else {
    bucket_reduce_kernel<Curve>
        <<<grid(total), bt, 0, stream>>>(items, start, end, c, groups, parts, part_len, part_sums);
    PRESTAGE_CUDA_CHECK_LAUNCH();
  }
  for (unsigned half = parts / 2; half >= 1; half /= 2) {
    tree_kernel<Curve>
        <<<grid(std::size_t{groups} * half), bt, 0, stream>>>(part_sums, groups, parts, half);
    PRESTAGE_CUDA_CHECK_LAUNCH();
  }
  PRESTAGE_CUDA_CHECK(cudaMemcpy2DAsync(out, sizeof(Xyzz), part_sums, parts * sizeof(Xyzz),
                                        sizeof(Xyzz), groups, cudaMemcpyDeviceToDevice, stream));
}

// ---- one call's workspace: capacities from n and the options, then the pieces ----
constexpr unsigned kMaxWindows = 128;  // gpu_msm_num_windows(2), the most windows of any c

// Capacities of a call's workspace, from n (the points) and the options alone: the scalars only
// shrink what a call uses. The call's window size comes from the scalars left after step 0
// (n_run <= n), so c(n_run) <= c(n) (the rule grows with n); its window group is cut to fit
// max_pairs and nb_max (never below 1 window: n_run <= max_pairs, 2^(c(n_run)-1) <= nb_max).
template <class Curve>
struct MsmPlan {
  unsigned c = 0;
  std::size_t max_pairs = 0;  // (bucket, point) pairs of a window group: G n
  std::size_t nb_max = 0;     // buckets of a window group: G 2^(c-1)
  bool affine = false;        // batch-affine rounds possible (BatchAffine, or Auto's rule at n)
  std::size_t level_cap[2] = {0, 0};  // LevelScratch capacities (see there)
  std::size_t part_cap = 0;           // reduce_windows' part sums of one group (a buffer)
  bool reduce_scan = false;           // GpuMsmReduce::SuffixScan: 3 buffers of part_cap
  // Sets of the per-group buffers (bucket ranges, levels, part sums): 2 when n takes several
  // window groups (a group's reduction reads one set while the next group fills the other) or
  // with overlap_sort, else 1 (a call whose scalars need more groups than n's then runs them
  // one after the other: each waits for the previous group's reduction).
  unsigned sets = 2;
  // GpuMsmOptions::scalars_once and n takes several window groups: n x 32 B canonical scalars.
  bool canon = false;
};

// Pairs a window group (gpu_msm) or a slice (the fixed-base call) holds at most:
// GpuMsmOptions::max_group_pairs, else the batch-affine default or kMaxPairsPerGroup.
inline std::size_t group_pairs(const GpuMsmOptions& o, bool affine, bool g2) {
  return o.max_group_pairs != 0 ? o.max_group_pairs
         : affine               ? affine_group_pairs_default(g2)
                                : kMaxPairsPerGroup;
}

// LevelScratch capacities for up to `items` items over at most `buckets` nonempty buckets:
// level 0 <= ceil(items / kSegment) + buckets; the slack buckets / 31 + 2 makes cap[0] >=
// ceil(cap[0] / kSegment) + buckets, so level 2 (and every even level) fits it too.
inline void level_caps(std::size_t items, std::size_t buckets, std::size_t cap[2]) {
  cap[0] = (items + kSegment - 1) / kSegment + buckets + buckets / 31 + 2;
  cap[1] = (cap[0] + kSegment - 1) / kSegment + buckets;
}

// Part sums the reduction of nb buckets needs at most (groups x parts <= max(groups, nb /
// part_len) with part_len >= the smallest the rule takes), plus one per window.
template <class Curve>
std::size_t reduce_part_cap(const GpuMsmOptions& o, std::size_t nb, bool scan) {
  const std::size_t parts_max =
      o.reduce_part_len != 0 ? nb / o.reduce_part_len
      : scan                 ? reduce_scan_parts_max(Curve{}, nb)
                             : nb / std::min<std::size_t>(reduce_part_short(Curve{}), kPartLong);
  return parts_max + kMaxWindows;
}

// The plan with batch-affine rounds possible or not (`affine`; msm_plan below picks).
template <class Curve>
MsmPlan<Curve> msm_plan_for(std::size_t n, const GpuMsmOptions& o, bool affine) {
  constexpr bool g2 = is_g2<typename Curve::Affine>();
  MsmPlan<Curve> p;
  p.c = o.window_bits != 0 ? o.window_bits : gpu_msm_window_bits(std::max<std::size_t>(n, 1));
  const unsigned windows = gpu_msm_num_windows(p.c);
  p.affine = affine;
  const std::size_t gp = group_pairs(o, p.affine, g2);
  const std::size_t group = std::clamp<std::size_t>(gp / std::max<std::size_t>(n, 1), 1, windows);
  p.max_pairs = std::max<std::size_t>(group * n, 1);
  p.nb_max = group << (p.c - 1);
  level_caps(p.max_pairs, p.nb_max, p.level_cap);
  p.sets = o.overlap_sort || group < windows ? 2 : 1;
  // A call of n_run <= n scalars takes no fewer groups than n's in practice (smaller c: more
  // windows); one that does (a split call whose plan had one group) converts per group.
  p.canon = o.scalars_once && group < windows;
  p.reduce_scan = reduce_uses_scan<Curve>(o);
  p.part_cap = reduce_part_cap<Curve>(o, p.nb_max, p.reduce_scan);
  return p;
}

// The pieces of one call's workspace, in this order (each 256-B aligned).
template <class Curve>
struct MsmSpace {
  using Affine = typename Curve::Affine;
  using Xyzz = typename Curve::Xyzz;
  WsSpan<unsigned> counters;  // 4: [zeros, ones, others] / [pairs, max seg]
  WsSpan<uint32_t> idx;       // n x 4 B (split_01 only): the 1-scalars' point indices, then the
                              // others' (step 0's lists)
  WsSpan<CanonScalar> canon;  // n x 32 B (plan.canon only): the run's scalars, canonical
  // Pair sets (one; two with overlap_sort, so the next group's steps 1-2 fill one while this
  // group's accumulation reads the other), each a CUB double buffer: keys[s][0] / vals[s][0]
  // take the digits, the sort leaves its result in either half (max_pairs x 4 B each).
  WsSpan<uint32_t> keys[2][2], vals[2][2];
  WsSpan<unsigned> start, end;  // 2 nb_max each: two sets, so a group's reduction can read one
                                // while the next group fills the other
  WsSpan<unsigned> segcount, segoff;  // nb_max + 1 each
  WsSpan<unsigned char> sort_temp;    // CUB radix sort storage (max_pairs, 32 key bits)
  WsSpan<unsigned char> scan_temp;    // CUB scan storage (nb_max + 1; step 3's own)
  WsSpan<Xyzz> level[2][2];   // [set][level parity]: level_cap[parity] x XYZZ (sets of them)
  WsSpan<Xyzz> part_sums[2];  // [set]: part_cap x XYZZ (3 part_cap with reduce_scan)
  WsSpan<Xyzz> window_sums;   // kMaxWindows x XYZZ
  std::unique_ptr<AffineScratch<Affine>> affine;  // the persistent batch-affine scratch, if any
  MsmSpace(const MsmPlan<Curve>& p, std::size_t n, const GpuMsmOptions& o, WsCarver& ws,
           cudaStream_t stream) {
    counters = ws.take<unsigned>(4);
    if (o.split_01) idx = ws.take<uint32_t>(n);
    if (p.canon) canon = ws.take<CanonScalar>(n);
    for (int set = 0; set < (o.overlap_sort ? 2 : 1); ++set) {
      for (int h = 0; h < 2; ++h) keys[set][h] = ws.take<uint32_t>(p.max_pairs);
      for (int h = 0; h < 2; ++h) vals[set][h] = ws.take<uint32_t>(p.max_pairs);
    }
    start = ws.take<unsigned>(p.sets * p.nb_max);
    end = ws.take<unsigned>(p.sets * p.nb_max);
    segcount = ws.take<unsigned>(p.nb_max + 1);
    segoff = ws.take<unsigned>(p.nb_max + 1);
    std::size_t sort_bytes = 0, scan_bytes = 0;  // CUB's storage queries (no work, no access)
    cub::DoubleBuffer<uint32_t> dk(nullptr, nullptr), dv(nullptr, nullptr);
    PRESTAGE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, sort_bytes, dk, dv, static_cast<int>(p.max_pairs), 0, 32, stream));
    PRESTAGE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(
        nullptr, scan_bytes, static_cast<const unsigned*>(nullptr), static_cast<unsigned*>(nullptr),
        static_cast<int>(p.nb_max + 1), stream));
    sort_temp = ws.take<unsigned char>(sort_bytes);
    scan_temp = ws.take<unsigned char>(scan_bytes);
    for (unsigned set = 0; set < p.sets; ++set)
      for (int k = 0; k < 2; ++k) level[set][k] = ws.take<Xyzz>(p.level_cap[k]);
    for (unsigned set = 0; set < p.sets; ++set)
      part_sums[set] = ws.take<Xyzz>((p.reduce_scan ? 3 : 1) * p.part_cap);
    window_sums = ws.take<Xyzz>(kMaxWindows);
    const std::size_t min_pairs =
        o.affine_min_pairs != 0 ? o.affine_min_pairs : affine_min_pairs_default(is_g2<Affine>());
    if (p.affine && o.affine_persistent_scratch && p.max_pairs / 2 >= min_pairs)
      affine = std::make_unique<AffineScratch<Affine>>(
          p.max_pairs, p.nb_max, o.affine_per_thread != 0 ? o.affine_per_thread : kAffinePerThread,
          o.affine_gather, o.affine_inf_bits ? n : 0, ws);
  }
  LevelScratch<Xyzz> levels(unsigned set) const {
    return {{level[set][0].data(), level[set][1].data()},
            {level[set][0].size(), level[set][1].size()}};
  }
};

// Bytes of the layout of plan p for n points (n > 0): the layout's extent.
template <class Curve>
std::size_t msm_plan_bytes(const MsmPlan<Curve>& p, std::size_t n, const GpuMsmOptions& options) {
  WsCarver count(nullptr, 0);
  MsmSpace<Curve> probe(p, n, options, count, nullptr);
  return count.used();
}

// The call's plan: batch-affine when asked for, or under Auto where gpu_msm_auto_batch_affine(n)
// holds and its layout fits GpuMsmOptions::max_workspace_bytes (0: no cap); else XYZZ.
// Under the cap the canonical scalars (scalars_once: n x 32 B, 0.5-2.5% of the time) go
// first, then the rounds (13-20%); XYZZ drops them too where they would pass the cap.
template <class Curve>
MsmPlan<Curve> msm_plan(std::size_t n, const GpuMsmOptions& o) {
  constexpr bool g2 = is_g2<typename Curve::Affine>();
  if (o.accumulation == GpuMsmAccumulation::BatchAffine) return msm_plan_for<Curve>(n, o, true);
  const bool capped = o.accumulation == GpuMsmAccumulation::Auto && o.max_workspace_bytes != 0;
  const auto fits = [&](const MsmPlan<Curve>& p) {
    return !capped || msm_plan_bytes(p, n, o) <= o.max_workspace_bytes;
  };
  if (o.accumulation == GpuMsmAccumulation::Auto && gpu_msm_auto_batch_affine(g2, n)) {
    MsmPlan<Curve> p = msm_plan_for<Curve>(n, o, true);
    if (fits(p)) return p;
    p.canon = false;
    if (fits(p)) return p;
  }
  MsmPlan<Curve> p = msm_plan_for<Curve>(n, o, false);
  if (!fits(p)) p.canon = false;
  return p;
}

// Bytes of the workspace of a call planned for n points (n > 0): the layout's extent.
template <class Curve>
std::size_t msm_workspace_bytes(std::size_t n, const GpuMsmOptions& options) {
  return msm_plan_bytes(msm_plan<Curve>(n, options), n, options);
}

// The MSM of n points on `ws`, laid out for n_plan >= n points (gpu_msm_streamed: its chunk).
// alloc: the caller's allocator when it has one (only the per-round batch-affine scratch comes
// from it), else nullptr.
template <class Curve>
typename Curve::Jacobian msm_run(const typename Curve::Affine* d_points, const Fr* d_scalars,
                                 std::size_t n, std::size_t n_plan, const GpuMsmWorkspace& ws,
                                 DeviceAllocator* alloc, cudaStream_t stream,
                                 const GpuMsmOptions& options) {
  using Xyzz = typename Curve::Xyzz;
  GpuMsmStats* const stats = options.stats;
  if (stats != nullptr) *stats = GpuMsmStats{};
  if (n == 0) return Xyzz::identity().to_jacobian();
  if (n >= (std::size_t{1} << 31) || n_plan >= (std::size_t{1} << 31))
    throw std::invalid_argument("gpu_msm: n >= 2^31");
  if (options.window_bits != 0 && (options.window_bits < 2 || options.window_bits > 22))
    throw std::invalid_argument("gpu_msm: window_bits not in [2, 22]");
  const unsigned min_blocks = options.accumulate_min_blocks != 0
                                  ? options.accumulate_min_blocks
                                  : gpu_msm_default_min_blocks(Curve{});
  const ReduceConfig reduce =
      checked_msm_options<Curve>(options, ws.data, alloc == nullptr, "gpu_msm");
  const MsmPlan<Curve> plan = msm_plan<Curve>(n_plan, options);
  const std::size_t need = msm_workspace_bytes<Curve>(n_plan, options);
  if (ws.data == nullptr || ws.bytes < need)
    throw std::invalid_argument("gpu_msm: workspace of " + std::to_string(ws.bytes) +
                                " B, the call needs " + std::to_string(need) +
                                " B (gpu_msm_workspace_bytes)");
  WsCarver carver(ws.data, ws.bytes);
  const MsmSpace<Curve> sp(plan, n_plan, options, carver, stream);
  NoAllocator no_alloc;
  DeviceAllocator& round_alloc = alloc != nullptr ? *alloc : no_alloc;
  if (stats != nullptr) stats->workspace_bytes = carver.used();
  PhaseClock clock(stats, stream);

  // Step 0: classify (count pass; the compaction pass only when the split pays).
  unsigned* const counters = sp.counters.data();
  PRESTAGE_CUDA_CHECK(cudaMemsetAsync(counters, 0, 4 * sizeof(unsigned), stream));
  classify_kernel<<<blocks_for(n), kThreads, 0, stream>>>(d_scalars, n, counters, nullptr, nullptr);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  unsigned counts[3] = {0, 0, 0};
  download(counts, counters, 3, stream);
  const std::size_t zeros = counts[0], ones = counts[1];
  const bool split = options.split_01 && 8 * (zeros + ones) >= n;
  uint32_t* one_idx = nullptr;  // ones x 4 B point indices (split only)
  const uint32_t* run_idx = nullptr;
  std::size_t n_run = n;  // scalars that go through the windows
  if (split) {
    one_idx = sp.idx.data();
    uint32_t* const other_idx = one_idx + ones;  // counts[2] x 4 B
    PRESTAGE_CUDA_CHECK(cudaMemsetAsync(counters, 0, 4 * sizeof(unsigned), stream));
    classify_kernel<<<blocks_for(n), kThreads, 0, stream>>>(d_scalars, n, counters, one_idx,
                                                            other_idx);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    run_idx = other_idx;
    n_run = counts[2];
  }
  if (stats != nullptr) {
    stats->zero_scalars = zeros;
    stats->one_scalars = ones;
    stats->split_01 = split;
  }
  clock.mark(&GpuMsmStats::classify_ms);

  // The accumulation (GpuMsmAccumulation::Auto: by curve and the scalars left after step 0, when
  // the workspace's plan holds the batch-affine scratch).
  const bool batch_affine = options.accumulation == GpuMsmAccumulation::BatchAffine ||
                            (options.accumulation == GpuMsmAccumulation::Auto && plan.affine &&
                             gpu_msm_auto_batch_affine(is_g2<typename Curve::Affine>(), n_run));
  const AffineParams affine =
      batch_affine ? affine_params(options, is_g2<typename Curve::Affine>(), n) : AffineParams{};
  if (stats != nullptr) stats->batch_affine = batch_affine;

  const unsigned c = options.window_bits != 0
                         ? options.window_bits
                         : gpu_msm_window_bits(std::max<std::size_t>(n_run, 1));
  const unsigned windows = gpu_msm_num_windows(c);
  const std::size_t n_w = std::max<std::size_t>(n_run, 1);
  std::size_t group_sz = std::clamp<std::size_t>(
      group_pairs(options, batch_affine, is_g2<typename Curve::Affine>()) / n_w, 1, windows);
  // Within the workspace's capacities (only a split call with n_run < n can be cut here).
  group_sz = std::min({group_sz, plan.max_pairs / n_w, plan.nb_max >> (c - 1)});
  if (group_sz == 0) throw std::logic_error("gpu_msm: workspace plan holds no window group");
  const unsigned group = static_cast<unsigned>(group_sz);

  // Scratch: pieces of the workspace (MsmSpace). start/end: two sets of nb_max.
  const BucketScratch bs_set[2] = {
      {sp.start.data(), sp.end.data(), sp.segcount.data(), sp.segoff.data(), counters + 1,
       sp.scan_temp.data(), sp.scan_temp.bytes()},
      {sp.start.data() + (plan.sets > 1 ? plan.nb_max : 0),
       sp.end.data() + (plan.sets > 1 ? plan.nb_max : 0), sp.segcount.data(), sp.segoff.data(),
       counters + 1, sp.scan_temp.data(), sp.scan_temp.bytes()}};  // set 1: only when sets = 2
  const BucketScratch& bs = bs_set[0];

  // Batch-affine scratch for the whole call (GpuMsmOptions::affine_persistent_scratch): the
  // workspace's, when a round can run (round 0 of m items has at most m / 2 pair additions).
  AffineScratch<typename Curve::Affine>* affine_scratch = nullptr;
  const std::size_t affine_items =
      std::max<std::size_t>(std::size_t{group} * n_run, split ? ones : 0);
  if (affine.min_pairs > 0 && options.affine_persistent_scratch &&
      affine_items / 2 >= affine.min_pairs) {
    affine_scratch = sp.affine.get();
    if (affine_scratch == nullptr)
      throw std::logic_error("gpu_msm: workspace plan holds no batch-affine scratch");
    if (stats != nullptr) stats->affine_scratch_bytes = affine_scratch->bytes();
  }
  clock.mark(&GpuMsmStats::scratch_ms);

  // The 1-scalars: one bucket of `ones` points, summed by the same levels (no windows, no sort).
  // The run's scalars out of Montgomery form once (scalars_once), when it takes several groups.
  const CanonScalar* canon = nullptr;
  if (plan.canon && n_run > 0 && (windows + group - 1) / group > 1) {
    canon_scalars_kernel<<<blocks_for(n_run), kThreads, 0, stream>>>(d_scalars, run_idx, n_run,
                                                                     sp.canon.data());
    PRESTAGE_CUDA_CHECK_LAUNCH();
    canon = sp.canon.data();
    if (stats != nullptr) stats->scalars_once = true;
    clock.mark(&GpuMsmStats::scalars_ms);
  }

  Xyzz ones_sum = Xyzz::identity();
  if (split && ones > 0) {
    const unsigned range[2] = {0, static_cast<unsigned>(ones)};
    PRESTAGE_CUDA_CHECK(
        cudaMemcpyAsync(bs.start, &range[0], sizeof(unsigned), cudaMemcpyHostToDevice, stream));
    PRESTAGE_CUDA_CHECK(
        cudaMemcpyAsync(bs.end, &range[1], sizeof(unsigned), cudaMemcpyHostToDevice, stream));
    const Xyzz* sums = accumulate_buckets<Curve>(d_points, one_idx, static_cast<unsigned>(ones), 1,
                                                 bs, sp.levels(0), min_blocks, round_alloc, stream,
                                                 stats, affine, nullptr, affine_scratch);
    download(&ones_sum, sums, 1, stream);
    clock.mark(&GpuMsmStats::ones_ms);
  }

  if (stats != nullptr) {
    stats->window_bits = c;
    stats->windows = windows;
    stats->window_groups = n_run > 0 ? (windows + group - 1) / group : 0;
  }
  // Step 4 of group i runs on `side` (it is latency-bound: few threads, long serial chains) while
  // `stream` goes on with group i + 1; group i + 2 reuses group i's set (start/end, the levels'
  // partial sums, the part sums) after waiting for its reduction. Step 4 in line cost 38 ms of
  // 295 at G1 2^24 on the H200 (gpu/msm/DECISIONS.md #4).
  std::vector<Xyzz> window_sums(windows, Xyzz::identity());
  Xyzz* const d_window_sums = sp.window_sums.data();  // windows x XYZZ
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(d_window_sums, window_sums.data(), windows * sizeof(Xyzz),
                                      cudaMemcpyHostToDevice, stream));
  // overlap_sort: steps 1-2 of group i + 1 run on `pre` while `stream` accumulates group i.
  const bool overlap = options.overlap_sort;
  const unsigned nsets = plan.sets;  // group gi takes set gi % nsets (overlap: 2)
  Stream side, pre;
  cudaStream_t const prep = overlap ? pre.get() : stream;
  Event accumulated[2], reduced[2], sorted[2];
  // On an exception, wait for `side` and `pre` before the caller can reuse the workspace; errors
  // of that wait are dropped (one is already in flight).
  struct Drain {
    cudaStream_t a, b;
    ~Drain() {
      (void)cudaStreamSynchronize(a);
      (void)cudaStreamSynchronize(b);
    }
  } drain{side.get(), pre.get()};
  // Steps 1-2 of the group of g windows at w0 into pair set `par` (overlap; else set 0) and
  // bucket set `par`, on `prep`: the (bucket, point) pairs sorted by bucket and the buckets'
  // ranges. Returns the pair count m (0: no work, nothing sorted) and the sorted values. The
  // sets' previous readers (group gi - 2: accumulation on `stream`, reduction on `side`) are
  // waited for first (events never recorded: no wait).
  struct Ready {
    unsigned w0 = 0, g = 0, m = 0;
    const uint32_t* vals = nullptr;
  };
  const auto prepare = [&](unsigned w0, unsigned g, unsigned par) {
    const unsigned ps = overlap ? par : 0;
    Ready r{w0, g, 0, nullptr};
    if (overlap) PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(prep, accumulated[par].get(), 0));
    PRESTAGE_CUDA_CHECK(cudaMemsetAsync(counters, 0, sizeof(unsigned), prep));  // counters[0]
    digits_kernel<<<blocks_for(n_run), kThreads, 0, prep>>>(d_scalars, canon, run_idx, n_run, c, w0,
                                                            g, sp.keys[ps][0].data(),
                                                            sp.vals[ps][0].data(), counters);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    download(&r.m, counters, 1, prep);
    if (stats != nullptr) stats->nonzero_digits += r.m;
    if (!overlap) clock.mark(&GpuMsmStats::digits_ms);
    if (r.m == 0) return r;
    const BucketScratch& bsg = bs_set[par];
    const std::size_t nb = std::size_t{g} << (c - 1);
    PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(prep, reduced[par].get(), 0));
    PRESTAGE_CUDA_CHECK(cudaMemsetAsync(bsg.start, 0, nb * sizeof(unsigned), prep));
    PRESTAGE_CUDA_CHECK(cudaMemsetAsync(bsg.end, 0, nb * sizeof(unsigned), prep));
    int end_bit = 1;
    while ((std::size_t{1} << end_bit) < nb) ++end_bit;
    std::size_t bytes = sp.sort_temp.bytes();
    cub::DoubleBuffer<uint32_t> dk(sp.keys[ps][0].data(), sp.keys[ps][1].data());
    cub::DoubleBuffer<uint32_t> dv(sp.vals[ps][0].data(), sp.vals[ps][1].data());
    PRESTAGE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sp.sort_temp.data(), bytes, dk, dv,
                                                        static_cast<int>(r.m), 0, end_bit, prep));
    ranges_kernel<<<blocks_for(r.m), kThreads, 0, prep>>>(dk.Current(), r.m, bsg.start, bsg.end);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    if (overlap) sorted[par].record(prep);
    if (!overlap) clock.mark(&GpuMsmStats::sort_ms);
    r.vals = dv.Current();
    return r;
  };
  // The next group with work from window w0 on (m = 0: none left).
  const auto next = [&](unsigned w0, unsigned par) {
    for (; n_run > 0 && w0 < windows; w0 += group) {
      const Ready r = prepare(w0, std::min(group, windows - w0), par);
      if (r.m > 0) return r;
    }
    return Ready{};
  };
  // `pre` starts after everything ordered on `stream` so far (the caller's uploads, step 0's
  // index lists).
  Event begun;
  begun.record(stream);
  if (overlap) PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(pre, begun.get(), 0));
  unsigned gi = 0;  // groups with work so far
  for (Ready cur = next(0, 0); cur.m > 0;) {
    const unsigned par = gi % nsets;
    const BucketScratch& bsg = bs_set[par];
    const std::size_t nb = std::size_t{cur.g} << (c - 1);
    Ready nxt;
    if (overlap) {
      PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(stream, sorted[par].get(), 0));
      clock.mark(&GpuMsmStats::digits_ms);           // the wait for steps 1-2 that nothing hid
      nxt = next(cur.w0 + cur.g, (gi + 1) % nsets);  // beside this group's accumulation
    }
    // The levels' set `par`: group gi - 2's reduction has read it.
    PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(stream, reduced[par].get(), 0));
    const Xyzz* items =
        accumulate_buckets<Curve>(d_points, cur.vals, cur.m, nb, bsg, sp.levels(par), min_blocks,
                                  round_alloc, stream, stats, affine, &clock, affine_scratch);
    clock.mark(&GpuMsmStats::accumulate_ms);

    accumulated[par].record(stream);
    PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(side, accumulated[par].get(), 0));
    ReduceConfig rc = reduce;
    if (cur.w0 + cur.g < windows) rc.block = kThreads;  // overlapped by the next group
    reduce_windows<Curve>(items, bsg.start, bsg.end, c, cur.g, d_window_sums + cur.w0, rc,
                          sp.part_sums[par].data(), sp.part_sums[par].size(), side);
    reduced[par].record(side);
    ++gi;
    cur = overlap ? nxt : next(cur.w0 + cur.g, gi % nsets);
  }
  for (const Event& e : reduced)  // the last reduction of each set (never recorded: no wait)
    PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(stream, e.get(), 0));
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(window_sums.data(), d_window_sums, windows * sizeof(Xyzz),
                                      cudaMemcpyDeviceToHost, stream));
  clock.mark(&GpuMsmStats::reduce_ms);
  side.synchronize();
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  clock.finish();
  // Window combination on the host: sum_w 2^(c w) S_w by Horner from the top window, in XYZZ
  // (Jacobian doublings measured no faster: G2 2^20 host phase 0.69-0.74 ms either way;
  // gpu/msm/DECISIONS.md #22).
  const auto h0 = std::chrono::steady_clock::now();
  Xyzz acc = window_sums[windows - 1];
  for (unsigned w = windows - 1; w-- > 0;) {
    for (unsigned k = 0; k < c; ++k) acc = acc.dbl();
    acc = acc.add(window_sums[w]);
  }
  acc = acc.add(ones_sum);
  if (stats != nullptr)
    stats->host_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - h0).count();
  return acc.to_jacobian();
}

}  // namespace

template <class Curve>
std::size_t gpu_msm_workspace_bytes(std::size_t n, const GpuMsmOptions& options) {
  if (n == 0) return 0;
  if (n >= (std::size_t{1} << 31)) throw std::invalid_argument("gpu_msm: n >= 2^31");
  return msm_workspace_bytes<Curve>(n, options);
}

template <class Curve>
std::size_t gpu_msm_streamed_workspace_bytes(std::size_t n, std::size_t chunk_points,
                                             const GpuMsmOptions& options) {
  if (chunk_points == 0) throw std::invalid_argument("gpu_msm_streamed: chunk_points is 0");
  if (n == 0) return 0;
  const std::size_t chunk = std::min(chunk_points, n);
  WsCarver count(nullptr, 0);  // msm_streamed_run's layout: two chunk buffers, then the MSM's
  for (int k = 0; k < 2; ++k) (void)count.take<typename Curve::Affine>(chunk);
  (void)count.take<unsigned char>(gpu_msm_workspace_bytes<Curve>(chunk, options));
  return count.used();
}

template <class Curve>
typename Curve::Jacobian gpu_msm(const typename Curve::Affine* d_points, const Fr* d_scalars,
                                 std::size_t n, const GpuMsmWorkspace& workspace,
                                 cudaStream_t stream, const GpuMsmOptions& options) {
  return msm_run<Curve>(d_points, d_scalars, n, n, workspace, nullptr, stream, options);
}

template <class Curve>
typename Curve::Jacobian gpu_msm(const typename Curve::Affine* d_points, const Fr* d_scalars,
                                 std::size_t n, DeviceAllocator& alloc, cudaStream_t stream,
                                 const GpuMsmOptions& options) {
  if (n == 0) return msm_run<Curve>(d_points, d_scalars, 0, 0, {}, &alloc, stream, options);
  DeviceBuffer<unsigned char> ws(alloc, gpu_msm_workspace_bytes<Curve>(n, options), stream);
  return msm_run<Curve>(d_points, d_scalars, n, n, {ws.data(), ws.bytes()}, &alloc, stream,
                        options);
}

namespace {
// gpu_msm_streamed on a workspace laid out as gpu_msm_streamed_workspace_bytes: two chunk
// buffers, then one chunk's MSM workspace (alloc: as msm_run).
template <class Curve>
typename Curve::Jacobian msm_streamed_run(const typename Curve::Affine* h_points,
                                          const Fr* d_scalars, std::size_t n,
                                          std::size_t chunk_points, const GpuMsmWorkspace& ws,
                                          DeviceAllocator* alloc, cudaStream_t stream,
                                          const GpuMsmOptions& options) {
  using Affine = typename Curve::Affine;
  using Jacobian = typename Curve::Jacobian;
  if (chunk_points == 0) throw std::invalid_argument("gpu_msm_streamed: chunk_points is 0");
  Jacobian total = Curve::Xyzz::identity().to_jacobian();
  if (n == 0) return total;
  const std::size_t chunk = std::min(chunk_points, n);
  const std::size_t need = gpu_msm_streamed_workspace_bytes<Curve>(n, chunk, options);
  if (reinterpret_cast<std::uintptr_t>(ws.data) % kWorkspaceAlign != 0)
    throw std::invalid_argument("gpu_msm_streamed: workspace not 256-B aligned");
  if (ws.data == nullptr || ws.bytes < need)
    throw std::invalid_argument("gpu_msm_streamed: workspace of " + std::to_string(ws.bytes) +
                                " B, the call needs " + std::to_string(need) +
                                " B (gpu_msm_streamed_workspace_bytes)");
  WsCarver carver(ws.data, ws.bytes);
  const WsSpan<Affine> buf[2] = {carver.take<Affine>(chunk), carver.take<Affine>(chunk)};
  const std::size_t inner_bytes = gpu_msm_workspace_bytes<Curve>(chunk, options);
  const WsSpan<unsigned char> inner = carver.take<unsigned char>(inner_bytes);
  Stream copy_stream;
  Event copied[2];
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));  // earlier work on the workspace is done
  auto upload = [&](std::size_t first, int slot) {
    const std::size_t count = std::min(chunk, n - first);
    PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(buf[slot].data(), h_points + first, count * sizeof(Affine),
                                        cudaMemcpyHostToDevice, copy_stream));
    copied[slot].record(copy_stream);
  };
  upload(0, 0);
  int slot = 0;
  for (std::size_t first = 0; first < n; first += chunk) {
    const std::size_t count = std::min(chunk, n - first);
    PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(stream, copied[slot].get(), 0));
    // The other buffer's previous MSM has completed (gpu_msm synchronises): refill it now so the
    // next upload overlaps this chunk's kernels.
    if (first + chunk < n) upload(first + chunk, slot ^ 1);
    total = total.add(msm_run<Curve>(buf[slot].data(), d_scalars + first, count, chunk,
                                     {inner.data(), inner.bytes()}, alloc, stream, options));
    slot ^= 1;
  }
  copy_stream.synchronize();
  return total;
}
}  // namespace

template <class Curve>
typename Curve::Jacobian gpu_msm_streamed(const typename Curve::Affine* h_points,
                                          const Fr* d_scalars, std::size_t n,
                                          std::size_t chunk_points,
                                          const GpuMsmWorkspace& workspace, cudaStream_t stream,
                                          const GpuMsmOptions& options) {
  return msm_streamed_run<Curve>(h_points, d_scalars, n, chunk_points, workspace, nullptr, stream,
                                 options);
}

template <class Curve>
typename Curve::Jacobian gpu_msm_streamed(const typename Curve::Affine* h_points,
                                          const Fr* d_scalars, std::size_t n,
                                          std::size_t chunk_points, DeviceAllocator& alloc,
                                          cudaStream_t stream, const GpuMsmOptions& options) {
  if (chunk_points == 0) throw std::invalid_argument("gpu_msm_streamed: chunk_points is 0");
  if (n == 0) return Curve::Xyzz::identity().to_jacobian();
  DeviceBuffer<unsigned char> ws(
      alloc, gpu_msm_streamed_workspace_bytes<Curve>(n, chunk_points, options), stream);
  return msm_streamed_run<Curve>(h_points, d_scalars, n, chunk_points, {ws.data(), ws.bytes()},
                                 &alloc, stream, options);
}

}  // namespace prestage::gpu
