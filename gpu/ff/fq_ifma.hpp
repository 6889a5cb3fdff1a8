#pragma once
// Fq8: eight BLS12-381 Fq elements in AVX-512 IFMA form (host x86-64 only), for the batch-affine
// bucket additions of the host MSM (gpu/msm/host_msm.cpp).
//
// Layout: SoA, limb-major: limb[k] holds limb k (52 bits, radix 2^52) of lanes 0..7; 8 x 52 = 416
// bits per element, 8 x 64 B = 512 B per Fq8. Values are always fully reduced (< p) and every limb
// is < 2^52 between operations.
//
// Domain: the SAME Montgomery form as ff::Fq (a * 2^384 mod p), not the natural 2^416 of eight
// 52-bit limbs. mul() runs seven 52-bit Montgomery reduction steps and one 20-bit step
// (7 x 52 + 20 = 384), so mul(a, b) = a * b * 2^-384 mod p, fully reduced: lane for lane the value
// Fq::operator* returns, bit for bit. Conversion to and from Fq is therefore only a repacking of
// bits (6 x 64 <-> 8 x 52), never a product, and no value ever carries a 2^32 factor.
//
// Cost of mul (8 products): 128 vpmadd52{l,h}uq for the 8 x 8 limb products, 7 x (1 + 16) for the
// 52-bit reduction steps, 17 for the 20-bit step, plus about 60 shifts/ands/adds for carries and
// the final subtraction: ~33 IFMA + ~10 other vector instructions per Fq product, against 72 mulx
// + ~80 adcx/adox/mov for the scalar mont_mul_adx_6.
//
// Every function carries the target attribute PRESTAGE_IFMA_TARGET: the rest of the build stays
// portable (no -mavx512 flag), and callers must check cpu_has_ifma() at run time before calling
// any of them (they fault on a CPU without AVX-512 IFMA).
#include <cstdint>

#include "gpu/ff/fq.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__) && \
    !defined(__CUDACC__)
#define PRESTAGE_FF_HOST_IFMA 1
#include <immintrin.h>

#define PRESTAGE_IFMA_TARGET [[gnu::target("avx512f,avx512ifma,avx512vl,avx512bw,avx512dq")]]

namespace prestage::ff::ifma {

// True when the CPU runs AVX-512F and AVX-512 IFMA (cpuid via the compiler's runtime check).
inline bool cpu_has_ifma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
}

constexpr uint64_t kMask52 = (uint64_t{1} << 52) - 1;

// p in radix 2^52 (8 limbs) and -p^-1 mod 2^52, derived from Fq's modulus at compile time.
struct Consts {
  uint64_t p[8];
  uint64_t pinv52;
};
constexpr Consts make_consts() {
  Consts c{};
  const auto& w = Fq::modulus;
  c.p[0] = w[0] & kMask52;
  c.p[1] = ((w[0] >> 52) | (w[1] << 12)) & kMask52;
  c.p[2] = ((w[1] >> 40) | (w[2] << 24)) & kMask52;
  c.p[3] = ((w[2] >> 28) | (w[3] << 36)) & kMask52;
  c.p[4] = ((w[3] >> 16) | (w[4] << 48)) & kMask52;
  c.p[5] = (w[4] >> 4) & kMask52;
  c.p[6] = ((w[4] >> 56) | (w[5] << 8)) & kMask52;
  c.p[7] = w[5] >> 44;
  c.pinv52 = Fq::inv & kMask52;  // -p^-1 mod 2^64, hence mod 2^52 too
  return c;
}
inline constexpr Consts kConsts = make_consts();
static_assert(kConsts.p[7] < (uint64_t{1} << 20), "p < 2^384: the top limb holds <= 20 bits");

// 6 x 64-bit limbs (an Fq's Montgomery limbs) <-> 8 x 52-bit limbs of one lane.
inline void pack52(const uint64_t* w, uint64_t* l) {
  l[0] = w[0] & kMask52;
  l[1] = ((w[0] >> 52) | (w[1] << 12)) & kMask52;
  l[2] = ((w[1] >> 40) | (w[2] << 24)) & kMask52;
  l[3] = ((w[2] >> 28) | (w[3] << 36)) & kMask52;
  l[4] = ((w[3] >> 16) | (w[4] << 48)) & kMask52;
  l[5] = (w[4] >> 4) & kMask52;
  l[6] = ((w[4] >> 56) | (w[5] << 8)) & kMask52;
  l[7] = w[5] >> 44;
}
inline void unpack52(const uint64_t* l, uint64_t* w) {
  w[0] = l[0] | (l[1] << 52);
  w[1] = (l[1] >> 12) | (l[2] << 40);
  w[2] = (l[2] >> 24) | (l[3] << 28);
  w[3] = (l[3] >> 36) | (l[4] << 16);
  w[4] = (l[4] >> 48) | (l[5] << 4) | (l[6] << 56);
  w[5] = (l[6] >> 8) | (l[7] << 44);
}

// Eight Fq elements, limb-major (see the top of the file). Trivial type: uninitialised by default.
// A register value: create, pass and return it only inside PRESTAGE_IFMA_TARGET functions (a
// __m512i crossing into code built without AVX-512 changes the calling convention: g++ 12 then
// passes it misaligned). Buffers kept by portable code hold Fq8Mem instead.
struct Fq8 {
  __m512i limb[8];
};
// An Fq8 in memory: w[limb][lane], 512 B, 64 B aligned; plain integers, safe in any code.
struct alignas(64) Fq8Mem {
  uint64_t w[8][8];
};
PRESTAGE_IFMA_TARGET inline Fq8 load(const Fq8Mem& m) {
  Fq8 r;
  for (int k = 0; k < 8; ++k) r.limb[k] = _mm512_load_si512(m.w[k]);
  return r;
}
PRESTAGE_IFMA_TARGET inline void store(const Fq8& a, Fq8Mem& m) {
  for (int k = 0; k < 8; ++k) _mm512_store_si512(m.w[k], a.limb[k]);
}

// Bits [64 lo_word + shift, + 52) of each lane's element, from its six 64-bit words w.
PRESTAGE_IFMA_TARGET inline __m512i bits52(const __m512i w[6], int lo_word, unsigned shift) {
  __m512i v = _mm512_srli_epi64(w[lo_word], shift);
  if (shift > 12 && lo_word + 1 < 6)
    v = _mm512_or_si512(v, _mm512_slli_epi64(w[lo_word + 1], 64 - shift));
  return _mm512_and_si512(v, _mm512_set1_epi64(static_cast<long long>(kMask52)));
}
// Lanes <- *src[0..7] (Montgomery Fq, < p): six 64-bit gathers (one per word, the eight
// addresses as indices from 0), then the 6 x 64 -> 8 x 52 repacking on all lanes at once.
PRESTAGE_IFMA_TARGET inline Fq8 load(const Fq* const src[8]) {
  static_assert(sizeof(const Fq*) == 8, "the eight pointers are read as one 512-bit vector");
  const __m512i addr = _mm512_loadu_si512(src);
  __m512i w[6];
  for (int k = 0; k < 6; ++k)
    w[k] = _mm512_i64gather_epi64(_mm512_add_epi64(addr, _mm512_set1_epi64(8 * k)), nullptr, 1);
  Fq8 r;
  r.limb[0] = bits52(w, 0, 0);
  r.limb[1] = bits52(w, 0, 52);
  r.limb[2] = bits52(w, 1, 40);
  r.limb[3] = bits52(w, 2, 28);
  r.limb[4] = bits52(w, 3, 16);
  r.limb[5] = bits52(w, 4, 4);
  r.limb[6] = bits52(w, 4, 56);
  r.limb[7] = bits52(w, 5, 44);
  return r;
}
// Same from values (lanes 0..7).
PRESTAGE_IFMA_TARGET inline Fq8 load(const Fq src[8]) {
  const Fq* p[8] = {&src[0], &src[1], &src[2], &src[3], &src[4], &src[5], &src[6], &src[7]};
  return load(p);
}
// dst[lane] <- lane (Montgomery Fq, bit-identical to the scalar arithmetic's value).
PRESTAGE_IFMA_TARGET inline void store(const Fq8& a, Fq dst[8]) {
  alignas(64) uint64_t t[8][8];  // [limb][lane]
  for (int k = 0; k < 8; ++k) _mm512_store_si512(t[k], a.limb[k]);
  for (int lane = 0; lane < 8; ++lane) {
    uint64_t l[8];
    for (int k = 0; k < 8; ++k) l[k] = t[k][lane];
    unpack52(l, dst[lane].limb);
  }
}

// r - p if r >= p, else r (r < 2p, limbs normalised to 52 bits).
PRESTAGE_IFMA_TARGET inline void reduce_once(__m512i r[8]) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i s[8];
  __m512i borrow = _mm512_setzero_si512();  // 0 or -1
  for (int k = 0; k < 8; ++k) {
    __m512i v = _mm512_sub_epi64(r[k], _mm512_set1_epi64(static_cast<long long>(kConsts.p[k])));
    v = _mm512_add_epi64(v, borrow);
    borrow = _mm512_srai_epi64(v, 52);
    s[k] = _mm512_and_si512(v, mask);
  }
  const __mmask8 keep_s = _mm512_cmpeq_epi64_mask(borrow, _mm512_setzero_si512());  // r >= p
  for (int k = 0; k < 8; ++k) r[k] = _mm512_mask_mov_epi64(r[k], keep_s, s[k]);
}

// The Montgomery product of eight lanes of L-limb (radix 2^52, each limb < 2^52) values a, b
// modulo m (limbs m[0..L), minv = -m^-1 mod 2^52): L - 1 52-bit reduction steps and one
// kLastBits-bit step divide by 2^(52 (L - 1) + kLastBits), the modulus' own Montgomery R (2^384
// for Fq: L = 8, 20 bits; 2^256 for Fr: L = 5, 48 bits), so no value carries an extra factor.
// Writes a b R^-1 mod m + (0 or m), < 2m, in 52-bit limbs; the caller's reduce_once finishes it.
// Shared by Fq8 mul and Fr8 mul (gpu/ff/fr_ifma.hpp).
template <int L, int kLastBits, bool kNormTop>
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline void mont_mul52(const __m512i* a,
                                                                   const __m512i* b,
                                                                   const uint64_t* m, uint64_t minv,
                                                                   __m512i* out) {
  static_assert(kLastBits > 0 && kLastBits <= 52, "the last step clears at most 52 bits");
  const __m512i zero = _mm512_setzero_si512();
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i t[2 * L + 1];
  for (int k = 0; k < 2 * L + 1; ++k) t[k] = zero;
  // Schoolbook L x L: each t[k] takes at most 2L terms < 2^52 here (Fq: 16, < 2^56).
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], a[i], b[j]);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a[i], b[j]);
    }
  __m512i mv[L];
  for (int k = 0; k < L; ++k) mv[k] = _mm512_set1_epi64(static_cast<long long>(m[k]));
  const __m512i inv = _mm512_set1_epi64(static_cast<long long>(minv));
  // L - 1 52-bit steps: q = -t[i] m^-1 mod 2^52 (madd52lo reads only t[i]'s low 52 bits), then
  // t += q m 2^(52 i) clears t[i]'s low 52 bits; its upper bits carry into t[i + 1]. Each t[k]
  // takes at most 2L more terms (Fq: < 2^57 in all).
  for (int i = 0; i < L - 1; ++i) {
    const __m512i q = _mm512_madd52lo_epu64(zero, t[i], inv);
    for (int j = 0; j < L; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], q, mv[j]);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], q, mv[j]);
    }
    t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
  }
  // kLastBits-bit step at limb L - 1: q < 2^kLastBits clears the bits up to R.
  {
    const __m512i q =
        _mm512_and_si512(_mm512_madd52lo_epu64(zero, t[L - 1], inv),
                         _mm512_set1_epi64(static_cast<long long>((uint64_t{1} << kLastBits) - 1)));
    for (int j = 0; j < L; ++j) {
      t[L - 1 + j] = _mm512_madd52lo_epu64(t[L - 1 + j], q, mv[j]);
      t[L + j] = _mm512_madd52hi_epu64(t[L + j], q, mv[j]);
    }
  }
  // Normalise t[L - 1 .. 2L - 2] to 52-bit limbs (the value (a b + Q m) / 2^(52 (L - 1)) is
  // < 2m 2^kLastBits); t[2L - 1] needs none (only its low kLastBits bits are read below), but
  // kNormTop normalises it too: Fr8 keeps its original instruction sequence that way (without
  // it the 2^16 to_coset ran ~0.5% slower, 5 of 6 interleaved host_bench pairs, 2026-12-01).
  for (int k = L - 1; k < 2 * L - 1 + int{kNormTop}; ++k) {
    t[k + 1] = _mm512_add_epi64(t[k + 1], _mm512_srli_epi64(t[k], 52));
    t[k] = _mm512_and_si512(t[k], mask);
  }
  // Divide by 2^kLastBits: limb k = bits [kLastBits, kLastBits + 52) of (t[L-1+k] | t[L+k] << 52).
  for (int k = 0; k < L; ++k)
    out[k] = _mm512_or_si512(_mm512_srli_epi64(t[L - 1 + k], kLastBits),
                             _mm512_and_si512(_mm512_slli_epi64(t[L + k], 52 - kLastBits), mask));
}

// a * b * 2^-384 mod p per lane (Montgomery product in Fq's domain), fully reduced.
// always_inline: g++ 12 stops inlining it into complete_batch_ifma once host_msm.cpp holds two
// msm instantiations per curve (the unit's inline budget); out of line the G1 MSMs of
// SHA-256-512 took +20 ms (1 thread, 4 interleaved runs, 2026-12-01).
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline Fq8 mul(const Fq8& a, const Fq8& b) {
  Fq8 r;
  mont_mul52<8, 20, false>(a.limb, b.limb, kConsts.p, kConsts.pinv52, r.limb);
  reduce_once(r.limb);  // < 2p -> < p
  return r;
}

// a - b mod p per lane (a, b < p), fully reduced.
PRESTAGE_IFMA_TARGET inline Fq8 sub(const Fq8& a, const Fq8& b) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  Fq8 d;
  __m512i borrow = _mm512_setzero_si512();
  for (int k = 0; k < 8; ++k) {
    const __m512i v = _mm512_add_epi64(_mm512_sub_epi64(a.limb[k], b.limb[k]), borrow);
    borrow = _mm512_srai_epi64(v, 52);
    d.limb[k] = _mm512_and_si512(v, mask);
  }
  // Lanes that borrowed out of the top hold a - b + 2^416: add p, drop the carry out.
  const __mmask8 neg = _mm512_cmpneq_epi64_mask(borrow, _mm512_setzero_si512());
  __m512i carry = _mm512_setzero_si512();
  for (int k = 0; k < 8; ++k) {
    __m512i v =
        _mm512_add_epi64(d.limb[k], _mm512_set1_epi64(static_cast<long long>(kConsts.p[k])));
    v = _mm512_add_epi64(v, carry);
    carry = _mm512_srli_epi64(v, 52);
    d.limb[k] = _mm512_mask_mov_epi64(d.limb[k], neg, _mm512_and_si512(v, mask));
  }
  return d;
}

// a + b mod p per lane (a, b < p), fully reduced.
PRESTAGE_IFMA_TARGET inline Fq8 add(const Fq8& a, const Fq8& b) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  Fq8 s;
  __m512i carry = _mm512_setzero_si512();
  for (int k = 0; k < 8; ++k) {
    const __m512i v = _mm512_add_epi64(_mm512_add_epi64(a.limb[k], b.limb[k]), carry);
    carry = _mm512_srli_epi64(v, 52);
    s.limb[k] = _mm512_and_si512(v, mask);
  }
  reduce_once(s.limb);  // a + b < 2p < 2^416: no carry out of the top limb
  return s;
}

// Bit l set when lane l is zero.
PRESTAGE_IFMA_TARGET inline __mmask8 zero_lanes(const Fq8& a) {
  __m512i acc = a.limb[0];
  for (int k = 1; k < 8; ++k) acc = _mm512_or_si512(acc, a.limb[k]);
  return _mm512_cmpeq_epi64_mask(acc, _mm512_setzero_si512());
}

// Eight lanes equal to x.
PRESTAGE_IFMA_TARGET inline Fq8 broadcast(const Fq& x) {
  uint64_t l[8];
  pack52(x.limb, l);
  Fq8 r;
  for (int k = 0; k < 8; ++k) r.limb[k] = _mm512_set1_epi64(static_cast<long long>(l[k]));
  return r;
}

}  // namespace prestage::ff::ifma

#endif

#if !defined(__CUDA_ARCH__)
#include <cstdlib>
#include <string_view>

namespace prestage::ff::ifma {

// The one switch of the host's AVX-512 IFMA paths (host MSM buckets, key-point checks): true
// when this build has them, the CPU runs AVX-512F and IFMA, and the environment does not say
// PRESTAGE_HOST_IFMA=0 (read once per process).
inline bool host_ifma_enabled() {
#if PRESTAGE_FF_HOST_IFMA
  static const bool on = [] {
    const char* e = std::getenv("PRESTAGE_HOST_IFMA");
    return cpu_has_ifma() && !(e != nullptr && std::string_view(e) == "0");
  }();
  return on;
#else
  return false;
#endif
}

}  // namespace prestage::ff::ifma
#endif
