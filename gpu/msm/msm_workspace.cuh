#pragma once
// on_device's workspace (DeviceWorkspace): the capacities of one call's buffers from n and the
// options (MsmPlan), their layout in the caller's region (MsmSpace), its size (the same layout
// code, counting), and the choice of plan (batch-affine or XYZZ under max_workspace_bytes).
// Internal to gpu_msm_impl.cuh: included only from there (after msm_reduce.cuh), once per curve TU
// (gpu_msm_g1.cu, gpu_msm_g2.cu); everything here is in the anonymous namespace (internal linkage,
// one copy per TU), so never include it anywhere else.
//
// Takes: n points (n > 0), DeviceOptions, and for MsmSpace a WsCarver over the region.
// Produces: MsmPlan (c, max_pairs pairs and nb_max buckets a window group, the levels' and part
// sums' capacities, sets, canon); MsmSpace's pieces, in its order, each 256-B aligned (counts and
// units beside each member); msm_workspace_bytes, the bytes the call needs. NoAllocator: what a
// call on a workspace hands to code that must not allocate.

namespace prestage::msm {

namespace {

// The allocator a workspace call hands to code that allocates only off the default path (the
// batch-affine rounds without the persistent scratch, refused up front): any allocation is a bug.
class NoAllocator final : public gpu::DeviceAllocator {
 public:
  void* allocate(std::size_t, cudaStream_t) override {
    throw std::logic_error("on_device: a call on a workspace tried to allocate device memory");
  }
  void deallocate(void*, std::size_t, cudaStream_t) noexcept override {}
  gpu::AllocatorKind kind() const override { return gpu::AllocatorKind::StreamOrdered; }
  const char* name() const override { return "none (caller's workspace)"; }
};

// ---- one call's workspace: capacities from n and the options, then the pieces ----
constexpr unsigned kMaxWindows = 128;  // device_num_windows(2), the most windows of any c

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
  bool reduce_scan = false;           // DeviceReduce::SuffixScan: 3 buffers of part_cap
  // Sets of the per-group buffers (bucket ranges, levels, part sums): 2 when n takes several
  // window groups (a group's reduction reads one set while the next group fills the other) or
  // with overlap_sort, else 1 (a call whose scalars need more groups than n's then runs them
  // one after the other: each waits for the previous group's reduction).
  unsigned sets = 2;
  // DeviceOptions::scalars_once and n takes several window groups: n x 32 B canonical scalars.
  bool canon = false;
};

// Pairs a window group (on_device) or a slice (the fixed-base call) holds at most:
// DeviceOptions::max_group_pairs, else the batch-affine default or kMaxPairsPerGroup.
inline std::size_t group_pairs(const DeviceOptions& o, bool affine, bool g2) {
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
std::size_t reduce_part_cap(const DeviceOptions& o, std::size_t nb, bool scan) {
  const std::size_t parts_max =
      o.reduce_part_len != 0 ? nb / o.reduce_part_len
      : scan                 ? reduce_scan_parts_max(Curve{}, nb)
                             : nb / std::min<std::size_t>(reduce_part_short(Curve{}), kPartLong);
  return parts_max + kMaxWindows;
}

// The plan with batch-affine rounds possible or not (`affine`; msm_plan below picks).
template <class Curve>
MsmPlan<Curve> msm_plan_for(std::size_t n, const DeviceOptions& o, bool affine) {
  constexpr bool g2 = is_g2<typename Curve::Affine>();
  MsmPlan<Curve> p;
  p.c = o.window_bits != 0 ? o.window_bits : device_window_bits(std::max<std::size_t>(n, 1));
  const unsigned windows = device_num_windows(p.c);
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
  MsmSpace(const MsmPlan<Curve>& p, std::size_t n, const DeviceOptions& o, WsCarver& ws,
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
std::size_t msm_plan_bytes(const MsmPlan<Curve>& p, std::size_t n, const DeviceOptions& options) {
  WsCarver count(nullptr, 0);
  MsmSpace<Curve> probe(p, n, options, count, nullptr);
  return count.used();
}

// The call's plan: batch-affine when asked for, or under Auto where device_auto_batch_affine(n)
// holds and its layout fits DeviceOptions::max_workspace_bytes (0: no cap); else XYZZ.
// Under the cap the canonical scalars (scalars_once: n x 32 B, 0.5-2.5% of the time) go
// first, then the rounds (13-20%); XYZZ drops them too where they would pass the cap.
template <class Curve>
MsmPlan<Curve> msm_plan(std::size_t n, const DeviceOptions& o) {
  constexpr bool g2 = is_g2<typename Curve::Affine>();
  if (o.accumulation == DeviceAccumulation::BatchAffine) return msm_plan_for<Curve>(n, o, true);
  const bool capped = o.accumulation == DeviceAccumulation::Auto && o.max_workspace_bytes != 0;
  const auto fits = [&](const MsmPlan<Curve>& p) {
    return !capped || msm_plan_bytes(p, n, o) <= o.max_workspace_bytes;
  };
  if (o.accumulation == DeviceAccumulation::Auto && device_auto_batch_affine(g2, n)) {
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
std::size_t msm_workspace_bytes(std::size_t n, const DeviceOptions& options) {
  return msm_plan_bytes(msm_plan<Curve>(n, options), n, options);
}

}  // namespace

}  // namespace prestage::msm
