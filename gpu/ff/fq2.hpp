#pragma once
// Fq2 = Fq[u] / (u^2 + 1): element c0 + c1*u, 2 x 48 B (c0 first), each coordinate in Montgomery
// form. The base field of G2 and the bottom of the pairing tower Fq2 -> Fq6 -> Fq12.
#include <optional>
#include <random>

#include "gpu/ff/fq.hpp"
#include "gpu/ff/pow.hpp"

namespace prestage::ff {

struct Fq2 {
  Fq c0, c1;

  PRESTAGE_HD_INLINE static constexpr Fq2 zero() { return {Fq::zero(), Fq::zero()}; }
  PRESTAGE_HD_INLINE static constexpr Fq2 one() { return {Fq::one(), Fq::zero()}; }
  PRESTAGE_HD_INLINE static constexpr Fq2 from_fq(const Fq& a) { return {a, Fq::zero()}; }
  PRESTAGE_HD static constexpr Fq2 from_u64(uint64_t a) { return {Fq::from_u64(a), Fq::zero()}; }
  // The cubic non-residue xi = u + 1 that defines Fq6 (v^3 = xi) and the twist of G2.
  PRESTAGE_HD static constexpr Fq2 nonresidue() { return {Fq::one(), Fq::one()}; }

  PRESTAGE_HD_INLINE constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  PRESTAGE_HD_INLINE constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  PRESTAGE_HD_INLINE friend constexpr bool operator==(const Fq2& a, const Fq2& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator!=(const Fq2& a, const Fq2& b) {
    return !(a == b);
  }

  PRESTAGE_HD_INLINE friend constexpr Fq2 operator+(const Fq2& a, const Fq2& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  PRESTAGE_HD_INLINE friend constexpr Fq2 operator-(const Fq2& a, const Fq2& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  PRESTAGE_HD_INLINE constexpr Fq2 operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3 Fq multiplications. On the H200 this beats the lazy variant with one
  // Montgomery reduction per coordinate (gpu/ff/mont32.hpp, fp2_mul_lazy): 8.16e9 vs 7.31e9
  // products/s (ff_bench, 4 chains; 8.73e9 vs 8.15e9 with 1), because the wide products and
  // separate reductions it needs are slower than the even/odd CIOS (gpu/ff/DECISIONS.md #3).
  PRESTAGE_HD friend constexpr Fq2 operator*(const Fq2& a, const Fq2& b) {
    const Fq v0 = a.c0 * b.c0;
    const Fq v1 = a.c1 * b.c1;
    return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
  }
  PRESTAGE_HD_INLINE friend constexpr Fq2 operator*(const Fq2& a, const Fq& s) {
    return {a.c0 * s, a.c1 * s};
  }
  PRESTAGE_HD_INLINE constexpr Fq2& operator+=(const Fq2& b) { return *this = *this + b; }
  PRESTAGE_HD_INLINE constexpr Fq2& operator-=(const Fq2& b) { return *this = *this - b; }
  PRESTAGE_HD_INLINE constexpr Fq2& operator*=(const Fq2& b) { return *this = *this * b; }
  // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: 2 Fq multiplications.
  PRESTAGE_HD constexpr Fq2 sqr() const {
    const Fq t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
  PRESTAGE_HD_INLINE constexpr Fq2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  PRESTAGE_HD_INLINE constexpr Fq2 conjugate() const { return {c0, -c1}; }
  // Multiplication by xi = u + 1: (c0 - c1) + (c0 + c1) u.
  PRESTAGE_HD_INLINE constexpr Fq2 mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  // Norm to Fq: c0^2 + c1^2.
  PRESTAGE_HD constexpr Fq norm() const { return c0.sqr() + c1.sqr(); }
  // Inverse via the norm (one Fq inversion); zero maps to zero.
  PRESTAGE_HD constexpr Fq2 inverse() const {
    const Fq t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }
  // x -> x^(p^k): conjugation for odd k, identity for even k.
  PRESTAGE_HD_INLINE constexpr Fq2 frobenius_map(unsigned k) const {
    return (k & 1) ? conjugate() : *this;
  }
  // this^e, e as n little-endian 64-bit limbs.
  PRESTAGE_HD constexpr Fq2 pow(const uint64_t* e, std::size_t n) const {
    return pow_by_limbs(*this, e, n);
  }
  template <std::size_t M>
  PRESTAGE_HD constexpr Fq2 pow(const std::array<uint64_t, M>& e) const {
    return pow(e.data(), M);
  }
  // Square root for p = 3 mod 4 (Adj and Rodriguez-Henriquez, "Square root computation over
  // even extension fields", Algorithm 9); returns false when this is not a square.
  PRESTAGE_HD constexpr bool sqrt_into(Fq2& out) const {
    if (is_zero()) {
      out = zero();
      return true;
    }
    constexpr std::array<uint64_t, 6> p_minus_3_div_4 =
        detail::shr(detail::sub_small(Fq::modulus, 3), 2);
    constexpr std::array<uint64_t, 6> p_minus_1_div_2 = Fq::p_minus_1_half;
    const Fq2 a1 = pow(p_minus_3_div_4);
    const Fq2 alpha = a1.sqr() * *this;
    const Fq2 a0 = alpha.frobenius_map(1) * alpha;
    const Fq2 minus_one = -one();
    if (a0 == minus_one) return false;
    const Fq2 x0 = a1 * *this;
    Fq2 x{};
    if (alpha == minus_one) {
      x = Fq2{-x0.c1, x0.c0};  // u * x0
    } else {
      const Fq2 b = (one() + alpha).pow(p_minus_1_div_2);
      x = b * x0;
    }
    if (x.sqr() != *this) return false;
    out = x;
    return true;
  }
  std::optional<Fq2> sqrt() const {
    Fq2 s{};
    if (!sqrt_into(s)) return std::nullopt;
    return s;
  }
  // Sign for point compression (ZCash BLS12-381 encoding): c1's sign, or c0's when c1 = 0.
  PRESTAGE_HD constexpr bool lexicographically_largest() const {
    return c1.is_zero() ? c0.lexicographically_largest() : c1.lexicographically_largest();
  }
  static Fq2 random(std::mt19937_64& g) {
    Fq a = Fq::random(g);
    return {a, Fq::random(g)};
  }
};
static_assert(sizeof(Fq2) == 96);

}  // namespace prestage::ff
