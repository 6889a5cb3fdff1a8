#pragma once
// GPU Pippenger MSM implementation (see gpu/msm/gpu_msm.hpp for the contract and the algorithm),
// included once per curve (gpu_msm_g1.cu, gpu_msm_g2.cu) so the two compile in parallel.
// The steps' kernels and helpers are in the msm_*.cuh headers included below, by step; this file
// keeps the driver: the options check, msm_run (the steps in order on the call's streams, then the
// host's window combination) and the public functions gpu_msm.hpp declares.
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

// The steps, in pipeline order (gpu/msm/gpu_msm.hpp numbers them); each header's code sits in
// the anonymous namespace below, uses the headers before it, and is included only from here
// (clang-format off: the order is the pipeline's, not the alphabet's).
// clang-format off
#include "gpu/msm/msm_common.cuh"             // shared: kThreads, curve ops, helpers, the carver
#include "gpu/msm/msm_digits.cuh"             // steps 0-1: classify, signed digits -> pairs
#include "gpu/msm/msm_sort.cuh"               // step 2: bucket ranges of the sorted pairs
#include "gpu/msm/msm_accumulate_xyzz.cuh"    // step 3: XYZZ levels
#include "gpu/msm/msm_accumulate_affine.cuh"  // step 3: batch-affine rounds
#include "gpu/msm/msm_accumulate.cuh"         // step 3: accumulate_buckets (rounds, then levels)
#include "gpu/msm/msm_reduce.cuh"             // step 4: bucket reduction
#include "gpu/msm/msm_workspace.cuh"          // the workspace: plan, layout, size
// clang-format on

namespace prestage::msm {

namespace {

// The options both on_device and the fixed-base call check before any work (`who` names the
// caller in the std::invalid_argument): the reduction's block and part length (returned as the
// call's ReduceConfig), the prep kernel's occupancy, per-round scratch on a workspace
// (`on_workspace`: nothing to allocate it from) and the workspace's alignment.
template <class Curve>
ReduceConfig checked_msm_options(const DeviceOptions& o, const void* ws_data, bool on_workspace,
                                 const std::string& who) {
  ReduceConfig reduce;
  reduce.block = o.reduce_block != 0 ? o.reduce_block : reduce_block_default(Curve{});
  reduce.part_len = o.reduce_part_len;
  reduce.scan = reduce_uses_scan<Curve>(o);
  if (reduce.block > kThreads || reduce.block % 32 != 0)
    throw std::invalid_argument(who + ": reduce_block not a multiple of 32 in [32, 256]");
  if (reduce.part_len != 0 && (reduce.part_len & (reduce.part_len - 1)) != 0)
    throw std::invalid_argument(who + ": reduce_part_len not a power of 2");
  if (o.accumulation != DeviceAccumulation::Xyzz && o.affine_prep_min_blocks > 3)
    throw std::invalid_argument(who + ": affine_prep_min_blocks not in [0, 3]");
  if (on_workspace && !o.affine_persistent_scratch && o.accumulation != DeviceAccumulation::Xyzz)
    throw std::invalid_argument(
        who + ": affine_persistent_scratch = false allocates per round: not on a workspace");
  if (reinterpret_cast<std::uintptr_t>(ws_data) % kWorkspaceAlign != 0)
    throw std::invalid_argument(who + ": workspace not 256-B aligned");
  return reduce;
}

// The MSM of n points on `ws`, laid out for n_plan >= n points (on_device_streamed: its chunk).
// alloc: the caller's allocator when it has one (only the per-round batch-affine scratch comes
// from it), else nullptr.
template <class Curve>
typename Curve::Jacobian msm_run(const typename Curve::Affine* d_points, const Fr* d_scalars,
                                 std::size_t n, std::size_t n_plan, const DeviceWorkspace& ws,
                                 gpu::DeviceAllocator* alloc, cudaStream_t stream,
                                 const DeviceOptions& options) {
  using Xyzz = typename Curve::Xyzz;
  DeviceStats* const stats = options.stats;
  if (stats != nullptr) *stats = DeviceStats{};
  if (n == 0) return Xyzz::identity().to_jacobian();
  if (n >= (std::size_t{1} << 31) || n_plan >= (std::size_t{1} << 31))
    throw std::invalid_argument("on_device: n >= 2^31");
  if (options.window_bits != 0 && (options.window_bits < 2 || options.window_bits > 22))
    throw std::invalid_argument("on_device: window_bits not in [2, 22]");
  const unsigned min_blocks = options.accumulate_min_blocks != 0
                                  ? options.accumulate_min_blocks
                                  : gpu_msm_default_min_blocks(Curve{});
  const ReduceConfig reduce =
      checked_msm_options<Curve>(options, ws.data, alloc == nullptr, "on_device");
  const MsmPlan<Curve> plan = msm_plan<Curve>(n_plan, options);
  const std::size_t need = msm_workspace_bytes<Curve>(n_plan, options);
  if (ws.data == nullptr || ws.bytes < need)
    throw std::invalid_argument("on_device: workspace of " + std::to_string(ws.bytes) +
                                " B, the call needs " + std::to_string(need) +
                                " B (device_workspace_bytes)");
  WsCarver carver(ws.data, ws.bytes);
  const MsmSpace<Curve> sp(plan, n_plan, options, carver, stream);
  NoAllocator no_alloc;
  gpu::DeviceAllocator& round_alloc = alloc != nullptr ? *alloc : no_alloc;
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
  clock.mark(&DeviceStats::classify_ms);

  // The accumulation (DeviceAccumulation::Auto: by curve and the scalars left after step 0, when
  // the workspace's plan holds the batch-affine scratch).
  const bool batch_affine = options.accumulation == DeviceAccumulation::BatchAffine ||
                            (options.accumulation == DeviceAccumulation::Auto && plan.affine &&
                             device_auto_batch_affine(is_g2<typename Curve::Affine>(), n_run));
  const AffineParams affine =
      batch_affine ? affine_params(options, is_g2<typename Curve::Affine>(), n) : AffineParams{};
  if (stats != nullptr) stats->batch_affine = batch_affine;

  const unsigned c = options.window_bits != 0 ? options.window_bits
                                              : device_window_bits(std::max<std::size_t>(n_run, 1));
  const unsigned windows = device_num_windows(c);
  const std::size_t n_w = std::max<std::size_t>(n_run, 1);
  std::size_t group_sz = std::clamp<std::size_t>(
      group_pairs(options, batch_affine, is_g2<typename Curve::Affine>()) / n_w, 1, windows);
  // Within the workspace's capacities (only a split call with n_run < n can be cut here).
  group_sz = std::min({group_sz, plan.max_pairs / n_w, plan.nb_max >> (c - 1)});
  if (group_sz == 0) throw std::logic_error("on_device: workspace plan holds no window group");
  const unsigned group = static_cast<unsigned>(group_sz);

  // Scratch: pieces of the workspace (MsmSpace). start/end: two sets of nb_max.
  const BucketScratch bs_set[2] = {
      {sp.start.data(), sp.end.data(), sp.segcount.data(), sp.segoff.data(), counters + 1,
       sp.scan_temp.data(), sp.scan_temp.bytes()},
      {sp.start.data() + (plan.sets > 1 ? plan.nb_max : 0),
       sp.end.data() + (plan.sets > 1 ? plan.nb_max : 0), sp.segcount.data(), sp.segoff.data(),
       counters + 1, sp.scan_temp.data(), sp.scan_temp.bytes()}};  // set 1: only when sets = 2
  const BucketScratch& bs = bs_set[0];

  // Batch-affine scratch for the whole call (DeviceOptions::affine_persistent_scratch): the
  // workspace's, when a round can run (round 0 of m items has at most m / 2 pair additions).
  AffineScratch<typename Curve::Affine>* affine_scratch = nullptr;
  const std::size_t affine_items =
      std::max<std::size_t>(std::size_t{group} * n_run, split ? ones : 0);
  if (affine.min_pairs > 0 && options.affine_persistent_scratch &&
      affine_items / 2 >= affine.min_pairs) {
    affine_scratch = sp.affine.get();
    if (affine_scratch == nullptr)
      throw std::logic_error("on_device: workspace plan holds no batch-affine scratch");
    if (stats != nullptr) stats->affine_scratch_bytes = affine_scratch->bytes();
  }
  clock.mark(&DeviceStats::scratch_ms);

  // The 1-scalars: one bucket of `ones` points, summed by the same levels (no windows, no sort).
  // The run's scalars out of Montgomery form once (scalars_once), when it takes several groups.
  const CanonScalar* canon = nullptr;
  if (plan.canon && n_run > 0 && (windows + group - 1) / group > 1) {
    canon_scalars_kernel<<<blocks_for(n_run), kThreads, 0, stream>>>(d_scalars, run_idx, n_run,
                                                                     sp.canon.data());
    PRESTAGE_CUDA_CHECK_LAUNCH();
    canon = sp.canon.data();
    if (stats != nullptr) stats->scalars_once = true;
    clock.mark(&DeviceStats::scalars_ms);
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
    clock.mark(&DeviceStats::ones_ms);
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
  gpu::Stream side, pre;
  cudaStream_t const prep = overlap ? pre.get() : stream;
  gpu::Event accumulated[2], reduced[2], sorted[2];
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
    if (!overlap) clock.mark(&DeviceStats::digits_ms);
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
    if (!overlap) clock.mark(&DeviceStats::sort_ms);
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
  gpu::Event begun;
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
      clock.mark(&DeviceStats::digits_ms);           // the wait for steps 1-2 that nothing hid
      nxt = next(cur.w0 + cur.g, (gi + 1) % nsets);  // beside this group's accumulation
    }
    // The levels' set `par`: group gi - 2's reduction has read it.
    PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(stream, reduced[par].get(), 0));
    const Xyzz* items =
        accumulate_buckets<Curve>(d_points, cur.vals, cur.m, nb, bsg, sp.levels(par), min_blocks,
                                  round_alloc, stream, stats, affine, &clock, affine_scratch);
    clock.mark(&DeviceStats::accumulate_ms);

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
  for (const gpu::Event& e : reduced)  // the last reduction of each set (never recorded: no wait)
    PRESTAGE_CUDA_CHECK(cudaStreamWaitEvent(stream, e.get(), 0));
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(window_sums.data(), d_window_sums, windows * sizeof(Xyzz),
                                      cudaMemcpyDeviceToHost, stream));
  clock.mark(&DeviceStats::reduce_ms);
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
std::size_t device_workspace_bytes(std::size_t n, const DeviceOptions& options) {
  if (n == 0) return 0;
  if (n >= (std::size_t{1} << 31)) throw std::invalid_argument("on_device: n >= 2^31");
  return msm_workspace_bytes<Curve>(n, options);
}

template <class Curve>
std::size_t device_streamed_workspace_bytes(std::size_t n, std::size_t chunk_points,
                                            const DeviceOptions& options) {
  if (chunk_points == 0) throw std::invalid_argument("on_device_streamed: chunk_points is 0");
  if (n == 0) return 0;
  const std::size_t chunk = std::min(chunk_points, n);
  WsCarver count(nullptr, 0);  // msm_streamed_run's layout: two chunk buffers, then the MSM's
  for (int k = 0; k < 2; ++k) (void)count.take<typename Curve::Affine>(chunk);
  (void)count.take<unsigned char>(device_workspace_bytes<Curve>(chunk, options));
  return count.used();
}

template <class Curve>
typename Curve::Jacobian on_device(const typename Curve::Affine* d_points, const Fr* d_scalars,
                                   std::size_t n, const DeviceWorkspace& workspace,
                                   cudaStream_t stream, const DeviceOptions& options) {
  return msm_run<Curve>(d_points, d_scalars, n, n, workspace, nullptr, stream, options);
}

template <class Curve>
typename Curve::Jacobian on_device(const typename Curve::Affine* d_points, const Fr* d_scalars,
                                   std::size_t n, gpu::DeviceAllocator& alloc, cudaStream_t stream,
                                   const DeviceOptions& options) {
  if (n == 0) return msm_run<Curve>(d_points, d_scalars, 0, 0, {}, &alloc, stream, options);
  gpu::DeviceBuffer<unsigned char> ws(alloc, device_workspace_bytes<Curve>(n, options), stream);
  return msm_run<Curve>(d_points, d_scalars, n, n, {ws.data(), ws.bytes()}, &alloc, stream,
                        options);
}

namespace {
// on_device_streamed on a workspace laid out as device_streamed_workspace_bytes: two chunk
// buffers, then one chunk's MSM workspace (alloc: as msm_run).
template <class Curve>
typename Curve::Jacobian msm_streamed_run(const typename Curve::Affine* h_points,
                                          const Fr* d_scalars, std::size_t n,
                                          std::size_t chunk_points, const DeviceWorkspace& ws,
                                          gpu::DeviceAllocator* alloc, cudaStream_t stream,
                                          const DeviceOptions& options) {
  using Affine = typename Curve::Affine;
  using Jacobian = typename Curve::Jacobian;
  if (chunk_points == 0) throw std::invalid_argument("on_device_streamed: chunk_points is 0");
  Jacobian total = Curve::Xyzz::identity().to_jacobian();
  if (n == 0) return total;
  const std::size_t chunk = std::min(chunk_points, n);
  const std::size_t need = device_streamed_workspace_bytes<Curve>(n, chunk, options);
  if (reinterpret_cast<std::uintptr_t>(ws.data) % kWorkspaceAlign != 0)
    throw std::invalid_argument("on_device_streamed: workspace not 256-B aligned");
  if (ws.data == nullptr || ws.bytes < need)
    throw std::invalid_argument("on_device_streamed: workspace of " + std::to_string(ws.bytes) +
                                " B, the call needs " + std::to_string(need) +
                                " B (device_streamed_workspace_bytes)");
  WsCarver carver(ws.data, ws.bytes);
  const WsSpan<Affine> buf[2] = {carver.take<Affine>(chunk), carver.take<Affine>(chunk)};
  const std::size_t inner_bytes = device_workspace_bytes<Curve>(chunk, options);
  const WsSpan<unsigned char> inner = carver.take<unsigned char>(inner_bytes);
  gpu::Stream copy_stream;
  gpu::Event copied[2];
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
    // The other buffer's previous MSM has completed (on_device synchronises): refill it now so the
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
typename Curve::Jacobian on_device_streamed(const typename Curve::Affine* h_points,
                                            const Fr* d_scalars, std::size_t n,
                                            std::size_t chunk_points,
                                            const DeviceWorkspace& workspace, cudaStream_t stream,
                                            const DeviceOptions& options) {
  return msm_streamed_run<Curve>(h_points, d_scalars, n, chunk_points, workspace, nullptr, stream,
                                 options);
}

template <class Curve>
typename Curve::Jacobian on_device_streamed(const typename Curve::Affine* h_points,
                                            const Fr* d_scalars, std::size_t n,
                                            std::size_t chunk_points, gpu::DeviceAllocator& alloc,
                                            cudaStream_t stream, const DeviceOptions& options) {
  if (chunk_points == 0) throw std::invalid_argument("on_device_streamed: chunk_points is 0");
  if (n == 0) return Curve::Xyzz::identity().to_jacobian();
  gpu::DeviceBuffer<unsigned char> ws(
      alloc, device_streamed_workspace_bytes<Curve>(n, chunk_points, options), stream);
  return msm_streamed_run<Curve>(h_points, d_scalars, n, chunk_points, {ws.data(), ws.bytes()},
                                 &alloc, stream, options);
}

}  // namespace prestage::msm
