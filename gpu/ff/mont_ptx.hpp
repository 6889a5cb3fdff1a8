#pragma once
// Device-only Montgomery multiplication with 32-bit limbs and PTX carry chains
// (mad.lo.cc / madc.hi.cc). No longer the default: the even/odd CIOS of gpu/ff/mont32.hpp is
// 1.47x (Fr) / 1.89x (Fq) faster on the H200 (see Fp::operator*); kept as the measured baseline
// (gpu/bench/ff_bench.cu, tests/gpu/ptx_mul_test.cu). Against the 64-bit CIOS of fp.hpp, which
// compiles to emulated 64-bit multiplies, it was the faster one. Same Montgomery radix
// (R = 2^(64N) = 2^(32 * 2N)) and fully reduced output, so results are bit-identical to
// Fp::operator*. Device functions only (nvcc); g++ never sees them.
//
// Algorithm: CIOS over 2N 32-bit words. Per word b_i of b: t += a * b_i as two carry chains
// (low halves into t[j], high halves into t[j+1]), m = t[0] * (-p^-1 mod 2^32), t += m * p the
// same way, shift t down one word. Inputs < p < 2^(64N-2) keep t < 2p, so two spare words hold
// every carry; one conditional subtraction of p at the end.
#include <cstdint>

#include "gpu/common/hd.hpp"

#if defined(__CUDACC__)  // __device__ only: nvcc parses it in both passes, emits it for the device
namespace prestage::ff::detail {

// r = a * b * 2^(-32 W) mod p for W 32-bit words (W = 2N); a, b, r as N 64-bit limbs.
template <int W>
__device__ __forceinline__ void mont_mul_ptx(uint64_t* r, const uint64_t* a64, const uint64_t* b64,
                                             const uint64_t* p64, uint32_t inv32) {
  uint32_t a[W], b[W], p[W], t[W + 2];
#pragma unroll
  for (int j = 0; j < W / 2; ++j) {
    a[2 * j] = static_cast<uint32_t>(a64[j]);
    a[2 * j + 1] = static_cast<uint32_t>(a64[j] >> 32);
    b[2 * j] = static_cast<uint32_t>(b64[j]);
    b[2 * j + 1] = static_cast<uint32_t>(b64[j] >> 32);
    p[2 * j] = static_cast<uint32_t>(p64[j]);
    p[2 * j + 1] = static_cast<uint32_t>(p64[j] >> 32);
  }
#pragma unroll
  for (int j = 0; j < W + 2; ++j) t[j] = 0;
#pragma unroll
  for (int i = 0; i < W; ++i) {
    const uint32_t bi = b[i];
    // t[0..W-1] += lo(a * bi); carries into t[W], t[W+1].
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(a[0]), "r"(bi));
#pragma unroll
    for (int j = 1; j < W; ++j)
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(a[j]), "r"(bi));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[W]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[W + 1]));
    // t[1..W] += hi(a * bi).
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(a[0]), "r"(bi));
#pragma unroll
    for (int j = 1; j < W; ++j)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(a[j]), "r"(bi));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[W + 1]));
    // Reduction: t += m p, which zeroes t[0].
    const uint32_t m = t[0] * inv32;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(m), "r"(p[0]));
#pragma unroll
    for (int j = 1; j < W; ++j)
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(m), "r"(p[j]));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[W]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[W + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(m), "r"(p[0]));
#pragma unroll
    for (int j = 1; j < W; ++j)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(m), "r"(p[j]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[W + 1]));
    // Shift down one word.
#pragma unroll
    for (int j = 0; j < W + 1; ++j) t[j] = t[j + 1];
    t[W + 1] = 0;
  }
  // t < 2p: subtract p once if t >= p.
  uint32_t d[W];
  uint32_t borrow;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d[0]) : "r"(t[0]), "r"(p[0]));
#pragma unroll
  for (int j = 1; j < W; ++j)
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d[j]) : "r"(t[j]), "r"(p[j]));
  asm volatile("subc.u32 %0, %1, 0;" : "=r"(borrow) : "r"(t[W]));
  const bool keep = borrow != 0;  // t - p went negative: t < p
#pragma unroll
  for (int j = 0; j < W / 2; ++j) {
    const uint32_t lo = keep ? t[2 * j] : d[2 * j];
    const uint32_t hi = keep ? t[2 * j + 1] : d[2 * j + 1];
    r[j] = (static_cast<uint64_t>(hi) << 32) | lo;
  }
}

}  // namespace prestage::ff::detail
#endif

#if defined(__CUDACC__)  // __device__ only: nvcc parses it in both passes, emits it for the device
namespace prestage::ff::detail {
// a * b for an Fp type (Fr or Fq) through mont_mul_ptx; same result as a * b.
template <class F>
__device__ __forceinline__ F mul_ptx(const F& a, const F& b) {
  constexpr auto P = F::modulus;
  uint64_t p[F::N];
#pragma unroll
  for (std::size_t j = 0; j < F::N; ++j) p[j] = P[j];
  F r;
  mont_mul_ptx<2 * static_cast<int>(F::N)>(r.limb, a.limb, b.limb, p,
                                           static_cast<uint32_t>(F::inv));
  return r;
}
}  // namespace prestage::ff::detail
#endif
