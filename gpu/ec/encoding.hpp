#pragma once
// ZCash BLS12-381 point encoding (the serialization of zkcrypto/bls12_381, blst, the IETF
// pairing-friendly-curves draft and Filecoin parameter files), host code:
//   coordinates big-endian, Fq2 as c1 then c0; the three top bits of byte 0 are flags:
//   0x80 compressed, 0x40 point at infinity, 0x20 sign of y (y lexicographically largest,
//   compressed only).
//   G1: 48 B compressed (x), 96 B uncompressed (x, y); G2: 96 B / 192 B.
// Decoders accept only canonical encodings: right length and compression flag, coordinates < p,
// the identity as flags with all other bits zero, the point on the curve and in the order-r
// subgroup; anything else gives std::nullopt.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"

namespace prestage::ec {

namespace detail {

inline constexpr uint8_t kFlagCompressed = 0x80;
inline constexpr uint8_t kFlagInfinity = 0x40;
inline constexpr uint8_t kFlagSign = 0x20;

// Big-endian canonical bytes of a field element (48 B for Fq, 96 B for Fq2 = c1 || c0).
inline void write_be(const ff::Fq& a, uint8_t* out) {
  const auto le = a.to_bytes_le();
  for (std::size_t i = 0; i < le.size(); ++i) out[i] = le[le.size() - 1 - i];
}
inline void write_be(const ff::Fq2& a, uint8_t* out) {
  write_be(a.c1, out);
  write_be(a.c0, out + ff::Fq::num_bytes);
}
inline bool read_be(const uint8_t* in, ff::Fq& out) {
  std::array<uint8_t, ff::Fq::num_bytes> le{};
  for (std::size_t i = 0; i < le.size(); ++i) le[i] = in[le.size() - 1 - i];
  const auto v = ff::Fq::from_bytes_le(le);
  if (!v) return false;
  out = *v;
  return true;
}
inline bool read_be(const uint8_t* in, ff::Fq2& out) {
  return read_be(in, out.c1) && read_be(in + ff::Fq::num_bytes, out.c0);
}

template <class C>
constexpr std::size_t field_bytes() {
  return sizeof(typename C::Field) / sizeof(ff::Fq) * ff::Fq::num_bytes;
}

template <class C, bool Compressed>
std::array<uint8_t, field_bytes<C>() * (Compressed ? 1 : 2)> encode(const Affine<C>& p) {
  std::array<uint8_t, field_bytes<C>() * (Compressed ? 1 : 2)> out{};
  if (p.infinity) {
    out[0] = kFlagInfinity | (Compressed ? kFlagCompressed : 0);
    return out;
  }
  write_be(p.x, out.data());
  if constexpr (Compressed) {
    out[0] |= kFlagCompressed | (p.y.lexicographically_largest() ? kFlagSign : 0);
  } else {
    write_be(p.y, out.data() + field_bytes<C>());
  }
  return out;
}

template <class C, bool Compressed>
std::optional<Affine<C>> decode(std::span<const uint8_t> in) {
  using Field = typename C::Field;
  constexpr std::size_t n = field_bytes<C>() * (Compressed ? 1 : 2);
  if (in.size() != n) return std::nullopt;
  const uint8_t flags = in[0] & 0xE0;
  if (((flags & kFlagCompressed) != 0) != Compressed) return std::nullopt;
  std::array<uint8_t, n> buf{};
  for (std::size_t i = 0; i < n; ++i) buf[i] = in[i];
  buf[0] &= 0x1F;
  if (flags & kFlagInfinity) {
    if (flags & kFlagSign) return std::nullopt;
    for (uint8_t b : buf)
      if (b != 0) return std::nullopt;
    return Affine<C>::identity();
  }
  Affine<C> p{Field::zero(), Field::zero(), false};
  if (!read_be(buf.data(), p.x)) return std::nullopt;
  if constexpr (Compressed) {
    const auto y = (p.x.sqr() * p.x + C::b()).sqrt();
    if (!y) return std::nullopt;  // x is not on the curve
    const bool want_largest = (flags & kFlagSign) != 0;
    p.y = y->lexicographically_largest() == want_largest ? *y : -*y;
  } else {
    if (flags & kFlagSign) return std::nullopt;
    if (!read_be(buf.data() + field_bytes<C>(), p.y)) return std::nullopt;
    if (!p.is_on_curve()) return std::nullopt;
  }
  if (!p.in_subgroup()) return std::nullopt;
  return p;
}

}  // namespace detail

inline std::array<uint8_t, 48> to_compressed(const G1Affine& p) {
  return detail::encode<G1Config, true>(p);
}
inline std::array<uint8_t, 96> to_uncompressed(const G1Affine& p) {
  return detail::encode<G1Config, false>(p);
}
inline std::array<uint8_t, 96> to_compressed(const G2Affine& p) {
  return detail::encode<G2Config, true>(p);
}
inline std::array<uint8_t, 192> to_uncompressed(const G2Affine& p) {
  return detail::encode<G2Config, false>(p);
}
inline std::optional<G1Affine> g1_from_compressed(std::span<const uint8_t> in) {
  return detail::decode<G1Config, true>(in);
}
inline std::optional<G1Affine> g1_from_uncompressed(std::span<const uint8_t> in) {
  return detail::decode<G1Config, false>(in);
}
inline std::optional<G2Affine> g2_from_compressed(std::span<const uint8_t> in) {
  return detail::decode<G2Config, true>(in);
}
inline std::optional<G2Affine> g2_from_uncompressed(std::span<const uint8_t> in) {
  return detail::decode<G2Config, false>(in);
}

}  // namespace prestage::ec
