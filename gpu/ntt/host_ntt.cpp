#include "gpu/ntt/host_ntt.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/common/parallel.hpp"
#include "gpu/ff/fr_ifma.hpp"

// Algorithm: bit-reversal permutation, then radix-2 decimation-in-time butterflies
// (u, v) -> (u + w v, u - w v). The first kBlockLog stages only mix elements within aligned blocks
// of 2^kBlockLog elements, so each block is finished in cache by one thread before the next; the
// remaining stages sweep the array once per pair of stages (radix-4 passes) and are split across
// threads by butterfly index. One twiddle table (omega^i, i < n/2) serves every stage (stride
// n/2h) and the inverse, computed as forward + index reversal a[j] <-> a[n-j] + scaling by 1/n.

namespace prestage::ntt {
namespace {

// 2^12 elements = 128 KiB: fits L2 with the twiddles it touches. Measured (one thread, forward,
// medians of 5, blocks 2^8..2^16, 2026-11-30): on the H200 host's Xeon, 2^12 gave 23.7/107/515
// and 22.6/134/548 ms at n = 2^16/2^18/2^20 in two passes; blocks 2^10 and 2^14 were within that
// run-to-run spread, 2^8 and 2^16 no better; on the loaded dev box all five were within noise.
// The transform is bound by Fr multiplications (n/2 log n), not by memory, at these sizes.
constexpr unsigned kBlockLog = 12;
// Below this many butterflies per thread, a parallel region costs more than it saves.
constexpr std::size_t kMinButterfliesPerThread = std::size_t{1} << 12;

void check_size(const Domain& d, std::span<Fr> a, const char* what) {
  if (a.size() != d.size())
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(a.size()) +
                                " values for a domain of " + std::to_string(d.size()));
}

inline uint64_t reverse_bits(uint64_t x, unsigned bits) {
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
  x = ((x >> 8) & 0x00FF00FF00FF00FFull) | ((x & 0x00FF00FF00FF00FFull) << 8);
  x = ((x >> 16) & 0x0000FFFF0000FFFFull) | ((x & 0x0000FFFF0000FFFFull) << 16);
  x = (x >> 32) | (x << 32);
  return bits == 0 ? 0 : x >> (64 - bits);
}

inline void butterfly(Fr& x, Fr& y, const Fr& w) {
  Fr v = y * w;
  y = x - v;
  x = x + v;
}

// Stages with half-sizes 1 .. 2^(stages-1) on the block a[0, 2^stages); tw is the domain's
// table, log_n its size. Twiddle for half-size h, index j: omega^(j * n / 2h).
void block_stages(Fr* a, unsigned stages, const Fr* stw) {
  const std::size_t len = std::size_t{1} << stages;
  for (std::size_t i = 0; i < len; i += 2) {  // h = 1: twiddle 1
    Fr v = a[i + 1];
    a[i + 1] = a[i] - v;
    a[i] = a[i] + v;
  }
  for (unsigned st = 1; st < stages; ++st) {
    const std::size_t h = std::size_t{1} << st;
    const Fr* w = stw + h;  // w[j] = omega^(j n / 2h), j < h
    for (std::size_t base = 0; base < len; base += 2 * h) {
      Fr* lo = a + base;
      Fr* hi = lo + h;
      {
        Fr v = hi[0];
        hi[0] = lo[0] - v;
        lo[0] = lo[0] + v;
      }
      for (std::size_t j = 1; j < h; ++j) butterfly(lo[j], hi[j], w[j]);
    }
  }
}

// The twiddles of the in-block stages, stage by stage and contiguous (they are read once per
// block; in the domain's table stage st's are 2^(log_n - st - 1) elements apart, one cache line
// each): stw[h + j] = omega^(j n / 2h) for h = 2^st < 2^stages, j < h; with `mirror`, the
// inverse's factors tw[n/2 - j n / 2h] (see inv_butterfly), and -1 for j = 0 ((v - u)(-1) =
// u - v: the IFMA kernel's uniform form; the scalar one does not read it). 2^stages x 32 B.
std::vector<Fr> stage_twiddles(const Fr* tw, unsigned log_n, unsigned stages, bool mirror) {
  std::vector<Fr> stw(std::size_t{1} << stages);
  const std::size_t half = (std::size_t{1} << log_n) / 2;
  for (unsigned st = 0; st < stages; ++st) {
    const std::size_t h = std::size_t{1} << st;
    const unsigned stride_log = log_n - st - 1;
    for (std::size_t j = 0; j < h; ++j)
      stw[h + j] =
          mirror ? (j == 0 ? -Fr::one() : tw[half - (j << stride_log)]) : tw[j << stride_log];
  }
  return stw;
}

// One radix-2 stage with half-size h over butterflies [b0, b1) (butterfly b: block b / h,
// position j = b % h).
void stage_range(Fr* a, std::size_t h, unsigned log_h, const Fr* tw, unsigned log_n, std::size_t b0,
                 std::size_t b1) {
  const unsigned stride_log = log_n - log_h - 1;
  std::size_t b = b0;
  while (b < b1) {
    const std::size_t blk = b >> log_h;
    std::size_t j = b & (h - 1);
    const std::size_t stop = std::min(b1, (blk + 1) << log_h);
    Fr* lo = a + (blk << (log_h + 1));
    Fr* hi = lo + h;
    for (; b < stop; ++b, ++j) butterfly(lo[j], hi[j], tw[j << stride_log]);
  }
}

// Two consecutive stages (half-sizes h and 2h) fused: each radix-4 unit reads four elements
// a[q], a[q+h], a[q+2h], a[q+3h] once. Units u in [u0, u1): block u / h of size 4h, j = u % h.
// One radix-4 unit of radix4_range (position j of its block p0 .. p3).
inline void radix4_unit(Fr* p0, Fr* p1, Fr* p2, Fr* p3, std::size_t j, std::size_t h, const Fr* tw,
                        unsigned s1, unsigned s2) {
  const Fr& w1 = tw[j << s1];
  butterfly(p0[j], p1[j], w1);
  butterfly(p2[j], p3[j], w1);
  butterfly(p0[j], p2[j], tw[j << s2]);
  butterfly(p1[j], p3[j], tw[(j + h) << s2]);
}
#if PRESTAGE_FF_HOST_IFMA
bool ntt_ifma();
PRESTAGE_IFMA_TARGET void radix4_unit8(Fr* p0, std::size_t h, std::size_t j, const Fr* tw,
                                       unsigned s1, unsigned s2, std::size_t count);
PRESTAGE_IFMA_TARGET void inv_radix4_unit8(Fr* p0, std::size_t h, std::size_t j, const Fr* tw,
                                           std::size_t half, unsigned s1, unsigned s2,
                                           std::size_t count);
#endif

// The radix-4 units [u0, u1) of a fused pair of stages, block by block (block u / h of size 4h,
// j = u % h): unit(p0, p1, p2, p3, j) one at a time; with the IFMA stages (h >= 8) one at a time
// only until start8(j), then unit8(p0, j, count) for the whole runs of eight. Shared by the
// forward and inverse passes (radix4_range, inv_radix4_range).
template <class Unit, class Unit8, class Start8>
inline void radix4_blocks(Fr* a, std::size_t h, unsigned log_h, std::size_t u0, std::size_t u1,
                          const Unit& unit, const Unit8& unit8, const Start8& start8) {
  std::size_t u = u0;
  while (u < u1) {
    const std::size_t blk = u >> log_h;
    std::size_t j = u & (h - 1);
    const std::size_t stop = std::min(u1, (blk + 1) << log_h);
    Fr* p0 = a + (blk << (log_h + 2));
    Fr* p1 = p0 + h;
    Fr* p2 = p1 + h;
    Fr* p3 = p2 + h;
#if PRESTAGE_FF_HOST_IFMA
    if (h >= 8 && ntt_ifma()) {
      while (u < stop && !start8(j)) {
        unit(p0, p1, p2, p3, j);
        ++u, ++j;
      }
      const std::size_t m = (stop - u) & ~std::size_t{7};
      if (m) unit8(p0, j, m);
      u += m, j += m;
    }
#else
    (void)unit8;
    (void)start8;
#endif
    for (; u < stop; ++u, ++j) unit(p0, p1, p2, p3, j);
  }
}

void radix4_range(Fr* a, std::size_t h, unsigned log_h, const Fr* tw, unsigned log_n,
                  std::size_t u0, std::size_t u1) {
  const unsigned s1 = log_n - log_h - 1;  // stride for half-size h
  const unsigned s2 = s1 - 1;             // stride for half-size 2h
  radix4_blocks(
      a, h, log_h, u0, u1,
      [&](Fr* p0, Fr* p1, Fr* p2, Fr* p3, std::size_t j) {
        radix4_unit(p0, p1, p2, p3, j, h, tw, s1, s2);
      },
      [&](Fr* p0, std::size_t j, std::size_t m) {
#if PRESTAGE_FF_HOST_IFMA
        radix4_unit8(p0, h, j, tw, s1, s2, m);
#else
        (void)p0, (void)j, (void)m;
#endif
      },
      [](std::size_t j) { return (j & 7) == 0; });  // eight at a time from a multiple of 8
}

#if PRESTAGE_FF_HOST_IFMA
// ---- in-block stages on AVX-512 IFMA (gpu/ff/fr_ifma.hpp) ----
// The block (2^kBlockLog elements, AoS) is gathered into 2^kBlockLog / 8 Fr8 groups (SoA, group
// g = elements 8g .. 8g + 7), every in-block stage runs on eight butterflies at a time, and the
// groups are scattered back. Stages with h >= 8 pair whole groups (lane l with lane l); h = 1, 2,
// 4 pair lanes l and l ^ h inside a group (a lane permutation; the mul computes 8 products of
// which 4 are needed). Same formulas, order and fully reduced values as block_stages /
// inv_block_stages, so the output is bit-identical. Measured: host_bench ntt_* rows in
// data/bench/host_msm_ntt/ and the README of data/bench/groth16_vs_snarkjs/.

// Whether the in-block stages run on IFMA: the CPU has it and PRESTAGE_HOST_IFMA is not 0.
bool ntt_ifma() {
  static const bool on = [] {
    const char* e = std::getenv("PRESTAGE_HOST_IFMA");
    return ff::ifma::cpu_has_ifma() && !(e != nullptr && std::string(e) == "0");
  }();
  return on;
}

// Twiddles of the in-block stages as Fr8 groups: g[i] = stw[8i .. 8i + 8) (i >= 1: stages with
// h >= 8, where h + j is a multiple of 8 for j = 0, 8, ..), small[k] for h = 2^(k+1) (lane l:
// stw[h + l mod h]). stw from stage_twiddles. (2^stages / 8 + 2) x 320 B.
struct BlockTwiddles8 {
  std::vector<ff::ifma::Fr8Mem> g;
  ff::ifma::Fr8Mem small[2];
};
BlockTwiddles8 pack_twiddles8(const std::vector<Fr>& stw) {
  BlockTwiddles8 t;
  t.g.resize(stw.size() / 8);
  for (std::size_t i = 1; i < t.g.size(); ++i)
    for (int l = 0; l < 8; ++l) {
      uint64_t limbs[5];
      ff::ifma::pack52_fr(stw[8 * i + l].limb, limbs);
      for (int k = 0; k < 5; ++k) t.g[i].w[k][l] = limbs[k];
    }
  for (int s = 0; s < 2; ++s) {
    const std::size_t h = std::size_t{2} << s;
    for (int l = 0; l < 8; ++l) {
      uint64_t limbs[5];
      ff::ifma::pack52_fr(stw[h + (l & (h - 1))].limb, limbs);
      for (int k = 0; k < 5; ++k) t.small[s].w[k][l] = limbs[k];
    }
  }
  return t;
}

// Lane l <- lane l ^ h (h = 1, 2, 4).
PRESTAGE_IFMA_TARGET inline __m512i xor_lanes(int h) {
  return _mm512_set_epi64(7 ^ h, 6 ^ h, 5 ^ h, 4 ^ h, 3 ^ h, 2 ^ h, 1 ^ h, 0 ^ h);
}
constexpr __mmask8 kHiLanes[3] = {0xAA, 0xCC, 0xF0};  // lanes with bit h set, h = 1, 2, 4

// block_stages on IFMA; buf: 2^stages / 8 x Fr8Mem scratch.
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void block_stages_ifma(Fr* a, unsigned stages,
                                                              const BlockTwiddles8& tw,
                                                              ff::ifma::Fr8Mem* buf) {
  namespace vi = ff::ifma;
  const std::size_t G = (std::size_t{1} << stages) / 8;
  const vi::Fr8 w2 = vi::load(tw.small[0]), w4 = vi::load(tw.small[1]);
  for (std::size_t g = 0; g < G; ++g) {
    vi::Fr8 v = vi::load_contiguous(a + 8 * g);
    {  // h = 1, twiddle 1: lo lanes u + v, hi lanes u - v
      const vi::Fr8 t = vi::permute(v, xor_lanes(1));
      v = vi::select(kHiLanes[0], vi::sub(t, v), vi::add(v, t));
    }
    const vi::Fr8* ws[2] = {&w2, &w4};
    for (int s = 1; s <= 2; ++s) {  // h = 2, 4
      const vi::Fr8 t = vi::permute(v, xor_lanes(1 << s));
      const vi::Fr8 x = vi::select(kHiLanes[s], v, t);  // v of the pair
      const vi::Fr8 y = vi::select(kHiLanes[s], t, v);  // u of the pair
      const vi::Fr8 m = vi::mul(x, *ws[s - 1]);
      v = vi::select(kHiLanes[s], vi::sub(y, m), vi::add(y, m));
    }
    vi::store(v, buf[g]);
  }
  for (unsigned st = 3; st < stages; ++st) {
    const std::size_t hg = (std::size_t{1} << st) / 8;
    for (std::size_t base = 0; base < G; base += 2 * hg)
      for (std::size_t j = 0; j < hg; ++j) {
        const vi::Fr8 lo = vi::load(buf[base + j]);
        const vi::Fr8 m = vi::mul(vi::load(buf[base + hg + j]), vi::load(tw.g[hg + j]));
        vi::store(vi::add(lo, m), buf[base + j]);
        vi::store(vi::sub(lo, m), buf[base + hg + j]);
      }
  }
  for (std::size_t g = 0; g < G; ++g) vi::store_contiguous(vi::load(buf[g]), a + 8 * g);
}

// inv_block_stages on IFMA (tw from the mirrored stage_twiddles).
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void inv_block_stages_ifma(Fr* a, unsigned stages,
                                                                  const BlockTwiddles8& tw,
                                                                  ff::ifma::Fr8Mem* buf) {
  namespace vi = ff::ifma;
  const std::size_t G = (std::size_t{1} << stages) / 8;
  for (std::size_t g = 0; g < G; ++g) vi::store(vi::load_contiguous(a + 8 * g), buf[g]);
  for (unsigned st = stages; st-- > 3;) {
    const std::size_t hg = (std::size_t{1} << st) / 8;
    for (std::size_t base = 0; base < G; base += 2 * hg)
      for (std::size_t j = 0; j < hg; ++j) {
        const vi::Fr8 lo = vi::load(buf[base + j]), hi = vi::load(buf[base + hg + j]);
        vi::store(vi::add(lo, hi), buf[base + j]);
        vi::store(vi::mul(vi::sub(hi, lo), vi::load(tw.g[hg + j])), buf[base + hg + j]);
      }
  }
  const vi::Fr8 w2 = vi::load(tw.small[0]), w4 = vi::load(tw.small[1]);
  const vi::Fr8* ws[2] = {&w2, &w4};
  for (std::size_t g = 0; g < G; ++g) {
    vi::Fr8 v = vi::load(buf[g]);
    for (int s = 2; s >= 1; --s) {  // h = 4, 2: lo lanes u + v, hi lanes (v - u) w'
      const vi::Fr8 t = vi::permute(v, xor_lanes(1 << s));
      const vi::Fr8 sum = vi::add(v, t), dif = vi::sub(v, t);
      v = vi::select(kHiLanes[s], vi::mul(dif, *ws[s - 1]), sum);
    }
    {  // h = 1: lo lanes u + v, hi lanes u - v
      const vi::Fr8 t = vi::permute(v, xor_lanes(1));
      v = vi::select(kHiLanes[0], vi::sub(t, v), vi::add(v, t));
    }
    vi::store_contiguous(v, a + 8 * g);
  }
}

// The two butterflies on eight lanes (inlined into the IFMA kernels; a lambda would not carry
// the target attribute and could not inline them).
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline void dit_bf8(ff::ifma::Fr8& x, ff::ifma::Fr8& y,
                                                                const ff::ifma::Fr8& w) {
  const ff::ifma::Fr8 v = ff::ifma::mul(y, w);
  y = ff::ifma::sub(x, v);
  x = ff::ifma::add(x, v);
}
PRESTAGE_IFMA_TARGET [[gnu::always_inline]] inline void dif_bf8(ff::ifma::Fr8& x, ff::ifma::Fr8& y,
                                                                const ff::ifma::Fr8& w) {
  const ff::ifma::Fr8 d = ff::ifma::sub(y, x);
  x = ff::ifma::add(x, y);
  y = ff::ifma::mul(d, w);
}

// Eight Fr of the table t at element indices base + l * stride, l = 0..7 (stride may be < 0).
PRESTAGE_IFMA_TARGET inline ff::ifma::Fr8 load_strided(const Fr* t, int64_t base, int64_t stride) {
  const __m512i lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i idx = _mm512_add_epi64(_mm512_set1_epi64(4 * base),
                                       _mm512_mullo_epi64(lanes, _mm512_set1_epi64(4 * stride)));
  const auto* w = reinterpret_cast<const long long*>(t->limb);
  __m512i words[4];
  for (int k = 0; k < 4; ++k) words[k] = _mm512_i64gather_epi64(idx, w + k, 8);
  return ff::ifma::from_words(words);
}

// radix4_range's units j .. j + 7 of the block at p0 (j a multiple of 8, j + 8 <= h), eight at
// a time: the same butterflies, order and values.
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void radix4_unit8(Fr* p0, std::size_t h, std::size_t j,
                                                         const Fr* tw, unsigned s1, unsigned s2,
                                                         std::size_t count) {
  namespace vi = ff::ifma;
  for (std::size_t c = 0; c < count; c += 8, j += 8) {
    Fr* q = p0 + j;
    vi::Fr8 x0 = vi::load_contiguous(q), x1 = vi::load_contiguous(q + h);
    vi::Fr8 x2 = vi::load_contiguous(q + 2 * h), x3 = vi::load_contiguous(q + 3 * h);
    const vi::Fr8 w1 = load_strided(tw, int64_t(j << s1), int64_t{1} << s1);
    const vi::Fr8 w2 = load_strided(tw, int64_t(j << s2), int64_t{1} << s2);
    const vi::Fr8 w3 = load_strided(tw, int64_t((j + h) << s2), int64_t{1} << s2);
    dit_bf8(x0, x1, w1);
    dit_bf8(x2, x3, w1);
    dit_bf8(x0, x2, w2);
    dit_bf8(x1, x3, w3);
    vi::store_contiguous(x0, q);
    vi::store_contiguous(x1, q + h);
    vi::store_contiguous(x2, q + 2 * h);
    vi::store_contiguous(x3, q + 3 * h);
  }
}

// inv_radix4_range's units j .. j + 7 (j a positive multiple of 8: no j = 0 lane, whose mirrored
// twiddle index n/2 lies outside the table).
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void inv_radix4_unit8(Fr* p0, std::size_t h, std::size_t j,
                                                             const Fr* tw, std::size_t half,
                                                             unsigned s1, unsigned s2,
                                                             std::size_t count) {
  namespace vi = ff::ifma;
  for (std::size_t c = 0; c < count; c += 8, j += 8) {
    Fr* q = p0 + j;
    vi::Fr8 x0 = vi::load_contiguous(q), x1 = vi::load_contiguous(q + h);
    vi::Fr8 x2 = vi::load_contiguous(q + 2 * h), x3 = vi::load_contiguous(q + 3 * h);
    const int64_t H = int64_t(half);
    const vi::Fr8 w2 = load_strided(tw, H - int64_t(j << s2), -(int64_t{1} << s2));
    const vi::Fr8 w3 = load_strided(tw, H - int64_t((j + h) << s2), -(int64_t{1} << s2));
    const vi::Fr8 w1 = load_strided(tw, H - int64_t(j << s1), -(int64_t{1} << s1));
    dif_bf8(x0, x2, w2);
    dif_bf8(x1, x3, w3);
    dif_bf8(x0, x1, w1);
    dif_bf8(x2, x3, w1);
    vi::store_contiguous(x0, q);
    vi::store_contiguous(x1, q + h);
    vi::store_contiguous(x2, q + 2 * h);
    vi::store_contiguous(x3, q + 3 * h);
  }
}
#endif

void inv_block_stages(Fr* a, unsigned stages, const Fr* stw);  // below

// The in-block stages of each of the n >> block_log blocks of a, in parallel (stw: the
// direction's stage_twiddles): block_stages, or inv_block_stages when `inverse`; on IFMA where
// the build and the CPU have it and the block is kBlockLog.
void all_block_stages(Fr* a, std::size_t n, unsigned block_log, const std::vector<Fr>& stw,
                      unsigned threads, bool inverse) {
  const std::size_t blocks = n >> block_log;
  const std::size_t min_blocks = std::max<std::size_t>(1, kMinButterfliesPerThread >> block_log);
#if PRESTAGE_FF_HOST_IFMA
  if (block_log == kBlockLog && ntt_ifma()) {
    const BlockTwiddles8 tw8 = pack_twiddles8(stw);
    const std::size_t G = (std::size_t{1} << block_log) / 8;
    std::vector<ff::ifma::Fr8Mem> scratch(G * threads);  // per piece: G x 320 B
    std::atomic<unsigned> slot{0};
    host::parallel_for(blocks, threads, min_blocks, [&](std::size_t b, std::size_t e) {
      ff::ifma::Fr8Mem* buf = scratch.data() + G * slot.fetch_add(1);
      for (std::size_t k = b; k < e; ++k)
        if (inverse)
          inv_block_stages_ifma(a + (k << block_log), block_log, tw8, buf);
        else
          block_stages_ifma(a + (k << block_log), block_log, tw8, buf);
    });
    return;
  }
#endif
  host::parallel_for(blocks, threads, min_blocks, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k)
      if (inverse)
        inv_block_stages(a + (k << block_log), block_log, stw.data());
      else
        block_stages(a + (k << block_log), block_log, stw.data());
  });
}

// Decimation-in-time stages on bit-reversed input: natural-order forward transform out.
void dit_from_bitrev(const Domain& d, std::span<Fr> span, unsigned threads) {
  const unsigned log_n = d.log_size();
  const std::size_t n = d.size();
  if (n == 1) return;
  Fr* a = span.data();
  const Fr* tw = d.twiddles().data();
  threads = host::resolve_threads(threads);

  // In-block stages.
  const unsigned block_log = std::min(kBlockLog, log_n);
  all_block_stages(a, n, block_log, stage_twiddles(tw, log_n, block_log, false), threads, false);

  // Remaining stages, two at a time where possible.
  unsigned st = block_log;
  while (st < log_n) {
    const std::size_t h = std::size_t{1} << st;
    if (st + 1 < log_n) {
      host::parallel_for(
          n / 4, threads, kMinButterfliesPerThread / 2,
          [&](std::size_t b, std::size_t e) { radix4_range(a, h, st, tw, log_n, b, e); });
      st += 2;
    } else {
      host::parallel_for(
          n / 2, threads, kMinButterfliesPerThread,
          [&](std::size_t b, std::size_t e) { stage_range(a, h, st, tw, log_n, b, e); });
      st += 1;
    }
  }
}

void forward_impl(const Domain& d, std::span<Fr> span, unsigned threads) {
  const unsigned log_n = d.log_size();
  const std::size_t n = d.size();
  if (n == 1) return;
  Fr* a = span.data();
  // Bit reversal: index i swaps with rev(i) once, from the smaller side.
  host::parallel_for(n, host::resolve_threads(threads), 2 * kMinButterfliesPerThread,
                     [&](std::size_t b, std::size_t e) {
                       for (std::size_t i = b; i < e; ++i) {
                         std::size_t r = reverse_bits(i, log_n);
                         if (i < r) std::swap(a[i], a[r]);
                       }
                     });
  dit_from_bitrev(d, span, threads);
}

// ---- inverse transform by decimation in frequency (natural order in, bit-reversed out) ----
// Butterfly (u, v) -> (u + v, (u - v) omega^-k). For 0 < k < n/2, omega^-k = omega^(n - k) =
// -omega^(n/2 - k) = -tw[n/2 - k], so the product is (v - u) tw[n/2 - k]: the forward table
// serves the inverse. `mirror` = &tw[n/2] (so mirror[-k] = tw[n/2 - k]).
inline void inv_butterfly(Fr& x, Fr& y, const Fr& w_mirror) {
  const Fr d = y - x;
  x = x + y;
  y = d * w_mirror;
}
inline void inv_butterfly_1(Fr& x, Fr& y) {  // k = 0
  const Fr v = y;
  y = x - v;
  x = x + v;
}

// Stages with half-sizes 2^(stages-1) down to 1 on the block a[0, 2^stages).
void inv_block_stages(Fr* a, unsigned stages, const Fr* stw) {
  const std::size_t len = std::size_t{1} << stages;
  for (unsigned st = stages; st-- > 1;) {
    const std::size_t h = std::size_t{1} << st;
    const Fr* w = stw + h;  // w[j] = tw[n/2 - j n / 2h], 0 < j < h
    for (std::size_t base = 0; base < len; base += 2 * h) {
      Fr* lo = a + base;
      Fr* hi = lo + h;
      inv_butterfly_1(lo[0], hi[0]);
      for (std::size_t j = 1; j < h; ++j) inv_butterfly(lo[j], hi[j], w[j]);
    }
  }
  for (std::size_t i = 0; i < len; i += 2) inv_butterfly_1(a[i], a[i + 1]);  // h = 1
}

// One inverse stage with half-size h over butterflies [b0, b1).
void inv_stage_range(Fr* a, std::size_t h, unsigned log_h, const Fr* mirror, unsigned log_n,
                     std::size_t b0, std::size_t b1) {
  const unsigned stride_log = log_n - log_h - 1;
  std::size_t b = b0;
  while (b < b1) {
    const std::size_t blk = b >> log_h;
    std::size_t j = b & (h - 1);
    const std::size_t stop = std::min(b1, (blk + 1) << log_h);
    Fr* lo = a + (blk << (log_h + 1));
    Fr* hi = lo + h;
    for (; b < stop; ++b, ++j) {
      if (j == 0)
        inv_butterfly_1(lo[0], hi[0]);
      else
        inv_butterfly(lo[j], hi[j], *(mirror - (j << stride_log)));
    }
  }
}

// Inverse stages with half-sizes 2h then h fused (radix-4 units u in [u0, u1): block u / h of
// size 4h, j = u % h).
// One unit of inv_radix4_range (position j of its block p0 .. p3).
inline void inv_radix4_unit(Fr* p0, Fr* p1, Fr* p2, Fr* p3, std::size_t j, std::size_t h,
                            const Fr* mirror, unsigned s1, unsigned s2) {
  if (j == 0) {
    inv_butterfly_1(p0[0], p2[0]);
    inv_butterfly(p1[0], p3[0], *(mirror - (h << s2)));
    inv_butterfly_1(p0[0], p1[0]);
    inv_butterfly_1(p2[0], p3[0]);
    return;
  }
  inv_butterfly(p0[j], p2[j], *(mirror - (j << s2)));
  inv_butterfly(p1[j], p3[j], *(mirror - ((j + h) << s2)));
  const Fr& w1 = *(mirror - (j << s1));
  inv_butterfly(p0[j], p1[j], w1);
  inv_butterfly(p2[j], p3[j], w1);
}

void inv_radix4_range(Fr* a, std::size_t h, unsigned log_h, const Fr* mirror, unsigned log_n,
                      std::size_t u0, std::size_t u1) {
  const unsigned s1 = log_n - log_h - 1;  // stride for half-size h
  const unsigned s2 = s1 - 1;             // stride for half-size 2h
  radix4_blocks(
      a, h, log_h, u0, u1,
      [&](Fr* p0, Fr* p1, Fr* p2, Fr* p3, std::size_t j) {
        inv_radix4_unit(p0, p1, p2, p3, j, h, mirror, s1, s2);
      },
      [&](Fr* p0, std::size_t j, std::size_t m) {
#if PRESTAGE_FF_HOST_IFMA
        inv_radix4_unit8(p0, h, j, mirror - (std::size_t{1} << log_n) / 2,
                         (std::size_t{1} << log_n) / 2, s1, s2, m);
#else
        (void)p0, (void)j, (void)m;
#endif
      },
      // Scalar up to the first positive multiple of 8 (j = 0 has its own unit), then 8 at a time.
      [](std::size_t j) { return j != 0 && (j & 7) == 0; });
}

// a <- n * inverse(a), left in bit-reversed order (a[rev(i)] holds n c_i).
void inverse_dif_to_bitrev(const Domain& d, std::span<Fr> span, unsigned threads) {
  const unsigned log_n = d.log_size();
  const std::size_t n = d.size();
  if (n == 1) return;
  Fr* a = span.data();
  const Fr* mirror = d.twiddles().data() + n / 2;
  threads = host::resolve_threads(threads);
  const unsigned block_log = std::min(kBlockLog, log_n);
  // Stages above the block size, two at a time where possible (the top one alone when their
  // count is odd), then the in-block stages.
  unsigned st = log_n;  // stages st-1 .. block_log remain
  if ((log_n - block_log) % 2 == 1) {
    const unsigned s = st - 1;
    host::parallel_for(n / 2, threads, kMinButterfliesPerThread, [&](std::size_t b, std::size_t e) {
      inv_stage_range(a, std::size_t{1} << s, s, mirror, log_n, b, e);
    });
    st -= 1;
  }
  while (st > block_log) {
    const unsigned s = st - 2;  // radix-4 over half-sizes 2^(s+1) then 2^s
    host::parallel_for(n / 4, threads, kMinButterfliesPerThread / 2,
                       [&](std::size_t b, std::size_t e) {
                         inv_radix4_range(a, std::size_t{1} << s, s, mirror, log_n, b, e);
                       });
    st -= 2;
  }
  all_block_stages(a, n, block_log, stage_twiddles(d.twiddles().data(), log_n, block_log, true),
                   threads, true);
}

// a[j] <-> a[n - j] for 0 < j < n/2 (turns a forward transform into the inverse one).
void reverse_tail(std::span<Fr> a, unsigned threads) {
  const std::size_t n = a.size();
  if (n <= 2) return;
  host::parallel_for(n / 2 - 1, threads, 2 * kMinButterfliesPerThread,
                     [&](std::size_t b, std::size_t e) {
                       for (std::size_t j = b + 1; j < e + 1; ++j) std::swap(a[j], a[n - j]);
                     });
}

}  // namespace

void scale_by_powers(std::span<Fr> a, const Fr& first, const Fr& step, unsigned threads) {
  host::parallel_for(a.size(), host::resolve_threads(threads), 2 * kMinButterfliesPerThread,
                     [&](std::size_t b, std::size_t e) {
                       if (step == Fr::one()) {  // plain scaling (inverse NTT's 1/n)
                         for (std::size_t i = b; i < e; ++i) a[i] = a[i] * first;
                         return;
                       }
                       Fr x = first * step.pow(static_cast<uint64_t>(b));
                       for (std::size_t i = b; i < e; ++i) {
                         a[i] = a[i] * x;
                         x = x * step;
                       }
                     });
}

void forward(const Domain& domain, std::span<Fr> a, unsigned threads) {
  check_size(domain, a, "ntt::forward");
  forward_impl(domain, a, threads);
}

void inverse(const Domain& domain, std::span<Fr> a, unsigned threads) {
  check_size(domain, a, "ntt::inverse");
  forward_impl(domain, a, threads);
  reverse_tail(a, host::resolve_threads(threads));
  scale_by_powers(a, domain.size_inv(), Fr::one(), threads);
}

void coset_forward(const Domain& domain, std::span<Fr> a, const Fr& shift, unsigned threads) {
  check_size(domain, a, "ntt::coset_forward");
  scale_by_powers(a, Fr::one(), shift, threads);
  forward_impl(domain, a, threads);
}

CosetShift::CosetShift(const Domain& d, const Fr& shift, unsigned threads) : factors_(d.size()) {
  const std::size_t n = d.size();
  const unsigned log_n = d.log_size();
  std::vector<Fr> nat(n);  // shift^i / n, natural order
  host::parallel_for(n, host::resolve_threads(threads), 2 * kMinButterfliesPerThread,
                     [&](std::size_t b, std::size_t e) {
                       Fr x = d.size_inv() * shift.pow(static_cast<uint64_t>(b));
                       for (std::size_t i = b; i < e; ++i) {
                         nat[i] = x;
                         x = x * shift;
                       }
                     });
  host::parallel_for(n, host::resolve_threads(threads), 2 * kMinButterfliesPerThread,
                     [&](std::size_t b, std::size_t e) {
                       for (std::size_t p = b; p < e; ++p)
                         factors_[p] = nat[reverse_bits(p, log_n)];
                     });
}

void to_coset(const Domain& domain, const CosetShift& shift, std::span<Fr> a, unsigned threads) {
  check_size(domain, a, "ntt::to_coset");
  if (shift.factors().size() != domain.size())
    throw std::invalid_argument("ntt::to_coset: CosetShift built for another domain");
  inverse_dif_to_bitrev(domain, a, threads);
  const Fr* f = shift.factors().data();
  host::parallel_for(a.size(), host::resolve_threads(threads), 2 * kMinButterfliesPerThread,
                     [&](std::size_t b, std::size_t e) {
                       for (std::size_t i = b; i < e; ++i) a[i] = a[i] * f[i];
                     });
  dit_from_bitrev(domain, a, threads);
}

void coset_inverse(const Domain& domain, std::span<Fr> a, const Fr& shift, unsigned threads) {
  check_size(domain, a, "ntt::coset_inverse");
  if (shift.is_zero()) throw std::invalid_argument("ntt::coset_inverse: zero shift");
  forward_impl(domain, a, threads);
  reverse_tail(a, host::resolve_threads(threads));
  scale_by_powers(a, domain.size_inv(), shift.inverse(), threads);
}

}  // namespace prestage::ntt
