#include "gpu/msm/host_msm.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/common/parallel.hpp"

// Pippenger with signed digits.
//  1. Each scalar (Montgomery -> canonical, < 2^255) is split into W = floor(255/c) + 1 signed
//     c-bit digits d in (-2^(c-1), 2^(c-1)] (a chunk above 2^(c-1) becomes chunk - 2^c and carries
//     1 into the next window); W*c >= 256 bits, so the top window never carries out.
//  2. Per window, a point with digit d != 0 is added (mixed XYZZ + affine) to bucket |d| - 1,
//     negated when d < 0: 2^(c-1) buckets instead of 2^c - 1.
//  3. Window sum = sum_k (k + 1) * bucket[k], by running sums from the top bucket down.
//  4. Result = sum_w 2^(cw) window_sum[w], Horner from the top window (c doublings per step).
// Threads take (window, point range) tasks from an atomic counter; each thread owns its buckets
// (allocated once). The task split is fixed by n, c and the thread count only through the
// number of point ranges; group addition is exact, so the result never depends on scheduling.

namespace prestage::msm {
namespace {

constexpr unsigned kMaxWindowBits = 16;

unsigned num_windows(unsigned c) {
  return 255 / c + 1;
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
template <class A>
inline A neg_affine(const A& p) {
  return -p;
}
template <class J, class X>
inline J xyzz_to_jacobian(const X& x) {
  return x.to_jacobian();
}

}  // namespace

// Window rule: minimise W(c) * (n + 2^c): per window, n mixed additions to buckets plus about
// 2 * 2^(c-1) full additions for the running-sum reduction (a full XYZZ addition costs ~1.5 mixed
// ones, rounded to 1 here, which favours larger windows slightly). Checked against measured
// sweeps of c at n = 2^10..2^18 with host_bench --sweep-window (see gpu/bench/host_bench.cpp).
unsigned window_bits_for(std::size_t n) {
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned c = 1; c <= kMaxWindowBits; ++c) {
    double cost = static_cast<double>(num_windows(c)) *
                  (static_cast<double>(n) + static_cast<double>(uint64_t{1} << c));
    if (c == 1 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

template <class Curve>
typename Curve::Jacobian msm(std::span<const typename Curve::Affine> points,
                             std::span<const Fr> scalars, const MsmOptions& options) {
  using Affine = typename Curve::Affine;
  using Xyzz = typename Curve::Xyzz;
  using Jacobian = typename Curve::Jacobian;
  if (points.size() != scalars.size())
    throw std::invalid_argument("msm: " + std::to_string(points.size()) + " points but " +
                                std::to_string(scalars.size()) + " scalars");
  const std::size_t n = points.size();
  const unsigned c = options.window_bits != 0 ? options.window_bits : window_bits_for(n);
  if (c < 1 || c > kMaxWindowBits)
    throw std::invalid_argument("msm: window_bits " + std::to_string(c) + " outside [1, 16]");
  if (n == 0) return xyzz_to_jacobian<Jacobian>(xyzz_infinity<Xyzz>());
  const unsigned threads = host::resolve_threads(options.threads);
  const unsigned W = num_windows(c);
  const std::size_t buckets = std::size_t{1} << (c - 1);

  // Signed digits, window-major: digits[w * n + i] (W x n x 4 B). Infinity points get digit 0.
  std::vector<int32_t> digits(static_cast<std::size_t>(W) * n);
  host::parallel_for(n, threads, 1024, [&](std::size_t b, std::size_t e) {
    const uint32_t half = uint32_t{1} << (c - 1);
    for (std::size_t i = b; i < e; ++i) {
      const bool skip = points[i].infinity;
      const std::array<uint64_t, 4> s = scalars[i].to_canonical();
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
        digits[static_cast<std::size_t>(w) * n + i] = skip ? 0 : d;
      }
    }
  });

  // Point ranges per window: enough tasks to keep every thread busy (2 per thread), but each
  // range at least 2^c points so the bucket reduction stays a small share of the work.
  std::size_t parts = 1;
  if (threads > 1) {
    parts = (2 * static_cast<std::size_t>(threads) + W - 1) / W;
    parts = std::max<std::size_t>(1, std::min(parts, n >> c));
  }
  const std::size_t tasks = static_cast<std::size_t>(W) * parts;
  std::vector<Xyzz> partial(tasks, xyzz_infinity<Xyzz>());
  std::atomic<std::size_t> next{0};
  const unsigned workers = static_cast<unsigned>(std::min<std::size_t>(threads, tasks));
  host::run_on_threads(workers, [&](unsigned) {
    std::vector<Xyzz> bucket(buckets);  // 2^(c-1) buckets, this thread's own
    for (std::size_t task = next.fetch_add(1); task < tasks; task = next.fetch_add(1)) {
      const std::size_t w = task / parts, part = task % parts;
      const std::size_t i0 = n * part / parts, i1 = n * (part + 1) / parts;
      std::fill(bucket.begin(), bucket.end(), xyzz_infinity<Xyzz>());
      const int32_t* dw = digits.data() + w * n;
      for (std::size_t i = i0; i < i1; ++i) {
        const int32_t d = dw[i];
        if (d > 0)
          add_affine(bucket[d - 1], points[i]);
        else if (d < 0)
          add_affine(bucket[-d - 1], neg_affine(points[i]));
      }
      Xyzz running = xyzz_infinity<Xyzz>(), sum = xyzz_infinity<Xyzz>();
      for (std::size_t k = buckets; k-- > 0;) {
        add_xyzz(running, bucket[k]);
        add_xyzz(sum, running);
      }
      partial[task] = sum;
    }
  });

  Xyzz acc = xyzz_infinity<Xyzz>();
  for (std::size_t w = W; w-- > 0;) {
    if (w + 1 != W)
      for (unsigned k = 0; k < c; ++k) dbl_xyzz(acc);
    for (std::size_t p = 0; p < parts; ++p) add_xyzz(acc, partial[w * parts + p]);
  }
  return xyzz_to_jacobian<Jacobian>(acc);
}

template ec::G1Jacobian msm<G1Curve>(std::span<const ec::G1Affine>, std::span<const Fr>,
                                     const MsmOptions&);
template ec::G2Jacobian msm<G2Curve>(std::span<const ec::G2Affine>, std::span<const Fr>,
                                     const MsmOptions&);

}  // namespace prestage::msm
