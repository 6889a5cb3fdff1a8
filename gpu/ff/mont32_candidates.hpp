#pragma once
// The field-product candidates as named functors, for the GPU test (tests/gpu/ff_mont32_test.cu)
// and the benchmark (gpu/bench/ff_bench.cu): each has a name and `apply`, so one kernel template
// runs any of them. T is the element type (Fr, Fq or Fq2); unary operations ignore b.
//   *_cios   the 32-bit CIOS with separate low/high chains (gpu/ff/mont_ptx.hpp; device only)
//   *_eo     even/odd CIOS (gpu/ff/mont32.hpp)
//   *_sos    wide product (or square) + one reduction
//   *_lazy   Fq2 Karatsuba with one reduction per coordinate
//   add_w32 / sub_w32  Fp addition / subtraction as 32-bit carry chains (PTX on the device)
//   add_limb64 / sub_limb64  the same over 64-bit limbs (Fp's portable code)
//   *_default  what Fp::operator*, Fp::sqr, Fq2::operator*, Fq2::sqr do now
#include "gpu/ff/fq2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/ff/mont32.hpp"
#include "gpu/ff/mont_ptx.hpp"

namespace prestage::ff::candidates {

namespace w32 = detail::w32;

struct EoMul {
  template <class F>
  PRESTAGE_HD_INLINE F operator()(const F& a, const F& b) const {
    return w32::fp_mul_eo(a, b);
  }
};
#if defined(__CUDACC__)
struct CiosMul {
  template <class F>
  __device__ __forceinline__ F operator()(const F& a, const F& b) const {
    return detail::mul_ptx(a, b);
  }
};
#endif

// ---- Fr / Fq ----
struct mul_default {
  static constexpr const char* name = "mul_default";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    return a * b;
  }
};
struct mul_eo {
  static constexpr const char* name = "mul_eo";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    return w32::fp_mul_eo(a, b);
  }
};
// The even/odd CIOS and the squaring with -p^-1 mod 2^32 as a compile-time immediate (the form
// before mont_inv, gpu/ff/mont32.hpp): for Fr (inv = 2^32 - 1) ptxas then splits the reduction's
// product pairs; kept to measure the two side by side.
struct mul_eo_imm {
  static constexpr const char* name = "mul_eo_imm";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    constexpr int W = w32::Consts<F>::W;
    const w32::Consts<F> k;
    uint32_t x[W], y[W], r[W];
    w32::to_words<F::N>(x, a.limb);
    w32::to_words<F::N>(y, b.limb);
    w32::mul_eo<W>(r, x, y, k.p, w32::Consts<F>::inv);
    F out;
    w32::from_words<F::N>(out.limb, r);
    return out;
  }
};
struct sqr_sos_imm {
  static constexpr const char* name = "sqr_sos_imm";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F&) {
    constexpr int W = w32::Consts<F>::W;
    const w32::Consts<F> k;
    uint32_t x[W], t[2 * W], r[W];
    w32::to_words<F::N>(x, a.limb);
    w32::sqr_wide<W>(t, x);
    w32::redc_wide<W>(r, t, k.p, w32::Consts<F>::inv);
    F out;
    w32::from_words<F::N>(out.limb, r);
    return out;
  }
};
struct mul_sos {
  static constexpr const char* name = "mul_sos";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    return w32::fp_mul_sos(a, b);
  }
};
struct sqr_default {
  static constexpr const char* name = "sqr_default";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F&) {
    return a.sqr();
  }
};
struct sqr_eo {
  static constexpr const char* name = "sqr_eo";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F&) {
    return w32::fp_mul_eo(a, a);
  }
};
struct sqr_sos {
  static constexpr const char* name = "sqr_sos";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F&) {
    return w32::fp_sqr_sos(a);
  }
};
struct add_default {
  static constexpr const char* name = "add_default";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    return a + b;
  }
};
struct add_w32 {
  static constexpr const char* name = "add_w32";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    return w32::fp_add(a, b);
  }
};
struct add_limb64 {
  static constexpr const char* name = "add_limb64";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    return F::add_limbs64(a, b);
  }
};
struct sub_limb64 {
  static constexpr const char* name = "sub_limb64";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    return F::sub_limbs64(a, b);
  }
};
struct sub_default {
  static constexpr const char* name = "sub_default";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    return a - b;
  }
};
struct sub_w32 {
  static constexpr const char* name = "sub_w32";
  template <class F>
  PRESTAGE_HD_INLINE static F apply(const F& a, const F& b) {
    return w32::fp_sub(a, b);
  }
};
#if defined(__CUDACC__)
struct mul_cios {
  static constexpr const char* name = "mul_cios";
  template <class F>
  __device__ __forceinline__ static F apply(const F& a, const F& b) {
    return detail::mul_ptx(a, b);
  }
};
#endif

// ---- Fq2 ----
struct fq2_mul_default {
  static constexpr const char* name = "fq2_mul_default";
  PRESTAGE_HD_INLINE static Fq2 apply(const Fq2& a, const Fq2& b) { return a * b; }
};
struct fq2_mul_eo {
  static constexpr const char* name = "fq2_mul_eo";
  PRESTAGE_HD_INLINE static Fq2 apply(const Fq2& a, const Fq2& b) {
    Fq2 r;
    w32::fp2_mul_karatsuba(r.c0, r.c1, a.c0, a.c1, b.c0, b.c1, EoMul{});
    return r;
  }
};
struct fq2_mul_lazy {
  static constexpr const char* name = "fq2_mul_lazy";
  PRESTAGE_HD_INLINE static Fq2 apply(const Fq2& a, const Fq2& b) {
    Fq2 r;
    w32::fp2_mul_lazy(r.c0, r.c1, a.c0, a.c1, b.c0, b.c1);
    return r;
  }
};
struct fq2_sqr_default {
  static constexpr const char* name = "fq2_sqr_default";
  PRESTAGE_HD_INLINE static Fq2 apply(const Fq2& a, const Fq2&) { return a.sqr(); }
};
struct fq2_sqr_eo {
  static constexpr const char* name = "fq2_sqr_eo";
  PRESTAGE_HD_INLINE static Fq2 apply(const Fq2& a, const Fq2&) {
    Fq2 r;
    w32::fp2_sqr_complex(r.c0, r.c1, a.c0, a.c1, EoMul{});
    return r;
  }
};
#if defined(__CUDACC__)
struct fq2_mul_cios {
  static constexpr const char* name = "fq2_mul_cios";
  __device__ __forceinline__ static Fq2 apply(const Fq2& a, const Fq2& b) {
    Fq2 r;
    w32::fp2_mul_karatsuba(r.c0, r.c1, a.c0, a.c1, b.c0, b.c1, CiosMul{});
    return r;
  }
};
struct fq2_sqr_cios {
  static constexpr const char* name = "fq2_sqr_cios";
  __device__ __forceinline__ static Fq2 apply(const Fq2& a, const Fq2&) {
    Fq2 r;
    w32::fp2_sqr_complex(r.c0, r.c1, a.c0, a.c1, CiosMul{});
    return r;
  }
};
#endif

}  // namespace prestage::ff::candidates
