#pragma once
// Fq6 = Fq2[v] / (v^3 - xi), xi = u + 1: element c0 + c1 v + c2 v^2, 3 x 96 B.
// Middle of the pairing tower Fq2 -> Fq6 -> Fq12 (w^2 = v).
#include <array>
#include <random>

#include "gpu/ff/fq2.hpp"

namespace prestage::ff {

struct Fq6 {
  Fq2 c0, c1, c2;

  PRESTAGE_HD_INLINE static constexpr Fq6 zero() { return {Fq2::zero(), Fq2::zero(), Fq2::zero()}; }
  PRESTAGE_HD_INLINE static constexpr Fq6 one() { return {Fq2::one(), Fq2::zero(), Fq2::zero()}; }
  PRESTAGE_HD_INLINE constexpr bool is_zero() const {
    return c0.is_zero() && c1.is_zero() && c2.is_zero();
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator==(const Fq6& a, const Fq6& b) {
    return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator!=(const Fq6& a, const Fq6& b) {
    return !(a == b);
  }
  PRESTAGE_HD_INLINE friend constexpr Fq6 operator+(const Fq6& a, const Fq6& b) {
    return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
  }
  PRESTAGE_HD_INLINE friend constexpr Fq6 operator-(const Fq6& a, const Fq6& b) {
    return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
  }
  PRESTAGE_HD_INLINE constexpr Fq6 operator-() const { return {-c0, -c1, -c2}; }
  // Karatsuba-style interpolation (6 Fq2 multiplications); v^3 = xi folds the top terms.
  PRESTAGE_HD friend constexpr Fq6 operator*(const Fq6& a, const Fq6& b) {
    const Fq2 t0 = a.c0 * b.c0;
    const Fq2 t1 = a.c1 * b.c1;
    const Fq2 t2 = a.c2 * b.c2;
    const Fq2 m12 = (a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2;  // a1 b2 + a2 b1
    const Fq2 m01 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1;  // a0 b1 + a1 b0
    const Fq2 m02 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2;  // a0 b2 + a2 b0
    return {t0 + m12.mul_by_nonresidue(), m01 + t2.mul_by_nonresidue(), m02 + t1};
  }
  PRESTAGE_HD_INLINE friend constexpr Fq6 operator*(const Fq6& a, const Fq2& s) {
    return {a.c0 * s, a.c1 * s, a.c2 * s};
  }
  PRESTAGE_HD_INLINE constexpr Fq6& operator+=(const Fq6& b) { return *this = *this + b; }
  PRESTAGE_HD_INLINE constexpr Fq6& operator-=(const Fq6& b) { return *this = *this - b; }
  PRESTAGE_HD_INLINE constexpr Fq6& operator*=(const Fq6& b) { return *this = *this * b; }
  // Chung-Hasan SQR2: 2 Fq2 multiplications and 3 squarings.
  PRESTAGE_HD constexpr Fq6 sqr() const {
    const Fq2 s0 = c0.sqr();
    const Fq2 s1 = (c0 * c1).dbl();
    const Fq2 s2 = (c0 - c1 + c2).sqr();
    const Fq2 s3 = (c1 * c2).dbl();
    const Fq2 s4 = c2.sqr();
    return {s0 + s3.mul_by_nonresidue(), s1 + s4.mul_by_nonresidue(), s1 + s2 + s3 - s0 - s4};
  }
  PRESTAGE_HD_INLINE constexpr Fq6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
  // Multiplication by v: (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2.
  PRESTAGE_HD_INLINE constexpr Fq6 mul_by_nonresidue() const {
    return {c2.mul_by_nonresidue(), c0, c1};
  }
  // Inverse via the adjugate (one Fq2 inversion); zero maps to zero.
  PRESTAGE_HD constexpr Fq6 inverse() const {
    const Fq2 A = c0.sqr() - (c1 * c2).mul_by_nonresidue();
    const Fq2 B = c2.sqr().mul_by_nonresidue() - c0 * c1;
    const Fq2 C = c1.sqr() - c0 * c2;
    const Fq2 F = c0 * A + (c2 * B + c1 * C).mul_by_nonresidue();
    const Fq2 iF = F.inverse();
    return {A * iF, B * iF, C * iF};
  }
  // x -> x^(p^k) (host: the constants are computed once, see frobenius_coeffs()).
  Fq6 frobenius_map(unsigned k) const;
  static Fq6 random(std::mt19937_64& g) {
    Fq2 a = Fq2::random(g), b = Fq2::random(g);
    return {a, b, Fq2::random(g)};
  }
};

namespace detail {

// Frobenius constants: gamma[k] = xi^(k (p-1) / 6) for k = 0..5, in Fq2. Then
//   (c w^k)^p = c^p w^(kp) = c^p gamma[k] w^k   (w^6 = xi)
// covers both Fq6 (v = w^2: gamma[2], gamma[4]) and Fq12 (gamma[1], gamma[3], gamma[5]).
inline const std::array<Fq2, 6>& frobenius_coeffs() {
  static const std::array<Fq2, 6> gamma = [] {
    constexpr auto e = div_small(sub_small(Fq::modulus, 1), 6);  // (p-1)/6, exact
    const Fq2 g1 = Fq2::nonresidue().pow(e);
    std::array<Fq2, 6> g{};
    g[0] = Fq2::one();
    for (int k = 1; k < 6; ++k) g[k] = g[k - 1] * g1;
    return g;
  }();
  return gamma;
}

}  // namespace detail

inline Fq6 Fq6::frobenius_map(unsigned k) const {
  const auto& g = detail::frobenius_coeffs();
  Fq6 r = *this;
  for (unsigned i = 0; i < k % 6; ++i) {
    // (c0 + c1 v + c2 v^2)^p = c0^p + c1^p gamma[2] v + c2^p gamma[4] v^2.
    r = {r.c0.conjugate(), r.c1.conjugate() * g[2], r.c2.conjugate() * g[4]};
  }
  return r;
}

}  // namespace prestage::ff
