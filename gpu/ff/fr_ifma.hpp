#pragma once
// Fr8: eight BLS12-381 Fr elements in AVX-512 IFMA form (host x86-64 only), for the in-block
// stages of the host NTT (gpu/ntt/host_ntt.cpp). The Fr twin of gpu/ff/fq_ifma.hpp.
//
// Layout: SoA, limb-major: limb[k] holds limb k (52 bits, radix 2^52) of lanes 0..7; 5 x 52 = 260
// bits per element, 5 x 64 B = 320 B per Fr8. Values are always fully reduced (< r) and every limb
// is < 2^52 between operations.
//
// Domain: the SAME Montgomery form as ff::Fr (a * 2^256 mod r), not the natural 2^260 of five
// 52-bit limbs: mul() runs four 52-bit Montgomery reduction steps and one 48-bit step
// (4 x 52 + 48 = 256), so mul(a, b) = a * b * 2^-256 mod r, fully reduced: lane for lane the value
// Fr::operator* returns, bit for bit. Converting to and from Fr is a repacking of bits
// (4 x 64 <-> 5 x 52). Bound: (a b + m r) / 2^256 < (r^2 + 2^256 r) / 2^256 < 2r, so one
// conditional subtraction finishes every product.
//
// Cost of mul (8 products): 50 vpmadd52{l,h}uq for the 5 x 5 limb products, 4 x (1 + 10) + 11 for
// the reduction, ~30 shifts/ands/adds: ~13 IFMA + ~4 other vector instructions per Fr product,
// against 16 + 16 mulx and ~40 adcx/adox/mov for the scalar mont_mul_adx_4.
//
// Every function carries PRESTAGE_IFMA_TARGET (gpu/ff/fq_ifma.hpp) and is always inlined (g++ 12
// left mul and fr_reduce_once out of line in the NTT kernels: ~20% of their samples were the
// calls and the spills around them). Callers must check
// ff::ifma::cpu_has_ifma() at run time first.
#include <cstdint>

#include "gpu/ff/fq_ifma.hpp"
#include "gpu/ff/fr.hpp"

#if PRESTAGE_FF_HOST_IFMA

namespace prestage::ff::ifma {

// r in radix 2^52 (5 limbs) and -r^-1 mod 2^52, from Fr's modulus at compile time.
struct FrConsts {
  uint64_t r[5];
  uint64_t rinv52;
};
constexpr FrConsts make_fr_consts() {
  FrConsts c{};
  const auto& w = Fr::modulus;
  c.r[0] = w[0] & kMask52;
  c.r[1] = ((w[0] >> 52) | (w[1] << 12)) & kMask52;
  c.r[2] = ((w[1] >> 40) | (w[2] << 24)) & kMask52;
  c.r[3] = ((w[2] >> 28) | (w[3] << 36)) & kMask52;
  c.r[4] = w[3] >> 16;
  c.rinv52 = Fr::inv & kMask52;  // -r^-1 mod 2^64, hence mod 2^52 too
  return c;
}
inline constexpr FrConsts kFrConsts = make_fr_consts();
static_assert(kFrConsts.r[4] < (uint64_t{1} << 48), "r < 2^256: the top limb holds <= 48 bits");

// 4 x 64-bit limbs (an Fr's Montgomery limbs) -> 5 x 52-bit limbs of one lane (portable code).
inline void pack52_fr(const uint64_t* w, uint64_t* l) {
  l[0] = w[0] & kMask52;
  l[1] = ((w[0] >> 52) | (w[1] << 12)) & kMask52;
  l[2] = ((w[1] >> 40) | (w[2] << 24)) & kMask52;
  l[3] = ((w[2] >> 28) | (w[3] << 36)) & kMask52;
  l[4] = w[3] >> 16;
}

// Eight Fr elements, limb-major. A register value (see Fq8 on crossing into portable code).
struct Fr8 {
  __m512i limb[5];
};
// An Fr8 in memory: w[limb][lane], 320 B, 64 B aligned.
struct alignas(64) Fr8Mem {
  uint64_t w[5][8];
};

PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline Fr8 load(const Fr8Mem& m) {
  Fr8 r;
  for (int k = 0; k < 5; ++k) r.limb[k] = _mm512_load_si512(m.w[k]);
  return r;
}
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline void store(const Fr8& a, Fr8Mem& m) {
  for (int k = 0; k < 5; ++k) _mm512_store_si512(m.w[k], a.limb[k]);
}

// 4 x 64 words per lane (w[k] = word k of lanes 0..7) <-> 5 x 52-bit limbs.
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline Fr8 from_words(const __m512i w[4]) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  Fr8 r;
  r.limb[0] = _mm512_and_si512(w[0], mask);
  r.limb[1] = _mm512_and_si512(
      _mm512_or_si512(_mm512_srli_epi64(w[0], 52), _mm512_slli_epi64(w[1], 12)), mask);
  r.limb[2] = _mm512_and_si512(
      _mm512_or_si512(_mm512_srli_epi64(w[1], 40), _mm512_slli_epi64(w[2], 24)), mask);
  r.limb[3] = _mm512_and_si512(
      _mm512_or_si512(_mm512_srli_epi64(w[2], 28), _mm512_slli_epi64(w[3], 36)), mask);
  r.limb[4] = _mm512_srli_epi64(w[3], 16);
  return r;
}
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline void to_words(const Fr8& a, __m512i w[4]) {
  w[0] = _mm512_or_si512(a.limb[0], _mm512_slli_epi64(a.limb[1], 52));
  w[1] = _mm512_or_si512(_mm512_srli_epi64(a.limb[1], 12), _mm512_slli_epi64(a.limb[2], 40));
  w[2] = _mm512_or_si512(_mm512_srli_epi64(a.limb[2], 24), _mm512_slli_epi64(a.limb[3], 28));
  w[3] = _mm512_or_si512(_mm512_srli_epi64(a.limb[3], 36), _mm512_slli_epi64(a.limb[4], 16));
}

// Lanes <- src[0..7] (eight consecutive Fr, Montgomery): four 64-bit gathers at stride 32 B.
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline Fr8 load_contiguous(const Fr* src) {
  const __m512i idx = _mm512_set_epi64(28, 24, 20, 16, 12, 8, 4, 0);
  const auto* base = reinterpret_cast<const long long*>(src->limb);
  __m512i w[4];
  for (int k = 0; k < 4; ++k) w[k] = _mm512_i64gather_epi64(idx, base + k, 8);
  return from_words(w);
}
// dst[0..7] <- lanes (bit-identical Fr values): four 64-bit scatters at stride 32 B.
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline void store_contiguous(const Fr8& a, Fr* dst) {
  const __m512i idx = _mm512_set_epi64(28, 24, 20, 16, 12, 8, 4, 0);
  auto* base = reinterpret_cast<long long*>(dst->limb);
  __m512i w[4];
  to_words(a, w);
  for (int k = 0; k < 4; ++k) _mm512_i64scatter_epi64(base + k, idx, w[k], 8);
}

// r - r_modulus if r >= r_modulus, else r (r < 2 r_modulus, limbs normalised to 52 bits).
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline void fr_reduce_once(__m512i v[5]) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i s[5];
  __m512i borrow = _mm512_setzero_si512();
  for (int k = 0; k < 5; ++k) {
    __m512i d = _mm512_sub_epi64(v[k], _mm512_set1_epi64(static_cast<long long>(kFrConsts.r[k])));
    d = _mm512_add_epi64(d, borrow);
    borrow = _mm512_srai_epi64(d, 52);
    s[k] = _mm512_and_si512(d, mask);
  }
  const __mmask8 keep_s = _mm512_cmpeq_epi64_mask(borrow, _mm512_setzero_si512());
  for (int k = 0; k < 5; ++k) v[k] = _mm512_mask_mov_epi64(v[k], keep_s, s[k]);
}

// a * b * 2^-256 mod r per lane (Montgomery product in Fr's domain), fully reduced.
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline Fr8 mul(const Fr8& a, const Fr8& b) {
  Fr8 o;
  mont_mul52<5, 48, true>(a.limb, b.limb, kFrConsts.r, kFrConsts.rinv52, o.limb);
  fr_reduce_once(o.limb);
  return o;
}

// a + b mod r per lane, fully reduced.
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline Fr8 add(const Fr8& a, const Fr8& b) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  Fr8 s;
  __m512i carry = _mm512_setzero_si512();
  for (int k = 0; k < 5; ++k) {
    const __m512i v = _mm512_add_epi64(_mm512_add_epi64(a.limb[k], b.limb[k]), carry);
    carry = _mm512_srli_epi64(v, 52);
    s.limb[k] = _mm512_and_si512(v, mask);
  }
  fr_reduce_once(s.limb);  // a + b < 2r < 2^256
  return s;
}

// a - b mod r per lane, fully reduced.
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline Fr8 sub(const Fr8& a, const Fr8& b) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  Fr8 d;
  __m512i borrow = _mm512_setzero_si512();
  for (int k = 0; k < 5; ++k) {
    const __m512i v = _mm512_add_epi64(_mm512_sub_epi64(a.limb[k], b.limb[k]), borrow);
    borrow = _mm512_srai_epi64(v, 52);
    d.limb[k] = _mm512_and_si512(v, mask);
  }
  // Lanes that borrowed out of the top hold a - b + 2^260: add r, drop the carry out.
  const __mmask8 neg = _mm512_cmpneq_epi64_mask(borrow, _mm512_setzero_si512());
  __m512i carry = _mm512_setzero_si512();
  for (int k = 0; k < 5; ++k) {
    __m512i v =
        _mm512_add_epi64(d.limb[k], _mm512_set1_epi64(static_cast<long long>(kFrConsts.r[k])));
    v = _mm512_add_epi64(v, carry);
    carry = _mm512_srli_epi64(v, 52);
    d.limb[k] = _mm512_mask_mov_epi64(d.limb[k], neg, _mm512_and_si512(v, mask));
  }
  return d;
}

// Lane l <- a's lane idx[l] (a permutation of the lanes).
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline Fr8 permute(const Fr8& a, __m512i idx) {
  Fr8 r;
  for (int k = 0; k < 5; ++k) r.limb[k] = _mm512_permutexvar_epi64(idx, a.limb[k]);
  return r;
}
// Lanes in m from a, the rest from b.
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline Fr8 select(__mmask8 m, const Fr8& a,
                                                              const Fr8& b) {
  Fr8 r;
  for (int k = 0; k < 5; ++k) r.limb[k] = _mm512_mask_blend_epi64(m, b.limb[k], a.limb[k]);
  return r;
}

}  // namespace prestage::ff::ifma

#endif
