#pragma once
// Fixed-base MSM (gpu/msm/gpu_msm_fixed_base.hpp for the contract): the table build and the call,
// on on_device's pipeline pieces (gpu_msm_impl.cuh's step headers: accumulate_buckets in
// msm_accumulate.cuh, reduce_windows in msm_reduce.cuh, the workspace carver in msm_common.cuh).
// Included after gpu_msm_impl.cuh by gpu_msm_g1.cu and gpu_msm_g2.cu, so its kernels share that
// TU's instantiations of the accumulation kernels.
#include "gpu/msm/gpu_msm_fixed_base.hpp"
#include "gpu/msm/gpu_msm_impl.cuh"

namespace prestage::msm {

namespace {

constexpr unsigned kFixedMaxBits = 24;  // c of a table at most: 2^23 shared buckets
constexpr unsigned kTableChunk = 32;    // points converted to affine with one inversion
constexpr std::size_t kTableScratchPoints = std::size_t{1} << 22;  // the build's XYZZ chunk

template <class Curve>
using TableEntry = typename DeviceBaseTable<Curve>::Entry;

PRESTAGE_HD_INLINE bool table_bit(const uint32_t* bits, std::size_t e) {
  return ((bits[e >> 5] >> (e & 31)) & 1u) != 0;
}

// Copy 0: dst[i] = points[i]'s x, y (zeros for the identity), bits[w] = the flags of points
// [32 w, 32 w + 32) (ceil(n / 32) words, 0 past n; the later copies' flags are or-ed in after).
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    table_pack_kernel(const typename Curve::Affine* points, std::size_t n, TableEntry<Curve>* dst,
                      uint32_t* bits) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if ((i & ~std::size_t{31}) >= n) return;  // the whole warp is past the end
  const bool inf = i < n && points[i].infinity;
  const uint32_t word = __ballot_sync(0xffffffffu, inf);
  if ((threadIdx.x & 31) == 0) bits[i >> 5] = word;
  if (i >= n) return;
  using Field = typename Curve::Affine::Field;
  dst[i] = inf ? TableEntry<Curve>{Field::zero(), Field::zero()}
               : TableEntry<Curve>{points[i].x, points[i].y};
}

// tmp[t] = 2^c (entry e0 + t) (XYZZ), t < count: copy j + 1 of the table from copy j (entries
// e0 = (j - 1) n + i0 on).
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    table_double_kernel(const TableEntry<Curve>* table, const uint32_t* bits, std::size_t e0,
                        std::size_t count, unsigned c, typename Curve::Xyzz* tmp) {
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (t >= count) return;
  const auto& src = table[e0 + t];
  auto x = Curve::Xyzz::dbl_affine(typename Curve::Affine{src.x, src.y, table_bit(bits, e0 + t)});
  for (unsigned k = 1; k < c; ++k) x = Ops<Curve>::dbl(x);
  tmp[t] = x;
}

// Entry e0 + p = tmp[p] in affine form, p < count: thread t converts [32 t, 32 t + 32) with one
// inversion of the product of their ZZZ (Montgomery's trick; prefix: count x Field, the running
// products; identities are skipped and map to zeros with their bit set in `bits`, which holds
// zeros there before).
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    table_affine_kernel(const typename Curve::Xyzz* tmp, std::size_t count,
                        typename Curve::Affine::Field* prefix, TableEntry<Curve>* table,
                        uint32_t* bits, std::size_t e0) {
  using Field = typename Curve::Affine::Field;
  const std::size_t first = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) * kTableChunk;
  if (first >= count) return;
  const std::size_t last = first + kTableChunk < count ? first + kTableChunk : count;
  Field acc = Field::one();
  for (std::size_t p = first; p < last; ++p) {
    prefix[p] = acc;
    const auto q = tmp[p];
    if (!q.is_identity()) acc = acc * q.ZZZ;
  }
  Field inv = acc.inverse();  // 1 / (product of the nonidentity ZZZ of the chunk)
  for (std::size_t p = last; p-- > first;) {
    const auto q = tmp[p];
    const std::size_t e = e0 + p;
    if (q.is_identity()) {
      table[e] = TableEntry<Curve>{Field::zero(), Field::zero()};
      atomicOr(bits + (e >> 5), 1u << (e & 31));  // words shared with the neighbour threads
      continue;
    }
    const Field izzz = inv * prefix[p];
    inv = inv * q.ZZZ;
    const Field izz = (q.ZZ * izzz).sqr();
    table[e] = TableEntry<Curve>{q.X * izz, q.Y * izzz};
  }
}

// All W signed c-bit digits of scalar i -> compacted (key, value) pairs of one window; zero digits
// dropped. key = |d| - 1 (one bucket set for every window); value = table index w n + i | (d <
// 0) << 31 (copy w of base i: 2^(c w) P_i). The digits as digits_kernel's.
__global__ void __launch_bounds__(kThreads)
    fixed_digits_kernel(const Fr* scalars, std::size_t n, unsigned c, unsigned windows,
                        uint32_t* keys, uint32_t* vals, unsigned* counter) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  const bool active = i < n;
  uint64_t l[4] = {0, 0, 0, 0};
  if (active) canonical_limbs(scalars[i], l);
  const uint32_t half = 1u << (c - 1);
  uint32_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    const int32_t d = signed_digit(scalar_bits(l, w * c, c) + carry, half, carry);
    const bool nz = active && d != 0;
    const unsigned pos = block_append(nz, counter);
    if (nz) {
      const uint32_t mag = static_cast<uint32_t>(d < 0 ? -d : d);
      keys[pos] = mag - 1;
      vals[pos] = static_cast<uint32_t>(w * n + i) | (d < 0 ? 0x80000000u : 0u);
    }
  }
}

// bounds[2 k] / bounds[2 k + 1]: the first and last sorted key of slice k (pairs [k L, min(m,
// k L + L))), k < slices.
__global__ void slice_bounds_kernel(const uint32_t* keys, unsigned m, unsigned slice,
                                    unsigned slices, uint32_t* bounds) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= slices) return;
  const unsigned p0 = k * slice;
  const unsigned p1 = m - p0 > slice ? p0 + slice : m;
  bounds[2 * k] = keys[p0];
  bounds[2 * k + 1] = keys[p1 - 1];
}

// The slice's bucket ranges, relative to its first pair p0: buckets b < nbs of the slice (keys
// b_lo + b; full_start / full_end offset to b_lo) cut to [p0, p1); an empty cut is (0, 0).
__global__ void slice_ranges_kernel(const unsigned* full_start, const unsigned* full_end,
                                    std::size_t nbs, unsigned p0, unsigned p1, unsigned* start,
                                    unsigned* end) {
  const std::size_t b = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (b >= nbs) return;
  const unsigned s = min(max(full_start[b], p0), p1), e = min(max(full_end[b], p0), p1);
  start[b] = e > s ? s - p0 : 0;
  end[b] = e > s ? e - p0 : 0;
}

// buckets[b] += the slice's sum of bucket b (items[start[b]] when end[b] > start[b]), b < nbs.
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    merge_buckets_kernel(const typename Curve::Xyzz* items, const unsigned* start,
                         const unsigned* end, std::size_t nbs, typename Curve::Xyzz* buckets) {
  const std::size_t b = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (b >= nbs || end[b] <= start[b]) return;
  buckets[b] = Ops<Curve>::add(buckets[b], items[start[b]]);
}

template <class Curve>
__global__ void fill_identity_kernel(typename Curve::Xyzz* buckets, std::size_t nb) {
  const std::size_t b = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (b < nb) buckets[b] = Curve::Xyzz::identity();
}

// start[b] = b, end[b] = b + 1 (b < nb): bucket b's sum is buckets[b] (reduce_windows' input).
__global__ void iota_ranges_kernel(unsigned* start, unsigned* end, std::size_t nb) {
  const std::size_t b = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (b >= nb) return;
  start[b] = static_cast<unsigned>(b);
  end[b] = static_cast<unsigned>(b + 1);
}

// Pairs a slice at most for G1's batch-affine rounds when DeviceOptions::max_group_pairs is 0:
// the n W pairs in the fewest slices of at most this many, split evenly (so no short
// last slice). Larger slices cut the XYZZ tail (buckets cut by a boundary are summed twice) and
// the rounds' per-slice latency (invert, launches, host waits) at ~108 B of batch-affine
// scratch a pair (workspace at K = 24, fixed_per_thread: G1 2^24 c = 20, one slice, 26.5 GiB
// beside the 19.5-GiB table (slices of on_device's group: 10.9); 2^26 c = 22, 3 slices, 41.7 GiB
// beside 72.1 GiB (20.9): 113.8 GiB in all). For tight memory, max_group_pairs =
// 2^26 gives on_device's group (G1 2^26 pairs). Measured on the H200 (K = 8, same process),
// slices of 2^26 vs this rule: G1 2^26 343.13 -> 336.67 ms (XYZZ tail 14.48 -> 4.87 ms;
// gpu/msm/DECISIONS.md #27).
constexpr std::size_t kFixedSliceCapG1 = std::size_t{1} << 28;

// The slice of a fixed-base call (FixedPlan::slice) for `pairs` = n W: the caller's
// max_group_pairs when set; G1 batch-affine: kFixedSliceCapG1's rule; else (G2, XYZZ only)
// on_device's group (G2 2^20 takes one slice either way).
inline std::size_t fixed_slice_pairs(const DeviceOptions& o, bool affine, bool g2,
                                     std::size_t pairs) {
  if (o.max_group_pairs != 0 || !affine || g2) return std::min(group_pairs(o, affine, g2), pairs);
  const std::size_t slices = (pairs + kFixedSliceCapG1 - 1) / kFixedSliceCapG1;
  return (pairs + slices - 1) / slices;
}

// Outputs a thread chains in the fixed-base rounds (K; DeviceOptions::affine_per_thread = 0):
// G1 24, G2 kAffinePerThread (8) as on_device. A longer chain shares one thread product
// among more outputs (3 products a thread product and one inversion per K2 of them: per output
// 3 / K + 1 / (K K2) inversions), so the big rounds' invert phase shrinks while prep and add grow
// a little (fewer threads in the small rounds). Measured on the H200, G1 2^26 c = 22, K = 8 /
// 12 / 16 / 24 -> 333.70 / 329.07 / 326.57 / 324.19 ms (invert 26.1 / 19.5 / 14.4 / 12.1); G2
// 2^20 K = 8 / 12 -> 24.61 / 24.71 ms, kept at 8 (gpu/msm/DECISIONS.md #28).
constexpr unsigned kFixedPerThreadG1 = 24;
inline unsigned fixed_per_thread(const DeviceOptions& o, bool g2) {
  return o.affine_per_thread != 0 ? o.affine_per_thread : g2 ? kAffinePerThread : kFixedPerThreadG1;
}

// Capacities of a fixed-base call's workspace, from n, c and the options.
template <class Curve>
struct FixedPlan {
  unsigned c = 0, windows = 0;
  std::size_t pairs = 0;    // n W: the most (bucket, table index) pairs
  std::size_t nb = 0;       // 2^(c-1) shared buckets
  std::size_t slice = 0;    // pairs a slice at most
  std::size_t nbs_cap = 0;  // nonempty buckets of a slice at most: min(nb, slice)
  bool affine = false;      // batch-affine rounds (Auto, BatchAffine)
  std::size_t level_cap[2] = {0, 0};
  std::size_t part_cap = 0;
  bool reduce_scan = false;
};

template <class Curve>
FixedPlan<Curve> fixed_plan(std::size_t n, unsigned c, const DeviceOptions& o) {
  constexpr bool g2 = is_g2<typename Curve::Affine>();
  FixedPlan<Curve> p;
  p.c = c;
  p.windows = device_num_windows(c);
  p.pairs = std::max<std::size_t>(n * p.windows, 1);
  p.nb = std::size_t{1} << (c - 1);
  p.affine = o.accumulation != DeviceAccumulation::Xyzz;
  p.slice = fixed_slice_pairs(o, p.affine, g2, p.pairs);
  p.nbs_cap = std::min(p.nb, p.slice);
  // As msm_plan_for's, for a slice of `slice` items over at most nbs_cap nonempty buckets.
  level_caps(p.slice, p.nbs_cap, p.level_cap);
  p.reduce_scan = reduce_uses_scan<Curve>(o);
  p.part_cap = reduce_part_cap<Curve>(o, p.nb, p.reduce_scan);
  return p;
}

// The pieces of a fixed-base call's workspace, in this order (each 256-B aligned).
template <class Curve>
struct FixedSpace {
  using Affine = typename Curve::Affine;
  using Xyzz = typename Curve::Xyzz;
  WsSpan<unsigned> counters;                      // 4: [pairs, max seg]
  WsSpan<uint32_t> keys[2], vals[2];              // pairs x 4 B each: a CUB double buffer
  WsSpan<unsigned> full_start, full_end;          // nb: each key's range of sorted positions
  WsSpan<unsigned> start, end;                    // nb: a slice's ranges, then the reduction's
  WsSpan<unsigned> segcount, segoff;              // nb + 1 (a slice spans up to nb keys)
  WsSpan<uint32_t> bounds;                        // 2 x slices: each slice's first and last key
  WsSpan<unsigned char> sort_temp;                // CUB radix sort storage (pairs, 32 key bits)
  WsSpan<unsigned char> scan_temp;                // CUB scan storage (nb + 1)
  WsSpan<Xyzz> level[2];                          // level_cap[parity] x XYZZ
  WsSpan<Xyzz> part_sums;                         // part_cap x XYZZ (3 part_cap with reduce_scan)
  WsSpan<Xyzz> buckets;                           // nb x XYZZ: the shared bucket sums
  WsSpan<Xyzz> window_sum;                        // 1 x XYZZ
  std::unique_ptr<AffineScratch<Affine>> affine;  // batch-affine scratch of one slice, if any
  FixedSpace(const FixedPlan<Curve>& p, std::size_t n, const DeviceOptions& o, WsCarver& ws,
             cudaStream_t stream) {
    counters = ws.take<unsigned>(4);
    for (int h = 0; h < 2; ++h) keys[h] = ws.take<uint32_t>(p.pairs);
    for (int h = 0; h < 2; ++h) vals[h] = ws.take<uint32_t>(p.pairs);
    full_start = ws.take<unsigned>(p.nb);
    full_end = ws.take<unsigned>(p.nb);
    start = ws.take<unsigned>(p.nb);
    end = ws.take<unsigned>(p.nb);
    segcount = ws.take<unsigned>(p.nb + 1);
    segoff = ws.take<unsigned>(p.nb + 1);
    bounds = ws.take<uint32_t>(2 * ((p.pairs + p.slice - 1) / p.slice));
    std::size_t sort_bytes = 0, scan_bytes = 0;  // CUB's storage queries (no work, no access)
    cub::DoubleBuffer<uint32_t> dk(nullptr, nullptr), dv(nullptr, nullptr);
    PRESTAGE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, dk, dv,
                                                        static_cast<int>(p.pairs), 0, 32, stream));
    PRESTAGE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(
        nullptr, scan_bytes, static_cast<const unsigned*>(nullptr), static_cast<unsigned*>(nullptr),
        static_cast<int>(p.nb + 1), stream));
    sort_temp = ws.take<unsigned char>(sort_bytes);
    scan_temp = ws.take<unsigned char>(scan_bytes);
    for (int k = 0; k < 2; ++k) level[k] = ws.take<Xyzz>(p.level_cap[k]);
    part_sums = ws.take<Xyzz>((p.reduce_scan ? 3 : 1) * p.part_cap);
    buckets = ws.take<Xyzz>(p.nb);
    window_sum = ws.take<Xyzz>(1);
    const std::size_t min_pairs =
        o.affine_min_pairs != 0 ? o.affine_min_pairs : affine_min_pairs_default(is_g2<Affine>());
    if (p.affine && o.affine_persistent_scratch && p.slice / 2 >= min_pairs)
      affine = std::make_unique<AffineScratch<Affine>>(
          p.slice, p.nbs_cap, fixed_per_thread(o, is_g2<Affine>()), o.affine_gather, 0,
          ws);  // the infinity bits come with the table
  }
};

template <class Curve>
std::size_t fixed_plan_bytes(const FixedPlan<Curve>& p, std::size_t n,
                             const DeviceOptions& options) {
  WsCarver count(nullptr, 0);
  FixedSpace<Curve> probe(p, n, options, count, nullptr);
  return count.used();
}

void check_fixed_bits(unsigned c, const char* who) {
  if (c < 2 || c > kFixedMaxBits)
    throw std::invalid_argument(std::string(who) + ": window size c not in [2, 24]");
}

void check_fixed_pairs(std::size_t n, unsigned c, const char* who) {
  if (n * device_num_windows(c) >= (std::size_t{1} << 31))
    throw std::invalid_argument(std::string(who) +
                                ": n x windows >= 2^31 (a pair's table index must fit 31 bits)");
}

template <class Curve>
typename Curve::Jacobian msm_fixed_run(const DeviceBaseTable<Curve>& table, const Fr* d_scalars,
                                       std::size_t n, const DeviceWorkspace& ws,
                                       cudaStream_t stream, const DeviceOptions& options) {
  using Xyzz = typename Curve::Xyzz;
  constexpr bool g2 = is_g2<typename Curve::Affine>();
  constexpr const char* who = "on_device_fixed_base";
  DeviceStats* const stats = options.stats;
  if (stats != nullptr) *stats = DeviceStats{};
  if (table.n != n)
    throw std::invalid_argument(std::string(who) + ": the table holds " + std::to_string(table.n) +
                                " bases, the call has " + std::to_string(n) + " scalars");
  check_fixed_bits(table.c, who);
  if (table.windows != device_num_windows(table.c))
    throw std::invalid_argument(std::string(who) + ": table.windows != device_num_windows(c)");
  if (options.window_bits != 0 && options.window_bits != table.c)
    throw std::invalid_argument(std::string(who) + ": options.window_bits is not the table's c");
  if (n == 0) return Xyzz::identity().to_jacobian();
  if (table.data == nullptr || table.inf_bits == nullptr)
    throw std::invalid_argument(std::string(who) + ": table.data or table.inf_bits is null");
  check_fixed_pairs(n, table.c, who);
  const ReduceConfig reduce = checked_msm_options<Curve>(options, ws.data, true, who);
  const FixedPlan<Curve> plan = fixed_plan<Curve>(n, table.c, options);
  const std::size_t need = fixed_plan_bytes(plan, n, options);
  if (ws.data == nullptr || ws.bytes < need)
    throw std::invalid_argument(std::string(who) + ": workspace of " + std::to_string(ws.bytes) +
                                " B, the call needs " + std::to_string(need) +
                                " B (fixed_base_workspace_bytes)");
  WsCarver carver(ws.data, ws.bytes);
  const FixedSpace<Curve> sp(plan, n, options, carver, stream);
  if (stats != nullptr) stats->workspace_bytes = carver.used();
  const unsigned min_blocks = options.accumulate_min_blocks != 0
                                  ? options.accumulate_min_blocks
                                  : gpu_msm_default_min_blocks(Curve{});
  // The rounds need the slice's scratch; without it (a slice below 2 affine_min_pairs pairs) no
  // round could run anyway.
  AffineParams affine = plan.affine && sp.affine != nullptr
                            ? affine_params(options, g2, 0)  // table.inf_bits instead
                            : AffineParams{};
  affine.per_thread = fixed_per_thread(options, g2);  // as the scratch's (FixedSpace)
  if (stats != nullptr) {
    stats->batch_affine = affine.min_pairs > 0;
    stats->window_bits = plan.c;
    stats->windows = plan.windows;
    if (sp.affine != nullptr) stats->affine_scratch_bytes = sp.affine->bytes();
  }
  NoAllocator no_alloc;
  PhaseClock clock(stats, stream);
  const unsigned c = plan.c;
  const std::size_t nb = plan.nb;

  // Steps 1-2: every digit of every scalar as one window's pairs, sorted by bucket.
  unsigned* const counters = sp.counters.data();
  PRESTAGE_CUDA_CHECK(cudaMemsetAsync(counters, 0, 4 * sizeof(unsigned), stream));
  fixed_digits_kernel<<<blocks_for(n), kThreads, 0, stream>>>(
      d_scalars, n, c, plan.windows, sp.keys[0].data(), sp.vals[0].data(), counters);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  unsigned m = 0;
  download(&m, counters, 1, stream);
  if (stats != nullptr) stats->nonzero_digits = m;
  clock.mark(&DeviceStats::digits_ms);
  if (m == 0) {
    PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));  // the mark's event is complete
    clock.finish();
    return Xyzz::identity().to_jacobian();
  }
  PRESTAGE_CUDA_CHECK(cudaMemsetAsync(sp.full_start.data(), 0, nb * sizeof(unsigned), stream));
  PRESTAGE_CUDA_CHECK(cudaMemsetAsync(sp.full_end.data(), 0, nb * sizeof(unsigned), stream));
  int end_bit = 1;
  while ((std::size_t{1} << end_bit) < nb) ++end_bit;
  std::size_t sort_bytes = sp.sort_temp.bytes();
  cub::DoubleBuffer<uint32_t> dk(sp.keys[0].data(), sp.keys[1].data());
  cub::DoubleBuffer<uint32_t> dv(sp.vals[0].data(), sp.vals[1].data());
  PRESTAGE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sp.sort_temp.data(), sort_bytes, dk, dv,
                                                      static_cast<int>(m), 0, end_bit, stream));
  ranges_kernel<<<blocks_for(m), kThreads, 0, stream>>>(dk.Current(), m, sp.full_start.data(),
                                                        sp.full_end.data());
  PRESTAGE_CUDA_CHECK_LAUNCH();
  fill_identity_kernel<Curve><<<blocks_for(nb), kThreads, 0, stream>>>(sp.buckets.data(), nb);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  // Slices of at most plan.slice pairs, cut at pair positions: the keys at their ends.
  const unsigned L = static_cast<unsigned>(plan.slice);
  const unsigned slices = (m + L - 1) / L;
  slice_bounds_kernel<<<blocks_for(slices), kThreads, 0, stream>>>(dk.Current(), m, L, slices,
                                                                   sp.bounds.data());
  PRESTAGE_CUDA_CHECK_LAUNCH();
  std::vector<uint32_t> bounds(2 * std::size_t{slices});
  download(bounds.data(), sp.bounds.data(), bounds.size(), stream);
  if (stats != nullptr) stats->window_groups = slices;
  clock.mark(&DeviceStats::sort_ms);

  // Step 3 per slice, into the shared buckets.
  const BucketScratch bs{sp.start.data(),     sp.end.data(), sp.segcount.data(),
                         sp.segoff.data(),    counters + 1,  sp.scan_temp.data(),
                         sp.scan_temp.bytes()};
  const LevelScratch<Xyzz> levels{{sp.level[0].data(), sp.level[1].data()},
                                  {sp.level[0].size(), sp.level[1].size()}};
  for (unsigned k = 0; k < slices; ++k) {
    const unsigned p0 = k * L, p1 = m - p0 > L ? p0 + L : m;
    const uint32_t b_lo = bounds[2 * k], b_hi = bounds[2 * k + 1];
    const std::size_t nbs = std::size_t{b_hi} - b_lo + 1;
    slice_ranges_kernel<<<blocks_for(nbs), kThreads, 0, stream>>>(
        sp.full_start.data() + b_lo, sp.full_end.data() + b_lo, nbs, p0, p1, bs.start, bs.end);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    const Xyzz* items = accumulate_buckets<Curve>(table.data, dv.Current() + p0, p1 - p0, nbs, bs,
                                                  levels, min_blocks, no_alloc, stream, stats,
                                                  affine, &clock, sp.affine.get(), table.inf_bits);
    if (items != nullptr) {
      merge_buckets_kernel<Curve><<<blocks_for(nbs), kThreads, 0, stream>>>(
          items, bs.start, bs.end, nbs, sp.buckets.data() + b_lo);
      PRESTAGE_CUDA_CHECK_LAUNCH();
    }
    clock.mark(&DeviceStats::accumulate_ms);
  }

  // Step 4: one running-sum reduction of the shared buckets (no Horner: the table's copies carry
  // the windows' weights).
  iota_ranges_kernel<<<blocks_for(nb), kThreads, 0, stream>>>(bs.start, bs.end, nb);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  reduce_windows<Curve>(sp.buckets.data(), bs.start, bs.end, c, 1, sp.window_sum.data(), reduce,
                        sp.part_sums.data(), sp.part_sums.size(), stream);
  Xyzz sum = Xyzz::identity();
  PRESTAGE_CUDA_CHECK(
      cudaMemcpyAsync(&sum, sp.window_sum.data(), sizeof(Xyzz), cudaMemcpyDeviceToHost, stream));
  clock.mark(&DeviceStats::reduce_ms);
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));  // every mark's event is complete
  clock.finish();
  return sum.to_jacobian();
}

}  // namespace

// Byte offset of the infinity bitmap in a table of `entries` entries.
template <class Curve>
std::size_t table_bits_offset(std::size_t entries) {
  return (entries * sizeof(TableEntry<Curve>) + kWorkspaceAlign - 1) / kWorkspaceAlign *
         kWorkspaceAlign;
}

template <class Curve>
std::size_t base_table_bytes(std::size_t n, unsigned c) {
  check_fixed_bits(c, "base_table_bytes");
  const std::size_t entries = std::size_t{device_num_windows(c)} * n;
  return table_bits_offset<Curve>(entries) + (entries + 31) / 32 * sizeof(uint32_t);
}

template <class Curve>
DeviceBaseTable<Curve> build_base_table(const typename Curve::Affine* d_points, std::size_t n,
                                        unsigned c, void* d_table, std::size_t table_bytes,
                                        gpu::DeviceAllocator& alloc, cudaStream_t stream) {
  using Affine = typename Curve::Affine;
  using Xyzz = typename Curve::Xyzz;
  using Field = typename Affine::Field;
  using Entry = TableEntry<Curve>;
  constexpr const char* who = "build_base_table";
  if (c == 0) c = fixed_base_window_bits(is_g2<Affine>(), n);
  check_fixed_bits(c, who);
  check_fixed_pairs(n, c, who);
  const unsigned windows = device_num_windows(c);
  const std::size_t need = base_table_bytes<Curve>(n, c);
  if (n > 0 && (d_table == nullptr || table_bytes < need))
    throw std::invalid_argument(std::string(who) + ": table buffer of " +
                                std::to_string(table_bytes) + " B, the table needs " +
                                std::to_string(need) + " B (base_table_bytes)");
  if (reinterpret_cast<std::uintptr_t>(d_table) % kWorkspaceAlign != 0)
    throw std::invalid_argument(std::string(who) + ": table buffer not 256-B aligned");
  const std::size_t entries = std::size_t{windows} * n;
  auto* const data = static_cast<Entry*>(d_table);
  auto* const bits = reinterpret_cast<uint32_t*>(static_cast<unsigned char*>(d_table) +
                                                 table_bits_offset<Curve>(entries));
  const DeviceBaseTable<Curve> table{n > 0 ? data : nullptr, n, c, windows, n > 0 ? bits : nullptr};
  if (n == 0) return table;
  // Copy 0 writes the first ceil(n / 32) words whole; the rest are or-ed into (identities only).
  PRESTAGE_CUDA_CHECK(cudaMemsetAsync(bits, 0, (entries + 31) / 32 * sizeof(uint32_t), stream));
  table_pack_kernel<Curve>
      <<<blocks_for((n + 31) / 32 * 32), kThreads, 0, stream>>>(d_points, n, data, bits);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  const std::size_t chunk = std::min(n, kTableScratchPoints);
  gpu::DeviceBuffer<Xyzz> tmp(alloc, chunk, stream);      // chunk x XYZZ: 2^c times a copy's points
  gpu::DeviceBuffer<Field> prefix(alloc, chunk, stream);  // chunk x Field: the trick's products
  for (unsigned j = 1; j < windows; ++j) {
    for (std::size_t i0 = 0; i0 < n; i0 += chunk) {
      const std::size_t cnt = std::min(chunk, n - i0);
      table_double_kernel<Curve><<<blocks_for(cnt), kThreads, 0, stream>>>(
          data, bits, (j - 1) * n + i0, cnt, c, tmp.data());
      PRESTAGE_CUDA_CHECK_LAUNCH();
      table_affine_kernel<Curve>
          <<<blocks_for((cnt + kTableChunk - 1) / kTableChunk), kThreads, 0, stream>>>(
              tmp.data(), cnt, prefix.data(), data, bits, j * n + i0);
      PRESTAGE_CUDA_CHECK_LAUNCH();
    }
  }
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return table;
}

template <class Curve>
std::size_t fixed_base_workspace_bytes(std::size_t n, unsigned c, const DeviceOptions& options) {
  check_fixed_bits(c, "fixed_base_workspace_bytes");
  if (n == 0) return 0;
  check_fixed_pairs(n, c, "fixed_base_workspace_bytes");
  return fixed_plan_bytes(fixed_plan<Curve>(n, c, options), n, options);
}

template <class Curve>
typename Curve::Jacobian on_device_fixed_base(const DeviceBaseTable<Curve>& table,
                                              const Fr* d_scalars, std::size_t n,
                                              const DeviceWorkspace& workspace, cudaStream_t stream,
                                              const DeviceOptions& options) {
  return msm_fixed_run<Curve>(table, d_scalars, n, workspace, stream, options);
}

}  // namespace prestage::msm
