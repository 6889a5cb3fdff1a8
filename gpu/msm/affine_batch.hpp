#pragma once
// Batch-affine bucket accumulation for the GPU MSM (DeviceAccumulation::BatchAffine): the
// per-thread bodies of its three kernels, PRESTAGE_HD so that tests/unit/gpumsm runs them on the
// host thread by thread (msm_accumulate.cuh launches them).
//
// One round over nb buckets whose items (affine points) sit at input positions
// [start[b], end[b]): the items of a bucket are added in adjacent pairs (2k, 2k + 1) and an odd
// last item passes through, so bucket b keeps ceil(len / 2) items, written to the outputs
// [off[b], off[b + 1]) (off: the exclusive scan of the new counts, nb + 1 entries). Output j
// belongs to the bucket b with off[b] <= j < off[b + 1].
// Affine sum: lambda = (y2 - y1) / (x2 - x1), x3 = lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1
// (2M + 1S); doubling (P == Q, y != 0): lambda = 3 x1^2 / (2 y1). The divisions of a round share
// one inversion per chunk by Montgomery's trick, in three kernels:
//  (map    (thread j): the items of output j, found by binary search on off, stored; or (the
//          default) a warp a bucket writes its outputs' entries, no search: map_bucket_lane;)
//  prep   (thread t of T = ceil(P / K), outputs j = t, t + T, ..., K of them): the denominators
//         d_j (1 where no division is needed: a pass-through, an input at infinity, P + (-P)),
//         their running products pre[j] along the thread's chain (stored), the thread product
//         tprod[t] = the last pre[j];
//  invert (thread u, thread products [u K2, u K2 + K2)): the same trick on tprod: running
//         products in scratch, one inversion (Pornin's batched binary GCD,
//         ff::inverse_bingcd; InverseKind), the walk back: tprod[t] <- 1 / tprod[t];
//  add    (thread t, its outputs backwards from the last): 1/d_j = inv pre[j - T] (inv =
//         1/tprod[t] for the last), inv <- inv d_j, then the affine sum.
// Products per output: 1 (prep) + 2 (walk back) + 3 per real addition (1S + 2M; doubling 2S +
// 2M), + 3 per thread product (invert) + one inversion per chunk (batched binary GCD: <= 25
// steps of 31 two-word iterations and four 12-word linear combinations for Fq; the binary
// extended Euclid takes ~2 x 381 full-width steps, Fermat 380 S + 228 M).
// Round 0's prep may test the points' infinity in a bitmap (ItemSource::inf_bits).
// With DeviceOptions::affine_gather, msm_accumulate.cuh gathers round 0's items (the sorted values'
// points, signs applied) into bucket order first, so every round reads its items in memory.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpu/common/hd.hpp"
#include "gpu/ff/inverse_binary_hd.hpp"
#include "gpu/ff/inverse_bingcd_hd.hpp"

namespace prestage::msm::affine_batch {

// A stored point without its infinity flag (the fixed-base table's entry,
// gpu/msm/gpu_msm_fixed_base.hpp): x, y only, G1 96 B / G2 192 B (ec::Affine pads x, y and the
// flag to 104 / 200 B), 32-B aligned, so a random read of x takes 2 sectors and of the point 3
// (G1; ec::Affine's: 2.25 and 4 on average). The flags live in a bitmap (ItemSource::inf_bits).
template <class Field>
struct alignas(32) PackedAffine {
  Field x, y;
};

// p.infinity for an Affine; never called for a PackedAffine (its flag is in a bitmap).
template <class Point>
PRESTAGE_HD_INLINE bool is_infinity(const Point& p) {
  if constexpr (requires { p.infinity; })
    return p.infinity;
  else
    return false;
}

// Items of the current round: round 0 reads the sorted (point index | sign << 31) values and
// gathers the points (negated when the sign bit is set); later rounds read the previous round's
// outputs directly (vals == nullptr). Point: the stored type of `points`, Affine or
// PackedAffine<Field> (round 0 of the fixed-base path; its flags from inf_bits, required).
template <class Affine, class Point = Affine>
struct ItemSource {
  using Field = typename Affine::Field;
  static constexpr bool kPacked = !std::is_same_v<Point, Affine>;
  const Point* points;   // round 0: the MSM's points (n); later: the previous outputs
  const uint32_t* vals;  // round 0: sorted values; later: nullptr
  // Optional (round 0): bit i of inf_bits[i / 32] = points[i].infinity (ceil(n / 32)
  // words), so prep tests a bit (L2-resident) instead of reading the flag's own 32-B sector of a
  // random point (G1: x spans 2-3 sectors, the flag one more). nullptr: read the flag (Affine
  // points only; PackedAffine points need the bitmap).
  const uint32_t* inf_bits = nullptr;
  PRESTAGE_HD_INLINE bool point_infinity(unsigned idx) const {
    if constexpr (kPacked) {
      return ((inf_bits[idx >> 5] >> (idx & 31)) & 1u) != 0;
    } else {
      if (inf_bits != nullptr) return ((inf_bits[idx >> 5] >> (idx & 31)) & 1u) != 0;
      return points[idx].infinity;
    }
  }
  PRESTAGE_HD_INLINE unsigned index(unsigned i, bool& neg) const {
    if (vals == nullptr) {
      neg = false;
      return i;
    }
    const uint32_t v = vals[i];
    neg = (v >> 31) != 0;
    return v & 0x7fffffffu;
  }
  // As load, packed points only, eager (DeviceOptions::affine_eager_round0): x, y read
  // before the infinity bit is known, so the entry's random reads overlap the bitmap's instead of
  // waiting for it (an entry at infinity holds zeros, and every index is a table entry's: the
  // reads are valid).
  PRESTAGE_HD_INLINE Affine load_eager(unsigned i) const {
    static_assert(kPacked, "load_eager: packed points only");
    bool neg;
    const unsigned idx = index(i, neg);
    Affine p{points[idx].x, points[idx].y, false};
    if (point_infinity(idx)) return Affine::identity();
    if (neg) p.y = -p.y;
    return p;
  }
  PRESTAGE_HD_INLINE Affine load(unsigned i) const {
    bool neg;
    if constexpr (kPacked) {
      const unsigned idx = index(i, neg);
      if (point_infinity(idx)) return Affine::identity();
      Affine p{points[idx].x, points[idx].y, false};
      if (neg) p.y = -p.y;
      return p;
    } else {
      Affine p = points[index(i, neg)];
      if (neg && !p.infinity) p.y = -p.y;
      return p;
    }
  }
};

// Largest b in [0, nb] with off[b] <= j (off non-decreasing, nb + 1 entries): for j < off[nb],
// the bucket whose outputs hold j (empty buckets have off[b] == off[b + 1]).
PRESTAGE_HD_INLINE std::size_t find_bucket(const unsigned* off, std::size_t nb, unsigned j) {
  std::size_t lo = 0, hi = nb + 1;
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    if (off[mid] <= j)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// As find_bucket, from a bucket b0 known to hold an output <= j (off[b0] <= j; the map kernel
// with DeviceOptions::affine_map_search: the bucket of the warp's first output, one binary
// search a warp): a linear walk up to kWalk buckets (neighbouring outputs share buckets: one or
// two loads of off, cached), then a binary search over [b, nb] (many empty or one-output
// buckets in a row).
PRESTAGE_HD_INLINE std::size_t find_bucket_from(const unsigned* off, std::size_t nb, unsigned j,
                                                std::size_t b0) {
  constexpr unsigned kWalk = 8;
  std::size_t b = b0;
  for (unsigned k = 0; k < kWalk; ++k) {
    if (b >= nb || off[b + 1] > j) return b;
    ++b;
  }
  std::size_t lo = b, hi = nb + 1;  // off[lo] <= j
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    if (off[mid] <= j)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Items of output j of bucket b: first = start[b] + 2 (j - off[b]); `pair` when first + 1 is in
// the bucket too (otherwise first passes through).
struct PairIndex {
  unsigned first;
  bool pair;
};
PRESTAGE_HD_INLINE PairIndex pair_index(unsigned j, std::size_t b, const unsigned* start,
                                        const unsigned* end, const unsigned* off) {
  const unsigned first = start[b] + 2 * (j - off[b]);
  return {first, first + 1 < end[b]};
}

// New item count of a bucket of `len` items after one round.
PRESTAGE_HD_INLINE unsigned round_count(unsigned len) {
  return (len + 1) / 2;
}

// Bound on a round's outputs over nb buckets holding `items` items in all: sum ceil(len / 2) <=
// (items + nb) / 2 (each nonempty bucket adds at most 1/2). Scratch sized once from it
// (msm_accumulate_affine.cuh, AffineScratch): round 0 from m items, round 1 from round 0's bound.
PRESTAGE_HD_INLINE std::size_t max_outputs(std::size_t items, std::size_t nb) {
  return (items + nb) / 2 + 1;
}

enum class PairCase : uint8_t { CopyP, CopyQ, Identity, Add, Double };

// What output (p, q) needs, and its denominator d (set only for Add and Double). No pair (q
// absent): CopyP.
template <class Affine>
PRESTAGE_HD_INLINE PairCase pair_case(const Affine& p, const Affine& q, bool has_q,
                                      typename Affine::Field& d) {
  if (!has_q || q.infinity) return PairCase::CopyP;
  if (p.infinity) return PairCase::CopyQ;
  if (p.x != q.x) {
    d = q.x - p.x;
    return PairCase::Add;
  }
  if (p.y == q.y && !p.y.is_zero()) {  // P + P (y == 0 would be a point of order 2: P + P = O)
    d = p.y.dbl();
    return PairCase::Double;
  }
  return PairCase::Identity;  // P + (-P)
}

// The output of case k for (p, q), with dinv = 1 / d for Add and Double.
template <class Affine>
PRESTAGE_HD_INLINE Affine pair_result(PairCase k, const Affine& p, const Affine& q,
                                      const typename Affine::Field& dinv) {
  using Field = typename Affine::Field;
  switch (k) {
    case PairCase::CopyP:
      return p;
    case PairCase::CopyQ:
      return q;
    case PairCase::Identity:
      return Affine::identity();
    default:
      break;
  }
  Field lambda;
  if (k == PairCase::Add) {
    lambda = (q.y - p.y) * dinv;
  } else {
    const Field x2 = p.x.sqr();
    lambda = (x2.dbl() + x2) * dinv;
  }
  const Field x3 = lambda.sqr() - p.x - q.x;
  const Field y3 = lambda * (p.x - x3) - p.y;
  return {x3, y3, false};
}

// Kernel "map", thread j of P: the items of output j, as first | pair << 31 (pair_index), so
// that prep and add read them coalesced instead of searching the offsets.
PRESTAGE_HD_INLINE uint32_t map_entry(unsigned j, const unsigned* start, const unsigned* end,
                                      const unsigned* off, std::size_t nb) {
  const PairIndex pi = pair_index(j, find_bucket(off, nb, j), start, end, off);
  return pi.first | (pi.pair ? 0x80000000u : 0u);
}
// The same entry, the bucket found from b0 (find_bucket_from).
PRESTAGE_HD_INLINE uint32_t map_entry_from(unsigned j, const unsigned* start, const unsigned* end,
                                           const unsigned* off, std::size_t nb, std::size_t b0) {
  const PairIndex pi = pair_index(j, find_bucket_from(off, nb, j, b0), start, end, off);
  return pi.first | (pi.pair ? 0x80000000u : 0u);
}

// Kernel "map", one group of `lanes` threads a bucket (the default: DeviceOptions::
// affine_map_bucket): lane l of bucket b writes the entries of the bucket's outputs
// j = off[b] + l, off[b] + l + lanes, ... (the same entries as map_entry, no search).
PRESTAGE_HD_INLINE void map_bucket_lane(std::size_t b, unsigned lane, unsigned lanes,
                                        const unsigned* start, const unsigned* end,
                                        const unsigned* off, uint32_t* map) {
  const unsigned o0 = off[b], o1 = off[b + 1], first0 = start[b], last = end[b];
  for (unsigned j = o0 + lane; j < o1; j += lanes) {
    const unsigned first = first0 + 2 * (j - o0);  // pair_index
    map[j] = first | (first + 1 < last ? 0x80000000u : 0u);
  }
}

// Thread t < T = ceil(P / K) takes the outputs j = t + i T (i < K, j < P; none for t >= T):
// neighbouring threads take neighbouring outputs, so a warp's loads and stores of pre, map, out and
// (after round 0) the items are coalesced.
PRESTAGE_HD_INLINE unsigned chain_length(unsigned t, unsigned T, unsigned P, unsigned K) {
  if (t >= T) return 0;  // the grid's excess threads
  const unsigned n = (P - t + T - 1) / T;
  return n < K ? n : K;
}

// Kernel "prep", thread t of T = ceil(P / K) (P outputs). map: P entries (map_entry); pre: P x
// Field, tprod: T x Field (device: Montgomery form). Infinity flags by src.point_infinity.
// kEager (packed points only, round 0; DeviceOptions::affine_eager_round0): the next
// output's map entry loaded one output ahead, and x1, x2 read before their infinity bits are
// known (ItemSource::load_eager), so a random x read waits on the sorted values only (map ->
// vals -> x instead of map -> vals -> bits -> x); d_j as without it.
template <bool kEager = false, class Affine, class Point>
PRESTAGE_HD_INLINE void prep_thread(unsigned t, unsigned T, unsigned P, unsigned K,
                                    const ItemSource<Affine, Point>& src, const uint32_t* map,
                                    typename Affine::Field* pre, typename Affine::Field* tprod) {
  using Field = typename Affine::Field;
  static_assert(!kEager || ItemSource<Affine, Point>::kPacked, "eager prep: packed points only");
  const unsigned len = chain_length(t, T, P, K);
  if (len == 0) return;
  Field acc = Field::one();
  uint32_t m_next = kEager ? map[t] : 0;
  for (unsigned i = 0; i < len; ++i) {
    const unsigned j = t + i * T;
    uint32_t m;
    if constexpr (kEager) {
      m = m_next;
      if (i + 1 < len) m_next = map[j + T];
    } else {
      m = map[j];
    }
    const unsigned first = m & 0x7fffffffu;
    Field d = Field::one();
    if constexpr (kEager) {
      if (m >> 31) {
        bool neg;
        const unsigned ia = src.index(first, neg), ic = src.index(first + 1, neg);
        const Field x1 = src.points[ia].x, x2 = src.points[ic].x;
        if (!src.point_infinity(ia) && !src.point_infinity(ic)) {
          if (x1 != x2) {
            d = x2 - x1;
          } else {
            Field dd;
            if (pair_case(src.load(first), src.load(first + 1), true, dd) == PairCase::Double)
              d = dd;
          }
        }
      }
      acc = i == 0 ? d : acc * d;
      pre[j] = acc;
      continue;
    }
    if (m >> 31) {
      // x and the flags first: y is needed only when x1 == x2 (the same cases as pair_case).
      bool neg;
      const unsigned ia = src.index(first, neg), ic = src.index(first + 1, neg);
      if (!src.point_infinity(ia) && !src.point_infinity(ic)) {
        const Field x1 = src.points[ia].x, x2 = src.points[ic].x;
        if (x1 != x2) {
          d = x2 - x1;
        } else {
          Field dd;
          if (pair_case(src.load(first), src.load(first + 1), true, dd) == PairCase::Double) d = dd;
        }
      }
    }
    acc = i == 0 ? d : acc * d;
    pre[j] = acc;
  }
  tprod[t] = acc;
}

// The field inversion of the invert kernel: Bingcd (ff::inverse_bingcd, Pornin's batched binary
// GCD: the default, DeviceAffineInverse), Binary (ff::inverse_binary, the binary extended
// Euclid), Fermat (Fp::inverse). All three kept as options, checked by gpu_msm_test
// (gpu/msm/DECISIONS.md #15).
enum class InverseKind : uint8_t { Bingcd, Binary, Fermat };

template <InverseKind kInv, class Field>
PRESTAGE_HD_INLINE Field invert(const Field& a) {
  if constexpr (kInv == InverseKind::Fermat)
    return a.inverse();
  else if constexpr (kInv == InverseKind::Binary)
    return ff::inverse_binary(a);
  else
    return ff::inverse_bingcd(a);
}

// Kernel "invert", thread u of ceil(T / K2) (T thread products): tprod[t] <- 1 / tprod[t] for
// t in [u K2, u K2 + K2). scratch: T x Field. kInv: the inversion (InverseKind).
template <InverseKind kInv = InverseKind::Bingcd, class Field>
PRESTAGE_HD_INLINE void invert_thread(unsigned u, unsigned T, unsigned K2, Field* tprod,
                                      Field* scratch) {
  const unsigned first = u * K2;
  if (first >= T) return;
  const unsigned last = first + K2 < T ? first + K2 : T;
  Field acc = tprod[first];
  scratch[first] = acc;
  for (unsigned t = first + 1; t < last; ++t) {
    acc = acc * tprod[t];
    scratch[t] = acc;
  }
  Field inv = invert<kInv>(acc);
  for (unsigned t = last; t-- > first;) {
    if (t == first) {
      tprod[t] = inv;
    } else {
      const Field it = inv * scratch[t - 1];
      inv = inv * tprod[t];
      tprod[t] = it;
    }
  }
}

// Kernel "add", thread t of T = ceil(P / K): its outputs (as prep's) backwards -> out (P x
// Affine), with tinv[t] = 1 / tprod[t]. kEager (packed points only, round 0): the items
// by ItemSource::load_eager.
template <bool kEager = false, class Affine, class Point>
PRESTAGE_HD_INLINE void add_thread(unsigned t, unsigned T, unsigned P, unsigned K,
                                   const ItemSource<Affine, Point>& src, const uint32_t* map,
                                   const typename Affine::Field* pre,
                                   const typename Affine::Field* tinv, Affine* out) {
  using Field = typename Affine::Field;
  const unsigned len = chain_length(t, T, P, K);
  if (len == 0) return;
  Field inv = tinv[t];  // 1 / (d_0 ... d_i) for the current i
  for (unsigned i = len; i-- > 0;) {
    const unsigned j = t + i * T;
    const uint32_t m = map[j];
    const unsigned first = m & 0x7fffffffu;
    const bool pair = (m >> 31) != 0;
    const auto load = [&src](unsigned k) {
      if constexpr (kEager)
        return src.load_eager(k);
      else
        return src.load(k);
    };
    const Affine p = load(first);
    Affine q = p;
    if (pair) q = load(first + 1);
    Field d;
    const PairCase k = pair_case(p, q, pair, d);
    Field dinv;
    if (k == PairCase::Add || k == PairCase::Double) {
      if (i == 0) {
        dinv = inv;
      } else {
        dinv = inv * pre[j - T];
        inv = inv * d;
      }
    }
    out[j] = pair_result(k, p, q, dinv);
  }
}

// A field element read again from memory where it was read before, so that it need not stay in
// registers across the products in between: on the device a volatile load (not merged with the
// first one; it hits in L1/L2), on the host a plain copy.
template <class Field>
PRESTAGE_HD_INLINE Field reload(const Field* f) {
#if PRESTAGE_DEVICE_CODE
  static_assert(sizeof(Field) % 16 == 0 && alignof(Field) >= 8);
  Field r;
  auto* dst = reinterpret_cast<uint64_t*>(&r);
  const auto* src = reinterpret_cast<const uint64_t*>(f);
#pragma unroll
  for (unsigned k = 0; k < sizeof(Field) / 8; ++k)
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(dst[k]) : "l"(src + k));
  return r;
#else
  return *f;
#endif
}

// Kernel "add", lean variant (DeviceOptions::affine_add): as add_thread, outputs equal, but the
// registers live across the two chain products and lambda's product are inv, d, the numerator
// and pre only: x1, x2, y1 are read again (reload) for x3 and y3 after them (L1/L2 hits).
// kDirect = false: items in memory (src.vals == nullptr: the gathered round 0 and later rounds);
// kDirect = true: round 0 through the sorted values (two random point reads, y negated by the
// sign bit; DeviceOptions::affine_lean_round0; by default round 0 takes add_thread's body).
template <bool kDirect, class Affine, class Point>
PRESTAGE_HD_INLINE void add_thread_lean(unsigned t, unsigned T, unsigned P, unsigned K,
                                        const ItemSource<Affine, Point>& src, const uint32_t* map,
                                        const typename Affine::Field* pre,
                                        const typename Affine::Field* tinv, Affine* out) {
  using Field = typename Affine::Field;
  const unsigned len = chain_length(t, T, P, K);
  if (len == 0) return;
  Field inv = tinv[t];  // 1 / (d_0 ... d_i) for the current i
  for (unsigned i = len; i-- > 0;) {
    const unsigned j = t + i * T;
    const uint32_t m = map[j];
    const unsigned first = m & 0x7fffffffu;
    bool neg0 = false, neg1 = false;
    // Later rounds (kDirect = false) read their own Affine outputs, so a packed Point is direct.
    static_assert(kDirect || !ItemSource<Affine, Point>::kPacked);
    const unsigned i0 = kDirect ? src.index(first, neg0) : first;
    const Point* a0 = src.points + i0;
    if ((m >> 31) == 0) {  // pass-through
      if constexpr (kDirect)
        out[j] = src.load(first);
      else
        out[j] = *a0;
      continue;
    }
    // i1: a1's index for the bitmap (kDirect only); a1 = a0 + 1 in memory otherwise, so that
    // the Affine kernels compile to the same code as before packed points (gpu/msm/DECISIONS.md
    // #26: the SASS diff).
    const unsigned i1 = kDirect ? src.index(first + 1, neg1) : 0;
    const Point* a1 = kDirect ? src.points + i1 : a0 + 1;
    // The flags: PackedAffine's from the bitmap, Affine's the points' own (a0's read only when
    // a1 is finite).
    constexpr bool kPacked = ItemSource<Affine, Point>::kPacked;
    if (kPacked ? src.point_infinity(i1) : is_infinity(*a1)) {  // + O
      if constexpr (kDirect)
        out[j] = src.load(first);
      else
        out[j] = *a0;
      continue;
    }
    if (kPacked ? src.point_infinity(i0) : is_infinity(*a0)) {
      if constexpr (kDirect)
        out[j] = src.load(first + 1);
      else
        out[j] = *a1;
      continue;
    }
    Field d, num;
    {
      const Field x1 = a0->x, x2 = a1->x;
      Field y1 = a0->y, y2 = a1->y;
      if (neg0) y1 = -y1;
      if (neg1) y2 = -y2;
      if (x1 != x2) {
        d = x2 - x1;
        num = y2 - y1;
      } else {
        if (y1 != y2 || y1.is_zero()) {  // P + (-P)
          out[j] = Affine::identity();
          continue;
        }
        d = y1.dbl();
        const Field xx = x1.sqr();
        num = xx.dbl() + xx;
      }
    }
    Field lambda;
    if (i == 0) {
      lambda = num * inv;
    } else {
      lambda = num * pre[j - T];
      lambda = lambda * inv;
      inv = inv * d;
    }
    const Field x1 = reload(&a0->x);
    const Field x3 = lambda.sqr() - x1 - reload(&a1->x);
    Field y1 = reload(&a0->y);
    if (neg0) y1 = -y1;
    out[j] = {x3, lambda * (x1 - x3) - y1, false};
  }
}

}  // namespace prestage::msm::affine_batch
