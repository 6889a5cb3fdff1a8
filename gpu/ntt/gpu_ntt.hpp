#pragma once
// Fr number-theoretic transforms on the GPU: forward, inverse, coset forward and coset inverse,
// natural order in and out, in place on a device buffer of n = 2^log_n elements (n x 32 B,
// Montgomery form), 1 <= log_n <= 31. The transforms are those of ffjavascript (snarkjs):
//   forward(a)[j] = sum_i a[i] w^(ij), w = the domain's root (ntt::root_of_unity(log_n));
//   inverse = forward's inverse (1/n included);
//   coset_forward(a) = forward(a[i] * g^i);  coset_inverse = its inverse.
//
// Kernels never allocate: DeviceDomain and DeviceCosetShift take their tables from the
// allocator they are given (the NTT path uses SyncAllocator, as the real prover does).
//
// Algorithm (gpu/ntt/ntt_pass.hpp): every transform is radix-2 decimation in frequency
// (Gentleman-Sande) then a bit-reversal permutation; forward with w, inverse with w^-1.
// The log_n stages are grouped into passes (2^27: 3 passes of 9 stages); each pass
// loads a tile of up to 2048 elements (rows of a strided sub-transform, 4-8 adjacent columns)
// into shared memory, runs its stages there (radix-2 butterflies, 2 elements per thread at a
// time) with the sub-transform's roots from a small shared table, applies the four-step
// inter-pass twiddle once per element (read from the domain's w^e table, n/2 x 32 B: 2 GiB at
// 2^27; w^-e = -w^(n/2-e)) and writes the tile back. The bit reversal rides on the last pass's
// stores (scattered in runs of up to 8 adjacent elements): with a scratch buffer the first pass
// writes it and the last reads it; in place, the last pass runs as one persistent cooperative
// kernel whose blocks take tiles in pairs of mirror sets (see DeviceDomain) and wait, before
// storing, until the tiles they overwrite have been loaded. A 2^27 transform so reads and writes
// the data 3 times. Where that pass cannot run (2-pass plans whose last pass has more than half
// the stages, e.g. 2^19-2^20; GPUs without cooperative launch or too few resident blocks) a
// separate coalesced, tiled bit-reversal pass follows in place. Scalings ride on passes: the
// coset's g^i on the first pass's loads, the inverse's 1/n on the first pass's loads
// (pass::mul_pow2_inv, a shift and one 32-bit reduction step instead of a product), the
// coset inverse's n^-1 g^-i on the last pass's stores. Coset factors: with a plan of
// three passes (2^21 .. 2^29) one product an element, part of the factor joining the middle
// pass's inter-pass twiddle (pass::coset_split_tables); otherwise, or with
// CosetTables::HiLo, g^i = hi[i >> 11] * lo[i & 2047] (2 products). The split form runs its
// own kernel variants (the table twiddle and the split Op compiled in, so the plain
// transforms keep ea03a08's kernels), built for the default tuning only: under another tuning
// the coset transforms and the H chain take the hi * lo form.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/ff/fr.hpp"
#include "gpu/runtime/memory.hpp"

namespace prestage::ntt {

using ff::Fr;

// A domain of size 2^log_n on the device: its twiddle table (n/2 x 32 B, Montgomery, w^e at
// index e) and n^-1. `omega` must be a primitive 2^log_n-th root of unity (checked; throws
// std::invalid_argument otherwise); pass ntt::root_of_unity(log_n) for snarkjs's roots. The
// table is built on `stream` with memory from `alloc`; it is ready for work ordered after it.
class DeviceDomain {
 public:
  DeviceDomain(unsigned log_n, const Fr& omega, gpu::DeviceAllocator& alloc, cudaStream_t stream);
  unsigned log_size() const { return log_n_; }
  std::size_t size() const { return std::size_t{1} << log_n_; }
  const Fr& omega() const { return omega_; }
  const Fr& size_inv() const { return size_inv_; }
  const Fr* twiddles() const { return twiddles_.data(); }  // device, n/2 x 32 B
  // In-place last pass (gpu_ntt.cu, mirror_pass_kernel): with the last pass of k stages and
  // n >= 2^(2k), index (a, m, b) (k, log_n - 2k, k bits) moves to (rev b, rev m, rev a), so the
  // set S_m of indices with middle bits m maps onto S_rev(m). Device, u32: [order (2^mbits): the
  // m in ticket order, each m next to rev(m) | ticket (1) | loaded (2^mbits): tiles of S_m
  // loaded], the last two zeroed before each in-place transform; null when the plan has no such
  // pass. In-place transforms of one domain therefore run one at a time (stream order); with a
  // scratch buffer they share nothing.
  uint32_t* mirror_state() const { return mirror_.data(); }
  unsigned mirror_bits() const { return mirror_bits_; }

 private:
  unsigned log_n_;
  Fr omega_, size_inv_;
  gpu::DeviceBuffer<Fr> twiddles_;
  unsigned mirror_bits_ = 0;
  gpu::DeviceBuffer<uint32_t> mirror_;
};

// How the coset transforms and the H chain form their factors: Split (default where the plan has
// three passes: one product an element, pass::coset_split_tables, 6 more tables of about
// 2^18 x 32 B at 2^27) or HiLo (hi * lo, 2 products an element; the only form elsewhere).
// Measured on the H200 at 2^27, Split against HiLo in one process: coset inverse in place 40.25
// vs 43.18 ms (gpu/ntt/DECISIONS.md #10).
enum class CosetTables { Split, HiLo };

// Power tables of a coset shift g for one domain (device, Montgomery):
//   forward: g^i = fwd_hi[i >> 11] * fwd_lo[i & 2047]
//   inverse: n^-1 * g^-i = inv_hi[i >> 11] * inv_lo[i & 2047]
//   H computation: n^-1 * g^i = fwd_hi[i >> 11] * fwd_lo_ninv[i & 2047]
// and, with CosetTables::Split on a plan of three passes, pass::CosetSplit's six tables.
// `g` must be nonzero (throws std::invalid_argument otherwise).
class DeviceCosetShift {
 public:
  static constexpr unsigned kLoBits = 11;
  DeviceCosetShift(const DeviceDomain& domain, const Fr& g, gpu::DeviceAllocator& alloc,
                   cudaStream_t stream, CosetTables tables = CosetTables::Split);
  const Fr& shift() const { return g_; }
  // Split tables (device, Montgomery; null when not built): layouts as pass::CosetSplit.
  bool split() const { return split_k_[0] != 0; }
  const unsigned* split_stages() const { return split_k_; }  // k0, k1, k2 of the plan
  const Fr* split_fwd_pre() const { return split_.data(); }
  const Fr* split_fwd_tw() const { return split_.data() + split_off_[0]; }
  const Fr* split_inv_tw() const { return split_.data() + split_off_[1]; }
  const Fr* split_inv_post() const { return split_.data() + split_off_[2]; }
  const Fr* split_h_tw() const { return split_.data() + split_off_[3]; }
  const Fr* split_h_mid() const { return split_.data() + split_off_[4]; }
  const Fr* fwd_lo() const { return tables_.data(); }
  const Fr* fwd_hi() const { return tables_.data() + lo_count_; }
  const Fr* inv_lo() const { return tables_.data() + lo_count_ + hi_count_; }
  const Fr* inv_hi() const { return tables_.data() + 2 * lo_count_ + hi_count_; }
  const Fr* fwd_lo_ninv() const { return tables_.data() + 2 * lo_count_ + 2 * hi_count_; }

 private:
  Fr g_;
  std::size_t lo_count_, hi_count_;
  gpu::DeviceBuffer<Fr> tables_;  // [fwd_lo | fwd_hi | inv_lo | inv_hi | fwd_lo_ninv]
  unsigned split_k_[3] = {0, 0, 0};
  std::size_t split_off_[5] = {0, 0, 0, 0, 0};
  gpu::DeviceBuffer<Fr> split_;  // [fwd_pre | fwd_tw | inv_tw | inv_post | h_tw | h_mid]
};

// In-place transforms of d_data (domain.size() x 32 B, Montgomery, natural order) on `stream`.
// d_scratch: null, or a device buffer of domain.size() x 32 B not overlapping d_data, whose
// contents are overwritten (unspecified on return); the first pass then writes d_scratch and the
// last pass reads it. Without it the last pass runs in place (mirror_pass_kernel) where the plan
// and GPU allow, else a separate bit-reversal pass follows (see Algorithm above). Without a
// scratch buffer, transforms of one domain must not run concurrently (DeviceDomain).
// Measured on the H200 at 2^27 (data/gpu-runs/2026-12-01-h200/run19-4c7aaef, medians):
// forward in place / with scratch 38.49 / 38.20 ms, inverse 39.58 / 39.28, coset forward 40.23 /
// 39.94 (compute-bound floor 30.6). The in-place path's extra ~0.3 ms is all in its last pass
// (see detail::MirrorOrder); how each pass form was chosen: gpu/ntt/DECISIONS.md.
void forward(const DeviceDomain& domain, Fr* d_data, cudaStream_t stream, Fr* d_scratch = nullptr);
void inverse(const DeviceDomain& domain, Fr* d_data, cudaStream_t stream, Fr* d_scratch = nullptr);
void coset_forward(const DeviceDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                   cudaStream_t stream, Fr* d_scratch = nullptr);
void coset_inverse(const DeviceDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                   cudaStream_t stream, Fr* d_scratch = nullptr);

namespace detail {
// How an in-place transform (no scratch) of `domain` applies the bit reversal on the current
// device: inside its one pass, in the last pass (mirror_pass_kernel), or as a separate pass.
enum class InPlacePath { OnePass, Mirror, SeparateReversal };
InPlacePath in_place_path(const DeviceDomain& domain);

// The order in which the in-place last pass (InPlacePath::Mirror) takes the tiles of a set
// (pass::mirror_tile), process-wide: Ascending or Reversed (bit-reversed, the
// order of the scratch path's last pass, so that consecutive tickets store adjacent runs of each
// row; in ascending order they lie 8 KB apart at 2^27). Same sets and set order, so the same
// results: checked on the host (data/gpu-runs/2026-12-01-h200/ntt11/host_check_reversed.sh), on
// the GPU by gpu_ntt_test's ntt_in_place_last_pass_forms_agree (passing at c6677ef). Reversed
// has kernels for the default tuning only; under another tuning (PRESTAGE_NTT_TUNING) the
// ascending order runs and current_mirror_order() says so. For A/B measurements and the tests;
// not while transforms run on other threads. DEFAULT Ascending: the
// in-place path's extra cost is its last pass (2^27 forward 11.13 ms in place against 10.81 with
// scratch), and the two orders measured equal within 0.04 ms on every 2^27 row on the H200
// (three rounds, data/gpu-runs/2026-12-01-h200/run18-c6677ef). Taking the ticket's round trips
// off the tile's critical path was slower (last pass 11.34 ms) and was removed
// (gpu/ntt/DECISIONS.md #12).
enum class MirrorOrder { Ascending, Reversed };
inline constexpr MirrorOrder kDefaultMirrorOrder = MirrorOrder::Ascending;
void set_mirror_order(MirrorOrder order);
MirrorOrder current_mirror_order();  // the order in-place transforms take now

// For the H computation (gpu/groth16/gpu_h.cu): d_data (evaluations on the domain, natural
// order) -> evaluations on the coset shift.shift() * <w>, natural order, as
// coset_forward(inverse(.)) computes them, without either bit reversal: DIF passes with
// w^-1 (coefficients left in bit-reversed order), the last DIF pass fused with the n^-1 g^i
// scaling and the first DIT pass with w, then DIT passes with w. When d_a is not null the last
// pass stores d_a[i] <- (d_a[i] * d_b[i] - x_i) (* zinv when scale) instead of writing d_data,
// which is then left partly transformed.
void interpolate_to_coset(const DeviceDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                          Fr* d_a, const Fr* d_b, const Fr& zinv, bool scale, cudaStream_t stream);
}  // namespace detail

}  // namespace prestage::ntt
