#include "gpu/groth16/key_points.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gpu/common/parallel.hpp"
#include "gpu/ff/fq_ifma.hpp"

namespace prestage::groth16 {

using ec::G1Affine;
using ec::G2Affine;
using ff::Fq;

namespace {

#if PRESTAGE_FF_HOST_IFMA
namespace vi = ff::ifma;

// y^2 - (x^3 + 4) == 0 per lane: 3 eight-lane products.
PRESTAGE_IFMA_TARGET [[gnu::noinline]] uint8_t on_curve8_g1_ifma(const G1Affine* const p[8]) {
  const Fq* xs[8];
  const Fq* ys[8];
  for (int l = 0; l < 8; ++l) {
    xs[l] = &p[l]->x;
    ys[l] = &p[l]->y;
  }
  const vi::Fq8 x = vi::load(xs), y = vi::load(ys);
  const vi::Fq8 rhs = vi::add(vi::mul(vi::mul(x, x), x), vi::broadcast(ec::G1Config::b()));
  return static_cast<uint8_t>(vi::zero_lanes(vi::sub(vi::mul(y, y), rhs)));
}

// The same over Fq2 = Fq[u] / (u^2 + 1), b = 4 (1 + u): squares as (a0 + a1)(a0 - a1), 2 a0 a1
// and the cube by Karatsuba: 2 + 2 + 3 = 7 eight-lane products.
PRESTAGE_IFMA_TARGET [[gnu::noinline]] uint8_t on_curve8_g2_ifma(const G2Affine* const p[8]) {
  const Fq* ptr[4][8];
  for (int l = 0; l < 8; ++l) {
    ptr[0][l] = &p[l]->x.c0;
    ptr[1][l] = &p[l]->x.c1;
    ptr[2][l] = &p[l]->y.c0;
    ptr[3][l] = &p[l]->y.c1;
  }
  const vi::Fq8 x0 = vi::load(ptr[0]), x1 = vi::load(ptr[1]);
  const vi::Fq8 y0 = vi::load(ptr[2]), y1 = vi::load(ptr[3]);
  // x^2
  const vi::Fq8 s0 = vi::mul(vi::add(x0, x1), vi::sub(x0, x1));
  const vi::Fq8 t = vi::mul(x0, x1);
  const vi::Fq8 s1 = vi::add(t, t);
  // x^3 = x^2 * x
  const vi::Fq8 m0 = vi::mul(s0, x0), m1 = vi::mul(s1, x1);
  const vi::Fq8 mm = vi::mul(vi::add(s0, s1), vi::add(x0, x1));
  const ff::Fq2 b = ec::G2Config::b();
  const vi::Fq8 r0 = vi::add(vi::sub(m0, m1), vi::broadcast(b.c0));
  const vi::Fq8 r1 = vi::add(vi::sub(vi::sub(mm, m0), m1), vi::broadcast(b.c1));
  // y^2
  const vi::Fq8 l0 = vi::mul(vi::add(y0, y1), vi::sub(y0, y1));
  const vi::Fq8 u = vi::mul(y0, y1);
  const vi::Fq8 l1 = vi::add(u, u);
  return static_cast<uint8_t>(vi::zero_lanes(vi::sub(l0, r0)) & vi::zero_lanes(vi::sub(l1, r1)));
}
#endif

template <class P>
uint8_t on_curve8_any(const P* const p[8], bool simd) {
#if PRESTAGE_FF_HOST_IFMA
  if (simd && ff::ifma::host_ifma_enabled()) {
    if constexpr (std::is_same_v<P, G1Affine>)
      return on_curve8_g1_ifma(p);
    else
      return on_curve8_g2_ifma(p);
  }
#endif
  (void)simd;
  uint8_t ok = 0;
  for (int l = 0; l < 8; ++l)
    if (p[l]->is_on_curve()) ok |= static_cast<uint8_t>(1u << l);
  return ok;
}

// Coordinate k of a point at `at` (48 B LE words = Montgomery limbs); false when >= q.
inline bool read_coord(const uint8_t* at, Fq& out) {
  const io::FqLimbs v = io::load_le<6>(at);
  if (!io::less_than(v, io::kFqModulus)) return false;
  out = Fq::from_raw(v);
  return true;
}

template <class P>
constexpr int kCoords = std::is_same_v<P, G1Affine> ? 2 : 4;

template <class P>
Fq* coord(P& p, int k) {
  if constexpr (std::is_same_v<P, G1Affine>)
    return k == 0 ? &p.x : &p.y;
  else
    return k == 0 ? &p.x.c0 : k == 1 ? &p.x.c1 : k == 2 ? &p.y.c0 : &p.y.c1;
}

// Defect found at point i: 0 none, 1 coordinate >= q (coordinate k), 2 off the curve.
struct Defect {
  uint64_t index = UINT64_MAX;
  int kind = 0, coord = 0;
};

// Reads and checks section s; writes the points to out[0, s.count) when out is not null, else
// only checks them (decoded eight at a time into a small buffer per thread).
template <class P>
void points(const io::MappedZkey& m, const io::ZkeyPoints& s, unsigned threads, bool simd, P* out) {
  constexpr int K = kCoords<P>;
  if (s.point_bytes != 48u * K) throw std::logic_error("key_points: wrong point size");
  const uint8_t* base = m.points(s);
  std::atomic<uint64_t> first_bad{UINT64_MAX};
  // One defect per thread (its lowest index); the lowest over all threads is reported.
  const unsigned T = host::resolve_threads(threads);
  std::vector<Defect> found(T);
  std::atomic<unsigned> slot{0};
  host::parallel_for(s.count, T, 4096, [&](std::size_t b, std::size_t e) {
    Defect& d = found[slot.fetch_add(1)];
    P local[8];  // out == nullptr: the pending points
    const P* pending[8];
    uint64_t pending_i[8];
    int np = 0;
    auto check = [&](int count) {  // the first `count` pending points (rest padded)
      for (int l = count; l < 8; ++l) pending[l] = pending[0];
      const uint8_t ok = on_curve8_any<P>(pending, simd);
      for (int l = 0; l < count; ++l)
        if (!((ok >> l) & 1) && pending_i[l] < d.index) d = {pending_i[l], 2, 0};
    };
    for (std::size_t i = b; i < e; ++i) {
      if (i >= d.index || i >= first_bad.load(std::memory_order_relaxed)) break;
      const uint8_t* at = base + i * s.point_bytes;
      P& p = out ? out[i] : local[np];
      bool zero = true, in_range = true;
      for (int k = 0; k < K && in_range; ++k) {
        Fq* c = coord(p, k);
        if (!read_coord(at + 48 * k, *c)) {
          d = {i, 1, k};
          in_range = false;
        } else {
          zero = zero && c->is_zero();
        }
      }
      if (!in_range) {
        first_bad.store(std::min<uint64_t>(first_bad.load(), i));
        break;
      }
      p.infinity = zero;
      if (zero) continue;
      pending[np] = &p;
      pending_i[np++] = i;
      if (np == 8) {
        check(8);
        np = 0;
      }
    }
    if (np) check(np);
  });
  Defect worst;
  for (const Defect& d : found)
    if (d.index < worst.index) worst = d;
  if (worst.kind == 1)
    m.file.fail(s.offset + worst.index * s.point_bytes + 48u * worst.coord, s.type, s.what,
                fmt::format("{}: coordinate is not below q", s.what));
  if (worst.kind == 2)
    m.file.fail(s.offset + worst.index * s.point_bytes, s.type, s.what,
                fmt::format("point {} is not on the BLS12-381 {}curve", worst.index,
                            std::is_same_v<P, G1Affine> ? "" : "G2 "));
}

}  // namespace

std::vector<G1Affine> g1_points(const io::MappedZkey& m, const io::ZkeyPoints& s, unsigned threads,
                                bool simd) {
  std::vector<G1Affine> out(s.count);  // count x 104 B, Montgomery
  points<G1Affine>(m, s, threads, simd, out.data());
  return out;
}
std::vector<G2Affine> g2_points(const io::MappedZkey& m, const io::ZkeyPoints& s, unsigned threads,
                                bool simd) {
  std::vector<G2Affine> out(s.count);  // count x 200 B, Montgomery
  points<G2Affine>(m, s, threads, simd, out.data());
  return out;
}
msm::RawPoints check_g1_points(const io::MappedZkey& m, const io::ZkeyPoints& s, unsigned threads,
                               bool simd) {
  points<G1Affine>(m, s, threads, simd, nullptr);
  return {m.points(s), s.count, s.point_bytes};
}
msm::RawPoints check_g2_points(const io::MappedZkey& m, const io::ZkeyPoints& s, unsigned threads,
                               bool simd) {
  points<G2Affine>(m, s, threads, simd, nullptr);
  return {m.points(s), s.count, s.point_bytes};
}
uint8_t on_curve8(const G1Affine* const p[8], bool simd) {
  return on_curve8_any<G1Affine>(p, simd);
}
uint8_t on_curve8(const G2Affine* const p[8], bool simd) {
  return on_curve8_any<G2Affine>(p, simd);
}

}  // namespace prestage::groth16
