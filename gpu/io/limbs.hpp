#pragma once
// Plain multi-precision integers as the snarkjs file formats carry them: little-endian 64-bit
// limbs, no Montgomery conversion implied. The io layer speaks only in these; gpu/groth16 turns
// them into field elements (gpu/ff). Also the BLS12-381 moduli and decimal conversion for the
// snarkjs JSON files.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace prestage::io {

using FrLimbs = std::array<uint64_t, 4>;  // an Fr value or representation, 4 x 64-bit LE
using FqLimbs = std::array<uint64_t, 6>;  // an Fq value or representation, 6 x 64-bit LE

// BLS12-381 scalar field modulus r (255 bits) and base field modulus q (381 bits).
inline constexpr FrLimbs kFrModulus = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                       0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
inline constexpr FqLimbs kFqModulus = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                       0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                       0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};

// Reads n little-endian limbs from 8*n bytes.
template <size_t N>
std::array<uint64_t, N> load_le(const uint8_t* p) {
  std::array<uint64_t, N> out{};
  for (size_t i = 0; i < N; ++i) {
    uint64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (v << 8) | p[8 * i + b];
    out[i] = v;
  }
  return out;
}

// Writes n limbs as 8*n little-endian bytes.
template <size_t N>
void store_le(const std::array<uint64_t, N>& a, uint8_t* p) {
  for (size_t i = 0; i < N; ++i)
    for (int b = 0; b < 8; ++b) p[8 * i + b] = uint8_t(a[i] >> (8 * b));
}

// a < b as unsigned integers.
template <size_t N>
bool less_than(const std::array<uint64_t, N>& a, const std::array<uint64_t, N>& b) {
  for (size_t i = N; i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i];
  return false;
}

template <size_t N>
bool is_zero(const std::array<uint64_t, N>& a) {
  for (auto v : a)
    if (v) return false;
  return true;
}

// Decimal string of an unsigned integer given as limbs ("0" for zero), as snarkjs writes numbers.
std::string to_decimal(const uint64_t* limbs, size_t n);
template <size_t N>
std::string to_decimal(const std::array<uint64_t, N>& a) {
  return to_decimal(a.data(), N);
}

// Parses a non-empty string of decimal digits (no sign, no spaces) into n limbs; nullopt when
// the string is not decimal or the value does not fit in n limbs.
bool from_decimal(std::string_view s, uint64_t* limbs, size_t n);
template <size_t N>
std::optional<std::array<uint64_t, N>> from_decimal(std::string_view s) {
  std::array<uint64_t, N> a{};
  if (!from_decimal(s, a.data(), N)) return std::nullopt;
  return a;
}

}  // namespace prestage::io
