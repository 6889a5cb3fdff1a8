#pragma once
// Fixed-base MSM: sum_i s_i * P_i for bases P_i known ahead of the scalars (Groth16's
// proving-key points, the same for every proof of a circuit), through a table built once per key.
//
// Table: for n bases and window size c, the W = device_num_windows(c) copies 2^(c j) P_i,
// j = 0..W-1, affine, copy-major (entry j n + i). With it sum_i s_i P_i = sum_i sum_j d_ij
// (2^(c j) P_i) for the signed c-bit digits d_ij of s_i: ONE window of n W items and ONE set of
// 2^(c-1) buckets shared by all W windows, so the additions are ~n W + 2 x 2^(c-1) (one
// reduction, no Horner), and c can be much larger than on_device's (whose W x 2^(c-1) buckets cap
// it at 16 for G1 2^24): G1 2^24 at c = 22 takes 12 digits a scalar instead of 16.
// The price is the table's memory: W n entries of x, y only (affine_batch::PackedAffine: G1 96 B,
// G2 192 B, not ec::Affine's 104 / 200 B) and a bitmap of their infinity flags.
//
// The call reuses on_device's pipeline (gpu_msm_impl.cuh): digits -> (bucket key = |d| - 1, table
// index j n + i | sign << 31) pairs -> CUB radix sort -> batch-affine rounds -> XYZZ levels ->
// one running-sum reduction. The sorted pairs are accumulated in slices of at most
// DeviceOptions::max_group_pairs pairs (0: G1 batch-affine the n W pairs in the fewest even
// slices of at most 2^28 pairs; G2 and XYZZ-only on_device's group default, G2 2^25), cut at
// pair positions (a bucket cut by a slice boundary is summed in both slices), each slice's
// bucket sums added into one shared bucket array that is reduced once: the scratch of the
// rounds and levels is bounded by the slice, whatever n W.
// Larger slices are faster at the price of the memory (the rule and its figures at
// fixed_slice_pairs, gpu_msm_fixed_base.cuh).
// Measured on the H200 at the defaults, same process as the default on_device (table GiB, build
// time): G1 2^24 86.70 vs 108.23 ms (c = 20: 19.5 GiB, 1.73 s; workspace 26.5 GiB), 2^26 324.19
// vs 390.60 (c = 22: 72.1 GiB, 6.9 s; 41.7 GiB); G2 2^20 24.54 vs 31.78 (c = 16: 3.0 GiB, 413
// ms). Every size and the earlier layouts: gpu/msm/DECISIONS.md #24.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/msm/affine_batch.hpp"
#include "gpu/msm/gpu_msm.hpp"

namespace prestage::msm {

// A base table on the device (build_base_table), in one buffer, not owned: `data` holds
// `windows` x n entries, entry j n + i = 2^(c j) P_i (x, y; windows = device_num_windows(c));
// `inf_bits` their infinity flags, bit e of word e / 32 for entry e (ceil(windows n / 32) words).
// Packed entries (96 B G1, 3 sectors a random read of which x takes 2) instead of
// ec::Affine's 104 B (x 2.25 sectors on average, the point 4), the flags from the bitmap that
// round 0's prep reads anyway (ItemSource::inf_bits): G1 2^26 337.6 vs 355.1 ms on the H200
// (gpu/msm/DECISIONS.md #26).
template <class Curve>
struct DeviceBaseTable {
  using Entry = affine_batch::PackedAffine<typename Curve::Affine::Field>;
  const Entry* data = nullptr;
  std::size_t n = 0;
  unsigned c = 0;
  unsigned windows = 0;
  const uint32_t* inf_bits = nullptr;
};

// Window size of the fixed-base call (the table's c) for n scalars: the c in [2, 24] that
// minimises W(c) n + 8 x 2^c (the pair additions against the shared buckets' cost: the reduction,
// the sort's key bits, the rounds' and XYZZ tail's small buckets), ties to the larger c; G1 and
// G2 alike. It picks 16 at 2^20, 20 at 2^22 (tied with 19), 20 at 2^24, 22 at 2^26.
// Measured on the H200: G1 2^24 c = 20 / 22 / 24 -> 95.2 / 96.9 / 126.0 ms (reduce 2.1 / 6.9 /
// 24.5 ms: the 2^(c-1) buckets' cost grows faster than the W n pairs shrink); G2 2^20 c = 14 /
// 15 / 16 -> 30.9 / 29.9 / 24.55 (every sweep: gpu/msm/DECISIONS.md #25).
unsigned fixed_base_window_bits(bool g2, std::size_t n);

// Bytes of the table for n bases at window size c: the W n entries (W = device_num_windows(c),
// sizeof(DeviceBaseTable::Entry) = G1 96, G2 192 B) padded to 256 B, then ceil(W n / 32) words
// of infinity bits.
template <class Curve>
std::size_t base_table_bytes(std::size_t n, unsigned c);

// Builds the table of n bases (d_points: n affine points on the device, infinity allowed) at
// window size c (2..24; 0 = fixed_base_window_bits) into d_table (device, 256-B aligned,
// at least base_table_bytes(n, c) bytes, else std::invalid_argument; also for W n >=
// 2^31, the limit of a pair's index). Copy j + 1 is c doublings of copy j (XYZZ), then affine with
// one Fermat inversion a chunk of 32 points (Montgomery's trick); scratch (up to 2^22 points of
// XYZZ and one Field each) from `alloc`. Runs once per key; ordered on `stream`, returns when the
// table is complete (synchronises `stream`).
template <class Curve>
DeviceBaseTable<Curve> build_base_table(const typename Curve::Affine* d_points, std::size_t n,
                                        unsigned c, void* d_table, std::size_t table_bytes,
                                        gpu::DeviceAllocator& alloc, cudaStream_t stream);

// Bytes of workspace on_device_fixed_base<Curve> takes for a table of n bases at window size c
// with `options` (0 for n = 0): the n W pairs (4 x 4 B each: a CUB double buffer), bucket ranges
// and the shared buckets (2^(c-1) each), CUB storage, and per slice of max_group_pairs pairs the
// batch-affine scratch (as on_device's group, with an infinity bitmap of n W bits) and the XYZZ
// levels. Needs a CUDA device (CUB's storage size).
template <class Curve>
std::size_t fixed_base_workspace_bytes(std::size_t n, unsigned c,
                                       const DeviceOptions& options = {});

// sum_i s_i * P_i for the table's bases and d_scalars (device, n x 32 B, Fr in Montgomery form,
// any value < r) on a caller's workspace (at least fixed_base_workspace_bytes(n,
// table.c, options) bytes, 256-B aligned; allocates no device memory). std::invalid_argument
// when table.n != n, table.windows != device_num_windows(table.c), table.c is not in [2, 24],
// table.data or table.inf_bits is null, options.window_bits is neither 0 nor table.c, or the
// workspace is too small. Options honoured: accumulation (Auto = BatchAffine: rounds run while a
// round has affine_min_pairs pair additions; Xyzz: levels only), max_group_pairs (the slice; 0:
// see above), the batch-affine knobs (affine_per_thread 0: G1 24, G2 8),
// affine_eager_round0, reduce / reduce_block / reduce_part_len, accumulate_min_blocks and stats
// (window_groups = slices, windows = W, nonzero_digits = pairs); split_01, scalars_once,
// overlap_sort and max_workspace_bytes do not apply. Ordered on `stream`; returns when the result
// is on the host (Jacobian; infinity for n = 0).
template <class Curve>
typename Curve::Jacobian on_device_fixed_base(const DeviceBaseTable<Curve>& table,
                                              const ff::Fr* d_scalars, std::size_t n,
                                              const DeviceWorkspace& workspace, cudaStream_t stream,
                                              const DeviceOptions& options = {});

}  // namespace prestage::msm
