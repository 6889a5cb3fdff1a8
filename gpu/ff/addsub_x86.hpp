#pragma once
// Host-only x86-64 modular addition and subtraction on N 64-bit limbs with add-with-carry chains
// (_addcarry_u64 / _subborrow_u64, plain adc/sbb: no CPU extension needed). The same algorithms
// as the portable Fp::operator+ and operator- (gpu/ff/fp.hpp): a + b < 2p, minus p once when
// >= p; a - b, plus p when it borrowed; branch-free selects (cmov). Results are bit-identical
// (tests/unit/ff/field_x86_test.cpp checks the kernels and the operators against GMP).
// Why: g++ 12 -O3 compiles the portable carries (comparisons, setb, or) to ~150 instructions for
// an Fq addition; these compile to adc/sbb chains of ~50. Measured on the 2-vCPU EPYC dev VM
// (g++ 12 -O3, 2026-11-30, 8 independent chains of 2^20 operations, loaded machine, 3 runs):
// Fq add 16.0-16.8 -> 6.6-7.1 ns, Fq sub 11.5 (portable) -> 6.9-7.8 ns, Fr add 8.0-8.8 -> 2.4-3.3
// ns (an and/or mask select instead of cmov: Fq add 7.4-7.7, sub 11.0-11.6, Fr add 4.8-5.3 ns);
// the H computation of SHA-256-512 (six 2^16 NTTs, CPU time, 3 interleaved runs) 80-81 -> 67-69
// ms.
// Not for CUDA translation units (their host pass keeps the portable code: no x86 intrinsics in
// front of nvcc) and not with PRESTAGE_FF_NO_ASM.
#include <array>
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDACC__) && !defined(PRESTAGE_FF_NO_ASM)
#define PRESTAGE_FF_HOST_ADC 1
#include <x86intrin.h>

namespace prestage::ff::detail {

// r = a + b mod p for a, b < p (N limbs, little-endian); p < 2^(64N - 1) so a + b cannot carry
// out of N limbs.
template <std::size_t N>
[[gnu::always_inline]] inline void add_mod_adc(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                               const std::array<uint64_t, N>& p) {
  unsigned long long s[N], t[N];
  unsigned char c = 0;
  for (std::size_t i = 0; i < N; ++i) c = _addcarry_u64(c, a[i], b[i], &s[i]);
  unsigned char borrow = 0;
  for (std::size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, s[i], p[i], &t[i]);
  // Select s when it borrowed (s < p), else t, with cmov on the borrow: the and/or mask form
  // made g++ 12 spill both to the stack and blend in SSE registers (store-forwarding stalls).
  uint64_t flag = borrow;
  for (std::size_t i = 0; i < N; ++i) {
    uint64_t v = t[i];
    __asm__("testq %[f], %[f]\n\tcmovnzq %[s], %[v]"
            : [v] "+r"(v)
            : [s] "r"(s[i]), [f] "r"(flag)
            : "cc");
    r[i] = v;
  }
}

// r = a - b mod p for a, b < p.
template <std::size_t N>
[[gnu::always_inline]] inline void sub_mod_adc(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                               const std::array<uint64_t, N>& p) {
  unsigned long long d[N];
  unsigned char borrow = 0;
  for (std::size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, a[i], b[i], &d[i]);
  unsigned long long e[N];  // d + p (mod 2^(64N)): the result when a < b
  unsigned char c = 0;
  for (std::size_t i = 0; i < N; ++i) c = _addcarry_u64(c, d[i], p[i], &e[i]);
  const uint64_t flag = borrow;
  for (std::size_t i = 0; i < N; ++i) {
    uint64_t v = d[i];
    __asm__("testq %[f], %[f]\n\tcmovnzq %[e], %[v]"
            : [v] "+r"(v)
            : [e] "r"(e[i]), [f] "r"(flag)
            : "cc");
    r[i] = v;
  }
}

}  // namespace prestage::ff::detail
#endif
