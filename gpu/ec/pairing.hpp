#pragma once
// The optimal ate pairing on BLS12-381, e: G1 x G2 -> GT (subgroup of order r in Fq12*), host
// reference code (Groth16 verification, tests). e(P, Q) = final_exponentiation(miller_loop(P, Q)).
//
// Which power of the pairing: the final exponent here is 3 (p^12 - 1) / r, the convention of
// zkcrypto/bls12_381, blst and snarkjs's wasmcurves (their hard part is the Hayashida-Hayasaka-
// Teruya chain for 3 (p^4 - p^2 + 1) / r). So e(G1, G2) equals their published Gt generator and
// snarkjs's vk_alphabeta_12 values; the tests check that constant. (The cube of a non-degenerate
// bilinear pairing is one, since 3 does not divide r.)
//
// Miller loop over |x| = 0xd201000000010000 (x < 0: the result is conjugated). The G2 point T runs
// in affine coordinates on the twist E'(Fq2) (one Fq2 inversion per step); lines are evaluated at
// P through the untwisting map psi(x, y) = (x / w^2, y / w^3) of this M-type twist and scaled by
// w^3 (which lies in Fq4 and is erased by the final exponentiation):
//   l(P) = (lambda x_T - y_T) + (-lambda x_P) w^2 + y_P w^3,   w^2 = v, w^3 = v w.
// Vertical lines lie in Fq6 and are erased by the easy part of the final exponentiation.
#include <array>
#include <span>
#include <utility>
#include <vector>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ff/fq12.hpp"

namespace prestage::ec {

// |x| for the BLS12-381 parameter x = -0xd201000000010000.
inline constexpr uint64_t kBlsX = 0xd201000000010000ull;
inline constexpr bool kBlsXIsNegative = true;

// 3 (p^4 - p^2 + 1) / r, the hard part of the final exponent, 20 little-endian limbs (1270
// bits). Used by final_exponentiation_reference; checked against GMP in the tests.
inline constexpr std::array<uint64_t, 20> kFinalExpHardPart3 = {
    0xaf444bdcaaab2f6bull, 0xefcb3800a61a66d5ull, 0xb116bba59a18123aull, 0x554e727d129be6a3ull,
    0x8a65dbc1cc35fe5aull, 0x6574220c23e5b6ccull, 0x8c72178bc76a791cull, 0xb415c7da454d4863ull,
    0x37d47f639b68a630ull, 0x6a6a2b0ab1c47526ull, 0x6c9ae9625394f594ull, 0x6163cbf00bf566e4ull,
    0x877c5e22f2639411ull, 0xb0f5836ba82b62deull, 0xe3ae662e47a24ea0ull, 0x8d69012b6d183f47ull,
    0xbcf13296f7a83fceull, 0x7b69b9acc2cc45eaull, 0x4237aa494c159cdcull, 0x002e3941b8817705ull};

namespace detail {

// Line through T with slope lambda, evaluated at P and scaled by w^3 (see the header comment).
inline ff::Fq12 line_value(const ff::Fq2& lambda, const G2Affine& t, const G1Affine& p) {
  const ff::Fq2 c00 = lambda * t.x - t.y;
  const ff::Fq2 c01 = lambda * (-p.x);  // -lambda x_P
  const ff::Fq2 c11 = ff::Fq2::from_fq(p.y);
  return {{c00, c01, ff::Fq2::zero()}, {ff::Fq2::zero(), c11, ff::Fq2::zero()}};
}

// T <- 2T on the twist; returns the tangent line at the old T evaluated at P.
inline ff::Fq12 double_step(G2Affine& t, const G1Affine& p) {
  const ff::Fq2 x2 = t.x.sqr();
  const ff::Fq2 lambda = (x2.dbl() + x2) * t.y.dbl().inverse();
  const ff::Fq12 l = line_value(lambda, t, p);
  const ff::Fq2 x3 = lambda.sqr() - t.x.dbl();
  t.y = lambda * (t.x - x3) - t.y;
  t.x = x3;
  return l;
}

// T <- T + Q on the twist (T != +-Q inside the loop); returns the chord line evaluated at P.
inline ff::Fq12 add_step(G2Affine& t, const G2Affine& q, const G1Affine& p) {
  const ff::Fq2 lambda = (q.y - t.y) * (q.x - t.x).inverse();
  const ff::Fq12 l = line_value(lambda, t, p);
  const ff::Fq2 x3 = lambda.sqr() - t.x - q.x;
  t.y = lambda * (t.x - x3) - t.y;
  t.x = x3;
  return l;
}

}  // namespace detail

// Product of the Miller functions f_{x,Q_i}(P_i) over all pairs, sharing the squarings (one
// multi-Miller loop). Pairs with an identity point contribute 1. Points must be in G1 / G2.
inline ff::Fq12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  std::vector<std::pair<G1Affine, G2Affine>> live;
  for (const auto& pq : pairs)
    if (!pq.first.infinity && !pq.second.infinity) live.push_back(pq);
  ff::Fq12 f = ff::Fq12::one();
  if (live.empty()) return f;
  std::vector<G2Affine> t(live.size());
  for (std::size_t i = 0; i < live.size(); ++i) t[i] = live[i].second;
  int top = 63;
  while (((kBlsX >> top) & 1) == 0) --top;
  for (int bit = top - 1; bit >= 0; --bit) {
    f = f.sqr();
    for (std::size_t i = 0; i < live.size(); ++i) f *= detail::double_step(t[i], live[i].first);
    if ((kBlsX >> bit) & 1)
      for (std::size_t i = 0; i < live.size(); ++i)
        f *= detail::add_step(t[i], live[i].second, live[i].first);
  }
  return kBlsXIsNegative ? f.conjugate() : f;
}

inline ff::Fq12 miller_loop(const G1Affine& p, const G2Affine& q) {
  const std::pair<G1Affine, G2Affine> one_pair[1] = {{p, q}};
  return multi_miller_loop(one_pair);
}

namespace detail {

// g^x for x = -0xd201000000010000 and g in the cyclotomic subgroup (inverse = conjugate).
inline ff::Fq12 cyclotomic_exp_by_x(const ff::Fq12& g) {
  ff::Fq12 r = g;
  int top = 63;
  while (((kBlsX >> top) & 1) == 0) --top;
  for (int bit = top - 1; bit >= 0; --bit) {
    r = r.sqr();
    if ((kBlsX >> bit) & 1) r *= g;
  }
  return kBlsXIsNegative ? r.conjugate() : r;
}

// f^(p^6 - 1)(p^2 + 1): maps nonzero f into the cyclotomic subgroup.
inline ff::Fq12 final_exponentiation_easy(const ff::Fq12& f) {
  const ff::Fq12 f1 = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  return f1.frobenius_map(2) * f1;                  // ^(p^2 + 1)
}

}  // namespace detail

// f^(3 (p^12 - 1) / r) for nonzero f. Easy part, then the hard part through
//   3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3
// (Hayashida, Hayasaka, Teruya, ePrint 2020/875): five exponentiations by x, Frobenius maps and
// conjugations, ~6x fewer Fq12 operations than the plain power.
inline ff::Fq12 final_exponentiation(const ff::Fq12& f) {
  const ff::Fq12 g = detail::final_exponentiation_easy(f);
  using detail::cyclotomic_exp_by_x;
  ff::Fq12 a = cyclotomic_exp_by_x(g) * g.conjugate();             // g^(x-1)
  a = cyclotomic_exp_by_x(a) * a.conjugate();                      // g^((x-1)^2)
  const ff::Fq12 b = cyclotomic_exp_by_x(a) * a.frobenius_map(1);  // ^(x+p)
  const ff::Fq12 c = cyclotomic_exp_by_x(cyclotomic_exp_by_x(b)) * b.frobenius_map(2) *
                     b.conjugate();  // ^(x^2+p^2-1)
  return c * g.sqr() * g;            // * g^3
}

// The same map by one plain exponentiation with the 1270-bit hard part (test oracle).
inline ff::Fq12 final_exponentiation_reference(const ff::Fq12& f) {
  return detail::final_exponentiation_easy(f).pow(kFinalExpHardPart3);
}

inline ff::Fq12 pairing(const G1Affine& p, const G2Affine& q) {
  return final_exponentiation(miller_loop(p, q));
}

// prod_i e(P_i, Q_i) == 1, with one multi-Miller loop and one final exponentiation (Groth16
// verification: e(A, B) e(-alpha, beta) e(-L, gamma) e(-C, delta) == 1).
inline bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  return final_exponentiation(multi_miller_loop(pairs)).is_one();
}

}  // namespace prestage::ec
