#pragma once
// Fq12 = Fq6[w] / (w^2 - v): element c0 + c1 w, 2 x 288 B. The pairing target group GT is the
// order-r subgroup of Fq12*.
#include <array>
#include <random>
#include <span>

#include "gpu/ff/fq6.hpp"
#include "gpu/ff/pow.hpp"

namespace prestage::ff {

struct Fq12 {
  Fq6 c0, c1;

  PRESTAGE_HD_INLINE static constexpr Fq12 zero() { return {Fq6::zero(), Fq6::zero()}; }
  PRESTAGE_HD_INLINE static constexpr Fq12 one() { return {Fq6::one(), Fq6::zero()}; }
  PRESTAGE_HD_INLINE constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  PRESTAGE_HD_INLINE constexpr bool is_one() const { return *this == one(); }
  PRESTAGE_HD_INLINE friend constexpr bool operator==(const Fq12& a, const Fq12& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator!=(const Fq12& a, const Fq12& b) {
    return !(a == b);
  }
  PRESTAGE_HD_INLINE friend constexpr Fq12 operator+(const Fq12& a, const Fq12& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  PRESTAGE_HD_INLINE friend constexpr Fq12 operator-(const Fq12& a, const Fq12& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  PRESTAGE_HD_INLINE constexpr Fq12 operator-() const { return {-c0, -c1}; }
  // Karatsuba over Fq6 (3 Fq6 multiplications); w^2 = v.
  PRESTAGE_HD friend constexpr Fq12 operator*(const Fq12& a, const Fq12& b) {
    const Fq6 t0 = a.c0 * b.c0;
    const Fq6 t1 = a.c1 * b.c1;
    return {t0 + t1.mul_by_nonresidue(), (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  PRESTAGE_HD_INLINE constexpr Fq12& operator*=(const Fq12& b) { return *this = *this * b; }
  PRESTAGE_HD_INLINE constexpr Fq12& operator+=(const Fq12& b) { return *this = *this + b; }
  PRESTAGE_HD_INLINE constexpr Fq12& operator-=(const Fq12& b) { return *this = *this - b; }
  // Complex squaring (2 Fq6 multiplications).
  PRESTAGE_HD constexpr Fq12 sqr() const {
    const Fq6 ab = c0 * c1;
    const Fq6 t = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - ab - ab.mul_by_nonresidue();
    return {t, ab.dbl()};
  }
  // x^(p^6): c0 - c1 w. On the norm-1 (cyclotomic) subgroup this is the inverse.
  PRESTAGE_HD_INLINE constexpr Fq12 conjugate() const { return {c0, -c1}; }
  // Inverse via the norm to Fq6 (one Fq6 inversion); zero maps to zero.
  PRESTAGE_HD constexpr Fq12 inverse() const {
    const Fq6 t = (c0.sqr() - c1.sqr().mul_by_nonresidue()).inverse();
    return {c0 * t, -(c1 * t)};
  }
  // this^e, e as n little-endian 64-bit limbs.
  PRESTAGE_HD constexpr Fq12 pow(const uint64_t* e, std::size_t n) const {
    return pow_by_limbs(*this, e, n);
  }
  Fq12 pow(std::span<const uint64_t> e) const { return pow(e.data(), e.size()); }
  PRESTAGE_HD constexpr Fq12 pow(uint64_t e) const { return pow(&e, 1); }
  // x -> x^(p^k) (host).
  Fq12 frobenius_map(unsigned k) const {
    const auto& g = detail::frobenius_coeffs();
    Fq12 r = *this;
    for (unsigned i = 0; i < k % 12; ++i) {
      // (c0 + c1 w)^p = c0^p + c1^p gamma[1] w, with c1 = b0 + b1 v + b2 v^2 and v = w^2:
      // (b_j v^j w)^p = b_j^p gamma[2j + 1] v^j w.
      const Fq6 a = r.c0.frobenius_map(1);
      const Fq6& b = r.c1;
      r = {a, {b.c0.conjugate() * g[1], b.c1.conjugate() * g[3], b.c2.conjugate() * g[5]}};
    }
    return r;
  }
  static Fq12 random(std::mt19937_64& g) {
    Fq6 a = Fq6::random(g);
    return {a, Fq6::random(g)};
  }
};

}  // namespace prestage::ff
