#include "gpu/msm/host_msm.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/common/parallel.hpp"
#include "gpu/ff/fq_ifma.hpp"
#include "gpu/ff/inverse_binary.hpp"
#include "gpu/msm/glv.hpp"

// Pippenger with signed digits.
//  0. Scalars 0 and 1 (and identity bases) are taken out first: a 1 costs one mixed addition
//     into a running sum, a 0 nothing; the window c is chosen for the m remaining scalars.
//  1. Each scalar (Montgomery -> canonical, < 2^255) becomes one row (base P, the scalar), or on
//     G1 with GLV two rows (P, k1) and (phi(P), k2), k = k1 + lambda k2, k1, k2 < 2^128
//     (gpu/msm/glv.hpp). Each row's scalar (< 2^bits) is split into W = floor(bits/c) + 1 signed
//     c-bit digits d in (-2^(c-1), 2^(c-1)] (a chunk above 2^(c-1) becomes chunk - 2^c and carries
//     1 into the next window); W*c >= bits + 1, so the top window never carries out.
//  2. Per window, a point with digit d != 0 is added to bucket |d| - 1, negated when d < 0:
//     2^(c-1) buckets instead of 2^c - 1. Buckets are XYZZ (mixed additions) or affine with
//     batched inversions (AffineBuckets), by BucketMode.
//  3. Window sum = sum_k (k + 1) * bucket[k], by running sums from the top bucket down.
//  4. Result = sum_w 2^(cw) window_sum[w], Horner from the top window (c doublings per step).
// Threads take (window, point range) tasks from an atomic counter; each thread owns its buckets
// (allocated once). The task split is fixed by n, c and the thread count only through the
// number of point ranges; group addition is exact, so the result never depends on scheduling.

namespace prestage::msm {
namespace {

constexpr unsigned kMaxWindowBits = 16;
// BucketMode::automatic uses batch-affine buckets from this window up (measurement in msm()).
constexpr unsigned kAffineMinWindowBits = 11;
// The same with the G1 additions on AVX-512 IFMA (complete_batch_ifma): from c = 10. Measured
// (host_bench --buckets all, G1, GLV, 2 threads, random scalars, medians of 5, dev VM Zen 5,
// load ~1.1, 2026-11-30, data/bench/host_msm_ntt/2026-11-30_dev2core_ifma_buckets.csv), XYZZ vs
// batch-affine ms: 2^10 (c 8) 7.5 vs 9.7, 2^11 (c 10) 11.3 vs 7.7, 2^12 (c 10) 20.7 vs 13.1,
// 2^13 (c 11) 36.0 vs 21.0; c = 9 not measured (kept on XYZZ).
constexpr unsigned kAffineMinWindowBitsIfma = 10;
// Pending additions per batch: a quarter of the buckets (so on random digits about 1/8 of the
// points meet a busy bucket), at most 2048, at least 16.
std::size_t affine_batch_size(unsigned c) {
  return std::clamp<std::size_t>((std::size_t{1} << (c - 1)) / 4, 16, 2048);
}

// Signed-digit windows for scalars < 2^bits: W * c >= bits + 1, so the top window's chunk is
// below 2^(c-1) and its digit never carries out.
unsigned num_windows(unsigned c, unsigned bits) {
  return bits / c + 1;
}

// Bits [off, off + c) of a 256-bit little-endian value.
inline uint32_t chunk(const std::array<uint64_t, 4>& s, unsigned off, unsigned c) {
  const unsigned li = off / 64, bi = off % 64;
  if (li >= 4) return 0;
  uint64_t v = s[li] >> bi;
  if (bi + c > 64 && li + 1 < 4) v |= s[li + 1] << (64 - bi);
  return static_cast<uint32_t>(v & ((uint64_t{1} << c) - 1));
}

// ---- curve operations used here (gpu/ec, complete formulas: identity, P == Q, P == -Q) ----
template <class X>
inline X xyzz_infinity() {
  return X::identity();
}
template <class X, class A>
inline void add_affine(X& acc, const A& p) {
  acc = acc.add_mixed(p);
}
template <class X>
inline void add_xyzz(X& acc, const X& b) {
  acc = acc.add(b);
}
template <class X>
inline void dbl_xyzz(X& acc) {
  acc = acc.dbl();
}
template <class J, class X>
inline J xyzz_to_jacobian(const X& x) {
  return x.to_jacobian();
}

// Field inversion kept out of line: inlined into AffineBuckets::flush it bloated the frame
// (9.5 KB of spills, g++ 12 -O3) and slowed every addition in the batch.
// Fq (G1 buckets): the binary extended Euclid of gpu/ff/inverse_binary.hpp, variable time (bucket
// sums are public). Measured (dev VM, g++ 12 -O3, 2026-11-30, chains of 2000): 10.0 us vs 15.8 us
// for Fermat; one per batch of 1024 additions. Fq2 (G2) keeps Fermat through its norm. The 2^16
// H MSM of SHA-256-512 (2 threads, CPU, medians of 3, 3 interleaved pairs): 368/364/362 ms ->
// 356/357/349 ms.
template <class F>
[[gnu::noinline]] F invert(const F& x) {
  if constexpr (std::is_same_v<F, ff::Fq>)
    return ff::inverse_vartime(x);
  else
    return x.inverse();
}

#if PRESTAGE_FF_HOST_IFMA
// The batch-affine additions acc[idx[j]] += pt[j] (j < n, distinct buckets, no point at
// infinity) on eight lanes of AVX-512 IFMA (gpu/ff/fq_ifma.hpp), G1 only; bit-identical to the
// scalar path of AffineBuckets::complete_batch (same Montgomery domain, fully reduced values,
// exact arithmetic). Pending addition j = 8g + l sits in lane l of group g:
//  forward:  denominators d_j = x_p - x_a on the lanes (gathered in place); lanes where it is 0
//            get 2 y_a (P + P) or 1 (P + (-P)) on the scalar side; padding lanes of the last
//            group get 1; stored per group in den8[g];
//            pre8[g] = the product of lane l's earlier denominators (8 interleaved chains);
//  invert:   the 8 lane totals share one inversion (prefix products, 3 x 8 scalar products);
//  backward: per group from the last, 1/d = inv * pre8[g], inv <- inv * d; lambda, x3, y3 on
//            the eight lanes (3 products, 4 subtractions), written back; P + (-P) -> infinity.
// Products per addition: 1 + 2 + 3 = 6, all eight-lane, as in the scalar path.
// den8, pre8: ceil(n / 8) x Fq8Mem each; kind: n x 1 B (0 add, 1 double, 2 identity).
// state: buckets x {has = 1, busy = 2}: busy cleared, has set unless the sum is infinity.
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void complete_batch_ifma(
    ec::G1Affine* acc, const uint32_t* idx, const ec::G1Affine* pt, std::size_t n,
    ff::ifma::Fq8Mem* den8, ff::ifma::Fq8Mem* pre8, uint8_t* kind, uint8_t* state) {
  namespace vi = ff::ifma;
  using ff::Fq;
  constexpr std::size_t kAhead = 16;  // pending additions whose bucket is fetched ahead
  const std::size_t groups = (n + 7) / 8;
  static constexpr Fq kZero = Fq::zero(), kOne = Fq::one();
  vi::Fq8 prod = vi::broadcast(Fq::one());
  for (std::size_t g = 0; g < groups; ++g) {
    const Fq* ax[8];
    const Fq* px[8];
    for (std::size_t l = 0; l < 8; ++l) {
      const std::size_t j = 8 * g + l;
      if (j + kAhead < n) {
        const char* ahead = reinterpret_cast<const char*>(&acc[idx[j + kAhead]]);
        __builtin_prefetch(ahead);
        __builtin_prefetch(ahead + 64);
      }
      if (j < n) {
        ax[l] = &acc[idx[j]].x;
        px[l] = &pt[j].x;
        kind[j] = 0;
      } else {  // padding: d = 1 - 0
        ax[l] = &kZero;
        px[l] = &kOne;
      }
    }
    vi::Fq8 dv = vi::sub(vi::load(px), vi::load(ax));
    if (const __mmask8 same_x = vi::zero_lanes(dv)) {  // P + P or P + (-P): rare
      Fq d[8];
      vi::store(dv, d);
      for (std::size_t l = 0; l < 8; ++l) {
        if (!((same_x >> l) & 1)) continue;
        const std::size_t j = 8 * g + l;
        const ec::G1Affine& a = acc[idx[j]];
        const ec::G1Affine& p = pt[j];
        if (p.y == a.y && !a.y.is_zero()) {
          d[l] = a.y.dbl();
          kind[j] = 1;
        } else {
          d[l] = Fq::one();
          kind[j] = 2;
        }
      }
      dv = vi::load(d);
    }
    vi::store(dv, den8[g]);
    vi::store(prod, pre8[g]);
    prod = vi::mul(prod, dv);
  }
  // inv[l] = 1 / tot[l] from one inversion: q[l] = tot[0] ... tot[l - 1].
  Fq tot[8], q[8], inv[8];
  vi::store(prod, tot);
  q[0] = Fq::one();
  for (int l = 1; l < 8; ++l) q[l] = q[l - 1] * tot[l - 1];
  Fq all_inv = invert(q[7] * tot[7]);
  for (int l = 8; l-- > 0;) {
    inv[l] = all_inv * q[l];
    all_inv = all_inv * tot[l];
  }
  vi::Fq8 iv = vi::load(inv);
  for (std::size_t g = groups; g-- > 0;) {
    const vi::Fq8 dinv = vi::mul(iv, vi::load(pre8[g]));  // lane l: 1 / d_(8g + l)
    iv = vi::mul(iv, vi::load(den8[g]));
    const Fq* ax[8];
    const Fq* px[8];
    const Fq* ay[8];
    const Fq* py[8];
    bool tangent = false;
    for (std::size_t l = 0; l < 8; ++l) {
      const std::size_t j = 8 * g + l;
      if (j >= n || kind[j] == 2) {  // padding, P + (-P): any valid value; the lane is dropped
        ax[l] = px[l] = ay[l] = py[l] = &kZero;
        continue;
      }
      const ec::G1Affine& a = acc[idx[j]];
      const ec::G1Affine& p = pt[j];
      tangent |= kind[j] == 1;
      ax[l] = &a.x;
      px[l] = &p.x;
      ay[l] = &a.y;
      py[l] = &p.y;
    }
    const vi::Fq8 ayv = vi::load(ay);
    vi::Fq8 numv = vi::sub(vi::load(py), ayv);  // y_p - y_a
    if (tangent) {                              // P + P lanes: 3 x^2 instead (rare)
      Fq num[8];
      vi::store(numv, num);
      for (std::size_t l = 0; l < 8; ++l) {
        const std::size_t j = 8 * g + l;
        if (j >= n || kind[j] != 1) continue;
        const Fq x2 = acc[idx[j]].x.sqr();
        num[l] = x2.dbl() + x2;
      }
      numv = vi::load(num);
    }
    const vi::Fq8 axv = vi::load(ax);
    const vi::Fq8 lambda = vi::mul(numv, dinv);
    const vi::Fq8 x3 = vi::sub(vi::sub(vi::mul(lambda, lambda), axv), vi::load(px));
    const vi::Fq8 y3 = vi::sub(vi::mul(lambda, vi::sub(axv, x3)), ayv);
    Fq x3s[8], y3s[8];
    vi::store(x3, x3s);
    vi::store(y3, y3s);
    for (std::size_t l = 0; l < 8; ++l) {
      const std::size_t j = 8 * g + l;
      if (j >= n) break;
      const std::size_t k = idx[j];
      const bool inf = kind[j] == 2;
      acc[k] = inf ? ec::G1Affine::identity() : ec::G1Affine{x3s[l], y3s[l], false};
      state[k] = static_cast<uint8_t>((state[k] & ~3u) | (inf ? 0u : 1u));
    }
  }
}
#endif

#if PRESTAGE_FF_HOST_IFMA
// Lane-wise select: lanes in m from a, the rest from b.
PRESTAGE_IFMA_TARGET inline ff::ifma::Fq8 pick(__mmask8 m, const ff::ifma::Fq8& a,
                                               const ff::ifma::Fq8& b) {
  ff::ifma::Fq8 r;
  for (int k = 0; k < 8; ++k) r.limb[k] = _mm512_mask_blend_epi64(m, b.limb[k], a.limb[k]);
  return r;
}

// Eight XYZZ points, one per lane (Montgomery, fully reduced).
struct Xyzz8 {
  ff::ifma::Fq8 X, Y, ZZ, ZZZ;
};

// Lane l <-> a scalar XYZZ (for the rare exceptional lanes and the final combination).
PRESTAGE_IFMA_TARGET inline void unpack(const Xyzz8& v, ec::G1XYZZ out[8]) {
  ff::Fq t[4][8];
  ff::ifma::store(v.X, t[0]);
  ff::ifma::store(v.Y, t[1]);
  ff::ifma::store(v.ZZ, t[2]);
  ff::ifma::store(v.ZZZ, t[3]);
  for (int l = 0; l < 8; ++l) out[l] = {t[0][l], t[1][l], t[2][l], t[3][l]};
}
PRESTAGE_IFMA_TARGET inline Xyzz8 pack(const ec::G1XYZZ in[8]) {
  ff::Fq t[4][8];
  for (int l = 0; l < 8; ++l) {
    t[0][l] = in[l].X;
    t[1][l] = in[l].Y;
    t[2][l] = in[l].ZZ;
    t[3][l] = in[l].ZZZ;
  }
  return {ff::ifma::load(t[0]), ff::ifma::load(t[1]), ff::ifma::load(t[2]), ff::ifma::load(t[3])};
}

// sum_k (k + 1) * (acc[k] where kHas, + over[k] where kOver) for the G1 batch-affine buckets, on
// eight lanes of AVX-512 IFMA: lane l runs the running-sum reduction of AffineBuckets::reduce
// over its own segment of L = buckets / 8 buckets [l L, (l + 1) L) (madd-2008-s into the running
// sum, add-2008-s into the segment sum, the formulas of ec::XYZZ), giving s_l = sum (k - l L + 1)
// b_k and r_l = sum b_k; then the total is sum_l s_l + L * sum_l l r_l (scalar, ~40 additions
// and log2 L doublings). Lanes meeting an exceptional case (P == Q or P == -Q, an identity
// summand) are completed by the scalar XYZZ formulas; the identity start of each lane is a
// lane select. Group addition is exact, so the sum equals the scalar reduction's point.
// Products per bucket and lane: 10 + 14, eight-lane, against 24 scalar mont_mul_adx_6.
// acc: buckets x 104 B affine; over: buckets x XYZZ; state: buckets x {1 has, 4 over}.
PRESTAGE_IFMA_TARGET [[gnu::noinline]] ec::G1XYZZ reduce_ifma(const ec::G1Affine* acc,
                                                              const ec::G1XYZZ* over,
                                                              const uint8_t* state,
                                                              std::size_t buckets) {
  namespace vi = ff::ifma;
  using ff::Fq;
  using X = ec::G1XYZZ;
  constexpr uint8_t kHasBit = 1, kOverBit = 4;
  const std::size_t L = buckets / 8;
  static constexpr Fq kOne = Fq::one();
  const vi::Fq8 one = vi::broadcast(Fq::one()), zero = vi::broadcast(Fq::zero());
  Xyzz8 r{one, one, zero, zero}, s{one, one, zero, zero};  // identities
  for (std::size_t i = L; i-- > 0;) {
    // running += acc[k] on the lanes whose bucket has a point.
    const Fq* qx[8];
    const Fq* qy[8];
    __mmask8 has = 0, ovr = 0;
    for (int l = 0; l < 8; ++l) {
      const std::size_t k = l * L + i;
      const uint8_t st = state[k];
      if ((st & kHasBit) && !acc[k].infinity) {  // (kHas implies a finite point; kept safe)
        has |= static_cast<__mmask8>(1u << l);
        qx[l] = &acc[k].x;
        qy[l] = &acc[k].y;
      } else {
        qx[l] = qy[l] = &kOne;
      }
      if (st & kOverBit) ovr |= static_cast<__mmask8>(1u << l);
    }
    if (has) {
      const vi::Fq8 x = vi::load(qx), y = vi::load(qy);
      const vi::Fq8 P = vi::sub(vi::mul(x, r.ZZ), r.X);
      const vi::Fq8 R = vi::sub(vi::mul(y, r.ZZZ), r.Y);
      const vi::Fq8 PP = vi::mul(P, P);
      const vi::Fq8 PPP = vi::mul(P, PP);
      const vi::Fq8 Q = vi::mul(r.X, PP);
      const vi::Fq8 X3 = vi::sub(vi::sub(vi::mul(R, R), PPP), vi::add(Q, Q));
      const vi::Fq8 Y3 = vi::sub(vi::mul(R, vi::sub(Q, X3)), vi::mul(r.Y, PPP));
      const vi::Fq8 ZZ3 = vi::mul(r.ZZ, PP), ZZZ3 = vi::mul(r.ZZZ, PPP);
      const __mmask8 ident = vi::zero_lanes(r.ZZ), pz = vi::zero_lanes(P);
      const __mmask8 normal = has & ~ident & ~pz;
      const __mmask8 start = has & ident;  // running was the identity: it becomes the point
      const __mmask8 special = has & ~ident & pz;
      r.X = pick(normal, X3, pick(start, x, r.X));
      r.Y = pick(normal, Y3, pick(start, y, r.Y));
      r.ZZ = pick(normal, ZZ3, pick(start, one, r.ZZ));
      r.ZZZ = pick(normal, ZZZ3, pick(start, one, r.ZZZ));
      if (special) {  // P == acc[k] (double) or P == -acc[k] (identity): scalar
        X lanes[8];
        unpack(r, lanes);
        for (int l = 0; l < 8; ++l)
          if ((special >> l) & 1) {
            // r was not updated on this lane: redo the addition in full.
            lanes[l] = lanes[l].add_mixed(acc[l * L + i]);
          }
        r = pack(lanes);
      }
    }
    if (ovr) {  // overflow accumulators (rare): scalar
      X lanes[8];
      unpack(r, lanes);
      for (int l = 0; l < 8; ++l)
        if ((ovr >> l) & 1) lanes[l] = lanes[l].add(over[l * L + i]);
      r = pack(lanes);
    }
    // sum += running.
    {
      const vi::Fq8 U1 = vi::mul(s.X, r.ZZ), U2 = vi::mul(r.X, s.ZZ);
      const vi::Fq8 S1 = vi::mul(s.Y, r.ZZZ), S2 = vi::mul(r.Y, s.ZZZ);
      const vi::Fq8 P = vi::sub(U2, U1), R = vi::sub(S2, S1);
      const vi::Fq8 PP = vi::mul(P, P);
      const vi::Fq8 PPP = vi::mul(P, PP);
      const vi::Fq8 Q = vi::mul(U1, PP);
      const vi::Fq8 X3 = vi::sub(vi::sub(vi::mul(R, R), PPP), vi::add(Q, Q));
      const vi::Fq8 Y3 = vi::sub(vi::mul(R, vi::sub(Q, X3)), vi::mul(S1, PPP));
      const vi::Fq8 ZZ3 = vi::mul(vi::mul(s.ZZ, r.ZZ), PP);
      const vi::Fq8 ZZZ3 = vi::mul(vi::mul(s.ZZZ, r.ZZZ), PPP);
      const __mmask8 sid = vi::zero_lanes(s.ZZ), rid = vi::zero_lanes(r.ZZ);
      const __mmask8 pz = vi::zero_lanes(P);
      const __mmask8 normal = ~sid & ~rid & ~pz;
      const __mmask8 start = sid & ~rid;  // sum was the identity: it becomes the running sum
      const __mmask8 special = ~sid & ~rid & pz;
      Xyzz8 old = s;
      s.X = pick(normal, X3, pick(start, r.X, s.X));
      s.Y = pick(normal, Y3, pick(start, r.Y, s.Y));
      s.ZZ = pick(normal, ZZ3, pick(start, r.ZZ, s.ZZ));
      s.ZZZ = pick(normal, ZZZ3, pick(start, r.ZZZ, s.ZZZ));
      if (special) {
        X sl[8], rl[8];
        unpack(old, sl);
        unpack(r, rl);
        X now[8];
        unpack(s, now);
        for (int l = 0; l < 8; ++l)
          if ((special >> l) & 1) now[l] = sl[l].add(rl[l]);
        s = pack(now);
      }
    }
  }
  X sl[8], rl[8];
  unpack(s, sl);
  unpack(r, rl);
  // sum_l s_l + L * sum_l l r_l; sum_l l r_l by running sums from lane 7 down.
  X total = X::identity(), run = X::identity(), weighted = X::identity();
  for (int l = 7; l >= 1; --l) {
    run = run.add(rl[l]);
    weighted = weighted.add(run);
  }
  for (std::size_t m = L; m > 1; m >>= 1) weighted = weighted.dbl();  // L is a power of two
  for (int l = 0; l < 8; ++l) total = total.add(sl[l]);
  return total.add(weighted);
}
#endif

#if PRESTAGE_FF_HOST_IFMA
// Sum of pts (affine G1, none the identity; used as scratch and left unspecified) by rounds of
// pairwise batch-affine additions on IFMA: pts[j] += pts[half + j] with complete_batch_ifma (one
// inversion per <= 1024 pairs), identities dropped, until one point is left. n - 1 additions at
// 6 eight-lane products each, against n mixed XYZZ additions (8M + 2S scalar). For the 1-scalar
// bases of the prover's A, B1 and C MSMs (~25k each for SHA-256-512).
// The rounds of sum_affine_ifma for either group: pts[j] += pts[half + j] in batches of <= 1024
// pairs by `batch` (complete_batch_ifma or its G2 twin, kFqPerCoord Fq8 words of scratch per lane
// and coordinate: 1 for G1, 2 for G2), identities dropped, until one point is left.
template <class Affine, std::size_t kFqPerCoord, class Batch>
Affine sum_affine_tree(std::vector<Affine>& pts, Batch batch) {
  constexpr std::size_t kTreeBatch = 1024;
  std::vector<ff::ifma::Fq8Mem> den8(kFqPerCoord * kTreeBatch / 8),
      pre8(kFqPerCoord * kTreeBatch / 8);
  std::vector<uint8_t> kind(kTreeBatch), state(kTreeBatch);
  std::vector<uint32_t> idx(kTreeBatch);
  for (std::size_t j = 0; j < kTreeBatch; ++j) idx[j] = static_cast<uint32_t>(j);
  std::size_t n = pts.size();
  while (n > 1) {
    const std::size_t half = n / 2;
    for (std::size_t b = 0; b < half; b += kTreeBatch) {
      const std::size_t cnt = std::min(kTreeBatch, half - b);
      batch(pts.data() + b, idx.data(), pts.data() + half + b, cnt, den8.data(), pre8.data(),
            kind.data(), state.data());
    }
    std::size_t w = 0;
    for (std::size_t j = 0; j < half; ++j)
      if (!pts[j].infinity) pts[w++] = pts[j];
    if (n % 2) pts[w++] = pts[n - 1];
    n = w;
  }
  return n ? pts[0] : Affine::identity();
}

ec::G1Affine sum_affine_ifma(std::vector<ec::G1Affine>& pts) {
  return sum_affine_tree<ec::G1Affine, 1>(pts, [](auto... args) { complete_batch_ifma(args...); });
}
#endif

#if PRESTAGE_FF_HOST_IFMA
// ---- G2 (Fq2 = Fq[u] / (u^2 + 1)) on eight IFMA lanes: the 1-scalar tree of the B2 MSM ----
struct F2x8 {
  ff::ifma::Fq8 c0, c1;
};
PRESTAGE_IFMA_TARGET inline F2x8 f2_load(const ff::Fq2* const p[8]) {
  const ff::Fq* a[8];
  const ff::Fq* b[8];
  for (int l = 0; l < 8; ++l) {
    a[l] = &p[l]->c0;
    b[l] = &p[l]->c1;
  }
  return {ff::ifma::load(a), ff::ifma::load(b)};
}
PRESTAGE_IFMA_TARGET inline void f2_store(const F2x8& v, ff::Fq2 out[8]) {
  ff::Fq a[8], b[8];
  ff::ifma::store(v.c0, a);
  ff::ifma::store(v.c1, b);
  for (int l = 0; l < 8; ++l) out[l] = {a[l], b[l]};
}
PRESTAGE_IFMA_TARGET inline F2x8 f2_sub(const F2x8& a, const F2x8& b) {
  return {ff::ifma::sub(a.c0, b.c0), ff::ifma::sub(a.c1, b.c1)};
}
// Karatsuba: 3 eight-lane Fq products (exact, fully reduced: the value of Fq2::operator*).
PRESTAGE_IFMA_TARGET inline F2x8 f2_mul(const F2x8& a, const F2x8& b) {
  namespace vi = ff::ifma;
  const vi::Fq8 t0 = vi::mul(a.c0, b.c0), t1 = vi::mul(a.c1, b.c1);
  const vi::Fq8 m = vi::mul(vi::add(a.c0, a.c1), vi::add(b.c0, b.c1));
  return {vi::sub(t0, t1), vi::sub(vi::sub(m, t0), t1)};
}
PRESTAGE_IFMA_TARGET inline void f2_store_mem(const F2x8& v, ff::ifma::Fq8Mem m[2]) {
  ff::ifma::store(v.c0, m[0]);
  ff::ifma::store(v.c1, m[1]);
}
PRESTAGE_IFMA_TARGET inline F2x8 f2_load_mem(const ff::ifma::Fq8Mem m[2]) {
  return {ff::ifma::load(m[0]), ff::ifma::load(m[1])};
}

// acc[idx[j]] += pt[j] (j < n, distinct buckets, no identity) on G2: complete_batch_ifma's
// scheme over Fq2 (forward prefix products on 8 lanes, one Fq2 inversion for the 8 lane totals,
// backward lambda, x3, y3). P + P and P + (-P) lanes are classified on the scalar side.
// den8, pre8: 2 x ceil(n / 8) Fq8Mem each; kind: n x 1 B; state as complete_batch_ifma's.
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void complete_batch_ifma_g2(
    ec::G2Affine* acc, const uint32_t* idx, const ec::G2Affine* pt, std::size_t n,
    ff::ifma::Fq8Mem* den8, ff::ifma::Fq8Mem* pre8, uint8_t* kind, uint8_t* state) {
  using ff::Fq2;
  const std::size_t groups = (n + 7) / 8;
  static constexpr Fq2 kZero = Fq2::zero(), kOne = Fq2::one();
  F2x8 prod = {ff::ifma::broadcast(ff::Fq::one()), ff::ifma::broadcast(ff::Fq::zero())};
  for (std::size_t g = 0; g < groups; ++g) {
    const Fq2* ax[8];
    const Fq2* px[8];
    for (std::size_t l = 0; l < 8; ++l) {
      const std::size_t j = 8 * g + l;
      if (j < n) {
        ax[l] = &acc[idx[j]].x;
        px[l] = &pt[j].x;
        kind[j] = 0;
      } else {
        ax[l] = &kZero;
        px[l] = &kOne;
      }
    }
    F2x8 dv = f2_sub(f2_load(px), f2_load(ax));
    if (const __mmask8 same_x = ff::ifma::zero_lanes(dv.c0) & ff::ifma::zero_lanes(dv.c1)) {
      Fq2 d[8];
      f2_store(dv, d);
      for (std::size_t l = 0; l < 8; ++l) {
        if (!((same_x >> l) & 1)) continue;
        const std::size_t j = 8 * g + l;
        const ec::G2Affine& a = acc[idx[j]];
        const ec::G2Affine& p = pt[j];
        if (p.y == a.y && !a.y.is_zero()) {
          d[l] = a.y.dbl();
          kind[j] = 1;
        } else {
          d[l] = Fq2::one();
          kind[j] = 2;
        }
      }
      const Fq2* dp[8] = {&d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &d[6], &d[7]};
      dv = f2_load(dp);
    }
    f2_store_mem(dv, den8 + 2 * g);
    f2_store_mem(prod, pre8 + 2 * g);
    prod = f2_mul(prod, dv);
  }
  Fq2 tot[8], q[8], inv[8];
  f2_store(prod, tot);
  q[0] = Fq2::one();
  for (int l = 1; l < 8; ++l) q[l] = q[l - 1] * tot[l - 1];
  Fq2 all_inv = (q[7] * tot[7]).inverse();
  for (int l = 8; l-- > 0;) {
    inv[l] = all_inv * q[l];
    all_inv = all_inv * tot[l];
  }
  const Fq2* ip[8] = {&inv[0], &inv[1], &inv[2], &inv[3], &inv[4], &inv[5], &inv[6], &inv[7]};
  F2x8 iv = f2_load(ip);
  for (std::size_t g = groups; g-- > 0;) {
    const F2x8 dinv = f2_mul(iv, f2_load_mem(pre8 + 2 * g));
    iv = f2_mul(iv, f2_load_mem(den8 + 2 * g));
    const Fq2* ax[8];
    const Fq2* px[8];
    const Fq2* ay[8];
    const Fq2* py[8];
    bool tangent = false;
    for (std::size_t l = 0; l < 8; ++l) {
      const std::size_t j = 8 * g + l;
      if (j >= n || kind[j] == 2) {
        ax[l] = px[l] = ay[l] = py[l] = &kZero;
        continue;
      }
      const ec::G2Affine& a = acc[idx[j]];
      const ec::G2Affine& p = pt[j];
      tangent |= kind[j] == 1;
      ax[l] = &a.x;
      px[l] = &p.x;
      ay[l] = &a.y;
      py[l] = &p.y;
    }
    const F2x8 ayv = f2_load(ay);
    F2x8 numv = f2_sub(f2_load(py), ayv);
    if (tangent) {  // 3 x^2 on P + P lanes
      Fq2 num[8];
      f2_store(numv, num);
      for (std::size_t l = 0; l < 8; ++l) {
        const std::size_t j = 8 * g + l;
        if (j >= n || kind[j] != 1) continue;
        const Fq2 x2 = acc[idx[j]].x.sqr();
        num[l] = x2.dbl() + x2;
      }
      const Fq2* np[8] = {&num[0], &num[1], &num[2], &num[3], &num[4], &num[5], &num[6], &num[7]};
      numv = f2_load(np);
    }
    const F2x8 axv = f2_load(ax);
    const F2x8 lambda = f2_mul(numv, dinv);
    const F2x8 x3 = f2_sub(f2_sub(f2_mul(lambda, lambda), axv), f2_load(px));
    const F2x8 y3 = f2_sub(f2_mul(lambda, f2_sub(axv, x3)), ayv);
    Fq2 x3s[8], y3s[8];
    f2_store(x3, x3s);
    f2_store(y3, y3s);
    for (std::size_t l = 0; l < 8; ++l) {
      const std::size_t j = 8 * g + l;
      if (j >= n) break;
      const std::size_t k = idx[j];
      const bool inf = kind[j] == 2;
      acc[k] = inf ? ec::G2Affine::identity() : ec::G2Affine{x3s[l], y3s[l], false};
      state[k] = static_cast<uint8_t>((state[k] & ~3u) | (inf ? 0u : 1u));
    }
  }
}

// sum_affine_ifma on G2.
ec::G2Affine sum_affine_ifma(std::vector<ec::G2Affine>& pts) {
  return sum_affine_tree<ec::G2Affine, 2>(pts,
                                          [](auto... args) { complete_batch_ifma_g2(args...); });
}
#endif

// Whether the G1 batch-affine buckets run on AVX-512 IFMA (gpu/ff/fq_ifma.hpp's one switch).
bool ifma_available() {
  return ff::ifma::host_ifma_enabled();
}

// Buckets in XYZZ coordinates: each addition is one mixed XYZZ + affine addition (8M + 2S).
template <class Affine, class Xyzz>
class XyzzBuckets {
 public:
  explicit XyzzBuckets(std::size_t buckets) : b_(buckets) {}
  void clear() { std::fill(b_.begin(), b_.end(), xyzz_infinity<Xyzz>()); }
  // bucket[k] += (neg ? -p : p).
  void add(std::size_t k, const Affine& p, bool neg) { add_affine(b_[k], neg ? -p : p); }
  // sum_k (k + 1) * bucket[k], by running sums from the top bucket down.
  Xyzz reduce() {
    Xyzz running = xyzz_infinity<Xyzz>(), sum = xyzz_infinity<Xyzz>();
    for (std::size_t k = b_.size(); k-- > 0;) {
      add_xyzz(running, b_[k]);
      add_xyzz(sum, running);
    }
    return sum;
  }

 private:
  std::vector<Xyzz> b_;  // buckets x (4 coordinates), Montgomery
};

// Buckets in affine coordinates, additions batched so that one field inversion serves a whole
// batch (Montgomery's trick): an affine addition then costs about 5M + 1S plus the batch's share
// of the inversion, against 8M + 2S for the XYZZ mixed addition. A bucket already waiting in the
// current batch cannot take a second addition until the batch is flushed; such a point is
// deferred to the next batch (a queue as long as a batch; a re-submitted point that meets a
// pending bucket again stays in it), and only when that queue is full goes to the bucket's XYZZ
// overflow accumulator (so skewed digits, e.g. all scalars 1, cost no more than XyzzBuckets).
// Per-bucket state is one byte (point present, pending, overflow used): clear() resets only
// those bytes, never the 104 B points or 192 B overflow accumulators, so a window touches only
// the buckets it uses. Deferral measured (2^16 H MSM of SHA-256-512, GLV, c = 13, batch 1024,
// 2 threads, CPU time, medians of 3, 3 interleaved pairs, dev VM, 2026-11-30): busy-bucket points
// straight to the XYZZ overflow 382/380/388 ms, deferred 351/352/363 ms (-8%).
// Exceptional cases: P + P (tangent slope 3x^2 / 2y), P + (-P) (empty bucket), y = 0 (2P = O).
template <class Affine, class Xyzz>
class AffineBuckets {
  using Field = typename Affine::Field;
  enum : uint8_t { kHas = 1, kBusy = 2, kOver = 4 };

 public:
  // simd: run complete_batch on AVX-512 IFMA (G1 only; the caller checked ifma_available()).
  AffineBuckets(std::size_t buckets, std::size_t batch, bool simd = false)
      : acc_(buckets),
        over_(buckets),
        state_(buckets, 0),
        idx_(batch),
        pt_(batch),
        den_(batch),
        pre_(batch),
        def_idx_(batch),
        def_pt_(batch) {
#if PRESTAGE_FF_HOST_IFMA
    if constexpr (std::is_same_v<Affine, ec::G1Affine>) {
      simd_ = simd;
      if (simd_) {
        den8_.resize((batch + 7) / 8);
        pre8_.resize((batch + 7) / 8);
        kind_.resize(batch);
      }
    }
#endif
    (void)simd;
  }
  void clear() {
    std::fill(state_.begin(), state_.end(), uint8_t{0});
    pending_ = 0;
    deferred_ = 0;
  }
  // The digits of the next run of add()s (until clear()) use buckets [0, used) only: the batch
  // is cut to a quarter of that (at least 16, at most the constructor's), so that a window whose
  // digits fill few buckets (GLV's top window: k1, k2 < lambda < 2^127.5, so c = 13 reaches only
  // ~1380 of 4096 buckets) keeps ~1/8 of its points meeting a busy bucket, as a full window does,
  // instead of ~3/8 that overflow the deferral queue into scalar XYZZ additions.
  void use_buckets(std::size_t used) {
    batch_ = std::clamp<std::size_t>(used / 4, std::min<std::size_t>(16, idx_.size()), idx_.size());
  }
  // bucket[k] += (neg ? -p : p); the negation is applied where p is stored (no temporary).
  void add(std::size_t k, const Affine& p, bool neg) {
    const uint8_t s = state_[k];
    if (s & kBusy) {
      if (deferred_ < def_idx_.size()) {
        def_idx_[deferred_] = static_cast<uint32_t>(k);
        put(def_pt_[deferred_++], p, neg);
      } else {
        overflow(k, neg ? -p : p);
      }
      return;
    }
    if (!(s & kHas)) {
      put(acc_[k], p, neg);
      state_[k] = s | kHas;
      return;
    }
    state_[k] = s | kBusy;
    idx_[pending_] = static_cast<uint32_t>(k);
    put(pt_[pending_], p, neg);
    if (++pending_ >= batch_) flush();
  }
  Xyzz reduce() {
    flush();
    // A partial batch and maybe deferred points remain; every round places at least the first
    // deferred point (no bucket is pending after complete_batch), so this ends.
    while (pending_ != 0 || deferred_ != 0) {
      complete_batch();
      resubmit();
    }
#if PRESTAGE_FF_HOST_IFMA
    // Eight segments of the bucket array on IFMA lanes (reduce_ifma); buckets = 2^(c-1), c >= 10
    // here, so a power of two >= 512. Measured: data/bench/groth16_vs_snarkjs/README.md ("Latest").
    if constexpr (std::is_same_v<Affine, ec::G1Affine>) {
      if (simd_ && (acc_.size() & (acc_.size() - 1)) == 0 && acc_.size() >= 16)
        return reduce_ifma(acc_.data(), over_.data(), state_.data(), acc_.size());
    }
#endif
    const bool pow2 = (acc_.size() & (acc_.size() - 1)) == 0;
    if (pow2 && acc_.size() >= 16) return reduce_segments();
    Xyzz running = xyzz_infinity<Xyzz>(), sum = xyzz_infinity<Xyzz>();
    for (std::size_t k = acc_.size(); k-- > 0;) {
      const uint8_t s = state_[k];
      if (s & kHas) add_affine(running, acc_[k]);
      if (s & kOver) add_xyzz(running, over_[k]);
      add_xyzz(sum, running);
    }
    return sum;
  }

 private:
  // The same sum in eight segments of L = buckets / 8, segment l reduced as its own running sum
  // (s_l = sum (k - l L + 1) b_k, r_l = sum b_k), total = sum_l s_l + L * sum_l l r_l: the
  // scalar twin of reduce_ifma, operation for operation, so both paths give the same limbs.
  Xyzz reduce_segments() const {
    const std::size_t L = acc_.size() / 8;
    Xyzz r[8], s[8];
    for (int l = 0; l < 8; ++l) r[l] = s[l] = xyzz_infinity<Xyzz>();
    for (std::size_t i = L; i-- > 0;)
      for (std::size_t l = 0; l < 8; ++l) {
        const std::size_t k = l * L + i;
        const uint8_t st = state_[k];
        if ((st & kHas) && !acc_[k].infinity) add_affine(r[l], acc_[k]);
        if (st & kOver) add_xyzz(r[l], over_[k]);
        add_xyzz(s[l], r[l]);
      }
    Xyzz total = xyzz_infinity<Xyzz>(), run = xyzz_infinity<Xyzz>(),
         weighted = xyzz_infinity<Xyzz>();
    for (int l = 7; l >= 1; --l) {
      add_xyzz(run, r[l]);
      add_xyzz(weighted, run);
    }
    for (std::size_t m = L; m > 1; m >>= 1) dbl_xyzz(weighted);  // L is a power of two
    for (int l = 0; l < 8; ++l) add_xyzz(total, s[l]);
    add_xyzz(total, weighted);
    return total;
  }

  static void put(Affine& dst, const Affine& p, bool neg) {
    dst = p;
    if (neg && !p.infinity) dst.y = -p.y;
  }

  void overflow(std::size_t k, const Affine& p) {
    if (state_[k] & kOver) {
      add_affine(over_[k], p);
    } else {
      Xyzz o = xyzz_infinity<Xyzz>();
      add_affine(o, p);
      over_[k] = o;
      state_[k] |= kOver;
    }
  }

  // a <- a + p given dinv = 1 / (p.x - a.x), or 1 / 2a.y when p == a (tangent). Out of line:
  // inlined into flush() it made g++ spill heavily (frame of 7-9 KB) on every addition.
  [[gnu::noinline]] static void affine_add(Affine& a, const Affine& p, const Field& dinv) {
    Field lambda;
    if (p.x == a.x) {
      if (p.y != a.y || a.y.is_zero()) {  // P + (-P), or 2P with y = 0
        a = Affine::identity();
        return;
      }
      const Field x2 = a.x.sqr();
      lambda = (x2.dbl() + x2) * dinv;  // 3x^2 / 2y
    } else {
      lambda = (p.y - a.y) * dinv;
    }
    const Field x3 = lambda.sqr() - a.x - p.x;
    const Field y3 = lambda * (a.x - x3) - a.y;
    a = Affine{x3, y3, false};
  }

  // Completes batches and re-submits the deferred points until the batch is not full (points
  // that met a pending bucket again stay deferred).
  void flush() {
    do {
      complete_batch();
      resubmit();
    } while (pending_ >= batch_);
  }

  // Deferred points go into the (just emptied) batch; one that meets a bucket already pending
  // again (another deferred point for the same bucket) stays deferred for the next batch. At
  // most a batch of them, so the batch cannot overflow here. Measured (SHA-256-512's 2^16 H MSM,
  // c = 13, batch 1024, IFMA, one thread, medians of 7 interleaved runs, dev VM, 2026-12-01):
  // sending such points to the XYZZ overflow accumulator instead (~2% of the additions, each a
  // scalar mixed addition now and a scalar XYZZ addition in the reduction) cost ~4% more G1 MSM
  // time; see data/bench/groth16_vs_snarkjs/README.md.
  void resubmit() {
    const std::size_t nd = deferred_;
    deferred_ = 0;
    for (std::size_t i = 0; i < nd; ++i) {
      const std::size_t k = def_idx_[i];
      const uint8_t s = state_[k];
      if (s & kBusy) {
        def_idx_[deferred_] = def_idx_[i];  // deferred_ <= i: compaction in place
        def_pt_[deferred_++] = def_pt_[i];
      } else if (!(s & kHas)) {
        acc_[k] = def_pt_[i];
        state_[k] = s | kHas;
      } else {
        state_[k] = s | kBusy;
        idx_[pending_] = static_cast<uint32_t>(k);
        pt_[pending_++] = def_pt_[i];
      }
    }
  }

  // Completes the pending additions acc_[idx_[j]] += pt_[j] with one inversion.
  void complete_batch() {
    if (pending_ == 0) return;
#if PRESTAGE_FF_HOST_IFMA
    if constexpr (std::is_same_v<Affine, ec::G1Affine>) {
      if (simd_) {
        complete_batch_ifma(acc_.data(), idx_.data(), pt_.data(), pending_, den8_.data(),
                            pre8_.data(), kind_.data(), state_.data());
        pending_ = 0;
        return;
      }
    }
#endif
    // Four interleaved prefix-product lanes (j mod 4) instead of one serial chain, so the
    // multiplications of neighbouring j are independent and overlap in the pipeline.
    Field prod[4] = {Field::one(), Field::one(), Field::one(), Field::one()};
    for (std::size_t j = 0; j < pending_; ++j) {
      // The bucket read here was last touched up to a whole window earlier: fetch ahead.
      // Measured (2^16 H MSM of SHA-256-512, GLV, c = 13, CPU time, medians of 3, 3 interleaved
      // pairs, dev VM): 2 threads 383/398/385 -> 355/359/363 ms; 1 thread within noise.
      if (j + kPrefetch < pending_) {
        const char* ahead = reinterpret_cast<const char*>(&acc_[idx_[j + kPrefetch]]);
        __builtin_prefetch(ahead);
        __builtin_prefetch(ahead + 64);
      }
      const Affine& a = acc_[idx_[j]];
      const Affine& p = pt_[j];
      Field d = p.x - a.x;
      if (d.is_zero()) d = (p.y == a.y && !a.y.is_zero()) ? a.y.dbl() : Field::one();
      den_[j] = d;
      pre_[j] = prod[j & 3];  // product of the earlier denominators in j's lane
      prod[j & 3] = prod[j & 3] * d;
    }
    // One inversion for all four lanes: inv[l] = 1 / prod[l].
    const Field p01 = prod[0] * prod[1], p23 = prod[2] * prod[3];
    const Field all_inv = invert(p01 * p23);
    Field inv[4] = {all_inv * prod[1] * p23, all_inv * prod[0] * p23, all_inv * p01 * prod[3],
                    all_inv * p01 * prod[2]};
    for (std::size_t j = pending_; j-- > 0;) {
      const Field dinv = inv[j & 3] * pre_[j];  // 1 / den_[j]
      inv[j & 3] = inv[j & 3] * den_[j];
      const std::size_t k = idx_[j];
      Affine& a = acc_[k];
      affine_add(a, pt_[j], dinv);
      state_[k] = static_cast<uint8_t>((state_[k] & ~(kBusy | kHas)) | (a.infinity ? 0 : kHas));
    }
    pending_ = 0;
  }

  std::vector<Affine> acc_;        // buckets x affine, Montgomery (valid where kHas)
  std::vector<Xyzz> over_;         // buckets x XYZZ overflow (valid where kOver)
  std::vector<uint8_t> state_;     // buckets x {kHas, kBusy, kOver}
  std::vector<uint32_t> idx_;      // batch: bucket of pending addition j
  std::vector<Affine> pt_;         // batch: point of pending addition j
  std::vector<Field> den_, pre_;   // batch: denominators and their prefix products
  std::vector<uint32_t> def_idx_;  // deferred: bucket of deferred point i
  std::vector<Affine> def_pt_;     // deferred: point i (met a pending bucket)
  std::size_t pending_ = 0, deferred_ = 0;
  std::size_t batch_ = idx_.size();  // pending additions that complete a batch (use_buckets)
#if PRESTAGE_FF_HOST_IFMA
  bool simd_ = false;                          // complete_batch on IFMA (G1)
  std::vector<ff::ifma::Fq8Mem> den8_, pre8_;  // simd: ceil(batch / 8) groups each
  std::vector<uint8_t> kind_;                  // simd: batch x {add, double, identity}
#endif
  static constexpr std::size_t kPrefetch = 8;  // buckets fetched ahead in complete_batch
};

}  // namespace

// Window rule: the c in [1, 16] minimising W(c) * (n + 1.4 * 2^c), the addition count in units
// of mixed additions: per window n mixed additions into buckets (8M + 2S each) plus the running
// sums, two full XYZZ additions (12M + 2S, ~1.4 mixed) per bucket, 2^(c-1) buckets.
// It picks c = 8, 8, 9, 10, 11, 12, 13, 13, 14, 16, 16 for n = 2^10 .. 2^20. Measured (G1,
// random scalars, medians of 3, host_bench --sweep-window 2, 2026-11-30):
//  - H200 host, 16-core Xeon, idle, 16 threads, n = 2^12..2^20: fastest c = 9, 9, 10, 11, 12-13,
//    13, 12, 16, 16; the rule's c costs at most 12% more (2^13: 28 vs 25 ms; 2^15: 95 vs 85 ms;
//    2^18: 647 vs 619 ms), elsewhere within 3%;
//  - shared 2-core dev box (load ~8), 2 threads, n = 2^10..2^17: fastest c = 8, 8, 9, 11, 10,
//    11, 13, 12, within run-to-run noise of the rule's choice except 2^13 (+20%).
// With GLV the rule sees M = 2m rows of 128-bit scalars. For the dense 2^16 H MSM of SHA-256-512
// (M = 2^17) it picks c = 13; measured (2 threads, batch-affine, CPU time, medians of 5, dev VM,
// 2026-11-30): c = 11/12/13/14/15 466/393/350/375/391 ms, so the rule's c is the fastest; batch
// 512/1024/2048/4096 at c = 13: 367/359/380/510 ms, so the batch rule (2^(c-1)/4 = 1024) stays.
unsigned window_bits_for(std::size_t n, unsigned scalar_bits) {
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned c = 1; c <= kMaxWindowBits; ++c) {
    double cost = static_cast<double>(num_windows(c, scalar_bits)) *
                  (static_cast<double>(n) + 1.4 * static_cast<double>(uint64_t{1} << c));
    if (c == 1 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

namespace {

// Point sources of msm_impl: size(), identity(i), at(i) (point i, not the identity: a reference
// into the span, or a decoded copy). kInPlace: at(i) is a reference that stays valid.
template <class Affine>
struct SpanSource {
  static constexpr bool kInPlace = true;
  std::span<const Affine> p;
  std::size_t size() const { return p.size(); }
  bool identity(std::size_t i) const { return p[i].infinity; }
  const Affine& at(std::size_t i) const { return p[i]; }
};
template <class Affine>
struct RawSource {
  static constexpr bool kInPlace = false;
  static constexpr std::size_t kBytes = 2 * sizeof(typename Affine::Field);  // 96 B / 192 B
  RawPoints r;
  std::size_t size() const { return r.count; }
  bool identity(std::size_t i) const { return raw_is_identity<Affine>(r, i); }
  Affine at(std::size_t i) const { return raw_point<Affine>(r, i); }
};

template <class Curve, class Src>
typename Curve::Jacobian msm_impl(const Src& points, std::span<const Fr> scalars,
                                  const HostOptions& options) {
  using Affine = typename Curve::Affine;
  using Xyzz = typename Curve::Xyzz;
  using Jacobian = typename Curve::Jacobian;
  if (points.size() != scalars.size())
    throw std::invalid_argument("msm: " + std::to_string(points.size()) + " points but " +
                                std::to_string(scalars.size()) + " scalars");
  const std::size_t n = points.size();
  if (n > UINT32_MAX) throw std::invalid_argument("msm: more than 2^32 - 1 points");
  if (options.window_bits > kMaxWindowBits)
    throw std::invalid_argument("msm: window_bits " + std::to_string(options.window_bits) +
                                " outside [1, 16]");
  const unsigned threads = host::resolve_threads(options.threads);

  // 0/1 scalars (most of a PoRep witness) skip Pippenger: a 0 (or an identity base) costs
  // nothing, a 1 one mixed addition into a per-piece sum. Only the m other scalars get digits,
  // and the window is chosen for m, not n. kind: n x 1 B. 0 and 1 are recognised in Montgomery
  // form (limbs 0 and R), so only the m general scalars are converted to canonical form, in the
  // digit pass. SHA-256-512's all-0/1 A/B1/C/B2 MSMs (CPU, 3 interleaved runs): 6.3/4.8/8.7/13.8
  // -> 5.0/3.7/8.0/13.3 ms.
  enum : uint8_t { kSkip = 0, kOne = 1, kGeneral = 2 };
  std::vector<uint8_t> kind(n);
  const Fr one = Fr::one();
  const std::size_t piece = 4096;
  const std::size_t pieces = (n + piece - 1) / piece;
  std::vector<Xyzz> ones(pieces, xyzz_infinity<Xyzz>());  // per piece: sum of the 1-scalar bases
  constexpr bool kHasEndomorphism = std::is_same_v<Curve, G1Curve>;
  // With IFMA the bases with scalar 1 are summed by a batch-affine tree (sum_affine_ifma, G1 and
  // G2). Measured: data/bench/groth16_vs_snarkjs/README.md ("Latest").
  const bool simd_ones = options.simd && ifma_available();
  const bool simd = kHasEndomorphism && simd_ones;  // G1 buckets on IFMA
  host::parallel_for(pieces, threads, 1, [&](std::size_t pb, std::size_t pe) {
    std::vector<Affine> unit;  // simd_ones: this piece's 1-scalar bases, affine
    for (std::size_t q = pb; q < pe; ++q) {
      unit.clear();
      for (std::size_t i = q * piece; i < std::min(n, (q + 1) * piece); ++i) {
        if (scalars[i].is_zero() || points.identity(i)) {
          kind[i] = kSkip;
        } else if (scalars[i] == one) {
          kind[i] = kOne;
          if (simd_ones)
            unit.push_back(points.at(i));
          else
            add_affine(ones[q], points.at(i));
        } else {
          kind[i] = kGeneral;
        }
      }
#if PRESTAGE_FF_HOST_IFMA
      if (simd_ones && !unit.empty()) ones[q] = Xyzz::from_affine(sum_affine_ifma(unit));
#endif
    }
  });
  Xyzz ones_sum = xyzz_infinity<Xyzz>();
  for (const Xyzz& o : ones) add_xyzz(ones_sum, o);
  // In affine form, so the result's limbs do not depend on how the ones were summed (the IFMA
  // and scalar paths stay bit-identical); one inversion per MSM.
  const Affine ones_affine = ones_sum.to_affine();
  std::vector<uint32_t> index;  // m x 4 B: the bases with a general scalar, in input order
  for (std::size_t i = 0; i < n; ++i)
    if (kind[i] == kGeneral) index.push_back(static_cast<uint32_t>(i));
  const std::size_t m = index.size();
  if (m == 0) return xyzz_to_jacobian<Jacobian>(Xyzz::from_affine(ones_affine));

  // GLV (G1 only, gpu/msm/glv.hpp): each general scalar k becomes k1 on P and k2 on phi(P),
  // both < 2^128: M = 2m rows of 128-bit scalars instead of m rows of 255-bit ones. The bucket
  // additions stay n * 255 / c; the running-sum reductions halve. Measured (the dense 2^16 H MSM
  // of circomlib SHA-256-512, two threads, CPU time, medians of 5 interleaved runs, shared 2-vCPU
  // EPYC dev VM, 2026-11-30): 432 ms plain (c = 13), 421 ms GLV (c = 13), -3%.
  const bool use_glv = kHasEndomorphism && options.endomorphism;
  const unsigned bits = use_glv ? 128 : 255;  // every row's scalar is < 2^bits
  const std::size_t M = use_glv ? 2 * m : m;
  const unsigned c = options.window_bits != 0 ? options.window_bits : window_bits_for(M, bits);
  const unsigned W = num_windows(c, bits);
  const std::size_t buckets = std::size_t{1} << (c - 1);

  // Signed digits, window-major: digits[w * M + row] (W x M x 4 B). Rows: base index[k] (no
  // GLV), or 2k: index[k] with k1 and 2k + 1: phi(index[k]) with k2 (GLV; phis: m affine points,
  // Montgomery).
  std::vector<int32_t> digits(static_cast<std::size_t>(W) * M);
  std::vector<Affine> phis(use_glv ? m : 0);
  // used[w]: the largest |digit| of window w = the buckets it reaches (W x 4 B).
  std::vector<uint32_t> used(W, 0);
  std::mutex used_mutex;
  // General base k: a reference into a span source, a decoded copy from a raw source.
  auto general = [&](std::size_t k) -> decltype(auto) { return points.at(index[k]); };
  host::parallel_for(m, threads, 1024, [&](std::size_t b, std::size_t e) {
    const uint32_t half = uint32_t{1} << (c - 1);
    std::vector<uint32_t> top(W, 0);  // this piece's largest |digit| per window
    auto write = [&](const std::array<uint64_t, 4>& s, std::size_t row) {
      uint32_t carry = 0;
      for (unsigned w = 0; w < W; ++w) {
        uint32_t v = chunk(s, w * c, c) + carry;
        int32_t d;
        if (v > half) {
          d = static_cast<int32_t>(v) - static_cast<int32_t>(uint32_t{1} << c);
          carry = 1;
        } else {
          d = static_cast<int32_t>(v);
          carry = 0;
        }
        digits[static_cast<std::size_t>(w) * M + row] = d;
        top[w] = std::max(top[w], static_cast<uint32_t>(d < 0 ? -d : d));
      }
    };
    for (std::size_t k = b; k < e; ++k) {
      const std::array<uint64_t, 4> s = scalars[index[k]].to_canonical();
      if constexpr (kHasEndomorphism) {
        if (use_glv) {
          std::array<uint64_t, 2> k1, k2;
          glv::split(s, k1, k2);
          write({k1[0], k1[1], 0, 0}, 2 * k);
          write({k2[0], k2[1], 0, 0}, 2 * k + 1);
          phis[k] = glv::phi(general(k));
          continue;
        }
      }
      write(s, k);
    }
    const std::lock_guard<std::mutex> lock(used_mutex);
    for (unsigned w = 0; w < W; ++w) used[w] = std::max(used[w], top[w]);
  });
  // The base of a row.
  auto base = [&](std::size_t row) -> std::conditional_t<Src::kInPlace, const Affine&, Affine> {
    if (!use_glv) return general(row);
    return (row & 1) ? phis[row >> 1] : general(row >> 1);
  };

  // Point ranges per window: enough tasks to keep every thread busy (2 per thread), but each
  // range at least 2^c points so the bucket reduction stays a small share of the work.
  std::size_t parts = 1;
  if (threads > 1) {
    parts = (2 * static_cast<std::size_t>(threads) + W - 1) / W;
    parts = std::max<std::size_t>(1, std::min(parts, M >> c));
  }
  const std::size_t tasks = static_cast<std::size_t>(W) * parts;
  std::vector<Xyzz> partial(tasks, xyzz_infinity<Xyzz>());
  std::atomic<std::size_t> next{0};
  const unsigned workers = static_cast<unsigned>(std::min<std::size_t>(threads, tasks));
  auto run = [&](auto& bucket) {
    for (std::size_t task = next.fetch_add(1); task < tasks; task = next.fetch_add(1)) {
      const std::size_t w = task / parts, part = task % parts;
      const std::size_t k0 = M * part / parts, k1 = M * (part + 1) / parts;
      bucket.clear();
      if constexpr (requires { bucket.use_buckets(std::size_t{}); }) bucket.use_buckets(used[w]);
      const int32_t* dw = digits.data() + w * M;
      for (std::size_t k = k0; k < k1; ++k) {
        const int32_t d = dw[k];
        if (d > 0)
          bucket.add(static_cast<std::size_t>(d - 1), base(k), false);
        else if (d < 0)
          bucket.add(static_cast<std::size_t>(-d - 1), base(k), true);
      }
      partial[task] = bucket.reduce();
    }
  };
  // automatic: batch-affine from c = 11 up (n >~ 2^14 by the window rule), XYZZ below.
  // Measured (random scalars, medians of 3, host_bench --buckets all, 2026-11-30) on the H200
  // host (16-core Xeon, idle), 16 threads, batch-affine vs XYZZ ms: G1 2^12 (c 9) 21.4 vs 16.9,
  // 2^13 (10) 30.7 vs 25.2, 2^14 (11) 44.6 vs 48.8, 2^15 (12) 70 vs 86, 2^16 (13) 131 vs 160,
  // 2^17 (13) 242 vs 303, 2^18 (14) 506 vs 576, 2^19 (16) 949 vs 1442, 2^20 (16) 1605 vs 2336;
  // G2 2^14..2^16: 131/222/437 vs 141/276/560; one thread G1 2^15/2^16: 519/924 vs 597/1065.
  // On the shared 2-core dev box (load ~6) 2^14..2^16 were within run-to-run noise of each other.
  const unsigned affine_min = simd ? kAffineMinWindowBitsIfma : kAffineMinWindowBits;
  const BucketMode mode = options.buckets != BucketMode::automatic ? options.buckets
                          : c >= affine_min                        ? BucketMode::batch_affine
                                                                   : BucketMode::xyzz;
  host::run_on_threads(workers, [&](unsigned) {
    if (mode == BucketMode::batch_affine) {
      AffineBuckets<Affine, Xyzz> bucket(
          buckets, options.affine_batch != 0 ? options.affine_batch : affine_batch_size(c), simd);
      run(bucket);
    } else {
      XyzzBuckets<Affine, Xyzz> bucket(buckets);
      run(bucket);
    }
  });

  Xyzz acc = xyzz_infinity<Xyzz>();
  for (std::size_t w = W; w-- > 0;) {
    if (w + 1 != W)
      for (unsigned k = 0; k < c; ++k) dbl_xyzz(acc);
    for (std::size_t p = 0; p < parts; ++p) add_xyzz(acc, partial[w * parts + p]);
  }
  add_affine(acc, ones_affine);
  return xyzz_to_jacobian<Jacobian>(acc);
}

}  // namespace

template <class Curve>
typename Curve::Jacobian msm(std::span<const typename Curve::Affine> points,
                             std::span<const Fr> scalars, const HostOptions& options) {
  return msm_impl<Curve>(SpanSource<typename Curve::Affine>{points}, scalars, options);
}
template <class Curve>
typename Curve::Jacobian msm(const RawPoints& points, std::span<const Fr> scalars,
                             const HostOptions& options) {
  using Affine = typename Curve::Affine;
  if (points.count != 0 && (points.data == nullptr || points.stride < RawSource<Affine>::kBytes))
    throw std::invalid_argument("msm: raw points need data and a stride of at least " +
                                std::to_string(RawSource<Affine>::kBytes) + " B");
  return msm_impl<Curve>(RawSource<Affine>{points}, scalars, options);
}

template ec::G1Jacobian msm<G1Curve>(std::span<const ec::G1Affine>, std::span<const Fr>,
                                     const HostOptions&);
template ec::G2Jacobian msm<G2Curve>(std::span<const ec::G2Affine>, std::span<const Fr>,
                                     const HostOptions&);
template ec::G1Jacobian msm<G1Curve>(const RawPoints&, std::span<const Fr>, const HostOptions&);
template ec::G2Jacobian msm<G2Curve>(const RawPoints&, std::span<const Fr>, const HostOptions&);

}  // namespace prestage::msm
