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
// Algorithm: forward = decimation in frequency (Gentleman-Sande) then a bit-reversal
// permutation; inverse = bit reversal then decimation in time (Cooley-Tukey) with w^-1. The
// log_n radix-2 stages are grouped into passes of up to 11 stages; each pass loads a tile of up
// to 2048 elements into shared memory (64 KB), runs its stages there and writes it back, so a
// 2^27 transform reads and writes the data 3 times plus the permutation. Twiddles w^e, e < n/2,
// are precomputed once per domain on the device (n/2 x 32 B: 2 GiB at 2^27); w^-e is read as
// -w^(n/2-e). The coset scaling (g^i, and n^-1 g^-i for the inverse) is fused into the first
// (resp. last) pass, from two small power tables (g^i = hi[i >> 11] * lo[i & 2047]).
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

 private:
  Fr g_;
  std::size_t lo_count_, hi_count_;
  DeviceBuffer<Fr> tables_;  // [fwd_lo | fwd_hi | inv_lo | inv_hi]
};

// In-place transforms of d_data (domain.size() x 32 B, Montgomery, natural order) on `stream`.
void ntt_forward(const DeviceNttDomain& domain, Fr* d_data, cudaStream_t stream);
void ntt_inverse(const DeviceNttDomain& domain, Fr* d_data, cudaStream_t stream);
void ntt_coset_forward(const DeviceNttDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                       cudaStream_t stream);
void ntt_coset_inverse(const DeviceNttDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                       cudaStream_t stream);

}  // namespace prestage::gpu
