#pragma once
// Fr number-theoretic transforms on the GPU: forward, inverse, coset forward and coset inverse,
// natural order in and out, in place on a device buffer of n = 2^log_n elements (n x 32 B,
// Montgomery form), 1 <= log_n <= 31. The transforms are those of ffjavascript (snarkjs):
//   forward(a)[j] = sum_i a[i] w^(ij), w = the domain's root (ntt::root_of_unity(log_n));
//   inverse = forward's inverse (1/n included);
//   coset_forward(a) = forward(a[i] * g^i);  coset_inverse = its inverse.
//
// Kernels never allocate: DeviceNttDomain and DeviceCosetShift take their tables from the
// allocator they are given (the NTT path uses SyncAllocator, as the real prover does).
//
// Algorithm (gpu/ntt/ntt_pass.hpp): forward = radix-2 decimation in frequency (Gentleman-Sande)
// then a bit-reversal permutation; inverse = bit reversal then decimation in time (Cooley-Tukey)
// with w^-1. The log_n stages are grouped into passes (2^27: 3 passes of 9 stages); each pass
// loads a tile of up to 2048 elements (rows of a strided sub-transform, 4-8 adjacent columns)
// into shared memory, runs its stages there (radix-2 butterflies, 2 elements per thread at a
// time) with the sub-transform's roots from a small shared table, applies the four-step
// inter-pass twiddle once per element (read from the domain's w^e table, n/2 x 32 B: 2 GiB at
// 2^27; w^-e = -w^(n/2-e)) and writes the tile back: a 2^27 transform reads and writes the data
// 3 times plus one coalesced, tiled bit-reversal pass, or 3 times only when the caller lends a
// scratch buffer (the permutation then rides on the last DIF pass's stores, or the first DIT
// pass's loads). The coset scaling (g^i, and n^-1 g^-i for the inverse) and the 1/n scaling are
// fused into the first (resp. last) pass, from two small power tables
// (g^i = hi[i >> 11] * lo[i & 2047]).
#include <cuda_runtime.h>

#include <cstddef>

#include "gpu/ff/fr.hpp"
#include "gpu/runtime/memory.hpp"

namespace prestage::gpu {

using ff::Fr;

// A domain of size 2^log_n on the device: its twiddle table (n/2 x 32 B, Montgomery, w^e at
// index e) and n^-1. `omega` must be a primitive 2^log_n-th root of unity (checked; throws
// std::invalid_argument otherwise); pass ntt::root_of_unity(log_n) for snarkjs's roots. The
// table is built on `stream` with memory from `alloc`; it is ready for work ordered after it.
class DeviceNttDomain {
 public:
  DeviceNttDomain(unsigned log_n, const Fr& omega, DeviceAllocator& alloc, cudaStream_t stream);
  unsigned log_size() const { return log_n_; }
  std::size_t size() const { return std::size_t{1} << log_n_; }
  const Fr& omega() const { return omega_; }
  const Fr& size_inv() const { return size_inv_; }
  const Fr* twiddles() const { return twiddles_.data(); }  // device, n/2 x 32 B

 private:
  unsigned log_n_;
  Fr omega_, size_inv_;
  DeviceBuffer<Fr> twiddles_;
};

// Power tables of a coset shift g for one domain (device, Montgomery):
//   forward: g^i = fwd_hi[i >> 11] * fwd_lo[i & 2047]
//   inverse: n^-1 * g^-i = inv_hi[i >> 11] * inv_lo[i & 2047]
//   H computation: n^-1 * g^i = fwd_hi[i >> 11] * fwd_lo_ninv[i & 2047]
// `g` must be nonzero (throws std::invalid_argument otherwise).
class DeviceCosetShift {
 public:
  static constexpr unsigned kLoBits = 11;
  DeviceCosetShift(const DeviceNttDomain& domain, const Fr& g, DeviceAllocator& alloc,
                   cudaStream_t stream);
  const Fr& shift() const { return g_; }
  const Fr* fwd_lo() const { return tables_.data(); }
  const Fr* fwd_hi() const { return tables_.data() + lo_count_; }
  const Fr* inv_lo() const { return tables_.data() + lo_count_ + hi_count_; }
  const Fr* inv_hi() const { return tables_.data() + 2 * lo_count_ + hi_count_; }
  const Fr* fwd_lo_ninv() const { return tables_.data() + 2 * lo_count_ + 2 * hi_count_; }

 private:
  Fr g_;
  std::size_t lo_count_, hi_count_;
  DeviceBuffer<Fr> tables_;  // [fwd_lo | fwd_hi | inv_lo | inv_hi | fwd_lo_ninv]
};

// In-place transforms of d_data (domain.size() x 32 B, Montgomery, natural order) on `stream`.
// d_scratch: null, or a device buffer of domain.size() x 32 B not overlapping d_data, whose
// contents are overwritten (unspecified on return). With it the bit-reversal permutation is
// fused into a pass (the first pass writes d_scratch, the last writes d_data at bit-reversed
// indices in runs of up to 8 adjacent elements (4 at 2^27), or the inverse's first pass gathers
// d_data[rev(g)]: one read+write of the data fewer); without it, plans of more than one pass (n >
// 2^11) run a separate bit-reversal pass in place. Measured (H200, 2^27, ntt5 run 2 in
// data/gpu-runs/2026-11-30-h200/ntt5/run2): forward 44.12 -> 42.02 ms, inverse 47.76 -> 44.28 ms
// with scratch; ntt6 (0e73563, data/gpu-runs/2026-11-30-h200/ntt6/run2, A/B in one call against
// ac0a427): forward 41.82 -> 41.81 ms, inverse 44.59 -> 43.56 ms with scratch; ntt7 (256-thread
// pass kernels, three blocks per SM; data/gpu-runs/2026-11-30-h200/ntt7/run1, A/B against main
// 1382f3b): forward 41.76 -> 37.93 ms, inverse 43.54 -> 41.59 ms with scratch, in place forward
// 43.56 -> 41.93 ms.
void ntt_forward(const DeviceNttDomain& domain, Fr* d_data, cudaStream_t stream,
                 Fr* d_scratch = nullptr);
void ntt_inverse(const DeviceNttDomain& domain, Fr* d_data, cudaStream_t stream,
                 Fr* d_scratch = nullptr);
void ntt_coset_forward(const DeviceNttDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                       cudaStream_t stream, Fr* d_scratch = nullptr);
void ntt_coset_inverse(const DeviceNttDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                       cudaStream_t stream, Fr* d_scratch = nullptr);

namespace detail {
// For the H computation (gpu/groth16/gpu_h.cu): d_data (evaluations on the domain, natural
// order) -> evaluations on the coset shift.shift() * <w>, natural order, as
// ntt_coset_forward(ntt_inverse(.)) computes them, without either bit reversal: DIF passes with
// w^-1 (coefficients left in bit-reversed order), the last DIF pass fused with the n^-1 g^i
// scaling and the first DIT pass with w, then DIT passes with w. When d_a is not null the last
// pass stores d_a[i] <- (d_a[i] * d_b[i] - x_i) (* zinv when scale) instead of writing d_data,
// which is then left partly transformed.
void ntt_interpolate_to_coset(const DeviceNttDomain& domain, const DeviceCosetShift& shift,
                              Fr* d_data, Fr* d_a, const Fr* d_b, const Fr& zinv, bool scale,
                              cudaStream_t stream);
}  // namespace detail

}  // namespace prestage::gpu
