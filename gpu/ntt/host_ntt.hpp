#pragma once
// Host reference NTT over Fr (BLS12-381 scalar field), in place, natural order in and out; the
// Groth16 host prover uses it and the GPU kernels are checked against it. Conventions are
// ffjavascript's (see domain.hpp): forward = Fr.fft, inverse = Fr.ifft.
//
// Every function takes `a` of exactly domain.size() elements (n x 32 B, Montgomery form) and
// throws std::invalid_argument otherwise. `threads` = 0 uses hardware_concurrency(); small
// transforms run on the calling thread only. The Domain may be shared by concurrent calls.
#include <span>
#include <vector>

#include "gpu/ntt/domain.hpp"

namespace prestage::ntt {

// Coefficients -> evaluations: a[j] <- sum_i a[i] * omega^(i*j).
void forward(const Domain& domain, std::span<Fr> a, unsigned threads = 0);

// Evaluations -> coefficients: a[j] <- n^-1 * sum_i a[i] * omega^(-i*j).
void inverse(const Domain& domain, std::span<Fr> a, unsigned threads = 0);

// Coefficients -> evaluations on the coset shift*<omega>: a[j] <- sum_i a[i] (shift*omega^j)^i.
void coset_forward(const Domain& domain, std::span<Fr> a, const Fr& shift, unsigned threads = 0);

// Evaluations on the coset shift*<omega> -> coefficients (inverse of coset_forward with the same
// shift). shift must be nonzero.
void coset_inverse(const Domain& domain, std::span<Fr> a, const Fr& shift, unsigned threads = 0);

// The factors shift^i / n of to_coset, stored at the bit-reversed positions rev(i) where the
// decimation-in-frequency inverse leaves coefficient i (n x 32 B, Montgomery). Built once per
// domain and shift (n products), shared by every to_coset call on them.
class CosetShift {
 public:
  CosetShift(const Domain& domain, const Fr& shift, unsigned threads = 0);
  std::span<const Fr> factors() const { return factors_; }

 private:
  std::vector<Fr> factors_;
};

// Evaluations on <omega> -> evaluations on the coset shift*<omega>, both natural order:
// the same values as coset_forward(inverse(a), shift), without either transform's bit reversal
// or the separate scalings: the inverse runs by decimation in frequency (bit-reversed out, the
// forward twiddle table read mirrored), each coefficient is multiplied by its factor, and the
// forward transform runs by decimation in time from bit-reversed input. The circom reduction's
// per-polynomial step (groth16::h_scalars).
void to_coset(const Domain& domain, const CosetShift& shift, std::span<Fr> a, unsigned threads = 0);

// a[i] <- a[i] * first * step^i (ffjavascript's batchApplyKey), in parallel.
void scale_by_powers(std::span<Fr> a, const Fr& first, const Fr& step, unsigned threads = 0);

}  // namespace prestage::ntt
