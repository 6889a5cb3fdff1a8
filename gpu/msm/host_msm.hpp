#pragma once
// Host reference multi-scalar multiplication sum_i s_i * P_i on BLS12-381 G1 and G2 (Pippenger
// with signed digits); the Groth16 host prover uses it and the GPU MSM is checked against it.
//
// Contract: points (n affine points, infinity allowed, repeats allowed) and scalars (n x 32 B,
// Fr in Montgomery form, any value < r) have the same length, else std::invalid_argument.
// Returns the sum in Jacobian coordinates (infinity for n = 0). Deterministic: the point returned
// does not depend on the thread count (nor, as a group element, on the options). Thread-safe: no
// shared mutable state. Scalars 0 and 1 cost at most one addition each (PoRep witnesses are mostly
// 0/1). Memory: n x 1 B for scalar classification plus W x M x 4 B of digits (m = scalars other
// than 0/1, M = m rows, or 2m rows of 128-bit halves with GLV on G1, W = floor(bits/c) + 1), m
// affine points phi(P) with GLV, plus 2^(c-1) buckets per thread (batch-affine: 2^(c-1) x (affine
// + XYZZ + 1 B) and two batches of affine points; with the IFMA additions on G1 also
// 2 x ceil(batch / 8) x 512 B and batch x 1 B).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/msm/curves.hpp"

namespace prestage::msm {

using ff::Fr;

// How buckets accumulate points: XYZZ mixed additions, or affine additions batched around one
// inversion per batch (fewer multiplications per addition, plus a share of the inversion).
// automatic picks by window size (host_msm.cpp keeps the measurement behind the choice).
enum class BucketMode { automatic, xyzz, batch_affine };

struct HostOptions {
  unsigned threads = 0;      // 0 = hardware_concurrency()
  unsigned window_bits = 0;  // Pippenger window c in [1, 16]; 0 = window_bits_for(rows, bits)
  BucketMode buckets = BucketMode::automatic;
  // G1 only (ignored on G2): split each scalar by the GLV endomorphism (gpu/msm/glv.hpp) into
  // two 128-bit halves over P and phi(P). Same result either way; false keeps the plain method
  // (the tests compare the two).
  bool endomorphism = true;
  // Batch-affine buckets: pending additions per inversion; 0 = the rule in host_msm.cpp.
  unsigned affine_batch = 0;
  // G1 batch-affine buckets: run the additions on eight AVX-512 IFMA lanes (gpu/ff/fq_ifma.hpp)
  // when the CPU has AVX-512 IFMA and PRESTAGE_HOST_IFMA is not "0". Same result bit for bit;
  // false keeps the scalar 6 x 64-bit path (the tests compare the two).
  bool simd = true;
};

// The window c used for n Pippenger rows with scalars < 2^scalar_bits (255 for plain scalars,
// 128 for GLV halves; rule and measurement in host_msm.cpp).
unsigned window_bits_for(std::size_t n, unsigned scalar_bits = 255);

// sum_i scalars[i] * points[i] (instantiated for G1Curve and G2Curve).
template <class Curve>
typename Curve::Jacobian msm(std::span<const typename Curve::Affine> points,
                             std::span<const Fr> scalars, const HostOptions& options = {});

// `count` affine points left in a byte buffer in the snarkjs .zkey layout, `stride` bytes apart,
// any alignment (e.g. a section of a mapped .zkey): each coordinate 48 B LE = Fq's Montgomery
// limbs, x then y (G2: x.c0, x.c1, y.c0, y.c1: 96 B, or 192 B for G2, read from each record's
// start), the identity as all zero bytes. The caller guarantees every coordinate < q and every
// point on the curve (gpu/groth16/key_points checks a key's sections in place).
struct RawPoints {
  const uint8_t* data = nullptr;
  std::size_t count = 0;
  std::size_t stride = 0;  // >= 96 B (G1) / 192 B (G2)
};

// Point i of raw points: identity (all its 96 / 192 B zero), and the point itself in the Affine
// layout (x, y copied; infinity false: ask raw_is_identity first).
template <class Affine>
bool raw_is_identity(const RawPoints& r, std::size_t i) {
  constexpr std::size_t kBytes = 2 * sizeof(typename Affine::Field);  // 96 B / 192 B
  const uint8_t* at = r.data + i * r.stride;
  uint64_t any = 0;
  for (std::size_t k = 0; k < kBytes; k += 8) {
    uint64_t w;
    std::memcpy(&w, at + k, 8);
    any |= w;
  }
  return any == 0;
}
template <class Affine>
Affine raw_point(const RawPoints& r, std::size_t i) {
  static_assert(offsetof(Affine, y) == sizeof(typename Affine::Field), "x, y contiguous");
  Affine a;
  std::memcpy(static_cast<void*>(&a), r.data + i * r.stride, 2 * sizeof(typename Affine::Field));
  a.infinity = false;
  return a;
}

// The same sum over raw points, read in place: the bases of 0/1 scalars are never copied, the
// m bases with other scalars are gathered once (m affine points). Same point as msm() on the
// decoded vector, bit for bit.
template <class Curve>
typename Curve::Jacobian msm(const RawPoints& points, std::span<const Fr> scalars,
                             const HostOptions& options = {});

inline ec::G1Jacobian msm_g1(std::span<const ec::G1Affine> points, std::span<const Fr> scalars,
                             unsigned threads = 0) {
  return msm<G1Curve>(points, scalars, HostOptions{threads, 0, BucketMode::automatic});
}
inline ec::G2Jacobian msm_g2(std::span<const ec::G2Affine> points, std::span<const Fr> scalars,
                             unsigned threads = 0) {
  return msm<G2Curve>(points, scalars, HostOptions{threads, 0, BucketMode::automatic});
}

}  // namespace prestage::msm
