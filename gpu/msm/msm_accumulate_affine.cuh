#pragma once
// Step 3 of on_device (gpu/msm/gpu_msm.hpp), the batch-affine rounds: each bucket's items added in
// adjacent pairs in affine coordinates, a round's divisions sharing inversions (Montgomery's
// trick); the thread bodies and the algorithm are in gpu/msm/affine_batch.hpp.
// Internal to gpu_msm_impl.cuh: included only from there (after msm_accumulate_xyzz.cuh), once per
// curve TU (gpu_msm_g1.cu, gpu_msm_g2.cu); everything here is in the anonymous namespace (internal
// linkage, one copy per TU), so never include it anywhere else.
//
// Takes, per round: nb buckets' ranges start / end (nb x unsigned each) and cnt / off (nb + 1 x
// unsigned: paircount_kernel's outputs a bucket, then their exclusive scan; P = off[nb]); the
// items, round 0's the points through the sorted values (affine_batch::ItemSource) or gathered
// (m x Affine), a later round's the previous round's outputs (Affine, bucket order).
// Produces, per round: P outputs (P x Affine, bucket order: bucket b's at [off[b], off[b + 1])),
// through map (P x 4 B), pre (P x Field), tprod and its inverses (T x Field each, T = ceil(P /
// K)) and U = ceil(T / K2) inversions. AffineParams: a call's parameters; AffineScratch: the
// rounds' scratch kept for the call (pieces of the workspace). accumulate_buckets
// (msm_accumulate.cuh) drives the rounds.

namespace prestage::msm {

namespace {

// ---- batch-affine rounds (gpu/msm/affine_batch.hpp has the thread bodies and the algorithm) ----
// Outputs per thread of the prep/add kernels, and the most thread products per inversion (the
// rule affine_per_inversion below picks K2 <= this). K2 = 64: one inversion per 512 outputs.
// Measured on the H200, G1 2^24 batch-affine: K = 6/8/12 -> 113.2/108.1/109.3 ms
// (gpu/msm/DECISIONS.md #7, with the K2 sweep).
constexpr unsigned kAffinePerThread = 8;
constexpr unsigned kAffinePerInversion = 64;
// A round runs only when it has at least this many pair additions (DeviceOptions::
// affine_min_pairs = 0): below it the round's fixed latency (the serial Fermat chain, ~1 ms on
// the H200; ~6 launches and a host wait) outweighs the products it saves over XYZZ additions.
// Per curve: affine_min_pairs_default, G1 2^20, G2 2^18. Measured on the H200, G1 2^24
// 2^19/2^20/2^21 -> 109.1/108.1/111.9 ms; G2 2^20 2^18/2^20/2^22 -> 39.0/38.6/41.0 ms (2^18
// kept; gpu/msm/DECISIONS.md #8).
constexpr std::size_t kAffineMinPairs = std::size_t{1} << 18;
constexpr std::size_t affine_min_pairs_default(bool g2) {
  return g2 ? kAffineMinPairs : std::size_t{1} << 20;
}
// Window groups of the batch-affine path (DeviceOptions::max_group_pairs = 0): G1 2^26 pairs
// (half the rounds of 2^25, so half the rounds' latency-bound inversions), G2 kMaxPairsPerGroup.
// Larger G1 groups are faster at 4x the memory: G1 2^24 2^26/2^28 -> 108.4/102.1 ms at
// 8.85/33.4 GiB on the H200 (DeviceOptions::max_group_pairs; gpu/msm/DECISIONS.md #14).
constexpr std::size_t affine_group_pairs_default(bool g2) {
  return g2 ? kMaxPairsPerGroup : std::size_t{1} << 26;
}

// A fresh id per on_device call (AffineParams::call), so scratch kept across calls never reuses
// one call's infinity bits for another call's points at the same address.
inline uint64_t next_affine_call() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

// The batch-affine rounds' parameters (DeviceOptions, defaults filled in); min_pairs = 0: none.
struct AffineParams {
  std::size_t min_pairs = 0;
  unsigned per_thread = kAffinePerThread;
  unsigned per_inversion = 0;   // 0: affine_per_inversion(T, invert_threads)
  unsigned invert_threads = 0;  // the rule's cap; 0: affine_invert_threads_default
  bool gather = false;
  bool fermat = false;
  DeviceAffineInverse inverse = DeviceAffineInverse::Auto;  // fermat overrides
  DeviceAffineAdd add = DeviceAffineAdd::Auto;
  unsigned lean_round0 = 0;   // DeviceOptions::affine_lean_round0
  bool map_search = false;    // DeviceOptions::affine_map_search
  bool map_bucket = true;     // DeviceOptions::affine_map_bucket
  bool inf_bits = true;       // DeviceOptions::affine_inf_bits
  std::size_t n_points = 0;   // the call's points (inf_bits' size)
  uint64_t call = 0;          // the on_device call (next_affine_call): inf_bits are built per call
  unsigned prep_blocks = 0;   // 0: affine_prep_default_blocks
  bool eager_round0 = false;  // DeviceOptions::affine_eager_round0 (packed points only)
};

// The batch-affine rounds' parameters of a call taking them, from its options (defaults filled
// in), for n_points points (the infinity bitmap's size), with a fresh call id.
inline AffineParams affine_params(const DeviceOptions& o, bool g2, std::size_t n_points) {
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

// K2 when DeviceOptions::affine_per_inversion is 0: the smallest power of 2 in [8, 64] that
// leaves at most kAffineInvertThreads invert threads for T thread products. The invert kernel
// is a serial chain per thread (3 K2 products + one inversion) with few threads, so its time is
// that chain's latency: big rounds keep K2 = 64 (fewer inversions: each is ~250 products' worth
// of instructions), small rounds (later rounds, few threads anyway) take shorter chains.
// Measured on the H200 (binary-Euclid inversions), invert phase G1 2^24 28.2 ms with the rule
// vs 38.5 with K2 = 64 fixed (gpu/msm/DECISIONS.md #9).
constexpr unsigned kAffineInvertThreads = 1u << 15;  // ~one block of 256 per SM of the H200
// The cap per curve (DeviceOptions::affine_invert_threads = 0): G1 2^16, G2 kAffineInvertThreads.
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
//  prep (DeviceOptions::affine_prep_min_blocks): G1 2 -> 100 registers, 3 -> 79
//    (none spilled: the default), 4 -> 64 (84 B spilled); G2 1 -> 182, 2 -> 128
//    (136 B spilled: the default), 3 -> 80 (568 B).
//  add, the Msmaffine thread body (add_thread): G1 2 blocks of 256 -> 128 registers, 64 B
//    spilled; G2 1 -> 255, none (2 blocks: 1692 B spilled).
//  add, lean thread body (add_thread_lean; DeviceOptions::affine_add): G1 2 blocks of 256 ->
//    110 registers, none; 3 blocks of 256 -> 80, 32 B spilled (the default); G2 1 block of
//    256 -> 204, none; 3 blocks of 128 -> 168, 48 B spilled (the default).
// Prediction: these kernels wait on memory between short product chains, so more resident
// warps (16 -> 24 for G1, 8 -> 12 or 16 for G2) should outweigh a few spilled words. Measured
// on the H200, phases at G1 2^24 / G2 2^20: prep G1 3 vs 2 blocks 26.8 vs 27.6 ms, G2 2 vs 1
// 4.2 vs 5.2 ms; add: G1 lean high 57.4 ms beats lean low 60.9 and Msmaffine 62.9, G2
// Msmaffine 18.7 beats both lean shapes: hence DeviceAffineAdd::Auto (gpu/msm/DECISIONS.md #10).
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

// map[j] for j < P (affine_batch::map_entry). kWarpSearch (DeviceOptions::affine_map_search,
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
// (DeviceOptions::affine_map_bucket, the default; affine_batch::map_bucket_lane): the lanes take
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
// affine_batch::ItemSource::inf_bits (DeviceOptions::affine_inf_bits). One flag read a point.
template <class Affine>
__global__ void __launch_bounds__(kThreads)
    affine_inf_bits_kernel(const Affine* points, unsigned n, uint32_t* bits) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i & ~31u) >= n) return;  // the whole warp is past the end
  const uint32_t word = __ballot_sync(0xffffffffu, i < n && points[i].infinity);
  if ((threadIdx.x & 31) == 0) bits[i >> 5] = word;
}

// Round 0's items in bucket order (DeviceOptions::affine_gather, off by default: measured
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

// The Msmaffine add kernel (DeviceAffineAdd::Msmaffine; also round 0 without the gather).
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

// Batch-affine scratch kept for a whole on_device call (DeviceOptions::affine_persistent_scratch),
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
  // The points' infinity bits (ceil(n_points / 32) x 4 B; DeviceOptions::affine_inf_bits), filled
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

}  // namespace

}  // namespace prestage::msm
