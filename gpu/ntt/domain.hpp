#pragma once
// Evaluation domains of the BLS12-381 scalar field Fr for the NTT: the multiplicative subgroup of
// size n = 2^k, k <= 32 (Fr's 2-adicity), with the roots of unity snarkjs uses.
//
// Roots (must match ffjavascript, which snarkjs 0.7.6 uses; checked in
// tests/unit/ntt/host_ntt_test.cpp against values printed by ffjavascript 0.3.1, fixture
// ffjavascript_fr_roots.json there):
//   nqr  = smallest quadratic non-residue counting up from 2 (it is 5 for this r);
//   r - 1 = 2^s * t, t odd (s = 32);
//   w[s] = nqr^t, w[i] = w[i+1]^2, so w[k] is a primitive 2^k-th root of unity, w[0] = 1;
//   shift = nqr^2 (ffjavascript's Fr.shift).
// A transform over a domain of size 2^k uses omega = w[k]: forward(a)[j] = sum_i a[i] omega^(ij),
// which is ffjavascript's Fr.fft (natural order in and out).
//
// Coset for the circom reduction: snarkjs's groth16 prover computes H by evaluating a, b, c on
// the odd points of the 2n domain, i.e. on the coset g*<omega> with g = w[k+1] (a primitive 2n-th
// root of unity; groth16_prove.js: inc = power == Fr.s ? Fr.shift : Fr.w[power+1]). There
// Z(x) = x^n - 1 equals g^n - 1 = -2 at every point, so H needs no per-point division.
// circom_coset_shift() returns that g (and Fr.shift for k = 32, as snarkjs does).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/ff/fr.hpp"

namespace prestage::ntt {

using ff::Fr;

// Fr's 2-adicity: the largest k with 2^k | r - 1.
inline constexpr unsigned kFrTwoAdicity = 32;

// ffjavascript's Fr constants, derived in code (never tabulated) on first use; thread-safe.
struct FrRootsOfUnity {
  Fr nqr;                                   // smallest quadratic non-residue >= 2
  Fr shift;                                 // nqr^2
  unsigned s = 0;                           // 2-adicity of r - 1
  std::array<Fr, kFrTwoAdicity + 1> w;      // w[k]: primitive 2^k-th root of unity
  std::array<Fr, kFrTwoAdicity + 1> w_inv;  // w[k]^-1
};
const FrRootsOfUnity& fr_roots();

// w[log_n] as above. Throws std::invalid_argument when log_n > 32.
const Fr& root_of_unity(unsigned log_n);

// The coset shift snarkjs's circom reduction uses for a domain of size 2^log_n: w[log_n + 1], or
// Fr.shift = nqr^2 when log_n = 32. Throws std::invalid_argument when log_n > 32.
const Fr& circom_coset_shift(unsigned log_n);

// A domain of size n = 2^log_n with its precomputed twiddles. Immutable after construction, so
// one Domain may be shared by concurrent transforms.
class Domain {
 public:
  // Builds the twiddle table with `threads` threads (0 = hardware concurrency).
  // Throws std::invalid_argument when log_n > 32.
  explicit Domain(unsigned log_n, unsigned threads = 0);

  unsigned log_size() const { return log_n_; }
  std::size_t size() const { return std::size_t{1} << log_n_; }
  const Fr& omega() const { return omega_; }          // w[log_n]
  const Fr& omega_inv() const { return omega_inv_; }  // w[log_n]^-1
  const Fr& size_inv() const { return size_inv_; }    // n^-1 mod r
  // The shift snarkjs's circom reduction evaluates on (see the header comment).
  const Fr& circom_coset_shift() const { return circom_shift_; }
  // omega^i for i < n/2 (n/2 x 32 B, Montgomery); empty when n = 1.
  std::span<const Fr> twiddles() const { return twiddles_; }

 private:
  unsigned log_n_;
  Fr omega_, omega_inv_, size_inv_, circom_shift_;
  std::vector<Fr> twiddles_;
};

// x^e for a 256-bit little-endian exponent (square and multiply; host helper).
Fr pow_limbs(const Fr& x, const std::array<uint64_t, 4>& e);

}  // namespace prestage::ntt
