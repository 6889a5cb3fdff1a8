#pragma once
// Pippenger multi-scalar multiplication sum_i s_i * P_i on the GPU, for BLS12-381 G1 and G2.
//
// Contract: d_points holds n affine points (device; ec::G1Affine / ec::G2Affine layout, infinity
// allowed, repeats allowed), d_scalars n scalars (device, n x 32 B, Fr in Montgomery form, any
// value < r). All scratch memory is one workspace (DeviceWorkspace), the caller's or allocated
// for the call from `alloc` (the MSM path uses the stream-ordered allocator); work is ordered on
// `stream`; the call returns when the result is on the host
// (it synchronises `stream`). The result is in Jacobian coordinates (infinity for n = 0).
//
// Algorithm:
//  0. the scalars are classified on their raw Montgomery limbs (0 is all-zero, 1 is R mod r);
//     when at least 1/8 of them are 0 or 1 (PoRep's L, A, B_G1 vectors), zeros are dropped, the
//     points of 1-scalars are summed directly as one bucket (no windows, no sort), and only the
//     remaining scalars (through an index list) go through the windows below;
// Per group of windows, so the scratch stays bounded:
//  1. scalars -> canonical -> signed c-bit digits in [-2^(c-1), 2^(c-1)]; nonzero digits become
//     (bucket key, point index | sign << 31) pairs, compacted with warp-aggregated atomics
//     (zero digits never reach the sort: PoRep's 0/1 scalars leave one window of work);
//  2. cub::DeviceRadixSort::SortPairs by bucket key (only the key bits in use);
//  3. bucket accumulation. Batch-affine rounds first where they win (DeviceAccumulation: by
//     default G1 at 2^17 to 2^27 and G2 at 2^20 to 2^23, within DeviceOptions::
//     max_workspace_bytes; see gpu/msm/affine_batch.hpp): the items of each
//     bucket are added in adjacent pairs in affine coordinates, all divisions of a round sharing
//     one inversion per 512 outputs (Montgomery's trick, grid-wide), ~6 Fq products an addition
//     instead of XYZZ's 10; rounds go on while a round has at least affine_min_pairs additions.
//     Then (XYZZ accumulation: only) XYZZ, load-balanced: every bucket is cut into segments of at
//     most kSegment points, one thread per segment; the partial sums are reduced the same way,
//     level after level, until each bucket holds one sum (a bucket of 2^27 points costs ~6 levels);
//  4. bucket reduction by running sums, split into parts of a window reduced in parallel
//     (part j adds j*M*sum(part) by double-and-add), then a tree over the parts; on a second
//     stream, so it overlaps the next group's steps 1-3;
//  5. the window sums come to the host, which combines them (Horner, c doublings per window).
#include <cuda_runtime.h>

#include <cstddef>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/msm/curves.hpp"
#include "gpu/runtime/memory.hpp"

namespace prestage::msm {

// What one run did (for benchmark floors): filled when DeviceOptions::stats is set.
struct DeviceStats {
  unsigned window_bits = 0;
  unsigned windows = 0;
  unsigned window_groups = 0;  // windows are processed in groups of up to kMaxPairsPerGroup/n
  // (bucket, point) pairs. XYZZ level 0 does one mixed addition per item left after the
  // batch-affine rounds: nonzero_digits (+ one_scalars when split) - affine_adds.
  std::size_t nonzero_digits = 0;
  std::size_t partial_adds = 0;  // XYZZ additions in reduction levels >= 1
  unsigned max_levels = 0;       // accumulation levels of the deepest window group
  std::size_t zero_scalars = 0;  // scalars equal to 0 and to 1 (counted in step 0)
  std::size_t one_scalars = 0;
  bool split_01 = false;  // step 0 took the 1-scalars out (and the zeros)
  // Device time per phase (CUDA events on `stream`, summed over window groups, ms). Host waits
  // between phases count towards the phase that follows them.
  double classify_ms = 0;  // step 0 (count, and the compaction when split)
  // The scalars converted out of Montgomery form once for the call (DeviceOptions::
  // scalars_once; 0 when the digits kernel converts them for each window group instead).
  double scalars_ms = 0;
  bool scalars_once = false;  // the digits read the workspace's canonical scalars
  double ones_ms = 0;         // direct sum of the 1-scalars' points (split only)
  // Laying out the workspace (host only: ~0). The allocating on_device allocates the workspace
  // before the phases start, so its cost shows in the call's time only (measured against a
  // reused workspace: gpu/msm/DECISIONS.md #19).
  double scratch_ms = 0;
  double digits_ms = 0;  // step 1, with the pair-count download
  double sort_ms = 0;    // step 2 and the bucket ranges
  // Batch-affine rounds (step 3, before the XYZZ levels; the 1-scalars' rounds included):
  std::size_t affine_adds = 0;             // pair additions (each removes one item)
  std::size_t affine_outputs = 0;          // outputs (pairs and pass-throughs): trick elements
  std::size_t affine_thread_products = 0;  // second-level trick elements
  std::size_t affine_inversions = 0;       // field inversions (Fermat)
  unsigned affine_rounds = 0;              // rounds of the deepest window group
  // Their device time (window groups only), split by kernel: the round-0 gather, map, prep,
  // invert, add; affine_ms is the rest of the rounds (pair counts, their scans and host waits,
  // the next ranges).
  double affine_ms = 0;
  double affine_gather_ms = 0;
  double affine_prep_ms = 0;  // the prep kernel
  double affine_map_ms = 0;   // the map kernel
  double affine_invert_ms = 0;
  double affine_add_ms = 0;
  double accumulate_ms = 0;  // step 3, every XYZZ level
  double reduce_ms = 0;      // step 4 left after the last group's accumulation (the earlier
                             // groups' overlap later groups), with the window sums' download
  double host_ms = 0;        // step 5 (host clock)
  // The accumulation the call used (DeviceAccumulation::Auto resolved), and the bytes of the
  // batch-affine scratch it allocated once for the whole call (0: none, or allocated per round).
  // The call's peak device memory is measured by gpu_bench (pool high-water of its MSM rows).
  bool batch_affine = false;
  std::size_t affine_scratch_bytes = 0;
  // Bytes of the workspace (DeviceWorkspace) the call laid out: equal to
  // device_workspace_bytes(n, options) (the streamed call: of its chunk), whoever allocated it.
  std::size_t workspace_bytes = 0;
};

// Step 3's accumulation: XYZZ levels only, or batch-affine rounds first; Auto (the default) picks
// one by curve and size (device_auto_batch_affine).
enum class DeviceAccumulation { Auto, Xyzz, BatchAffine };

// BatchAffine's add kernel (gpu/msm/affine_batch.hpp; registers in msm_accumulate_affine.cuh):
// Auto (the default: G1 Lean, G2 Msmaffine), Lean (add_thread_lean at the higher occupancy),
// LeanLow (the same body at Msmaffine's occupancy), Msmaffine (add_thread, its body and
// occupancy).
// For items in memory; round 0 through the sorted values: DeviceOptions::affine_lean_round0.
// Measured on the H200, add phase, gathered items: G1 2^24 Lean 57.4 ms vs Msmaffine 62.9; G2
// 2^20 Msmaffine 18.7 vs Lean 19.6 (gpu/msm/DECISIONS.md #10).
enum class DeviceAffineAdd { Auto, Lean, LeanLow, Msmaffine };

// BatchAffine's field inversion in the invert kernel (one per K2 thread products; gpu/msm/
// affine_batch.hpp): Auto (the default: Bingcd), Bingcd (ff::inverse_bingcd, Pornin's binary GCD
// in 31-step batches on 64-bit approximations: gpu/ff/inverse_bingcd_hd.hpp), Binary
// (ff::inverse_binary, the binary extended Euclid: ~2 x 381 full-width steps whose branches
// split a warp's lanes). DeviceOptions::affine_fermat overrides both (Fermat). Measured on the
// H200, invert phase Bingcd vs Binary: G1 2^26 35.6 vs 57.6 ms (gpu/msm/DECISIONS.md #15).
enum class DeviceAffineInverse { Auto, Bingcd, Binary };

// Step 4's bucket reduction (reduce_windows in msm_reduce.cuh), per window of N buckets cut into
// P = N / M parts of M buckets, one thread a part (part j's buckets get weights j M + 1 .. j M +
// M):
//  DoubleAdd: thread j adds j M sum(part j) to its part's running sum by double-and-add (up to
//    log2 N doublings a thread), then a tree over the parts (log2 P levels);
//  SuffixScan: thread j scales sum(part j) by M (log2 M doublings), an inclusive suffix scan over
//    the parts (log2 P steps: S_j = sum of the scaled sums of parts >= j) gives the weights,
//    sum_j j M sum(part j) = sum_{j >= 1} S_j, added to the part's running sum, then the tree.
//    Its serial chain is shorter (no per-part double-and-add), which is what a latency-bound
//    reduction (few threads, G2) pays for.
// Auto (the default): the curve's (reduce_scheme_default in msm_reduce.cuh).
enum class DeviceReduce { Auto, DoubleAdd, SuffixScan };

struct DeviceOptions {
  unsigned window_bits = 0;  // c in [2, 22]; 0 = device_window_bits(n)
  bool split_01 = true;      // step 0 allowed (false: every scalar goes through the windows)
  // Convert the scalars (those left after step 0) out of Montgomery form once per call into the
  // workspace (n x 32 B canonical, in step 0's order), when the call's plan takes more than one
  // window group; false: the digits kernel converts every scalar again for each window group.
  // Measured on the H200, G1 Auto 2^27: 746.76 vs 765.59 ms at 22.35 vs 18.35 GiB of workspace
  // (gpu/msm/DECISIONS.md #23). The memory is sized by n (the query cannot see the scalars): a
  // caller short of it sets false, or max_workspace_bytes drops it first.
  bool scalars_once = true;
  // Level-0 accumulation kernel: blocks of 256 threads per SM that ptxas must fit (1, 2 or 3:
  // at most 255 / 128 / 85 registers a thread); 0 = the curve's default.
  unsigned accumulate_min_blocks = 0;
  // Step 4: threads a block of the last window group's reduction kernels (a multiple of 32 up
  // to 256; 0 = the curve's default: G1 256, G2 32; earlier groups always 256) and buckets a
  // thread reduces (a power of 2; 0 = the rule in msm_reduce.cuh: 16, or when a group has at
  // most 2^17 buckets 4 for G1 and 8 for G2 with DoubleAdd; SuffixScan: G1 4, G2 by its thread
  // target, reduce_part_short_scan).
  unsigned reduce_block = 0;
  unsigned reduce_part_len = 0;
  DeviceReduce reduce = DeviceReduce::Auto;  // step 4's scheme (DeviceReduce)
  // Auto (the default): device_auto_batch_affine, capped by max_workspace_bytes. The history
  // (XYZZ the default until the batch-affine kernels and the persistent scratch won) is in
  // gpu/msm/DECISIONS.md #13.
  DeviceAccumulation accumulation = DeviceAccumulation::Auto;
  // BatchAffine: a round runs only with at least this many pair additions (0 = the default,
  // affine_min_pairs_default in msm_accumulate_affine.cuh: G1 2^20, G2 2^18); the XYZZ levels
  // finish the rest.
  std::size_t affine_min_pairs = 0;
  // BatchAffine: outputs a thread chains (K) and thread products per inversion (K2); 0 = the
  // defaults (kAffinePerThread; K2 by the rule affine_per_inversion(T) in
  // msm_accumulate_affine.cuh; the fixed-base call's G1 K is 24: gpu_msm_fixed_base.cuh,
  // fixed_per_thread).
  unsigned affine_per_thread = 0;
  unsigned affine_per_inversion = 0;
  // BatchAffine, the K2 rule's cap on invert threads (0 = the curve's default,
  // affine_invert_threads_default: G1 2^16, G2 2^15): a higher cap takes shorter
  // chains (more inversions) in the big rounds (DECISIONS.md #9).
  unsigned affine_invert_threads = 0;
  // BatchAffine, A/B knobs, each checked by gpu_msm_test (the defaults are the faster ones;
  // history and figures in gpu/msm/DECISIONS.md #11, #15, #17):
  // affine_gather = true gathers round 0's items into bucket order first (one random read per
  // item, then every round reads its items coalesced) instead of reading them through the
  // sorted values (prep reads x, add the points again): its prep and add kernels are faster
  // but the call is slower (measured on the H200, workspace reused: G1 2^24 154.7 vs 108.1 ms,
  // the gather 54 ms).
  // affine_fermat = true inverts by Fermat instead of the batched binary GCD (affine_inverse
  // picks between the two non-Fermat ones). Round 0 without the gather takes the Msmaffine add
  // kernel whatever affine_add says, unless affine_lean_round0 is 2 or 3 (G1 2^24 add phase:
  // 3 -> 65.2, 2 -> 59.4 vs 59.0 ms, so 0 stays the default): the lean body through the sorted
  // values (add_thread_lean<true>) at 2 or 3 blocks of 256 per SM for G1 (G2: 1 block of 256
  // or 3 of 128).
  // affine_prep_min_blocks: resident blocks of 256 per SM asked of ptxas for the prep kernel,
  // 1 to 3; 0 = the curve's default (G1 3, G2 2).
  // affine_persistent_scratch (the default) allocates the rounds' scratch once per call (sized
  // for the largest round 0, reused by every round and window group; DeviceStats::
  // affine_scratch_bytes) instead of per round (false: for tight memory, the peak is lower).
  // The per-round allocations cost the rounds' time outside their kernels (the default pool
  // maps and releases GBs at every round's synchronisation; data/calibration/h200.yaml: growth
  // 1.36 ms/GiB, release 1.71 ms/GiB). Measured on the H200, per round vs once: G1 2^24 232.7
  // vs 146.9 ms at a pool high-water of 3.80 vs 4.32 GiB (gpu/msm/DECISIONS.md #12).
  bool affine_persistent_scratch = true;
  bool affine_gather = false;
  bool affine_fermat = false;
  DeviceAffineAdd affine_add = DeviceAffineAdd::Auto;
  DeviceAffineInverse affine_inverse = DeviceAffineInverse::Auto;
  unsigned affine_lean_round0 = 0;
  // BatchAffine's map kernel (the items of each output, msm_accumulate_affine.cuh
  // affine_map_kernel): true = one binary search of the bucket offsets a warp, the lanes walking
  // on from it; false (the default) = one binary search an output. Map phase G1 2^24 4.35 (true)
  // vs 4.19 ms on the H200: the searches hit cache, the kernel is bound by its stores; kept off
  // (gpu/msm/DECISIONS.md #18).
  bool affine_map_search = false;
  // BatchAffine's map kernel: true (the default) = one warp a bucket, its lanes writing the
  // bucket's outputs' entries in turn (no search; affine_map_bucket_kernel), in rounds of at least
  // 2^10 buckets (fewer: the 1-scalars' bucket, affine_map_kernel); false = affine_map_kernel, a
  // thread an output (affine_map_search picks its search). Measured on the H200, default vs
  // false: G1 2^26 399.83 vs 410.53 ms, map phase 6.37 vs 17.04 (gpu/msm/DECISIONS.md #18).
  bool affine_map_bucket = true;
  // BatchAffine, round 0: true = the prep kernel tests the points' infinity flags in a
  // bitmap built once per call (n / 8 B; one flag read a point) instead of reading each flag
  // from the random point (its own 32-B sector: G1 x spans 2-3 sectors of a 104-B point); only
  // with affine_persistent_scratch (the bitmap lives in its scratch). false = read the flags.
  // Measured on the H200, with / without: G1 2^26 424.1 / 437.5 ms (prep phase 97.1 / 112.0;
  // gpu/msm/DECISIONS.md #16).
  bool affine_inf_bits = true;
  unsigned affine_prep_min_blocks = 0;
  // BatchAffine round 0 of packed points (the fixed-base table, gpu_msm_fixed_base.hpp; on_device's
  // Affine points ignore it): true = prep and add read a table entry's x (prep) / x, y
  // (add) before its infinity bit is known (affine_batch::ItemSource::load_eager), so the
  // random entry reads overlap the bitmap's instead of waiting for it; prep loads its next map
  // entry one output ahead. false (the default) = bit first, then the entry. Flat on the H200
  // (G1 2^24 89.54 vs 89.40 ms; gpu/msm/DECISIONS.md #29), kept for A/B.
  bool affine_eager_round0 = false;
  // Windows per group: at most max_group_pairs / n (at least 1); 0 = kMaxPairsPerGroup (2^25),
  // or for BatchAffine affine_group_pairs_default (G1 2^26, G2 2^25; msm_accumulate_affine.cuh).
  // Scratch grows with it (4 x 4 B per pair for the sort, a CUB double buffer; batch-affine
  // persistent scratch ~108 B (G1) / ~200 B (G2) a pair (DeviceStats::affine_scratch_bytes),
  // ~104 B (G1) / 200 B (G2) more with affine_gather). Larger groups are faster at the price of
  // the memory; the default stays 2^26 (lead's call). Measured on the H200, G1 2^26
  // batch-affine, groups of 2^26 / 2^28 pairs: 399.8 / 371.6 ms at 9.44 / 37.0 GiB
  // (gpu/msm/DECISIONS.md #14).
  std::size_t max_group_pairs = 0;
  // Steps 1-2 (digits, sort) of window group i + 1 on a second stream while group i's
  // accumulation runs (compute-bound levels or rounds beside the memory-bound sort); the
  // workspace then holds two pair sets (16 B more a pair: 4 x max_pairs x 4 B). With it,
  // DeviceStats::digits_ms is the wait for steps 1-2 that nothing hid and sort_ms stays 0.
  // Off: no gain on the H200 (G1 2^26 batch-affine 444.8 on vs 445.4 ms off; the hidden sort's
  // time reappears in the rounds beside it, which share the memory system;
  // gpu/msm/DECISIONS.md #20).
  bool overlap_sort = false;
  // Memory cap for Auto (0 = none): Auto takes the batch-affine rounds only where
  // device_auto_batch_affine holds and the batch-affine workspace (device_workspace_bytes with
  // accumulation = BatchAffine) is at most this many bytes; otherwise XYZZ (whose workspace is
  // not checked against it: it is the smallest this call can take). Before giving up the rounds
  // it gives up scalars_once's canonical scalars (n x 32 B, worth 0.5-2.5% of the time against
  // the rounds' 13-20%: gpu/msm/DECISIONS.md #23), and XYZZ drops them too where they would
  // pass the cap.
  // device_workspace_bytes applies the same test, so the query reports the layout the call
  // uses. Explicit accumulations ignore it. The streamed call applies it to one chunk's MSM.
  std::size_t max_workspace_bytes = 0;
  DeviceStats* stats = nullptr;
};

// `options` with the least workspace an MSM call can take: XYZZ accumulation with the scalars
// read per window group (no canonical copy); the rest is kept. The staging runtime runs a
// resident-points MSM so when the default does not fit its workspace (and splits it into pieces
// when this does not fit either); the probe's msm_workspace section records this need per size,
// the simulator's test of the same fit.
inline DeviceOptions least_workspace_options(DeviceOptions options) {
  options.scalars_once = false;
  options.accumulation = DeviceAccumulation::Xyzz;
  return options;
}

// Window size rule: c minimising W(c) * (n + 8 * 2^c), W(c) the number of signed windows of a
// 255-bit scalar: n digit additions per window against the per-bucket work (running sums, the
// reduction levels, the sort's key range), capped at 20 to bound bucket memory. It picks 13 at
// 2^20, 16 at 2^22 and 2^24, 20 at 2^26 and 2^27; n is the number of scalars left after step 0.
// The factor 8 was fitted on the H200 and re-checked with each accumulation; measured with the
// batch-affine rounds and the workspace reused, G1 2^26 c = 19/20/21 -> 461.6/444.4/468.4 ms
// (every sweep: gpu/msm/DECISIONS.md #1).
unsigned device_window_bits(std::size_t n);

// DeviceAccumulation::Auto: true (BatchAffine) for G1 when 2^17 <= n <= 2^27 and for G2 when
// 2^20 <= n <= 2^23, XYZZ otherwise; n is the number of scalars left after step 0. The call also
// needs the batch-affine workspace to fit DeviceOptions::max_workspace_bytes (when set).
// Measured on the H200, batch-affine vs XYZZ (one process): G1 2^17 3.62 vs 3.84 ms, 2^27
// 753.53 vs 866.15 at 18.35 vs 4.51 GiB of workspace; G2 2^20 39.8 vs 45.2, 2^23 201.6 vs 249.4
// at 7.6 vs 1.4 GiB; at 2^16 no round reaches affine_min_pairs, and above the bounds nothing was
// measured (the pipeline's 2^27 B_G2 curve is XYZZ's). Every size: gpu/msm/DECISIONS.md #13.
// The rule sees two n: the workspace's plan (device_workspace_bytes) all n points (the query
// cannot see the scalars), the call the scalars left after step 0. PoRep-shaped G1 2^27 (6.71M
// scalars other than 0 and 1): both are batch-affine's, 77.90 ms vs XYZZ 86.03 at 22.35 vs 8.51
// GiB; max_workspace_bytes is the caller's lever on the memory.
bool device_auto_batch_affine(bool g2, std::size_t n);

// Number of signed c-bit windows for 255-bit scalars (the top digit absorbs the last carry).
unsigned device_num_windows(unsigned c);

// A caller-owned MSM workspace: `bytes` of device memory at `data` (256-B aligned, e.g. from
// DeviceAllocator::allocate), not owned. A call given one allocates no device memory: every
// scratch buffer (pairs, bucket ranges, CUB storage, the XYZZ levels' partial sums, the reduction's
// part sums, the batch-affine rounds' scratch) is a piece of it, laid out from n and the options
// alone (the same layout whatever the scalars). The call's work on it is complete when the call
// returns, so the next call (any curve, any size the workspace holds) may reuse it at once; its
// contents between calls mean nothing (no call reads what an earlier one left).
struct DeviceWorkspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

// Bytes of workspace on_device<Curve> takes for n points with `options` (any scalars; 0 for n = 0).
// The capacities come from n: pairs (4 x G n x 4 B, G = windows per group), bucket ranges
// (~6 x 2^(c-1) G x 4 B), CUB sort storage, two sets of XYZZ partial sums (~n G / 32 x XYZZ),
// part sums, window sums, the batch-affine scratch when the call can take batch-affine rounds
// (DeviceAccumulation::BatchAffine, or Auto where device_auto_batch_affine(n) holds), and
// 4 B a point for step 0's index lists when options.split_01. Not monotone in n (G falls in
// steps as n grows): a caller that reuses one workspace for several sizes takes the maximum over
// them. Needs a CUDA device (CUB's storage size depends on it); `stream` orders nothing.
template <class Curve>
std::size_t device_workspace_bytes(std::size_t n, const DeviceOptions& options = {});

// As on_device_streamed below: two chunks of points (2 x chunk_points x Affine) and the workspace
// of one chunk's MSM.
template <class Curve>
std::size_t device_streamed_workspace_bytes(std::size_t n, std::size_t chunk_points,
                                            const DeviceOptions& options = {});

// The MSM on a caller's workspace (at least device_workspace_bytes(n, options) bytes, else
// std::invalid_argument naming both sizes; also for a misaligned one, and for
// affine_persistent_scratch = false, which allocates per round). Allocates no device memory.
template <class Curve>
typename Curve::Jacobian on_device(const typename Curve::Affine* d_points, const ff::Fr* d_scalars,
                                   std::size_t n, const DeviceWorkspace& workspace,
                                   cudaStream_t stream, const DeviceOptions& options = {});

// The MSM with a workspace of device_workspace_bytes(n, options) allocated from `alloc` for the
// call (and the per-round scratch when affine_persistent_scratch = false).
template <class Curve>
typename Curve::Jacobian on_device(const typename Curve::Affine* d_points, const ff::Fr* d_scalars,
                                   std::size_t n, gpu::DeviceAllocator& alloc, cudaStream_t stream,
                                   const DeviceOptions& options = {});

// As on_device, but the points are on the host (ideally pinned: PinnedHostBuffer or a
// HostRegistration) and are streamed to the device in chunks of at most `chunk_points` points
// (double-buffered on two streams), so only two chunks of points live on the device at a time.
// Scalars are on the device.
template <class Curve>
typename Curve::Jacobian on_device_streamed(const typename Curve::Affine* h_points,
                                            const ff::Fr* d_scalars, std::size_t n,
                                            std::size_t chunk_points, gpu::DeviceAllocator& alloc,
                                            cudaStream_t stream, const DeviceOptions& options = {});

// As above on a caller's workspace (device_streamed_workspace_bytes(n, chunk_points, options)).
template <class Curve>
typename Curve::Jacobian on_device_streamed(const typename Curve::Affine* h_points,
                                            const ff::Fr* d_scalars, std::size_t n,
                                            std::size_t chunk_points,
                                            const DeviceWorkspace& workspace, cudaStream_t stream,
                                            const DeviceOptions& options = {});

}  // namespace prestage::msm
