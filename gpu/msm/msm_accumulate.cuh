#pragma once
// Step 3 of on_device (gpu/msm/gpu_msm.hpp), its driver: accumulate_buckets runs the batch-affine
// rounds (msm_accumulate_affine.cuh) while they pay, then the XYZZ levels
// (msm_accumulate_xyzz.cuh), over the buckets' ranges of step 2.
// Internal to gpu_msm_impl.cuh: included only from there (after msm_accumulate_affine.cuh), once
// per curve TU (gpu_msm_g1.cu, gpu_msm_g2.cu); everything here is in the anonymous namespace
// (internal linkage, one copy per TU), so never include it anywhere else.
//
// Takes: m sorted values (vals: m x 4 B, point index | sign << 31) over nb buckets (BucketScratch:
// start / end nb x unsigned, bucket b's values at [start[b], end[b]); segcount / segoff nb + 1 x
// unsigned; the scan's storage), the points (Affine, or PackedAffine with its infinity bitmap),
// the levels' buffers (LevelScratch) and the rounds' (AffineScratch, or allocated per round).
// Produces: the last level's Curve::Xyzz items, bucket b's sum at items[start[b]] when end[b] >
// start[b] (start / end rewritten); nullptr when no bucket has an item.

namespace prestage::msm {

namespace {

// After a level: bucket b's items are its segments' partial sums.
__global__ void next_ranges_kernel(const unsigned* segoff, std::size_t nb, unsigned* start,
                                   unsigned* end) {
  const std::size_t b = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (b >= nb) return;
  start[b] = segoff[b];
  end[b] = segoff[b + 1];
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

// Step 3 for nb buckets whose (point | sign << 31) values sit in vals[start[b], end[b]) (all
// within vals[0, m)): the sum of bucket b ends up at items[start[b]] (start/end are rewritten level
// by level; a bucket with start == end is empty). Returns the last level's items (empty when no
// bucket has any). Batch-affine rounds first when affine.min_pairs > 0 (each round that has at
// least that many pair additions; then the XYZZ levels finish from the last round's affine items),
// marked as phases affine_gather_ms, affine_map_ms, affine_prep_ms, affine_invert_ms, affine_add_ms
// and affine_ms (the rest of the rounds) on `clock` when given. Point: the points' stored type,
// Affine or affine_batch::PackedAffine (the fixed-base table); point_inf_bits: the points'
// infinity bitmap when the caller has one (bit i of word i / 32: the table's, built with it;
// required for PackedAffine), else round 0 builds it in ps (DeviceOptions::affine_inf_bits).
template <class Curve, class Point = typename Curve::Affine>
const typename Curve::Xyzz* accumulate_buckets(
    const Point* points, const uint32_t* vals, unsigned m, std::size_t nb, const BucketScratch& bs,
    const LevelScratch<typename Curve::Xyzz>& levels, unsigned min_blocks,
    gpu::DeviceAllocator& alloc, cudaStream_t stream, DeviceStats* stats,
    const AffineParams& affine = {}, PhaseClock* clock = nullptr,
    AffineScratch<typename Curve::Affine>* ps = nullptr, const uint32_t* point_inf_bits = nullptr) {
  using Xyzz = typename Curve::Xyzz;
  using Affine = typename Curve::Affine;
  using Field = typename Affine::Field;
  constexpr bool kPacked = !std::is_same_v<Point, Affine>;
  if (kPacked && point_inf_bits == nullptr)
    throw std::logic_error("on_device: packed points without their infinity bitmap");
  gpu::DeviceBuffer<Affine> affine_items;  // owns cur_items when ps is null
  const Affine* cur_items = nullptr;       // the last batch-affine round's outputs (bucket order)
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
    // The round's scratch: from `ps` when given (DeviceOptions::affine_persistent_scratch),
    // else allocated here and freed at the end of the round.
    gpu::DeviceBuffer<Field> pre_b, tprod_b, scratch_b;
    gpu::DeviceBuffer<Affine> out_b;
    gpu::DeviceBuffer<uint32_t> map_b;
    Field *pre, *tprod, *scratch;  // P / T / T x Field: running products, thread products
    Affine* out;                   // P x Affine: the round's outputs
    uint32_t* map;                 // P x 4 B: first item | pair << 31
    if (ps != nullptr) {
      if (P > ps->outputs[round & 1] || T > ps->threads || (round == 0 && m > ps->max_items))
        throw std::logic_error("on_device: batch-affine scratch too small");
      pre = ps->pre.data();
      tprod = ps->tprod.data();
      scratch = ps->scratch.data();
      out = ps->items[round & 1].data();
      map = ps->map.data();
    } else {
      pre_b = gpu::DeviceBuffer<Field>(alloc, P, stream);
      tprod_b = gpu::DeviceBuffer<Field>(alloc, T, stream);
      scratch_b = gpu::DeviceBuffer<Field>(alloc, T, stream);
      out_b = gpu::DeviceBuffer<Affine>(alloc, P, stream);
      map_b = gpu::DeviceBuffer<uint32_t>(alloc, P, stream);
      pre = pre_b.data();
      tprod = tprod_b.data();
      scratch = scratch_b.data();
      out = out_b.data();
      map = map_b.data();
    }
    if (clock != nullptr) clock->mark(&DeviceStats::affine_ms);
    if (round == 0 && affine.gather) {  // the items in bucket order (affine_gather_kernel)
      Affine* gathered = nullptr;       // m x Affine
      if (ps != nullptr) {
        gathered = ps->gathered.data();
      } else {
        affine_items = gpu::DeviceBuffer<Affine>(alloc, m, stream);
        gathered = affine_items.data();
      }
      affine_gather_kernel<Affine, Point><<<blocks_for(m), kThreads, 0, stream>>>(
          affine_batch::ItemSource<Affine, Point>{points, vals, point_inf_bits}, m, gathered);
      PRESTAGE_CUDA_CHECK_LAUNCH();
      cur_items = gathered;
      if (clock != nullptr) clock->mark(&DeviceStats::affine_gather_ms);
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
            throw std::logic_error("on_device: the workspace's infinity bitmap is too small");
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
    if (clock != nullptr) clock->mark(&DeviceStats::affine_map_ms);
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
    if (clock != nullptr) clock->mark(&DeviceStats::affine_prep_ms);
    {
      using affine_batch::InverseKind;
      const auto invert = affine.fermat ? affine_invert_kernel<Field, InverseKind::Fermat>
                          : affine.inverse == DeviceAffineInverse::Binary
                              ? affine_invert_kernel<Field, InverseKind::Binary>
                              : affine_invert_kernel<Field, InverseKind::Bingcd>;
      invert<<<blocks_for(U), kThreads, 0, stream>>>(T, K2, tprod, scratch);
    }
    PRESTAGE_CUDA_CHECK_LAUNCH();
    if (clock != nullptr) clock->mark(&DeviceStats::affine_invert_ms);
    DeviceAffineAdd add = affine.add;
    if (add == DeviceAffineAdd::Auto)  // DeviceAffineAdd: the faster add per curve
      add = is_g2<Affine>() ? DeviceAffineAdd::Msmaffine : DeviceAffineAdd::Lean;
    const auto launch_add = [&](const auto& src) {
      using P0 = std::remove_cv_t<std::remove_pointer_t<decltype(src.points)>>;
      if (direct && affine.lean_round0 >= 3)  // DeviceOptions::affine_lean_round0
        launch_lean_add<Affine, true, true>(src, map, T, P, K, pre, tprod, out, stream);
      else if (direct && affine.lean_round0 != 0)
        launch_lean_add<Affine, false, true>(src, map, T, P, K, pre, tprod, out, stream);
      else if (direct || add == DeviceAffineAdd::Msmaffine)
        (direct && affine.eager_round0
             ? affine_add_kernel<Affine, P0, !std::is_same_v<P0, Affine>>
             : affine_add_kernel<Affine, P0>)<<<blocks_for(T), kThreads, 0, stream>>>(
            src, map, T, P, K, pre, tprod, out);
      else if constexpr (std::is_same_v<P0, Affine>) {  // items in memory: Affine
        if (add == DeviceAffineAdd::LeanLow)
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
    if (clock != nullptr) clock->mark(&DeviceStats::affine_add_ms);
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
  if (clock != nullptr) clock->mark(&DeviceStats::affine_ms);
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
      throw std::logic_error("on_device: XYZZ level past its workspace capacity");
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

}  // namespace

}  // namespace prestage::msm
