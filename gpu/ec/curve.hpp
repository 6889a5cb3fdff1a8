#pragma once
// Short Weierstrass curves y^2 = x^3 + b (a = 0) over a field F, in three coordinate systems:
//   Affine<C>   (x, y, infinity flag)                      -- storage, bases of MSMs;
//   Jacobian<C> (X, Y, Z):   x = X/Z^2,  y = Y/Z^3, Z = 0 is the identity;
//   XYZZ<C>     (X, Y, ZZ, ZZZ): x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2, ZZ = 0 is the identity
//               (cheapest mixed addition: MSM buckets).
// Curve config C provides: using Field; PRESTAGE_HD static Field b(); host/device generator().
// Formulas are the standard a = 0 ones from the Explicit-Formulas Database (dbl-2009-l,
// add-2007-bl, madd-2007-bl for Jacobian; dbl-2008-s-1, add-2008-s, madd-2008-s, mdbl-2008-s-1
// for XYZZ), with the exceptional cases (identity, P == Q, P == -Q) handled explicitly.
// Everything arithmetic is PRESTAGE_HD; scalar multiplication and batch conversion are host
// reference code.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/ff/fr.hpp"

namespace prestage::ec {

template <class C>
struct Jacobian;
template <class C>
struct XYZZ;

template <class C>
struct Affine {
  using Field = typename C::Field;
  Field x, y;
  bool infinity;

  PRESTAGE_HD_INLINE static constexpr Affine identity() {
    return {Field::zero(), Field::zero(), true};
  }
  PRESTAGE_HD static constexpr Affine generator() { return C::generator(); }
  PRESTAGE_HD_INLINE constexpr bool is_identity() const { return infinity; }
  // y^2 == x^3 + b (the identity counts as on the curve).
  PRESTAGE_HD constexpr bool is_on_curve() const {
    return infinity || y.sqr() == x.sqr() * x + C::b();
  }
  PRESTAGE_HD_INLINE constexpr Affine operator-() const {
    return infinity ? *this : Affine{x, -y, false};
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator==(const Affine& a, const Affine& b) {
    if (a.infinity || b.infinity) return a.infinity == b.infinity;
    return a.x == b.x && a.y == b.y;
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator!=(const Affine& a, const Affine& b) {
    return !(a == b);
  }
  PRESTAGE_HD constexpr Jacobian<C> to_jacobian() const { return Jacobian<C>::from_affine(*this); }
  PRESTAGE_HD constexpr XYZZ<C> to_xyzz() const { return XYZZ<C>::from_affine(*this); }
  // k * this (host reference, double-and-add over the canonical scalar).
  Jacobian<C> mul(const ff::Fr& k) const { return to_jacobian().mul(k); }
  // True when this is in the order-r subgroup (C::in_subgroup: an endomorphism test; the
  // identity counts). in_subgroup_by_order: the definition, r * this == O (slower reference).
  bool in_subgroup() const { return to_jacobian().in_subgroup(); }
  bool in_subgroup_by_order() const { return to_jacobian().in_subgroup_by_order(); }
};

template <class C>
struct Jacobian {
  using Field = typename C::Field;
  Field X, Y, Z;

  PRESTAGE_HD_INLINE static constexpr Jacobian identity() {
    return {Field::one(), Field::one(), Field::zero()};
  }
  PRESTAGE_HD static constexpr Jacobian generator() { return from_affine(C::generator()); }
  PRESTAGE_HD_INLINE static constexpr Jacobian from_affine(const Affine<C>& a) {
    return a.infinity ? identity() : Jacobian{a.x, a.y, Field::one()};
  }
  PRESTAGE_HD_INLINE constexpr bool is_identity() const { return Z.is_zero(); }
  // Y^2 == X^3 + b Z^6.
  PRESTAGE_HD constexpr bool is_on_curve() const {
    if (is_identity()) return true;
    const Field z2 = Z.sqr();
    const Field z6 = z2.sqr() * z2;
    return Y.sqr() == X.sqr() * X + C::b() * z6;
  }
  PRESTAGE_HD_INLINE constexpr Jacobian operator-() const { return {X, -Y, Z}; }

  // 2 * this (dbl-2009-l).
  PRESTAGE_HD constexpr Jacobian dbl() const {
    if (is_identity()) return *this;
    const Field A = X.sqr();
    const Field B = Y.sqr();
    const Field Cc = B.sqr();
    const Field D = ((X + B).sqr() - A - Cc).dbl();
    const Field E = A.dbl() + A;
    const Field F = E.sqr();
    const Field X3 = F - D.dbl();
    const Field Y3 = E * (D - X3) - Cc.dbl().dbl().dbl();
    const Field Z3 = (Y * Z).dbl();
    return {X3, Y3, Z3};
  }
  // this + q (add-2007-bl), complete: handles identity, doubling and inverse points.
  PRESTAGE_HD constexpr Jacobian add(const Jacobian& q) const {
    if (is_identity()) return q;
    if (q.is_identity()) return *this;
    const Field Z1Z1 = Z.sqr();
    const Field Z2Z2 = q.Z.sqr();
    const Field U1 = X * Z2Z2;
    const Field U2 = q.X * Z1Z1;
    const Field S1 = Y * q.Z * Z2Z2;
    const Field S2 = q.Y * Z * Z1Z1;
    const Field H = U2 - U1;
    const Field r = (S2 - S1).dbl();
    if (H.is_zero()) return r.is_zero() ? dbl() : identity();
    const Field I = H.dbl().sqr();
    const Field J = H * I;
    const Field V = U1 * I;
    const Field X3 = r.sqr() - J - V.dbl();
    const Field Y3 = r * (V - X3) - (S1 * J).dbl();
    const Field Z3 = ((Z + q.Z).sqr() - Z1Z1 - Z2Z2) * H;
    return {X3, Y3, Z3};
  }
  // this + q for affine q (madd-2007-bl), complete.
  PRESTAGE_HD constexpr Jacobian add_mixed(const Affine<C>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    const Field Z1Z1 = Z.sqr();
    const Field U2 = q.x * Z1Z1;
    const Field S2 = q.y * Z * Z1Z1;
    const Field H = U2 - X;
    const Field r = (S2 - Y).dbl();
    if (H.is_zero()) return r.is_zero() ? dbl() : identity();
    const Field HH = H.sqr();
    const Field I = HH.dbl().dbl();
    const Field J = H * I;
    const Field V = X * I;
    const Field X3 = r.sqr() - J - V.dbl();
    const Field Y3 = r * (V - X3) - (Y * J).dbl();
    const Field Z3 = (Z + H).sqr() - Z1Z1 - HH;
    return {X3, Y3, Z3};
  }
  PRESTAGE_HD_INLINE friend constexpr Jacobian operator+(const Jacobian& a, const Jacobian& b) {
    return a.add(b);
  }
  PRESTAGE_HD_INLINE friend constexpr Jacobian operator+(const Jacobian& a, const Affine<C>& b) {
    return a.add_mixed(b);
  }
  PRESTAGE_HD_INLINE friend constexpr Jacobian operator-(const Jacobian& a, const Jacobian& b) {
    return a.add(-b);
  }
  PRESTAGE_HD_INLINE constexpr Jacobian& operator+=(const Jacobian& b) { return *this = add(b); }
  PRESTAGE_HD_INLINE constexpr Jacobian& operator+=(const Affine<C>& b) {
    return *this = add_mixed(b);
  }

  // Same point? (X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3.)
  PRESTAGE_HD friend constexpr bool operator==(const Jacobian& a, const Jacobian& b) {
    if (a.is_identity() || b.is_identity()) return a.is_identity() == b.is_identity();
    const Field za2 = a.Z.sqr(), zb2 = b.Z.sqr();
    return a.X * zb2 == b.X * za2 && a.Y * zb2 * b.Z == b.Y * za2 * a.Z;
  }
  PRESTAGE_HD friend constexpr bool operator==(const Jacobian& a, const Affine<C>& b) {
    if (a.is_identity() || b.infinity) return a.is_identity() == b.infinity;
    const Field z2 = a.Z.sqr();
    return a.X == b.x * z2 && a.Y == b.y * z2 * a.Z;
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator!=(const Jacobian& a, const Jacobian& b) {
    return !(a == b);
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator!=(const Jacobian& a, const Affine<C>& b) {
    return !(a == b);
  }

  // One field inversion.
  PRESTAGE_HD constexpr Affine<C> to_affine() const {
    if (is_identity()) return Affine<C>::identity();
    const Field iz = Z.inverse();
    const Field iz2 = iz.sqr();
    return {X * iz2, Y * iz2 * iz, false};
  }
  PRESTAGE_HD constexpr XYZZ<C> to_xyzz() const {
    if (is_identity()) return XYZZ<C>::identity();
    const Field zz = Z.sqr();
    return {X, Y, zz, zz * Z};
  }

  // k * this for a scalar given as n little-endian 64-bit limbs (host reference).
  Jacobian mul_limbs(const uint64_t* k, std::size_t n) const {
    Jacobian acc = identity();
    for (std::size_t i = n; i-- > 0;)
      for (int bit = 63; bit >= 0; --bit) {
        acc = acc.dbl();
        if ((k[i] >> bit) & 1) acc = acc.add(*this);
      }
    return acc;
  }
  Jacobian mul(const ff::Fr& k) const {
    const auto c = k.to_canonical();
    return mul_limbs(c.data(), c.size());
  }
  bool in_subgroup() const { return C::in_subgroup(*this); }
  bool in_subgroup_by_order() const {
    constexpr auto r = ff::Fr::modulus;
    return mul_limbs(r.data(), r.size()).is_identity();
  }
};

template <class C>
struct XYZZ {
  using Field = typename C::Field;
  Field X, Y, ZZ, ZZZ;

  PRESTAGE_HD_INLINE static constexpr XYZZ identity() {
    return {Field::one(), Field::one(), Field::zero(), Field::zero()};
  }
  PRESTAGE_HD static constexpr XYZZ generator() { return from_affine(C::generator()); }
  PRESTAGE_HD_INLINE static constexpr XYZZ from_affine(const Affine<C>& a) {
    return a.infinity ? identity() : XYZZ{a.x, a.y, Field::one(), Field::one()};
  }
  PRESTAGE_HD_INLINE constexpr bool is_identity() const { return ZZ.is_zero(); }
  // Y^2 == X^3 + b ZZ^3 (after scaling by ZZZ^2 = ZZ^3), and ZZ^3 == ZZZ^2.
  PRESTAGE_HD constexpr bool is_on_curve() const {
    if (is_identity()) return true;
    const Field zz3 = ZZ.sqr() * ZZ;
    return zz3 == ZZZ.sqr() && Y.sqr() == X.sqr() * X + C::b() * zz3;
  }
  PRESTAGE_HD_INLINE constexpr XYZZ operator-() const { return {X, -Y, ZZ, ZZZ}; }

  // 2 * this (dbl-2008-s-1, a = 0).
  PRESTAGE_HD constexpr XYZZ dbl() const {
    if (is_identity()) return *this;
    const Field U = Y.dbl();
    const Field V = U.sqr();
    const Field W = U * V;
    const Field S = X * V;
    const Field X2 = X.sqr();
    const Field M = X2.dbl() + X2;
    const Field X3 = M.sqr() - S.dbl();
    const Field Y3 = M * (S - X3) - W * Y;
    return {X3, Y3, V * ZZ, W * ZZZ};
  }
  // this + q (add-2008-s), complete.
  PRESTAGE_HD constexpr XYZZ add(const XYZZ& q) const {
    if (is_identity()) return q;
    if (q.is_identity()) return *this;
    const Field U1 = X * q.ZZ;
    const Field U2 = q.X * ZZ;
    const Field S1 = Y * q.ZZZ;
    const Field S2 = q.Y * ZZZ;
    const Field P = U2 - U1;
    const Field R = S2 - S1;
    if (P.is_zero()) return R.is_zero() ? dbl() : identity();
    const Field PP = P.sqr();
    const Field PPP = P * PP;
    const Field Q = U1 * PP;
    const Field X3 = R.sqr() - PPP - Q.dbl();
    const Field Y3 = R * (Q - X3) - S1 * PPP;
    return {X3, Y3, ZZ * q.ZZ * PP, ZZZ * q.ZZZ * PPP};
  }
  // this + q for affine q (madd-2008-s; mdbl-2008-s-1 when this == q), complete.
  PRESTAGE_HD constexpr XYZZ add_mixed(const Affine<C>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    const Field U2 = q.x * ZZ;
    const Field S2 = q.y * ZZZ;
    const Field P = U2 - X;
    const Field R = S2 - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(q) : identity();
    const Field PP = P.sqr();
    const Field PPP = P * PP;
    const Field Q = X * PP;
    const Field X3 = R.sqr() - PPP - Q.dbl();
    const Field Y3 = R * (Q - X3) - Y * PPP;
    return {X3, Y3, ZZ * PP, ZZZ * PPP};
  }
  // 2 * q for affine q (mdbl-2008-s-1).
  PRESTAGE_HD static constexpr XYZZ dbl_affine(const Affine<C>& q) {
    if (q.infinity) return identity();
    const Field U = q.y.dbl();
    const Field V = U.sqr();
    const Field W = U * V;
    const Field S = q.x * V;
    const Field X2 = q.x.sqr();
    const Field M = X2.dbl() + X2;
    const Field X3 = M.sqr() - S.dbl();
    const Field Y3 = M * (S - X3) - W * q.y;
    return {X3, Y3, V, W};
  }
  PRESTAGE_HD_INLINE friend constexpr XYZZ operator+(const XYZZ& a, const XYZZ& b) {
    return a.add(b);
  }
  PRESTAGE_HD_INLINE friend constexpr XYZZ operator+(const XYZZ& a, const Affine<C>& b) {
    return a.add_mixed(b);
  }
  PRESTAGE_HD_INLINE friend constexpr XYZZ operator-(const XYZZ& a, const XYZZ& b) {
    return a.add(-b);
  }
  PRESTAGE_HD_INLINE constexpr XYZZ& operator+=(const XYZZ& b) { return *this = add(b); }
  PRESTAGE_HD_INLINE constexpr XYZZ& operator+=(const Affine<C>& b) { return *this = add_mixed(b); }

  PRESTAGE_HD friend constexpr bool operator==(const XYZZ& a, const XYZZ& b) {
    if (a.is_identity() || b.is_identity()) return a.is_identity() == b.is_identity();
    return a.X * b.ZZ == b.X * a.ZZ && a.Y * b.ZZZ == b.Y * a.ZZZ;
  }
  PRESTAGE_HD friend constexpr bool operator==(const XYZZ& a, const Affine<C>& b) {
    if (a.is_identity() || b.infinity) return a.is_identity() == b.infinity;
    return a.X == b.x * a.ZZ && a.Y == b.y * a.ZZZ;
  }
  PRESTAGE_HD friend constexpr bool operator==(const XYZZ& a, const Jacobian<C>& b) {
    return a.to_jacobian() == b;
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator!=(const XYZZ& a, const XYZZ& b) {
    return !(a == b);
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator!=(const XYZZ& a, const Affine<C>& b) {
    return !(a == b);
  }

  // One field inversion: 1/ZZZ, then 1/ZZ = (ZZ/ZZZ)^2.
  PRESTAGE_HD constexpr Affine<C> to_affine() const {
    if (is_identity()) return Affine<C>::identity();
    const Field izzz = ZZZ.inverse();
    const Field izz = (ZZ * izzz).sqr();
    return {X * izz, Y * izzz, false};
  }
  // Jacobian with Z = ZZ * ZZZ: X' = X ZZ^4, Y' = Y ZZZ^4 (no inversion).
  PRESTAGE_HD constexpr Jacobian<C> to_jacobian() const {
    if (is_identity()) return Jacobian<C>::identity();
    return {X * ZZ.sqr().sqr(), Y * ZZZ.sqr().sqr(), ZZ * ZZZ};
  }
};

// Affine forms of n Jacobian points with one field inversion (Montgomery's trick).
// in and out have the same length; identities map to the affine identity.
template <class C>
void batch_to_affine(std::span<const Jacobian<C>> in, std::span<Affine<C>> out) {
  using Field = typename C::Field;
  const std::size_t n = in.size();
  std::vector<Field> prefix(n);  // prefix[i] = product of the nonzero Z's before and at i
  Field acc = Field::one();
  for (std::size_t i = 0; i < n; ++i) {
    if (!in[i].is_identity()) acc *= in[i].Z;
    prefix[i] = acc;
  }
  Field inv = acc.inverse();  // inverse of the product of all nonzero Z's
  for (std::size_t i = n; i-- > 0;) {
    if (in[i].is_identity()) {
      out[i] = Affine<C>::identity();
      continue;
    }
    const Field before = i == 0 ? Field::one() : prefix[i - 1];
    const Field iz = inv * before;  // 1 / Z_i
    inv *= in[i].Z;                 // now the inverse of the product up to i-1
    const Field iz2 = iz.sqr();
    out[i] = Affine<C>{in[i].X * iz2, in[i].Y * iz2 * iz, false};
  }
}

}  // namespace prestage::ec
