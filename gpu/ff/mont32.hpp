#pragma once
// Montgomery arithmetic over 32-bit words, written once over carry-chain primitives: on the
// device each primitive is one PTX instruction on the carry flag (CC.CF: mad.lo.cc, madc.hi.cc,
// addc, subc ...); on the host a variable emulates the flag, so CI tests every algorithm
// bit-exactly without a GPU (tests/unit/ff/mont32_test.cpp) and the GPU test checks the device
// against the same host code (tests/gpu/ff_mont32_test.cu).
//
// Conventions: W 32-bit words, little-endian; modulus p < 2^(32W - 2) (both BLS12-381 primes
// leave >= 2 spare bits); Montgomery radix 2^(32W) = 2^(64N), the radix of Fp (gpu/ff/fp.hpp),
// so the results are bit-identical to Fp::operator*. Inputs and outputs of the products are
// fully reduced (< p) unless a function says otherwise.
//
// Candidates (each its own function; gpu/bench/ff_bench.cu measures them side by side):
//   mul_eo     CIOS with the even/odd split of Emmart, Luo and Weems ("Optimizing modular
//              multiplication for NVIDIA's Maxwell GPUs", ARITH 2016): a[even]*b_i and
//              a[odd]*b_i go to two accumulators, one aligned and one a word higher, so each
//              32x32 product's low and high halves land on adjacent words of one carry chain,
//              and no carry-propagation words are needed between rows; one merge at the end.
//   mul_sos    separated operand scanning: the 2W-word product (even/odd rows), then one
//              Montgomery reduction (redc_wide).
//   sqr_sos    squaring: the cross products a_i a_j (i < j) once, doubled, plus the squares
//              a_i^2, then redc_wide.
//   fq2-style  sums of products with one reduction: mul_wide / sub_wide / redc_wide are the
//              parts (gpu/ff/fq2.hpp builds the lazy Karatsuba product from them).
// The CIOS with separate low and high chains (gpu/ff/mont_ptx.hpp) is the baseline.
#include <cstddef>
#include <cstdint>

#include "gpu/common/hd.hpp"
#include "gpu/ff/limbs.hpp"

namespace prestage::ff::detail::w32 {

// The carry flag. Device: PTX's implicit CC.CF (this object is empty in effect and optimised
// away; every primitive is an asm volatile statement, so their order is kept). Host: cf holds
// the flag (0 or 1; for the sub* primitives it is the borrow).
struct Carry {
  uint32_t cf = 0;
};

#if PRESTAGE_DEVICE_CODE
#define PRESTAGE_W32_DEV(...) asm volatile(__VA_ARGS__)
#endif

// ---- products: d (+)= lo/hi(a * b) (+ carry in), carry out where named .._cc ----
PRESTAGE_HD_INLINE void mul_lo(uint32_t& d, uint32_t a, uint32_t b) {
  d = a * b;
}
PRESTAGE_HD_INLINE void mul_hi(uint32_t& d, uint32_t a, uint32_t b) {
#if PRESTAGE_DEVICE_CODE
  d = __umulhi(a, b);
#else
  d = static_cast<uint32_t>((uint64_t{a} * b) >> 32);
#endif
}
#if PRESTAGE_DEVICE_CODE
#define PRESTAGE_W32_MAD(name, ptx, use_in, set_out)                          \
  PRESTAGE_HD_INLINE void name(Carry&, uint32_t& d, uint32_t a, uint32_t b) { \
    PRESTAGE_W32_DEV(ptx " %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b));      \
  }
#else
// hi selects the high half; use_in adds the incoming flag; set_out writes the outgoing flag.
#define PRESTAGE_W32_MAD(name, ptx, use_in, set_out, hi)                                     \
  PRESTAGE_HD_INLINE void name(Carry& c, uint32_t& d, uint32_t a, uint32_t b) {              \
    const uint64_t prod = uint64_t{a} * b;                                                   \
    const uint64_t s = (hi ? (prod >> 32) : (prod & 0xFFFFFFFFu)) + d + (use_in ? c.cf : 0); \
    d = static_cast<uint32_t>(s);                                                            \
    if (set_out) c.cf = static_cast<uint32_t>(s >> 32);                                      \
  }
#endif
#if PRESTAGE_DEVICE_CODE
PRESTAGE_W32_MAD(mad_lo_cc, "mad.lo.cc.u32", 0, 1)
PRESTAGE_W32_MAD(madc_lo_cc, "madc.lo.cc.u32", 1, 1)
PRESTAGE_W32_MAD(madc_lo, "madc.lo.u32", 1, 0)
PRESTAGE_W32_MAD(mad_hi_cc, "mad.hi.cc.u32", 0, 1)
PRESTAGE_W32_MAD(madc_hi_cc, "madc.hi.cc.u32", 1, 1)
PRESTAGE_W32_MAD(madc_hi, "madc.hi.u32", 1, 0)
#else
PRESTAGE_W32_MAD(mad_lo_cc, "", 0, 1, 0)
PRESTAGE_W32_MAD(madc_lo_cc, "", 1, 1, 0)
PRESTAGE_W32_MAD(madc_lo, "", 1, 0, 0)
PRESTAGE_W32_MAD(mad_hi_cc, "", 0, 1, 1)
PRESTAGE_W32_MAD(madc_hi_cc, "", 1, 1, 1)
PRESTAGE_W32_MAD(madc_hi, "", 1, 0, 1)
#endif
#undef PRESTAGE_W32_MAD

// ---- additions and subtractions: d = a +/- b (+/- carry in) ----
#if PRESTAGE_DEVICE_CODE
#define PRESTAGE_W32_ADD(name, ptx, sign, use_in, set_out)                    \
  PRESTAGE_HD_INLINE void name(Carry&, uint32_t& d, uint32_t a, uint32_t b) { \
    PRESTAGE_W32_DEV(ptx " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));          \
  }
#else
#define PRESTAGE_W32_ADD(name, ptx, sign, use_in, set_out)                                        \
  PRESTAGE_HD_INLINE void name(Carry& c, uint32_t& d, uint32_t a, uint32_t b) {                   \
    const uint64_t s =                                                                            \
        sign > 0 ? uint64_t{a} + b + (use_in ? c.cf : 0) : uint64_t{a} - b - (use_in ? c.cf : 0); \
    d = static_cast<uint32_t>(s);                                                                 \
    if (set_out) c.cf = static_cast<uint32_t>(s >> 32) & 1; /* carry, or borrow (wrapped) */      \
  }
#endif
PRESTAGE_W32_ADD(add_cc, "add.cc.u32", 1, 0, 1)
PRESTAGE_W32_ADD(addc_cc, "addc.cc.u32", 1, 1, 1)
PRESTAGE_W32_ADD(addc, "addc.u32", 1, 1, 0)
PRESTAGE_W32_ADD(sub_cc, "sub.cc.u32", -1, 0, 1)
PRESTAGE_W32_ADD(subc_cc, "subc.cc.u32", -1, 1, 1)
PRESTAGE_W32_ADD(subc, "subc.u32", -1, 1, 0)
#undef PRESTAGE_W32_ADD

// ---- building blocks ----

// r = t - p if t >= p else t (t < 2p, W words); branch-free select.
template <int W>
PRESTAGE_HD_INLINE void reduce_once(uint32_t* r, const uint32_t* t, const uint32_t* p) {
  Carry c;
  uint32_t d[W], borrow;
  sub_cc(c, d[0], t[0], p[0]);
  PRESTAGE_UNROLL
  for (int j = 1; j < W; ++j) subc_cc(c, d[j], t[j], p[j]);
  subc(c, borrow, 0u, 0u);  // all ones when t < p
  PRESTAGE_UNROLL
  for (int j = 0; j < W; ++j) r[j] = borrow ? t[j] : d[j];
}

// Reduction step of the even/odd CIOS: m = x[0] * inv, then x += m * p[even] (x aligned, W + 1
// words, carry into x[W]) and y += m * p[odd] (y one word higher, W words; the bounds in mul_eo
// keep y from overflowing, so its chain ends without a carry-out). After it x[0] == 0.
template <int W>
PRESTAGE_HD_INLINE void eo_reduce(uint32_t* x, uint32_t* y, const uint32_t* p, uint32_t inv) {
  Carry c;
  uint32_t m;
  mul_lo(m, x[0], inv);
  mad_lo_cc(c, x[0], m, p[0]);
  madc_hi_cc(c, x[1], m, p[0]);
  PRESTAGE_UNROLL
  for (int k = 2; k < W; k += 2) {
    madc_lo_cc(c, x[k], m, p[k]);
    madc_hi_cc(c, x[k + 1], m, p[k]);
  }
  addc(c, x[W], x[W], 0u);
  mad_lo_cc(c, y[0], m, p[1]);
  madc_hi_cc(c, y[1], m, p[1]);
  PRESTAGE_UNROLL
  for (int k = 2; k < W - 2; k += 2) {
    madc_lo_cc(c, y[k], m, p[k + 1]);
    madc_hi_cc(c, y[k + 1], m, p[k + 1]);
  }
  madc_lo_cc(c, y[W - 2], m, p[W - 1]);
  madc_hi(c, y[W - 1], m, p[W - 1]);
}

// r = a * b * 2^(-32W) mod p; a, b < p, r < p (W words each). Even/odd CIOS (see the top).
// State between rows: value T = x + 2^32 y with T < 2p (the CIOS bound); x has W + 1 words
// (x[W] takes the carries of the aligned chains), y has W words. Row i adds a * b_i and m * p
// (T < 2p + 2^33 p < 2^(32W + 32)): x grows below 2^(32W-1) + 2^(32W+31), y below
// 2^(32W-33) + 2^(32W-1) < 2^(32W), so neither overflows. Then T / 2^32 = x[1..W] + y: the next
// row takes y as its aligned accumulator (with x[1] added to its word 0; that carry enters the
// next odd chain, which starts one word higher) and x[2..W] as its higher accumulator.
template <int W>
PRESTAGE_HD_INLINE void mul_eo(uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p,
                               uint32_t inv) {
  static_assert(W % 2 == 0 && W >= 4);
  uint32_t x[W + 1], y[W];
  // Row 0: the even and odd products occupy disjoint words: no additions.
  PRESTAGE_UNROLL
  for (int k = 0; k < W; k += 2) {
    mul_lo(x[k], a[k], b[0]);
    mul_hi(x[k + 1], a[k], b[0]);
    mul_lo(y[k], a[k + 1], b[0]);
    mul_hi(y[k + 1], a[k + 1], b[0]);
  }
  x[W] = 0;
  eo_reduce<W>(x, y, p, inv);
  PRESTAGE_UNROLL
  for (int i = 1; i < W; ++i) {
    uint32_t nx[W + 1], ny[W];
    PRESTAGE_UNROLL
    for (int j = 0; j < W; ++j) nx[j] = y[j];
    nx[W] = 0;
    PRESTAGE_UNROLL
    for (int j = 0; j + 2 <= W; ++j) ny[j] = x[j + 2];
    ny[W - 1] = 0;
    Carry c;
    add_cc(c, nx[0], nx[0], x[1]);  // carry -> position 1 = ny[0]
    madc_lo_cc(c, ny[0], a[1], b[i]);
    madc_hi_cc(c, ny[1], a[1], b[i]);
    PRESTAGE_UNROLL
    for (int k = 2; k < W - 2; k += 2) {
      madc_lo_cc(c, ny[k], a[k + 1], b[i]);
      madc_hi_cc(c, ny[k + 1], a[k + 1], b[i]);
    }
    madc_lo_cc(c, ny[W - 2], a[W - 1], b[i]);
    madc_hi(c, ny[W - 1], a[W - 1], b[i]);
    mad_lo_cc(c, nx[0], a[0], b[i]);
    madc_hi_cc(c, nx[1], a[0], b[i]);
    PRESTAGE_UNROLL
    for (int k = 2; k < W; k += 2) {
      madc_lo_cc(c, nx[k], a[k], b[i]);
      madc_hi_cc(c, nx[k + 1], a[k], b[i]);
    }
    addc(c, nx[W], 0u, 0u);
    eo_reduce<W>(nx, ny, p, inv);
    PRESTAGE_UNROLL
    for (int j = 0; j <= W; ++j) x[j] = nx[j];
    PRESTAGE_UNROLL
    for (int j = 0; j < W; ++j) y[j] = ny[j];
  }
  // Merge: T = x[1..W] + y < 2p.
  Carry c;
  uint32_t t[W];
  add_cc(c, t[0], x[1], y[0]);
  PRESTAGE_UNROLL
  for (int j = 1; j < W - 1; ++j) addc_cc(c, t[j], x[j + 1], y[j]);
  addc(c, t[W - 1], x[W], y[W - 1]);
  reduce_once<W>(r, t, p);
}

// t = a * b, 2W words, for a, b < 2^(32W - 1) (unreduced sums allowed). Rows of even/odd
// chains: e holds the products whose low half lands on an even word (aligned), o those landing
// on an odd word (o[k] is word k + 1); each row's chains end in a fresh word. Then t = e + o.
template <int W>
PRESTAGE_HD_INLINE void mul_wide(uint32_t* t, const uint32_t* a, const uint32_t* b) {
  static_assert(W % 2 == 0 && W >= 4);
  uint32_t e[2 * W], o[2 * W];
  PRESTAGE_UNROLL
  for (int k = 0; k < W; k += 2) {
    mul_lo(e[k], a[k], b[0]);
    mul_hi(e[k + 1], a[k], b[0]);
    mul_lo(o[k], a[k + 1], b[0]);
    mul_hi(o[k + 1], a[k + 1], b[0]);
  }
  PRESTAGE_UNROLL
  for (int k = W; k < 2 * W; ++k) e[k] = o[k] = 0;
  PRESTAGE_UNROLL
  for (int i = 1; i < W; ++i) {
    Carry c;
    mad_lo_cc(c, e[i], a[0], b[i]);
    madc_hi_cc(c, e[i + 1], a[0], b[i]);
    PRESTAGE_UNROLL
    for (int k = 2; k < W; k += 2) {
      madc_lo_cc(c, e[i + k], a[k], b[i]);
      madc_hi_cc(c, e[i + k + 1], a[k], b[i]);
    }
    addc(c, e[i + W], 0u, 0u);
    mad_lo_cc(c, o[i], a[1], b[i]);
    madc_hi_cc(c, o[i + 1], a[1], b[i]);
    PRESTAGE_UNROLL
    for (int k = 2; k < W - 2; k += 2) {
      madc_lo_cc(c, o[i + k], a[k + 1], b[i]);
      madc_hi_cc(c, o[i + k + 1], a[k + 1], b[i]);
    }
    madc_lo_cc(c, o[i + W - 2], a[W - 1], b[i]);
    if (i + 1 < W) {
      madc_hi_cc(c, o[i + W - 1], a[W - 1], b[i]);
      addc(c, o[i + W], 0u, 0u);
    } else {
      madc_hi(c, o[i + W - 1], a[W - 1], b[i]);  // o[2W - 1] is word 2W: zero for t < 2^(64W)
    }
  }
  Carry c;
  t[0] = e[0];
  add_cc(c, t[1], e[1], o[0]);
  PRESTAGE_UNROLL
  for (int k = 2; k < 2 * W - 1; ++k) addc_cc(c, t[k], e[k], o[k - 1]);
  addc(c, t[2 * W - 1], e[2 * W - 1], o[2 * W - 2]);
}

// t = a^2, 2W words, a < 2^(32W - 1). Cross products a_i a_j (i < j) once, in even/odd
// accumulators as in mul_wide (row i's chains start at words 2i + 1 and 2i + 2 and end at most
// one word past row i - 1's, so each chain's carry word is fresh or holds an earlier carry and
// cannot overflow), then t = 2 (e + o) + sum a_i^2 2^(64 i).
template <int W>
PRESTAGE_HD_INLINE void sqr_wide(uint32_t* t, const uint32_t* a) {
  static_assert(W % 2 == 0 && W >= 4);
  uint32_t e[2 * W], o[2 * W];
  PRESTAGE_UNROLL
  for (int k = 0; k < 2 * W; ++k) e[k] = o[k] = 0;
  PRESTAGE_UNROLL
  for (int i = 0; i + 1 < W; ++i) {
    Carry c;
    // o: j = i + 1, i + 3, ...: low halves on odd words i + j, o index i + j - 1.
    {
      const int j0 = i + 1;
      mad_lo_cc(c, o[i + j0 - 1], a[i], a[j0]);
      madc_hi_cc(c, o[i + j0], a[i], a[j0]);
      int end = i + j0 + 1;
      PRESTAGE_UNROLL
      for (int j = j0 + 2; j < W; j += 2) {
        madc_lo_cc(c, o[i + j - 1], a[i], a[j]);
        madc_hi_cc(c, o[i + j], a[i], a[j]);
        end = i + j + 1;
      }
      addc(c, o[end], o[end], 0u);
    }
    // e: j = i + 2, i + 4, ...: low halves on even words i + j.
    if (i + 2 < W) {
      const int j0 = i + 2;
      mad_lo_cc(c, e[i + j0], a[i], a[j0]);
      madc_hi_cc(c, e[i + j0 + 1], a[i], a[j0]);
      int end = i + j0 + 2;
      PRESTAGE_UNROLL
      for (int j = j0 + 2; j < W; j += 2) {
        madc_lo_cc(c, e[i + j], a[i], a[j]);
        madc_hi_cc(c, e[i + j + 1], a[i], a[j]);
        end = i + j + 2;
      }
      addc(c, e[end], e[end], 0u);
    }
  }
  // s = e + o (cross sum, < 2^(64W - 1)), then t = 2 s + diagonal.
  Carry c;
  uint32_t s[2 * W];
  s[0] = e[0];
  add_cc(c, s[1], e[1], o[0]);
  PRESTAGE_UNROLL
  for (int k = 2; k < 2 * W - 1; ++k) addc_cc(c, s[k], e[k], o[k - 1]);
  addc(c, s[2 * W - 1], e[2 * W - 1], o[2 * W - 2]);
  add_cc(c, s[0], s[0], s[0]);
  PRESTAGE_UNROLL
  for (int k = 1; k < 2 * W - 1; ++k) addc_cc(c, s[k], s[k], s[k]);
  addc(c, s[2 * W - 1], s[2 * W - 1], s[2 * W - 1]);
  mad_lo_cc(c, s[0], a[0], a[0]);
  madc_hi_cc(c, s[1], a[0], a[0]);
  PRESTAGE_UNROLL
  for (int i = 1; i < W - 1; ++i) {
    madc_lo_cc(c, s[2 * i], a[i], a[i]);
    madc_hi_cc(c, s[2 * i + 1], a[i], a[i]);
  }
  madc_lo_cc(c, s[2 * W - 2], a[W - 1], a[W - 1]);
  madc_hi(c, s[2 * W - 1], a[W - 1], a[W - 1]);
  PRESTAGE_UNROLL
  for (int k = 0; k < 2 * W; ++k) t[k] = s[k];
}

// r = t * 2^(-32W) mod p for t < p * 2^(32W) (2W words); r < p. The even/odd reduction rows of
// mul_eo on the low half (value below 2^(32W-32) + p between rows), giving
// u = (t_low + M p) / 2^(32W) <= p; then r = u + t_high < 2p, reduced once.
template <int W>
PRESTAGE_HD_INLINE void redc_wide(uint32_t* r, const uint32_t* t, const uint32_t* p, uint32_t inv) {
  uint32_t x[W + 1], y[W];
  PRESTAGE_UNROLL
  for (int j = 0; j < W; ++j) {
    x[j] = t[j];
    y[j] = 0;
  }
  x[W] = 0;
  eo_reduce<W>(x, y, p, inv);
  PRESTAGE_UNROLL
  for (int i = 1; i < W; ++i) {
    uint32_t nx[W + 1], ny[W];
    PRESTAGE_UNROLL
    for (int j = 0; j < W; ++j) nx[j] = y[j];
    nx[W] = 0;
    PRESTAGE_UNROLL
    for (int j = 0; j + 2 <= W; ++j) ny[j] = x[j + 2];
    ny[W - 1] = 0;
    Carry c;
    add_cc(c, nx[0], nx[0], x[1]);  // carry -> ny[0]
    uint32_t m;
    mul_lo(m, nx[0], inv);  // no flag written between the add and the chain below
    madc_lo_cc(c, ny[0], m, p[1]);
    madc_hi_cc(c, ny[1], m, p[1]);
    PRESTAGE_UNROLL
    for (int k = 2; k < W - 2; k += 2) {
      madc_lo_cc(c, ny[k], m, p[k + 1]);
      madc_hi_cc(c, ny[k + 1], m, p[k + 1]);
    }
    madc_lo_cc(c, ny[W - 2], m, p[W - 1]);
    madc_hi(c, ny[W - 1], m, p[W - 1]);
    mad_lo_cc(c, nx[0], m, p[0]);
    madc_hi_cc(c, nx[1], m, p[0]);
    PRESTAGE_UNROLL
    for (int k = 2; k < W; k += 2) {
      madc_lo_cc(c, nx[k], m, p[k]);
      madc_hi_cc(c, nx[k + 1], m, p[k]);
    }
    addc(c, nx[W], 0u, 0u);
    PRESTAGE_UNROLL
    for (int j = 0; j <= W; ++j) x[j] = nx[j];
    PRESTAGE_UNROLL
    for (int j = 0; j < W; ++j) y[j] = ny[j];
  }
  Carry c;
  uint32_t u[W];
  add_cc(c, u[0], x[1], y[0]);
  PRESTAGE_UNROLL
  for (int j = 1; j < W - 1; ++j) addc_cc(c, u[j], x[j + 1], y[j]);
  addc(c, u[W - 1], x[W], y[W - 1]);
  add_cc(c, u[0], u[0], t[W]);
  PRESTAGE_UNROLL
  for (int j = 1; j < W - 1; ++j) addc_cc(c, u[j], u[j], t[W + j]);
  addc(c, u[W - 1], u[W - 1], t[2 * W - 1]);
  reduce_once<W>(r, u, p);
}

// r = a + b (no reduction; n words, no carry out: the caller's bounds keep the sum in n words).
template <int n>
PRESTAGE_HD_INLINE void add_words(uint32_t* r, const uint32_t* a, const uint32_t* b) {
  Carry c;
  add_cc(c, r[0], a[0], b[0]);
  PRESTAGE_UNROLL
  for (int j = 1; j < n - 1; ++j) addc_cc(c, r[j], a[j], b[j]);
  addc(c, r[n - 1], a[n - 1], b[n - 1]);
}

// r = a - b mod 2^(32n); returns all ones when a < b (borrow), else 0.
template <int n>
PRESTAGE_HD_INLINE uint32_t sub_words(uint32_t* r, const uint32_t* a, const uint32_t* b) {
  Carry c;
  sub_cc(c, r[0], a[0], b[0]);
  PRESTAGE_UNROLL
  for (int j = 1; j < n; ++j) subc_cc(c, r[j], a[j], b[j]);
  uint32_t borrow;
  subc(c, borrow, 0u, 0u);
  return borrow;
}

// r += (p & mask), W words, no carry out.
template <int W>
PRESTAGE_HD_INLINE void add_masked(uint32_t* r, const uint32_t* p, uint32_t mask) {
  Carry c;
  add_cc(c, r[0], r[0], p[0] & mask);
  PRESTAGE_UNROLL
  for (int j = 1; j < W - 1; ++j) addc_cc(c, r[j], r[j], p[j] & mask);
  addc(c, r[W - 1], r[W - 1], p[W - 1] & mask);
}

// r = a + b mod p and r = a - b mod p for a, b < p (W words): one carry chain, then one
// conditional subtraction (add) or a masked addition of p (sub). r may alias a or b.
template <int W>
PRESTAGE_HD_INLINE void add_mod(uint32_t* r, const uint32_t* a, const uint32_t* b,
                                const uint32_t* p) {
  uint32_t t[W];
  add_words<W>(t, a, b);  // < 2p < 2^(32W)
  reduce_once<W>(r, t, p);
}
template <int W>
PRESTAGE_HD_INLINE void sub_mod(uint32_t* r, const uint32_t* a, const uint32_t* b,
                                const uint32_t* p) {
  uint32_t t[W];
  const uint32_t borrow = sub_words<W>(t, a, b);
  add_masked<W>(t, p, borrow);
  PRESTAGE_UNROLL
  for (int j = 0; j < W; ++j) r[j] = t[j];
}

// Fp-facing helpers: N 64-bit limbs <-> 2N words (register pairs on the device: free).
template <std::size_t N>
PRESTAGE_HD_INLINE void to_words(uint32_t* w, const uint64_t* l) {
  PRESTAGE_UNROLL
  for (std::size_t j = 0; j < N; ++j) {
    w[2 * j] = static_cast<uint32_t>(l[j]);
    w[2 * j + 1] = static_cast<uint32_t>(l[j] >> 32);
  }
}
template <std::size_t N>
PRESTAGE_HD_INLINE void from_words(uint64_t* l, const uint32_t* w) {
  PRESTAGE_UNROLL
  for (std::size_t j = 0; j < N; ++j) l[j] = (uint64_t{w[2 * j + 1]} << 32) | w[2 * j];
}

// The modulus of F as words and -p^-1 mod 2^32 (compile-time constants).
template <class F>
struct Consts {
  static constexpr int W = 2 * static_cast<int>(F::N);
  uint32_t p[W];
  PRESTAGE_HD_INLINE constexpr Consts() : p{} {
    constexpr auto P = F::modulus;
    PRESTAGE_UNROLL
    for (int j = 0; j < W / 2; ++j) {
      p[2 * j] = static_cast<uint32_t>(P[j]);
      p[2 * j + 1] = static_cast<uint32_t>(P[j] >> 32);
    }
  }
  static constexpr uint32_t inv = static_cast<uint32_t>(F::inv);  // -p^-1 mod 2^32
};

#if defined(__CUDACC__)
// -p^-1 mod 2^32 for p = 1 mod 2^32 (Fr: p[0] = 1), i.e. 2^32 - 1, in constant memory. With the
// immediate, ptxas rewrites each reduction's m = x[0] * inv as m = -x[0] and then no longer fuses
// the reduction rows' mad.lo.cc / madc.hi.cc pairs on m * p[k] into IMAD.WIDE.U32.X: for Fr it
// emits an IMAD.X + IMAD.HI.U32.X pair per product (288 SASS instructions per mul_eo loop step;
// 48 split pairs = all of m * p[2..7]). Read from constant memory (one ULDC per kernel, value
// unknown to ptxas), every pair fuses: 240 instructions (ptxas 11.8 -O3 sm_90 on the PTX of nvcc
// 13.0, which reproduces the counts of gpuff's ff_sass.txt for the old form: 49 / 48 / 48).
[[maybe_unused]] static __constant__ uint32_t kInvForUnitLowWord = 0xFFFFFFFFu;
#endif

// Montgomery factor for the device products: Consts<F>::inv, read from constant memory when it is
// 2^32 - 1 (see kInvForUnitLowWord), so ptxas cannot specialise it; the same value either way.
template <class F>
PRESTAGE_HD_INLINE uint32_t mont_inv() {
#if PRESTAGE_DEVICE_CODE
  if constexpr (Consts<F>::inv == 0xFFFFFFFFu) return kInvForUnitLowWord;
#endif
  return Consts<F>::inv;
}

// a * b for an Fp type through each candidate; all equal to Fp::operator*.
template <class F>
PRESTAGE_HD_INLINE F fp_mul_eo(const F& a, const F& b) {
  constexpr int W = Consts<F>::W;
  const Consts<F> k;
  uint32_t x[W], y[W], r[W];
  to_words<F::N>(x, a.limb);
  to_words<F::N>(y, b.limb);
  mul_eo<W>(r, x, y, k.p, mont_inv<F>());
  F out;
  from_words<F::N>(out.limb, r);
  return out;
}
template <class F>
PRESTAGE_HD_INLINE F fp_mul_sos(const F& a, const F& b) {
  constexpr int W = Consts<F>::W;
  const Consts<F> k;
  uint32_t x[W], y[W], t[2 * W], r[W];
  to_words<F::N>(x, a.limb);
  to_words<F::N>(y, b.limb);
  mul_wide<W>(t, x, y);
  redc_wide<W>(r, t, k.p, mont_inv<F>());
  F out;
  from_words<F::N>(out.limb, r);
  return out;
}
template <class F>
PRESTAGE_HD_INLINE F fp_sqr_sos(const F& a) {
  constexpr int W = Consts<F>::W;
  const Consts<F> k;
  uint32_t x[W], t[2 * W], r[W];
  to_words<F::N>(x, a.limb);
  sqr_wide<W>(t, x);
  redc_wide<W>(r, t, k.p, mont_inv<F>());
  F out;
  from_words<F::N>(out.limb, r);
  return out;
}

// a + b or a - b mod p (inputs < p, output < p) on 32-bit carry chains.
enum class AddSub { Add, Sub };
template <AddSub kOp, class F>
PRESTAGE_HD_INLINE F fp_add_or_sub(const F& a, const F& b) {
  constexpr int W = Consts<F>::W;
  const Consts<F> k;
  uint32_t x[W], y[W], r[W];
  to_words<F::N>(x, a.limb);
  to_words<F::N>(y, b.limb);
  if constexpr (kOp == AddSub::Add)
    add_mod<W>(r, x, y, k.p);
  else
    sub_mod<W>(r, x, y, k.p);
  F out;
  from_words<F::N>(out.limb, r);
  return out;
}
template <class F>
PRESTAGE_HD_INLINE F fp_add(const F& a, const F& b) {
  return fp_add_or_sub<AddSub::Add>(a, b);
}
template <class F>
PRESTAGE_HD_INLINE F fp_sub(const F& a, const F& b) {
  return fp_add_or_sub<AddSub::Sub>(a, b);
}

// ---- lazy-reduction forms (gpu/ntt's DIF butterfly: the difference feeds only a product) ----
// r = a - b + p for a, b < p: the difference without its conditional correction (no borrow test,
// no mask), in [1, 2p), congruent to a - b mod p. 2p < 2^(32W) (p < 2^(32W-2)), so the wrapped
// chains a - b mod 2^(32W), then + p mod 2^(32W), give a - b + p exactly: 2W instructions
// against sub_mod's 3W + 1. r may alias a or b.
template <int W>
PRESTAGE_HD_INLINE void sub_plus_p(uint32_t* r, const uint32_t* a, const uint32_t* b,
                                   const uint32_t* p) {
  Carry c;
  uint32_t t[W];
  sub_cc(c, t[0], a[0], b[0]);
  PRESTAGE_UNROLL
  for (int j = 1; j < W - 1; ++j) subc_cc(c, t[j], a[j], b[j]);
  subc(c, t[W - 1], a[W - 1], b[W - 1]);
  add_words<W>(r, t, p);
}

// a - b + p in [1, 2p) as F's limbs (NOT a reduced element: feed it only to fp_mul_eo_wide_b's
// second operand). a, b < p.
template <class F>
PRESTAGE_HD_INLINE F fp_sub_unreduced(const F& a, const F& b) {
  constexpr int W = Consts<F>::W;
  const Consts<F> k;
  uint32_t x[W], y[W], r[W];
  to_words<F::N>(x, a.limb);
  to_words<F::N>(y, b.limb);
  sub_plus_p<W>(r, x, y, k.p);
  F out;
  from_words<F::N>(out.limb, r);
  return out;
}

// a * b * 2^(-32W) mod p for a < p and ANY b < 2^(32W) (b need not be reduced), result < p: the
// same even/odd CIOS as fp_mul_eo (bit-identical code). Why the wider contract holds: mul_eo's
// bounds use only a < p and the words b_i < 2^32. Between rows T_i = (T_(i-1) + a b_i + m_i p) /
// 2^32 < (2p + (2^32 - 1)(a + p)) / 2^32 < 2p by induction (T_0 < (a + p) 2^32 / 2^32), whatever
// b is; the accumulator bounds in mul_eo follow from T < 2p and b_i < 2^32 alone; the final
// T < 2p is reduced once to < p, and T = (a b + M p) 2^(-32W) == a b 2^(-32W) mod p. (b is the
// word-scanned operand: the unreduced value must go SECOND.) Checked on the host against
// Fp::operator* on b = x + p and b = 2^(32W) - 1 - x (tests/unit/ff_mont32).
template <class F>
PRESTAGE_HD_INLINE F fp_mul_eo_wide_b(const F& a, const F& b) {
  return fp_mul_eo(a, b);
}

// Fq2-style product with lazy reduction (Karatsuba, 3 wide products, 2 reductions) for
// (a0 + a1 u)(b0 + b1 u) with u^2 = -1: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1
// b1, each reduced once. Bounds: |a0 b0 - a1 b1| < p^2; when negative, p * 2^(32W) is added (word W
// up), so t0 in [0, p 2^(32W)); t1 = a0 b1 + a1 b0 < 2 p^2 < p 2^(32W) (p < 2^(32W-2)).
template <class F>
PRESTAGE_HD_INLINE void fp2_mul_lazy(F& c0, F& c1, const F& a0, const F& a1, const F& b0,
                                     const F& b1) {
  constexpr int W = Consts<F>::W;
  const Consts<F> k;
  uint32_t x0[W], x1[W], y0[W], y1[W], sx[W], sy[W];
  to_words<F::N>(x0, a0.limb);
  to_words<F::N>(x1, a1.limb);
  to_words<F::N>(y0, b0.limb);
  to_words<F::N>(y1, b1.limb);
  add_words<W>(sx, x0, x1);  // < 2p < 2^(32W-1)
  add_words<W>(sy, y0, y1);
  uint32_t t00[2 * W], t11[2 * W], ts[2 * W], t0[2 * W], r[W];
  mul_wide<W>(t00, x0, y0);
  mul_wide<W>(t11, x1, y1);
  mul_wide<W>(ts, sx, sy);
  (void)sub_words<2 * W>(ts, ts, t00);  // no borrow: ts >= t00 + t11
  (void)sub_words<2 * W>(ts, ts, t11);
  const uint32_t neg = sub_words<2 * W>(t0, t00, t11);
  add_masked<W>(t0 + W, k.p, neg);
  redc_wide<W>(r, t0, k.p, Consts<F>::inv);
  from_words<F::N>(c0.limb, r);
  redc_wide<W>(r, ts, k.p, Consts<F>::inv);
  from_words<F::N>(c1.limb, r);
}

}  // namespace prestage::ff::detail::w32

namespace prestage::ff::detail::w32 {

// Fq2-shaped products over any Fp product `mul` (a functor: F mul(const F&, const F&)), for
// (a0 + a1 u)(b0 + b1 u) with u^2 = -1. Karatsuba: 3 products; complex squaring: 2 products.
template <class F, class Mul>
PRESTAGE_HD_INLINE void fp2_mul_karatsuba(F& c0, F& c1, const F& a0, const F& a1, const F& b0,
                                          const F& b1, Mul mul) {
  const F v0 = mul(a0, b0);
  const F v1 = mul(a1, b1);
  const F s = mul(a0 + a1, b0 + b1);
  c0 = v0 - v1;
  c1 = s - v0 - v1;
}
template <class F, class Mul>
PRESTAGE_HD_INLINE void fp2_sqr_complex(F& c0, F& c1, const F& a0, const F& a1, Mul mul) {
  const F t = mul(a0, a1);
  c0 = mul(a0 + a1, a0 - a1);
  c1 = t + t;
}

}  // namespace prestage::ff::detail::w32
