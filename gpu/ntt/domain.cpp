#include "gpu/ntt/domain.hpp"

#include <stdexcept>
#include <string>

#include "gpu/common/parallel.hpp"

namespace prestage::ntt {

Fr pow_limbs(const Fr& x, const std::array<uint64_t, 4>& e) {
  Fr acc = Fr::one();
  for (int i = 255; i >= 0; --i) {
    acc = acc.sqr();
    if ((e[i / 64] >> (i % 64)) & 1) acc = acc * x;
  }
  return acc;
}

namespace {

FrRootsOfUnity derive_roots() {
  FrRootsOfUnity R;
  // r - 1 and (r - 1) / 2, little-endian limbs.
  const std::array<uint64_t, 4> r_minus_1 = (-Fr::one()).to_canonical();
  std::array<uint64_t, 4> half{};
  for (int i = 0; i < 4; ++i) half[i] = (r_minus_1[i] >> 1) | (i < 3 ? r_minus_1[i + 1] << 63 : 0);

  // Smallest quadratic non-residue from 2 (Euler's criterion), as ffjavascript searches.
  const Fr minus_one = -Fr::one();
  Fr nqr = Fr::from_u64(2);
  while (!(pow_limbs(nqr, half) == minus_one)) nqr = nqr + Fr::one();
  R.nqr = nqr;
  R.shift = nqr.sqr();

  // r - 1 = 2^s * t.
  std::array<uint64_t, 4> t = r_minus_1;
  unsigned s = 0;
  while ((t[0] & 1) == 0) {
    for (int i = 0; i < 4; ++i) t[i] = (t[i] >> 1) | (i < 3 ? t[i + 1] << 63 : 0);
    ++s;
  }
  if (s != kFrTwoAdicity) throw std::logic_error("Fr 2-adicity is not 32: wrong modulus");
  R.s = s;
  R.w[s] = pow_limbs(nqr, t);
  for (int i = static_cast<int>(s) - 1; i >= 0; --i) R.w[i] = R.w[i + 1].sqr();
  if (!(R.w[0] == Fr::one())) throw std::logic_error("roots of unity: w[0] != 1");
  if (R.w[1] == Fr::one()) throw std::logic_error("roots of unity: w[s] not primitive");
  for (unsigned k = 0; k <= s; ++k) R.w_inv[k] = R.w[k].inverse();
  return R;
}

}  // namespace

const FrRootsOfUnity& fr_roots() {
  static const FrRootsOfUnity roots = derive_roots();
  return roots;
}

const Fr& root_of_unity(unsigned log_n) {
  if (log_n > kFrTwoAdicity)
    throw std::invalid_argument("NTT domain 2^" + std::to_string(log_n) +
                                " exceeds Fr's 2-adicity (32)");
  return fr_roots().w[log_n];
}

const Fr& circom_coset_shift(unsigned log_n) {
  root_of_unity(log_n);  // validates log_n
  const FrRootsOfUnity& R = fr_roots();
  return log_n < R.s ? R.w[log_n + 1] : R.shift;
}

Domain::Domain(unsigned log_n, unsigned threads) : log_n_(log_n) {
  const FrRootsOfUnity& R = fr_roots();
  omega_ = root_of_unity(log_n);  // validates log_n
  omega_inv_ = R.w_inv[log_n];
  size_inv_ = Fr::from_u64(uint64_t{1} << log_n).inverse();
  circom_shift_ = ntt::circom_coset_shift(log_n);

  const std::size_t half = size() / 2;
  twiddles_.resize(half);
  // Each piece starts from omega^begin (one pow) and steps by omega: n/2 multiplications.
  host::parallel_for(half, host::resolve_threads(threads), std::size_t{1} << 14,
                     [&](std::size_t begin, std::size_t end) {
                       Fr x = omega_.pow(static_cast<uint64_t>(begin));
                       for (std::size_t i = begin; i < end; ++i) {
                         twiddles_[i] = x;
                         x = x * omega_;
                       }
                     });
}

}  // namespace prestage::ntt
