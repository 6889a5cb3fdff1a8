#pragma once
// Pippenger multi-scalar multiplication sum_i s_i * P_i on the GPU, for BLS12-381 G1 and G2.
//
// Contract: d_points holds n affine points (device; ec::G1Affine / ec::G2Affine layout, infinity
// allowed, repeats allowed), d_scalars n scalars (device, n x 32 B, Fr in Montgomery form, any
// value < r). All scratch memory is one workspace (GpuMsmWorkspace), the caller's or allocated
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
//  3. bucket accumulation. Batch-affine rounds first where they win (GpuMsmAccumulation: by
//     default G1 at 2^17 to 2^27 and G2 at 2^20 to 2^23, within GpuMsmOptions::
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
#include "gpu/runtime/memory.hpp"

namespace prestage::gpu {

struct GpuG1 {
  using Affine = ec::G1Affine;
  using Xyzz = ec::G1XYZZ;
  using Jacobian = ec::G1Jacobian;
};
struct GpuG2 {
  using Affine = ec::G2Affine;
  using Xyzz = ec::G2XYZZ;
  using Jacobian = ec::G2Jacobian;
};

// What one run did (for benchmark floors): filled when GpuMsmOptions::stats is set.
struct GpuMsmStats {
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
  // The scalars converted out of Montgomery form once for the call (GpuMsmOptions::
  // scalars_once; 0 when the digits kernel converts them for each window group instead).
  double scalars_ms = 0;
  bool scalars_once = false;  // the digits read the workspace's canonical scalars
  double ones_ms = 0;         // direct sum of the 1-scalars' points (split only)
  // Laying out the workspace (host only since msm10: ~0). Before msm10 the call allocated its
  // scratch here (the pool's growth; the release of the previous call's memory landed in
  // classify). The allocating gpu_msm now allocates the workspace before the phases start, so
  // its cost shows in the call's time only (gpu_bench rows *_alloc against the reused rows).
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
  double affine_prep_ms = 0;  // the prep kernel (before msm9: map + prep)
  double affine_map_ms = 0;   // the map kernel (msm9)
  double affine_invert_ms = 0;
  double affine_add_ms = 0;
  double accumulate_ms = 0;  // step 3, every XYZZ level
  double reduce_ms = 0;      // step 4 left after the last group's accumulation (the earlier
                             // groups' overlap later groups), with the window sums' download
  double host_ms = 0;        // step 5 (host clock)
  // The accumulation the call used (GpuMsmAccumulation::Auto resolved), and the bytes of the
  // batch-affine scratch it allocated once for the whole call (0: none, or allocated per round).
  // The call's peak device memory is measured by gpu_bench (pool high-water, rows *_msm*).
  bool batch_affine = false;
  std::size_t affine_scratch_bytes = 0;
  // Bytes of the workspace (GpuMsmWorkspace) the call laid out: equal to
  // gpu_msm_workspace_bytes(n, options) (the streamed call: of its chunk), whoever allocated it.
  std::size_t workspace_bytes = 0;
};

// Step 3's accumulation: XYZZ levels only, or batch-affine rounds first; Auto (the default) picks
// one by curve and size (gpu_msm_auto_batch_affine).
enum class GpuMsmAccumulation { Auto, Xyzz, BatchAffine };

// BatchAffine's add kernel (gpu/msm/affine_batch.hpp; registers in gpu_msm_impl.cuh): Auto (the
// default: G1 Lean, G2 Msmaffine), Lean (add_thread_lean at the higher occupancy), LeanLow (the
// same body at msmaffine's occupancy), Msmaffine (add_thread, msmaffine's body and occupancy).
// For items in memory; round 0 through the sorted values: GpuMsmOptions::affine_lean_round0.
// Msm7 run 1 (data/gpu-runs/2026-11-30-h200/msm7), add phase, gathered items: G1 2^24 Lean /
// LeanLow / Msmaffine 57.4 / 60.9 / 62.9 ms; G2 2^20 19.6 / 19.1 / 18.7 ms.
enum class GpuMsmAffineAdd { Auto, Lean, LeanLow, Msmaffine };

// BatchAffine's field inversion in the invert kernel (one per K2 thread products; gpu/msm/
// affine_batch.hpp): Auto (the default: Bingcd), Bingcd (ff::inverse_bingcd, Pornin's binary GCD
// in 31-step batches on 64-bit approximations: gpu/ff/inverse_bingcd_hd.hpp), Binary
// (ff::inverse_binary, msm7's binary extended Euclid: ~2 x 381 full-width steps whose branches
// split a warp's lanes). GpuMsmOptions::affine_fermat overrides both (Fermat). Msm9 (data/
// gpu-runs/2026-12-01-h200/msm9, rows msm_affine_ab9/ab9b, same process), invert phase Bingcd /
// Binary: G1 2^24 10.4 / 16.3 ms, G1 2^26 35.6 / 57.6, G2 2^20 2.6 / 4.1; totals G1 2^24
// 127.8 / 134.9 ms, 2^26 436.3 / 463.6, G2 2^20 37.9-39.2 / 39.5-39.7 (run 1).
enum class GpuMsmAffineInverse { Auto, Bingcd, Binary };

// Step 4's bucket reduction (reduce_windows in gpu_msm_impl.cuh), per window of N buckets cut into
// P = N / M parts of M buckets, one thread a part (part j's buckets get weights j M + 1 .. j M +
// M):
//  DoubleAdd: thread j adds j M sum(part j) to its part's running sum by double-and-add (up to
//    log2 N doublings a thread), then a tree over the parts (log2 P levels);
//  SuffixScan: thread j scales sum(part j) by M (log2 M doublings), an inclusive suffix scan over
//    the parts (log2 P steps: S_j = sum of the scaled sums of parts >= j) gives the weights,
//    sum_j j M sum(part j) = sum_{j >= 1} S_j, added to the part's running sum, then the tree.
//    Its serial chain is shorter (no per-part double-and-add), which is what a latency-bound
//    reduction (few threads, G2) pays for.
// Auto (the default): the curve's (reduce_scheme_default in gpu_msm_impl.cuh).
enum class GpuMsmReduce { Auto, DoubleAdd, SuffixScan };

struct GpuMsmOptions {
  unsigned window_bits = 0;  // c in [2, 22]; 0 = gpu_msm_window_bits(n)
  bool split_01 = true;      // step 0 allowed (false: every scalar goes through the windows)
  // Convert the scalars (those left after step 0) out of Montgomery form once per call into the
  // workspace (n x 32 B canonical, in step 0's order), when the call's plan takes more than one
  // window group; false: the digits kernel converts every scalar again for each window group
  // (before msm13). Msm13 (data/gpu-runs/2026-12-01-h200/msm13, G1 Auto, same process, once vs
  // per group, ms): 2^24 107.99 / 108.65 vs 108.86 / 108.79 (workspace 9.35 vs 8.85 GiB), 2^26
  // 391.34 vs 400.65 (digits + conversion 12.7 vs 23.3; 11.44 vs 9.44 GiB), 2^27 746.76 vs
  // 765.59 (25.3 vs 46.9; 22.35 vs 18.35 GiB); G2 2^22 93.68 vs 93.79 (8.55 vs 8.42 GiB);
  // PoRep-shaped G1 2^27 77.90 vs 78.02. The memory is sized by n (the query cannot see the
  // scalars): a caller short of it sets false, or max_workspace_bytes drops it first.
  bool scalars_once = true;
  // Level-0 accumulation kernel: blocks of 256 threads per SM that ptxas must fit (1, 2 or 3:
  // at most 255 / 128 / 85 registers a thread); 0 = the curve's default.
  unsigned accumulate_min_blocks = 0;
  // Step 4: threads a block of the last window group's reduction kernels (a multiple of 32 up
  // to 256; 0 = the curve's default: G1 256, G2 32; earlier groups always 256) and buckets a
  // thread reduces (a power of 2; 0 = the rule in gpu_msm_impl.cuh: 16, or when a group has at
  // most 2^17 buckets 4 for G1 and 8 for G2 with DoubleAdd; SuffixScan: G1 4, G2 by its thread
  // target, reduce_part_short_scan).
  unsigned reduce_block = 0;
  unsigned reduce_part_len = 0;
  GpuMsmReduce reduce = GpuMsmReduce::Auto;  // step 4's scheme (GpuMsmReduce)
  // History: Xyzz was the default: msmaffine run 3 (data/gpu-runs/2026-11-30-h200/msmaffine)
  // measured BatchAffine 2.2-2.3x slower for G1 (2^24: 305 vs 135 ms) and 1.3-1.4x slower for G2
  // (2^20: 67 vs 47 ms): its kernels reach ~25% of the Fq product rate (XYZZ's level 0: ~76%), and
  // each round's serial Fermat inversion adds ~1 ms (59 ms of the 305 at G1 2^24). Msm7 run 1
  // (data/gpu-runs/2026-11-30-h200/msm7: binary-Euclid inversions, K2 rule, prep occupancy,
  // lean add) made BatchAffine 11-12% faster but not faster than XYZZ: G1 2^24 228 vs 131 ms,
  // G2 2^20 48.1 vs 43.9 ms (same process); the largest part left is per-round overhead
  // outside the kernels (gpu_msm_impl.cuh, accumulate_buckets): the per-round allocations.
  // Msm8 (data/gpu-runs/2026-11-30-h200/msm8): with the persistent scratch (below, now the
  // default) BatchAffine wins for G2 at 2^20 to 2^23 (and G1 at 2^26 by 4.5%, at 3x the scratch:
  // not taken, gpu_msm_g1.cu): hence Auto
  // (gpu_msm_auto_batch_affine). Msm11 (data/gpu-runs/2026-12-01-h200/msm11): with the workspace
  // reused and msm9-msm11's kernels BatchAffine wins for G1 from 2^17 to 2^27 (Auto since msm11,
  // capped by max_workspace_bytes).
  GpuMsmAccumulation accumulation = GpuMsmAccumulation::Auto;
  // BatchAffine: a round runs only with at least this many pair additions (0 = the default,
  // affine_min_pairs_default in gpu_msm_impl.cuh: G1 2^20, G2 2^18); the XYZZ levels finish the
  // rest.
  std::size_t affine_min_pairs = 0;
  // BatchAffine: outputs a thread chains (K) and thread products per inversion (K2); 0 = the
  // defaults (kAffinePerThread; K2 by the rule affine_per_inversion(T) in gpu_msm_impl.cuh; the
  // fixed-base call's G1 K is 24: gpu_msm_fixed_base.cuh, fixed_per_thread).
  unsigned affine_per_thread = 0;
  unsigned affine_per_inversion = 0;
  // BatchAffine, the K2 rule's cap on invert threads (0 = the curve's default,
  // affine_invert_threads_default: G1 2^16 from msm9 on, G2 2^15): a higher cap takes shorter
  // chains (more inversions) in the big rounds (gpu_bench rows _inv15/_inv16/_inv17).
  unsigned affine_invert_threads = 0;
  // BatchAffine, knobs for gpu_bench's A/B rows (the defaults are the faster ones, msm7 run 1):
  // affine_gather = true gathers round 0's items into bucket order first (one random read per
  // item, then every round reads its items coalesced) instead of reading them through the
  // sorted values (prep reads x, add the points again): its prep and add kernels are faster
  // (G1 2^24: 26.8 + 57.4 vs 34.8 + 62.3 ms) but the call is slower (G1 2^24 323 vs 228 ms,
  // G2 2^20 65 vs 48 ms): the gather phase takes 75 ms where its traffic needs ~16, and the
  // rounds' other time grows, both with the extra GBs of scratch allocated per window group.
  // Msm11 (persistent scratch, workspace reused, rows _gather): still slower, G1 2^24 154.7 vs
  // 108.1 ms (the gather 54 ms), 2^26 537.8 vs 399.8 ms.
  // affine_fermat = true inverts by Fermat instead of the binary extended Euclid (invert phase
  // G1 2^24 48.8 vs 28.2 ms, G2 2^20 6.4 vs 4.2; affine_inverse picks between the two
  // non-Fermat ones). Round 0 without the gather takes the Msmaffine add kernel whatever
  // affine_add says, unless affine_lean_round0 is 2 or 3 (msm9 run 1, G1 2^24 add phase: 3 ->
  // 65.2, 2 -> 59.4 vs 59.0 ms, so 0 stays the default): the lean body through the sorted
  // values (add_thread_lean<true>) at 2 or 3 blocks of 256 per SM for G1 (G2: 1 block of 256
  // or 3 of 128; ptxas, msm9: G1 116 registers none spilled / 80 with 228 B spilled).
  // affine_prep_min_blocks: resident blocks of 256 per SM asked of ptxas for the prep kernel,
  // 1 to 3; 0 = the curve's default (G1 3, G2 2).
  // affine_persistent_scratch (the default) allocates the rounds' scratch once per call (sized
  // for the largest round 0, reused by every round and window group; GpuMsmStats::
  // affine_scratch_bytes) instead of per round (false: for tight memory, the peak is lower).
  // The per-round allocations cost the rounds' time outside their kernels (the default pool
  // maps and releases GBs at every round's synchronisation; data/calibration/h200.yaml: growth
  // 1.36 ms/GiB, release 1.71 ms/GiB). Session 6 (data/gpu-runs/2026-11-30-h200/
  // s6-persist-8d473e5), same process: G1 2^24 232.7 -> 146.9 ms, G2 2^20 49.0 -> 39.2 ms; pool
  // high-water G1 2^24 3.80 -> 4.32 GiB, G2 2^20 4.02 -> 4.69 GiB (msm8 README: by size).
  bool affine_persistent_scratch = true;
  bool affine_gather = false;
  bool affine_fermat = false;
  GpuMsmAffineAdd affine_add = GpuMsmAffineAdd::Auto;
  GpuMsmAffineInverse affine_inverse = GpuMsmAffineInverse::Auto;
  unsigned affine_lean_round0 = 0;
  // BatchAffine's map kernel (the items of each output, gpu_msm_impl.cuh affine_map_kernel): true
  // = one binary search of the bucket offsets a warp, the lanes walking on from it; false (the
  // default) = one binary search an output. Msm9 run 1, map phase G1 2^24 4.35 (true) vs 4.19 ms,
  // G2 2^20 0.38 vs 0.37: the searches hit cache, the kernel is bound by its stores; kept off.
  bool affine_map_search = false;
  // BatchAffine's map kernel, msm11: true (the default) = one warp a bucket, its lanes writing the
  // bucket's outputs' entries in turn (no search; affine_map_bucket_kernel), in rounds of at least
  // 2^10 buckets (fewer: the 1-scalars' bucket, msm9's kernel); false = msm9's kernel, a thread an
  // output (affine_map_search picks its search). Msm11 (data/gpu-runs/2026-12-01-h200/
  // msm11, rows msm_affine_ab11 *_mapsearch, same process), default vs false, total (map
  // phase): G1 2^20 10.86 vs 11.13 ms (0.10 vs 0.35), 2^22 28.57 vs 29.38 (0.39 vs 1.23), 2^24
  // 108.38 vs 111.83 (0.92 vs 4.43), 2^26 399.83 vs 410.53 (6.37 vs 17.04); G2 2^20 32.93 vs
  // 33.02 (0.17 vs 0.43), 2^22 96.65 vs 97.42 (0.66 vs 1.63).
  bool affine_map_bucket = true;
  // BatchAffine, round 0 (msm9): true = the prep kernel tests the points' infinity flags in a
  // bitmap built once per call (n / 8 B; one flag read a point) instead of reading each flag
  // from the random point (its own 32-B sector: G1 x spans 2-3 sectors of a 104-B point); only
  // with affine_persistent_scratch (the bitmap lives in its scratch). false = read the flags.
  // Msm9 run 2 (same process), prep phase (map + prep) with / without: G1 2^24 26.7 / 32.5 ms,
  // 2^26 97.1 / 112.0, G2 2^20 4.18 / 4.43; totals G1 2^24 121.7 / 128.1, 2^26 424.1 / 437.5.
  bool affine_inf_bits = true;
  unsigned affine_prep_min_blocks = 0;
  // BatchAffine round 0 of packed points (the fixed-base table, gpu_msm_fixed_base.hpp; gpu_msm's
  // Affine points ignore it), msm16: true = prep and add read a table entry's x (prep) / x, y
  // (add) before its infinity bit is known (affine_batch::ItemSource::load_eager), so the
  // random entry reads overlap the bitmap's instead of waiting for it; prep loads its next map
  // entry one output ahead. false = msm15's reads (bit first, then the entry).
  bool affine_eager_round0 = false;
  // Windows per group: at most max_group_pairs / n (at least 1); 0 = kMaxPairsPerGroup (2^25),
  // or for BatchAffine affine_group_pairs_default (G1 2^26, G2 2^25; gpu_msm_impl.cuh).
  // Scratch grows with it (4 x 4 B per pair for the sort, a CUB double buffer; batch-affine
  // persistent scratch ~108 B (G1) / ~200 B (G2) a pair (GpuMsmStats::affine_scratch_bytes),
  // ~104 B (G1) / 200 B (G2) more with affine_gather). Msm10 call 2 (data/gpu-runs/2026-12-01-
  // h200/msm10, workspace reused, same process), G1 batch-affine 2^24: groups of 2^26 / 2^27 /
  // 2^28 pairs -> 124.8 / 118.9 / 114.7 ms at a workspace of 8.8 / 17.6 / 33.4 GiB; 2^26:
  // 448.3 / 424.0 / 409.4 ms at 9.4 / 18.6 / 37.0 GiB (fewer rounds: invert, sort, digits and
  // the XYZZ tail shrink). The default stays 2^26: the memory is the price (lead's call).
  // Msm11 (data/gpu-runs/2026-12-01-h200/msm11, G1 Auto = batch-affine, same process): 2^24
  // 2^26 / 2^27 / 2^28 pairs -> 108.4 / 104.6 / 102.1 ms at 8.85 / 17.6 / 33.4 GiB; 2^26 399.8 /
  // 383.4 / 371.6 ms at 9.44 / 18.6 / 37.0 GiB (digits, sort and invert shrink). Still 2^26.
  std::size_t max_group_pairs = 0;
  // Steps 1-2 (digits, sort) of window group i + 1 on a second stream while group i's
  // accumulation runs (compute-bound levels or rounds beside the memory-bound sort); the
  // workspace then holds two pair sets (16 B more a pair: 4 x max_pairs x 4 B). With it,
  // GpuMsmStats::digits_ms is the wait for steps 1-2 that nothing hid and sort_ms stays 0.
  // Off: msm10 call 1 (data/gpu-runs/2026-12-01-h200/msm10, same process, workspace reused)
  // measured no gain: G1 2^24 XYZZ 127.3 vs 128.1 ms, batch-affine 124.6 vs 123.8; G1 2^26
  // 468.6 vs 470.5, 444.8 vs 445.4; G2 2^20 batch-affine 34.8 vs 34.3, XYZZ 44.2 vs 43.9 (the
  // hidden sort's time reappears in the rounds and levels beside it: G1 2^24 batch-affine
  // rounds 98.9 vs 91.7 ms; the sort and the accumulation share the memory system).
  bool overlap_sort = false;
  // Memory cap for Auto (0 = none): Auto takes the batch-affine rounds only where
  // gpu_msm_auto_batch_affine holds and the batch-affine workspace (gpu_msm_workspace_bytes with
  // accumulation = BatchAffine) is at most this many bytes; otherwise XYZZ (whose workspace is
  // not checked against it: it is the smallest this call can take). Before giving up the rounds
  // it gives up scalars_once's canonical scalars (n x 32 B, worth 0.5-2.5% of the time against
  // the rounds' 13-20%, msm13), and XYZZ drops them too where they would pass the cap.
  // gpu_msm_workspace_bytes applies the same test, so the query reports the layout the call
  // uses. Explicit accumulations ignore it. The streamed call applies it to one chunk's MSM.
  std::size_t max_workspace_bytes = 0;
  GpuMsmStats* stats = nullptr;
};

// Window size rule: c minimising W(c) * (n + 8 * 2^c), W(c) the number of signed windows of a
// 255-bit scalar: n digit additions per window against the per-bucket work (running sums, the
// reduction levels, the sort's key range), capped at 20 to bound bucket memory. It picks 13 at
// 2^20, 16 at 2^22 and 2^24, 20 at 2^26 and 2^27; n is the number of scalars left after step 0.
// The factor 8 was fitted to run 1 of the H200 (data/gpu-runs/2026-11-30-h200/run1-c26f3d1).
// Gpumsm run 3 (data/gpu-runs/2026-11-30-h200/gpumsm/run3-1123c2c: reduction overlapped, G1
// level 0 at 2 blocks/SM) confirms it, G1 medians: 2^20: c = 10/11/12/13/14/15 ->
// 26.4/27.3/26.8/25.7/29.0/30.3 ms; 2^24: c = 13/14/15/16/17/18 -> 307/289/278/250/266/269 ms;
// 2^26: c = 19/20/21/22 -> 896/904/983/1139 ms (19 and 20 within 1%; above 20 the sort and the
// partly filled segments of small buckets cost more than the fewer windows save). G2 2^20:
// c = 11/12/13/14/15 -> 133/123/120/128/135 ms. With the batch-affine accumulation (msmaffine
// run 3, data/gpu-runs/2026-11-30-h200/msmaffine/run3-053ec18) the rule's pick stays the best:
// G1 2^20 c = 10..15 -> 35.8/34.1/33.2/28.5/31.4/30.9 ms; G1 2^24 c = 13..18 ->
// 389/389/361/305/330/321 ms; G2 2^20 c = 11..15 -> 77.5/74.2/67.0/68.6/70.5 ms. The rule is
// unchanged. Msm10 call 1 (data/gpu-runs/2026-12-01-h200/msm10: batch-affine with the workspace
// reused, no per-call allocation left), medians, one process: G1 2^24 c = 15/16/17/18 ->
// 136.6/124.6/124.9/125.2 ms; G1 2^26 c = 18/19/20/21 -> 486.9/461.6/444.4/468.4 ms; G2 2^20
// c = 12/13/14/15/16 -> 37.4/34.4/36.5/39.3/35.4 ms: the rule's 16, 20 and 13 stay the best
// (17 at G1 2^24 within 0.3%); unchanged.
unsigned gpu_msm_window_bits(std::size_t n);

// GpuMsmAccumulation::Auto: true (BatchAffine) for G1 when 2^17 <= n <= 2^27 and for G2 when
// 2^20 <= n <= 2^23, XYZZ otherwise; n is the number of scalars left after step 0. The call also
// needs the batch-affine workspace to fit GpuMsmOptions::max_workspace_bytes (when set).
// G1, msm11 (data/gpu-runs/2026-12-01-h200/msm11, rows g1_msm + msm_affine_ab11, one process,
// workspace reused, medians), batch-affine vs XYZZ, ms (workspace GiB): 2^16 2.56 vs 2.50 (0.04
// both: no round reaches affine_min_pairs, so XYZZ), 2^17 3.62 vs 3.84 (0.40 vs 0.08), 2^18 5.15
// vs 5.53 (0.74 vs 0.14), 2^19 6.95 vs 7.43 (1.34 vs 0.25), 2^20 11.04 vs 12.18 (2.64 vs 0.47),
// 2^21 16.07 vs 20.11 (4.45 vs 0.93), 2^22 28.72 vs 36.55 (8.59 vs 1.13), 2^23 54.91 vs 67.75
// (8.95 vs 1.03), 2^24 108.61 vs 128.58 (8.85 vs 1.01), 2^25 209.45 vs 256.66 (9.31 vs 1.24),
// 2^26 398.31 vs 471.19 (9.44 vs 2.48), 2^27 753.53 vs 866.15 (18.35 vs 4.51). Before msm11 G1
// was XYZZ at every size (msm8 run 2: batch-affine 4.5% faster at 2^26 at 3x the scratch; the
// lead kept XYZZ for memory: the cap is now the caller's, max_workspace_bytes).
// G2: msm8 (data/gpu-runs/2026-11-30-h200/msm8, medians, batch-affine with the persistent
// scratch and msm8's defaults, XYZZ in the same process): G2 2^20 39.8 vs 45.2 ms, 2^22 111.5
// vs 140.6 ms. Session 6 (data/gpu-runs/2026-11-30-h200/s6-rule-e57778e, rows msm_auto_rule): G2
// 2^18 19.3 vs 19.5 ms (tie), 2^19 26.3 vs 27.9, 2^21 69.1 vs 79.5, 2^23 201.6 vs 249.4. Not
// measured: G2 above 2^23 (kept XYZZ: the pipeline's 2^27 B_G2 curve is XYZZ's). The price is
// device memory (pool high-water of one call): G2 2^20 4.69 vs 0.75 GiB, 2^22 7.66 vs 1.37 GiB,
// 2^23 7.63 vs 1.36 GiB.
// The rule sees two n: the workspace's plan (gpu_msm_workspace_bytes) all n points (the query
// cannot see the scalars), the call the scalars left after step 0. PoRep-shaped G1 2^27 (60.4M
// 1-scalars, 67.1M zeros, 6.71M others; msm13, data/gpu-runs/2026-12-01-h200/msm13, same
// process): the plan is batch-affine's (2^27 points), the call too (6.71M), the 1-scalars' bucket
// through the rounds: 77.90 ms vs XYZZ 86.03 (workspace 22.35 vs 8.51 GiB with scalars_once's
// 4 GiB, 18.35 vs 4.51 without): batch-affine, unchanged; max_workspace_bytes is the caller's
// lever on the memory.
bool gpu_msm_auto_batch_affine(bool g2, std::size_t n);

// Number of signed c-bit windows for 255-bit scalars (the top digit absorbs the last carry).
unsigned gpu_msm_num_windows(unsigned c);

// A caller-owned MSM workspace: `bytes` of device memory at `data` (256-B aligned, e.g. from
// DeviceAllocator::allocate), not owned. A call given one allocates no device memory: every
// scratch buffer (pairs, bucket ranges, CUB storage, the XYZZ levels' partial sums, the reduction's
// part sums, the batch-affine rounds' scratch) is a piece of it, laid out from n and the options
// alone (the same layout whatever the scalars). The call's work on it is complete when the call
// returns, so the next call (any curve, any size the workspace holds) may reuse it at once; its
// contents between calls mean nothing (no call reads what an earlier one left).
struct GpuMsmWorkspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

// Bytes of workspace gpu_msm<Curve> takes for n points with `options` (any scalars; 0 for n = 0).
// The capacities come from n: pairs (4 x G n x 4 B, G = windows per group), bucket ranges
// (~6 x 2^(c-1) G x 4 B), CUB sort storage, two sets of XYZZ partial sums (~n G / 32 x XYZZ),
// part sums, window sums, the batch-affine scratch when the call can take batch-affine rounds
// (GpuMsmAccumulation::BatchAffine, or Auto where gpu_msm_auto_batch_affine(n) holds), and
// 4 B a point for step 0's index lists when options.split_01. Not monotone in n (G falls in
// steps as n grows): a caller that reuses one workspace for several sizes takes the maximum over
// them. Needs a CUDA device (CUB's storage size depends on it); `stream` orders nothing.
template <class Curve>
std::size_t gpu_msm_workspace_bytes(std::size_t n, const GpuMsmOptions& options = {});

// As gpu_msm_streamed below: two chunks of points (2 x chunk_points x Affine) and the workspace of
// one chunk's MSM.
template <class Curve>
std::size_t gpu_msm_streamed_workspace_bytes(std::size_t n, std::size_t chunk_points,
                                             const GpuMsmOptions& options = {});

// The MSM on a caller's workspace (at least gpu_msm_workspace_bytes(n, options) bytes, else
// std::invalid_argument naming both sizes; also for a misaligned one, and for
// affine_persistent_scratch = false, which allocates per round). Allocates no device memory.
template <class Curve>
typename Curve::Jacobian gpu_msm(const typename Curve::Affine* d_points, const ff::Fr* d_scalars,
                                 std::size_t n, const GpuMsmWorkspace& workspace,
                                 cudaStream_t stream, const GpuMsmOptions& options = {});

// The MSM with a workspace of gpu_msm_workspace_bytes(n, options) allocated from `alloc` for the
// call (and the per-round scratch when affine_persistent_scratch = false).
template <class Curve>
typename Curve::Jacobian gpu_msm(const typename Curve::Affine* d_points, const ff::Fr* d_scalars,
                                 std::size_t n, DeviceAllocator& alloc, cudaStream_t stream,
                                 const GpuMsmOptions& options = {});

// As gpu_msm, but the points are on the host (ideally pinned: PinnedHostBuffer or a
// HostRegistration) and are streamed to the device in chunks of at most `chunk_points` points
// (double-buffered on two streams), so only two chunks of points live on the device at a time.
// Scalars are on the device.
template <class Curve>
typename Curve::Jacobian gpu_msm_streamed(const typename Curve::Affine* h_points,
                                          const ff::Fr* d_scalars, std::size_t n,
                                          std::size_t chunk_points, DeviceAllocator& alloc,
                                          cudaStream_t stream, const GpuMsmOptions& options = {});

// As above on a caller's workspace (gpu_msm_streamed_workspace_bytes(n, chunk_points, options)).
template <class Curve>
typename Curve::Jacobian gpu_msm_streamed(const typename Curve::Affine* h_points,
                                          const ff::Fr* d_scalars, std::size_t n,
                                          std::size_t chunk_points,
                                          const GpuMsmWorkspace& workspace, cudaStream_t stream,
                                          const GpuMsmOptions& options = {});

}  // namespace prestage::gpu
