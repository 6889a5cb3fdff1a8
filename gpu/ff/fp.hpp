#pragma once
// Prime field Fp<Config> in Montgomery form: an element a is stored as a*R mod p, R = 2^(64N),
// in N little-endian 64-bit limbs, always fully reduced (< p), so equality is limb equality.
// Config provides N and the modulus (std::array<uint64_t, N>); everything else (R mod p, R^2,
// -p^-1 mod 2^64, exponents) is derived from it at compile time.
//
// Arithmetic is PRESTAGE_HD (host and device, one source). Multiplication is CIOS Montgomery
// without the extra carry word, valid because the top modulus limb is < 2^63 - 1 (both BLS12-381
// primes leave spare bits); the same spare bits make a + b fit in N limbs before reduction.
// Host-only helpers (bytes, decimal, random, std::optional results) are plain member functions.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>

#include "gpu/ff/addsub_x86.hpp"
#include "gpu/ff/limbs.hpp"
#include "gpu/ff/mont32.hpp"
#include "gpu/ff/mont_ptx.hpp"
#include "gpu/ff/mont_x86.hpp"
#include "gpu/ff/pow.hpp"

// Device code size vs compile time: with every multiplication inlined, nvcc needs 20-30 s of
// cicc + ptxas for a kernel holding one G1 Jacobian addition (measured with nvcc 13.0 -O3
// sm_90 --time on the shared 2-core build machine: cicc 13.8-15.5 s + ptxas 8.3-12.8 s, 246
// registers; with the multiplication out of line: cicc 2.2 s + ptxas 0.7 s, 166 registers and a
// 672 B stack). Kernels tuned for speed keep the default (inline); translation units that only
// need correctness (tests) may define PRESTAGE_FF_COMPACT_DEVICE_CODE before including to keep
// the device multiplication out of line.
#if PRESTAGE_DEVICE_CODE && defined(PRESTAGE_FF_COMPACT_DEVICE_CODE)
#define PRESTAGE_FF_MUL_ATTR __noinline__
#else
#define PRESTAGE_FF_MUL_ATTR
#endif

namespace prestage::ff {

template <class Config>
struct Fp {
  static constexpr std::size_t N = Config::N;
  static constexpr std::size_t num_limbs = N;
  static constexpr std::size_t num_bytes = 8 * N;
  using Limbs = std::array<uint64_t, N>;

  static constexpr Limbs modulus = Config::modulus;
  static constexpr Limbs R = detail::pow2_mod(modulus, 64 * N);       // Montgomery one
  static constexpr Limbs R2 = detail::pow2_mod(modulus, 2 * 64 * N);  // R^2 mod p
  static constexpr uint64_t inv = detail::neg_inv64(modulus[0]);      // -p^-1 mod 2^64
  static constexpr unsigned num_bits = detail::bit_length(modulus);
  static constexpr Limbs p_minus_2 = detail::sub_small(modulus, 2);
  static constexpr Limbs p_minus_1_half = detail::shr(detail::sub_small(modulus, 1), 1);
  static_assert(modulus[0] & 1, "Montgomery form needs an odd modulus");
  static_assert(modulus[N - 1] < 0x7FFFFFFFFFFFFFFFull,
                "no-carry CIOS and carry-free addition need a spare top bit");

  // Raw Montgomery limbs. The type is trivial (an aggregate): a default-initialised element is
  // uninitialised, as device buffers need; use zero()/one()/from_* for values.
  uint64_t limb[N];

  // ---- constants and conversions ----
  PRESTAGE_HD_INLINE static constexpr Fp zero() { return Fp{}; }
  PRESTAGE_HD_INLINE static constexpr Fp one() {
    constexpr Limbs r = R;
    return from_raw(r);
  }
  // Wraps limbs that are already in Montgomery form (must be < p).
  PRESTAGE_HD_INLINE static constexpr Fp from_raw(const Limbs& m) {
    Fp r{};
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) r.limb[i] = m[i];
    return r;
  }
  PRESTAGE_HD static constexpr Fp from_u64(uint64_t v) {
    Fp t{};
    t.limb[0] = v;  // v < 2^64 < p
    constexpr Limbs r2 = R2;
    return t * from_raw(r2);
  }
  // Canonical integer (little-endian limbs) -> Montgomery. Requires value < p (unchecked).
  PRESTAGE_HD static constexpr Fp from_canonical(const Limbs& v) {
    constexpr Limbs r2 = R2;
    return from_raw(v) * from_raw(r2);
  }
  // Checked variant: nullopt when value >= p.
  static std::optional<Fp> from_canonical_checked(const Limbs& v) {
    if (detail::geq(v, modulus)) return std::nullopt;
    return from_canonical(v);
  }
  // Montgomery -> canonical integer (little-endian limbs), < p.
  PRESTAGE_HD constexpr Limbs to_canonical() const {
    Fp one_raw{};
    one_raw.limb[0] = 1;
    Fp c = *this * one_raw;
    Limbs out{};
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) out[i] = c.limb[i];
    return out;
  }

  // ---- arithmetic ----
  PRESTAGE_HD_INLINE constexpr bool is_zero() const {
    uint64_t acc = 0;
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) acc |= limb[i];
    return acc == 0;
  }
  PRESTAGE_HD_INLINE constexpr bool is_one() const { return *this == one(); }
  PRESTAGE_HD_INLINE friend constexpr bool operator==(const Fp& a, const Fp& b) {
    uint64_t acc = 0;
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) acc |= a.limb[i] ^ b.limb[i];
    return acc == 0;
  }
  PRESTAGE_HD_INLINE friend constexpr bool operator!=(const Fp& a, const Fp& b) {
    return !(a == b);
  }

  PRESTAGE_HD_INLINE friend constexpr Fp operator+(const Fp& a, const Fp& b) {
#if PRESTAGE_DEVICE_CODE
    // Device: 32-bit PTX carry chains (gpu/ff/mont32.hpp, add_mod). Measured on the H200
    // (ff_bench, 4 chains), additions/s: Fr 7.12e11 vs 2.84e11 with the 64-bit limbs below, Fq
    // 4.66e11 vs 1.74e11 (subtractions alike; gpu/ff/DECISIONS.md #2).
    if (!__builtin_is_constant_evaluated()) return detail::w32::fp_add(a, b);
#endif
#if defined(PRESTAGE_FF_HOST_ADC)
    // Host x86 adc chains (gpu/ff/addsub_x86.hpp), bit-identical; measurement there.
    if (!__builtin_is_constant_evaluated()) {
      Fp r;
      detail::add_mod_adc<N>(r.limb, a.limb, b.limb, modulus);
      return r;
    }
#endif
    return add_limbs64(a, b);
  }
  PRESTAGE_HD_INLINE friend constexpr Fp operator-(const Fp& a, const Fp& b) {
#if PRESTAGE_DEVICE_CODE
    if (!__builtin_is_constant_evaluated()) return detail::w32::fp_sub(a, b);  // as operator+
#endif
#if defined(PRESTAGE_FF_HOST_ADC)
    if (!__builtin_is_constant_evaluated()) {
      Fp r;
      detail::sub_mod_adc<N>(r.limb, a.limb, b.limb, modulus);
      return r;
    }
#endif
    return sub_limbs64(a, b);
  }
  // a + b and a - b over 64-bit limbs (the portable path; the device's previous path, kept for
  // the benchmark's comparison).
  PRESTAGE_HD_INLINE static constexpr Fp add_limbs64(const Fp& a, const Fp& b) {
    Fp s{};
    uint64_t carry = 0;  // stays 0: a + b < 2p < 2^(64N)
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) s.limb[i] = detail::adc(a.limb[i], b.limb[i], carry);
    return s.reduce_once();
  }
  PRESTAGE_HD_INLINE static constexpr Fp sub_limbs64(const Fp& a, const Fp& b) {
    constexpr Limbs P = modulus;
    Fp d{};
    uint64_t borrow = 0;
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) d.limb[i] = detail::sbb(a.limb[i], b.limb[i], borrow);
    const uint64_t mask = 0 - borrow;  // all ones when a < b: add p back
    uint64_t carry = 0;
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) d.limb[i] = detail::adc(d.limb[i], P[i] & mask, carry);
    return d;
  }
  PRESTAGE_HD_INLINE constexpr Fp operator-() const {
    constexpr Limbs P = modulus;
    Fp d{};
    uint64_t borrow = 0;
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) d.limb[i] = detail::sbb(P[i], limb[i], borrow);
    const uint64_t mask = is_zero() ? 0 : ~uint64_t{0};  // -0 = 0, not p
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) d.limb[i] &= mask;
    return d;
  }
  // Montgomery product a*b*R^-1 mod p (CIOS, no extra carry word).
  PRESTAGE_HD PRESTAGE_FF_MUL_ATTR friend constexpr Fp operator*(const Fp& a, const Fp& b) {
#if PRESTAGE_DEVICE_CODE
    // Device fast path: the even/odd CIOS over 32-bit words (gpu/ff/mont32.hpp, mul_eo),
    // bit-identical to the CIOS below (tests/gpu/ff_mont32_test.cu, tests/unit/ff_mont32).
    // Chosen by gpu/bench/ff_bench.cu on the H200 (270,336 threads x 4 chains, medians of 9):
    // Fq 2.72e10 products/s against 1.44e10 for the 32-bit CIOS with separate lo/hi chains
    // (mont_ptx.hpp) and 2.12e10 for SOS (wide + REDC); Fr 5.22e10 (gpu/ff/DECISIONS.md #1).
    // Why: with each 32x32 product's low and high halves adjacent in one carry chain, ptxas
    // emits one IMAD.WIDE.U32(.X) per product pair (Fq: ~280 per product); the separate chains
    // cost IMAD + IMAD.HI + IADD3.X carries (Fq: ~1,300 instructions).
    // Squaring: sqr() below (dedicated, 1.14x / 1.20x). The host path is unchanged.
    // Fr (-p^-1 mod 2^32 = 2^32 - 1) reads that factor from constant memory (w32::mont_inv):
    // as an immediate, ptxas rewrote m = -x[0] and split every m * p[k] pair of the reduction
    // into IMAD.X + IMAD.HI.U32.X (SASS of an ff_bench loop step 296 -> 256, all 97 chained pairs
    // IMAD.WIDE.U32.X). Measured on the H200: Fr product 5.88e10/s against 5.21e10 with the
    // immediate (4 chains); forward NTT 2^27 43.36 against 46.67 ms (gpu/ff/DECISIONS.md #5).
    if (!__builtin_is_constant_evaluated()) return detail::w32::fp_mul_eo(a, b);
#elif PRESTAGE_FF_HOST_ADX
    // Host fast path (gpu/ff/mont_x86.hpp): the same CIOS in mulx/adcx/adox asm when the CPU
    // has BMI2 and ADX, bit-identical (tests/unit/ff/field_test.cpp checks against GMP).
    // Measured on the 2-vCPU AMD EPYC dev VM (g++ 12 -O3, chain of 5e6 dependent products,
    // CPU time, 3 runs each, 2026-11-30): portable Fq 40.6-40.8 ns, Fr 19.0-20.8 ns; asm with
    // the subtraction in C 27.2-28.2 / 16.0-17.0 ns; asm with the subtraction in asm (cmov)
    // 22.6-22.9 / 13.1-13.4 ns.
    if constexpr (N == 4 || N == 6) {
      if (!__builtin_is_constant_evaluated() && detail::cpu_has_mulx_adx) {
        Fp t;
        if constexpr (N == 4)
          detail::mont_mul_adx_4(t.limb, a.limb, b.limb, modulus.data(), inv);
        else
          detail::mont_mul_adx_6(t.limb, a.limb, b.limb, modulus.data(), inv);
        return t;
      }
    }
#endif
    constexpr Limbs P = modulus;
    constexpr uint64_t pinv = inv;
    Fp t{};
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      uint64_t A = 0;
      t.limb[0] = detail::mac(t.limb[0], a.limb[0], b.limb[i], A);
      const uint64_t m = t.limb[0] * pinv;
      uint64_t C = 0;
      (void)detail::mac(t.limb[0], m, P[0], C);
      PRESTAGE_UNROLL
      for (std::size_t j = 1; j < N; ++j) {
        t.limb[j] = detail::mac(t.limb[j], a.limb[j], b.limb[i], A);
        t.limb[j - 1] = detail::mac(t.limb[j], m, P[j], C);
      }
      t.limb[N - 1] = C + A;
    }
    return t.reduce_once();
  }
  PRESTAGE_HD_INLINE constexpr Fp& operator+=(const Fp& b) {
    return *this = *this + b;
  }
  PRESTAGE_HD_INLINE constexpr Fp& operator-=(const Fp& b) {
    return *this = *this - b;
  }
  PRESTAGE_HD_INLINE constexpr Fp& operator*=(const Fp& b) {
    return *this = *this * b;
  }
  // Square. Device: dedicated squaring (cross products once, doubled, plus the diagonal, then
  // one even/odd reduction: gpu/ff/mont32.hpp, fp_sqr_sos). Measured on the H200 as operator*:
  // Fr 5.95e10 vs 5.23e10 squares/s with mul_eo(a, a), Fq 3.28e10 vs 2.73e10
  // (gpu/ff/DECISIONS.md #4).
  PRESTAGE_HD PRESTAGE_FF_MUL_ATTR constexpr Fp sqr() const {
#if PRESTAGE_DEVICE_CODE
    if (!__builtin_is_constant_evaluated()) return detail::w32::fp_sqr_sos(*this);
#endif
    return *this * *this;
  }
  PRESTAGE_HD_INLINE constexpr Fp dbl() const {
    return *this + *this;
  }

  // this^e, e given as n little-endian 64-bit limbs (left-to-right square and multiply).
  PRESTAGE_HD constexpr Fp pow(const uint64_t* e, std::size_t n) const {
    return pow_by_limbs(*this, e, n);
  }
  constexpr Fp pow(std::span<const uint64_t> e) const {
    return pow(e.data(), e.size());
  }
  template <std::size_t M>
  PRESTAGE_HD constexpr Fp pow(const std::array<uint64_t, M>& e) const {
    return pow(e.data(), M);
  }
  PRESTAGE_HD constexpr Fp pow(uint64_t e) const {
    return pow(&e, 1);
  }
  // Multiplicative inverse by Fermat (this^(p-2)); zero maps to zero.
  PRESTAGE_HD constexpr Fp inverse() const {
    constexpr Limbs e = p_minus_2;
    return pow(e);
  }
  // Euler's criterion: true for zero and for nonzero squares.
  PRESTAGE_HD constexpr bool is_square() const {
    constexpr Limbs e = p_minus_1_half;
    return is_zero() || pow(e) == one();
  }
  // Square root for p = 3 mod 4: a^((p+1)/4); writes it and returns true when a is a square.
  PRESTAGE_HD constexpr bool sqrt_into(Fp& out) const requires((Config::modulus[0] & 3) == 3) {
    constexpr Limbs e = detail::shr(detail::add_small(modulus, 1), 2);
    Fp s = pow(e);
    if (s.sqr() != *this) return false;
    out = s;
    return true;
  }
  std::optional<Fp> sqrt() const requires((Config::modulus[0] & 3) == 3) {
    Fp s{};
    if (!sqrt_into(s)) return std::nullopt;
    return s;
  }
  // True when the canonical value exceeds (p-1)/2 (the "sign" used by point compression).
  PRESTAGE_HD constexpr bool lexicographically_largest() const {
    constexpr Limbs half = p_minus_1_half;
    Limbs c = to_canonical();
    return !detail::geq(half, c);
  }

  // ---- host helpers ----
  // Uniform in [0, p) by rejection sampling on num_bits-bit candidates.
  static Fp random(std::mt19937_64& g) {
    constexpr unsigned top_bits = num_bits - 64 * (N - 1);
    constexpr uint64_t top_mask = top_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << top_bits) - 1;
    Limbs v{};
    do {
      for (auto& x : v) x = g();
      v[N - 1] &= top_mask;
    } while (detail::geq(v, modulus));
    return from_canonical(v);
  }
  // Canonical value, 8N bytes little-endian (32 B for Fr, 48 B for Fq).
  void to_bytes_le(uint8_t* out) const {
    write_le(to_canonical(), out);
  }
  std::array<uint8_t, num_bytes> to_bytes_le() const {
    std::array<uint8_t, num_bytes> b{};
    to_bytes_le(b.data());
    return b;
  }
  // Canonical value from exactly 8N little-endian bytes; nullopt on wrong size or value >= p.
  static std::optional<Fp> from_bytes_le(std::span<const uint8_t> in) {
    if (in.size() != num_bytes) return std::nullopt;
    return from_canonical_checked(read_le(in.data()));
  }
  // Raw Montgomery limbs as bytes (a*R mod p, 8N bytes LE), the layout of snarkjs .zkey/.wtns.
  void to_montgomery_bytes_le(uint8_t* out) const {
    Limbs m{};
    for (std::size_t i = 0; i < N; ++i) m[i] = limb[i];
    write_le(m, out);
  }
  std::array<uint8_t, num_bytes> to_montgomery_bytes_le() const {
    std::array<uint8_t, num_bytes> b{};
    to_montgomery_bytes_le(b.data());
    return b;
  }
  // Raw Montgomery limbs from exactly 8N bytes; nullopt on wrong size or limbs >= p.
  static std::optional<Fp> from_montgomery_bytes_le(std::span<const uint8_t> in) {
    if (in.size() != num_bytes) return std::nullopt;
    Limbs m = read_le(in.data());
    if (detail::geq(m, modulus)) return std::nullopt;
    return from_raw(m);
  }
  // Canonical value in decimal (as snarkjs JSON files write field elements).
  std::string to_decimal() const {
    Limbs v = to_canonical();
    std::string digits;
    constexpr uint64_t chunk = 10000000000000000000ull;  // 10^19
    bool nonzero = true;
    while (nonzero) {
      unsigned __int128 rem = 0;
      nonzero = false;
      for (std::size_t i = N; i-- > 0;) {
        unsigned __int128 cur = (rem << 64) | v[i];
        v[i] = static_cast<uint64_t>(cur / chunk);
        rem = cur % chunk;
        nonzero |= v[i] != 0;
      }
      uint64_t r = static_cast<uint64_t>(rem);
      for (int d = 0; d < 19; ++d) {
        digits.push_back(static_cast<char>('0' + r % 10));
        r /= 10;
      }
    }
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    return std::string(digits.rbegin(), digits.rend());
  }
  // Parses a decimal string of digits only; nullopt when empty, malformed or >= p.
  static std::optional<Fp> from_decimal(std::string_view s) {
    if (s.empty()) return std::nullopt;
    Limbs v{};
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      uint64_t carry = static_cast<uint64_t>(c - '0');
      for (std::size_t i = 0; i < N; ++i) v[i] = detail::mac(0, v[i], 10, carry);
      if (carry != 0) return std::nullopt;  // over 64N bits
    }
    return from_canonical_checked(v);
  }

 private:
  // Subtracts p once if the value is >= p (input < 2p), branch-free.
  PRESTAGE_HD_INLINE constexpr Fp reduce_once() const {
    constexpr Limbs P = modulus;
    Fp d{};
    uint64_t borrow = 0;
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) d.limb[i] = detail::sbb(limb[i], P[i], borrow);
    const uint64_t keep = 0 - borrow;  // all ones when value < p: keep the original
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < N; ++i) d.limb[i] = (limb[i] & keep) | (d.limb[i] & ~keep);
    return d;
  }
  static void write_le(const Limbs& v, uint8_t* out) {
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t b = 0; b < 8; ++b) out[8 * i + b] = static_cast<uint8_t>(v[i] >> (8 * b));
  }
  static Limbs read_le(const uint8_t* in) {
    Limbs v{};
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t b = 0; b < 8; ++b) v[i] |= static_cast<uint64_t>(in[8 * i + b]) << (8 * b);
    return v;
  }
};

}  // namespace prestage::ff
