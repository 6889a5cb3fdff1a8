#pragma once
// The pass structure of the GPU Fr NTT (gpu/ntt/gpu_ntt.cu), written once for the device kernels
// and for a host emulation that runs the same phase functions block by block (tests/unit/gpuntt),
// so the index arithmetic is checked in CI without a GPU.
//
// Radix-2 decimation in frequency (DIF) on n = 2^log_n elements runs log_n stages with half-sizes
// h = n/2 .. 1; position p then holds X[rev(p)]. The stages are grouped into passes (plan()).
// A pass covers k consecutive stages with half-sizes L 2^t, t = k-1 .. 0, L = 2^log_L: the
// sub-problems of size N = 2^k L (index g = hi N + j L + c, row j < 2^k, column c < L). In
// four-step form (Bailey), one DIF pass is
//   1. for each column: a 2^k-point DIF over the rows with the roots of 2^k only (W_R, R = 2^k);
//   2. the element at row j, column c times W_N^(c rev_k(j)) (the inter-pass twiddle; none when
//      L = 1),
// where W_m = w^(n/m). A DIT pass (bit-reversed in, natural out) is its transpose: the twiddle
// first, then a 2^k-point DIT over the rows. DIT with w^-1 inverts DIF with w (up to 2^k), and
// DIT with w inverts DIF with w^-1, which is how the H computation skips bit reversals.
//
// A block owns one tile: 2^k rows x 2^log_lo adjacent columns (<= 2^11 elements, 32 B each, in
// shared memory as two 16-byte planes, swizzled against bank conflicts). Inside the tile each
// thread runs register units of 2^r elements (r stages between shared-memory exchanges;
// r = 1, 2 or 3, a template parameter), and the lowest stages of the pass in units of 2^r0
// elements (r0 >= r), where the butterflies at twiddle index 0 are known at compile time and
// their products by 1 vanish without divergence (group_count). Internal twiddles come from a
// 2^(k-1)-entry table of W_R in shared memory, the inter-pass twiddle from the domain's w^e
// table (n/2 x 32 B) once per element per pass, skipped where its exponent is 0. Butterfly sums,
// differences and products are Fr's operators (gpu/ff: on the device the even/odd CIOS product
// and 32-bit PTX carry-chain add/sub).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu/common/hd.hpp"
#include "gpu/ff/fr.hpp"

namespace prestage::ntt::pass {

using ff::Fr;

inline constexpr unsigned kTileLog = 11;      // <= 2048 elements (64 KB) per tile
inline constexpr unsigned kColumnRowLog = 9;  // passes with L > 1: <= 2^9 rows, >= 4 columns
inline constexpr unsigned kMaxLoLog = 3;      // <= 8 columns per tile (256 B row segments)
inline constexpr unsigned kMaxRadixLog = 3;   // register units of up to 8 elements
// Elements per thread in load/store phases, for register units of 2^kRadix elements and kBlocks
// resident blocks per SM (the kernels' __launch_bounds__ minimum): 8 for radix-8 units or for
// three blocks per SM (256 threads: three 2^11 tiles of 64 KB + 8 KB root tables fit the H200's
// 228 KB of shared memory, and 24 warps at <= 80 registers fit its 64 K registers: the default,
// gpu/ntt/DECISIONS.md #2), else 4 (2 blocks of 512 threads per SM at <= 64 registers).
template <int kRadix, int kBlocks = 2>
inline constexpr unsigned kPerThread = kRadix >= 3 || kBlocks >= 3 ? 8u : 4u;
template <int kRadix, int kBlocks = 2>
inline constexpr unsigned kMaxThreads = (1u << kTileLog) / kPerThread<kRadix, kBlocks>;
inline constexpr unsigned kCoefLoBits = 11;  // coset power tables: hi[i >> 11] * lo[i & 2047]

// One pass over the data. Tiles: 2^(k + log_lo) elements; blocks: n >> tile_log().
struct Pass {
  unsigned log_n = 0;   // transform size
  unsigned log_L = 0;   // columns of this pass's sub-problems (row stride), log2
  unsigned k = 0;       // rows = stages of this pass, log2
  unsigned log_lo = 0;  // columns per tile, log2
  // The bit-reversal permutation fused into an L = 1 pass (contiguous rows): rev_in loads
  // element g from src[rev_n(g)] (the first DIT pass), rev_out stores it to dst[rev_n(g)] (the
  // last DIF pass). Only in place when the pass has one tile (n <= 2^11); otherwise src and dst
  // must be distinct buffers. Set by fuse_reversal(). In such a pass (L = 1) log_lo counts the
  // sub-problems of a tile: those whose indices hi differ in their top log_lo bits, so that the
  // bit reversals of a row's elements are 2^log_lo adjacent elements (global_index()). Blocks
  // then take tiles in bit-reversed order (block_tile()), so blocks running together touch
  // adjacent runs of each scattered row.
  bool rev_in = false;
  bool rev_out = false;
  // Coset transforms (coset_split_tables()): when not null, the inter-pass twiddle of the
  // element at row position j, global column c is tw_table[(j << log_L) | c] (2^k x 2^log_L x
  // 32 B, Montgomery) instead of root_pow(tw, interpass_exponent()), a root power times the
  // part of the coset factor this pass can carry; applied to every element (no skip at 1).
  const Fr* tw_table = nullptr;
  PRESTAGE_HD_INLINE unsigned tile_log() const { return k + log_lo; }
  PRESTAGE_HD_INLINE unsigned tile_n() const { return 1u << tile_log(); }
  // Threads per block: one per `per_thread` elements (at least 1).
  PRESTAGE_HD_INLINE unsigned threads(unsigned per_thread) const {
    return tile_n() >= per_thread ? tile_n() / per_thread : 1u;
  }
  std::size_t blocks() const { return std::size_t{1} << (log_n - tile_log()); }
};

// The passes of a DIF transform of size 2^log_n, first (largest L) to last (L = 1). As few
// passes as tiles allow: the last pass takes up to 11 stages (contiguous rows), the others up
// to 9 with 4-8 columns per tile for coalesced loads; stages are spread evenly.
// 2^27: 9 + 9 + 9; 2^24: 8 + 8 + 8; 2^20: 9 + 11.
// row_log: the most stages of a pass with columns (kColumnRowLog by default; 8 gives tiles of
// 1024 elements and more blocks per multiprocessor).
inline std::vector<Pass> plan(unsigned log_n, unsigned row_log = kColumnRowLog) {
  std::vector<Pass> passes;
  unsigned r = log_n;
  while (r > 0) {
    if (r <= kTileLog) {
      passes.push_back({log_n, 0, r, 0});
      break;
    }
    const unsigned left = 1 + (r - kTileLog + row_log - 1) / row_log;
    const unsigned k = std::min(row_log, (r + left - 1) / left);
    const unsigned log_L = r - k;
    const unsigned lo = std::min({log_L, kMaxLoLog, kTileLog - k});
    passes.push_back({log_n, log_L, k, lo});
    r -= k;
  }
  return passes;
}

PRESTAGE_HD_INLINE uint32_t rev_bits(uint32_t x, unsigned bits) {
  if (bits == 0) return 0;
#if PRESTAGE_DEVICE_CODE
  return __brev(x) >> (32 - bits);
#else
  uint32_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((x >> i) & 1u) << (bits - 1 - i);
  return r;
#endif
}

// w^e (w^-e when `inverse`) for 0 <= e < n from the domain table tw[e] = w^e, e < n/2,
// using w^(e + n/2) = -w^e.
PRESTAGE_HD_INLINE Fr root_pow(const Fr* tw, uint64_t e, unsigned log_n, bool inverse) {
  const uint64_t n = uint64_t{1} << log_n;
  const uint64_t half = n >> 1;
  if (inverse) e = (n - e) & (n - 1);
  if (e < half) return tw[e];
  return -tw[e - half];
}

// Butterflies (a, b at rows j, j + 2^t; w the stage root). DIF: (a + b, (a - b) w); DIT:
// (a + b w, a - b w); kOne: w = 1, no product. Sums and differences are Fr's operators, on the
// device gpu/ff's 32-bit PTX carry chains (mont32.hpp add_mod/sub_mod). This replaced the NTT's
// own PTX add/sub: the two compile to the same SASS (ptxas -v and .text
// size of a butterfly loop, sm_90, nvcc 13.0: 37 registers, 104 instructions each), so the
// NTT keeps the one the field layer owns and tests (tests/gpu/ff_mont32_test.cu).
// DIF with a twiddle (lever L): on the device the difference feeds only the product, so
// it stays unreduced, a - b + p in [1, 2p) (gpu/ff/mont32.hpp fp_sub_unreduced: 2W instructions
// instead of sub_mod's 3W + 1), and goes in as the word-scanned second operand of the even/odd
// CIOS, whose result is < p for any second operand < 2^256 when the first is < p
// (fp_mul_eo_wide_b; bound and host test there). The result is the canonical a - b times w, so
// the host keeps Fr's reduced operators (bit-identical outputs; tests/gpu/ntt_arith_test.cu).
// The DIF butterfly's lower output in two steps: dif_sub(a, b) = a - b (device: a - b + p,
// unreduced), then dif_mul(w, d) = d w (device: d as the CIOS's word-scanned operand).
PRESTAGE_HD_INLINE Fr dif_sub(const Fr& a, const Fr& b) {
#if PRESTAGE_DEVICE_CODE
  return ff::detail::w32::fp_sub_unreduced(a, b);
#else
  return a - b;
#endif
}
PRESTAGE_HD_INLINE Fr dif_mul(const Fr& w, const Fr& d) {
#if PRESTAGE_DEVICE_CODE
  return ff::detail::w32::fp_mul_eo_wide_b(w, d);
#else
  return d * w;
#endif
}
template <bool kOne>
PRESTAGE_HD_INLINE void butterfly_dif(Fr& a, Fr& b, const Fr& w) {
  if constexpr (kOne) {
    const Fr d = a - b;
    a = a + b;
    b = d;
  } else {
    const Fr d = dif_sub(a, b);
    a = a + b;
    b = dif_mul(w, d);
  }
}
template <bool kOne>
PRESTAGE_HD_INLINE void butterfly_dit(Fr& a, Fr& b, const Fr& w) {
  const Fr v = kOne ? b : b * w;
  b = a - v;
  a = a + v;
}

// Tile element e (0 <= e < tile_n) of block `block` -> global index. An L = 1 pass with
// log_lo > 0 (fuse_reversal()): element e is row e >> log_lo of sub-problem
// hi = (u << (log_n - k - log_lo)) | block, u = e mod 2^log_lo.
// kLayout (known at compile time in the kernels, so each compiles one formula): kColumns for a
// pass with L > 1, kRows for L = 1 (grouped when log_lo > 0), kPlainRows for an L = 1 pass that
// never carries a fused reversal (DifScaleDit: one sub-problem per tile), kAnyLayout to decide
// from p at run time (host code). With the formulas behind run-time branches ptxas spilled at
// 64 registers in the fused H pass and the DIT column pass, and the H, in-place forward and
// coset forward rows ran 1.2-1.6% slower (A/B on the H200, gpu/ntt/DECISIONS.md #6); ptxas -v
// with this split: no spills beyond the DIF column pass's 12 B of before.
inline constexpr int kAnyLayout = -1, kRows = 0, kColumns = 1, kPlainRows = 2;
template <int kLayout = kAnyLayout>
PRESTAGE_HD_INLINE uint64_t global_index(const Pass& p, uint64_t block, unsigned e) {
  if (kLayout == kPlainRows) return (block << p.k) + e;
  if (kLayout == kRows || (kLayout == kAnyLayout && p.log_L == 0)) {
    if (p.log_lo == 0) return (block << p.k) + e;  // one sub-problem per tile
    const uint64_t u = e & ((1u << p.log_lo) - 1);
    const uint64_t hi = (u << (p.log_n - p.k - p.log_lo)) | block;
    return (hi << p.k) + (e >> p.log_lo);
  }
  const unsigned col_groups_log = p.log_L - p.log_lo;
  const uint64_t hi = block >> col_groups_log;
  const uint64_t col0 = (block & ((uint64_t{1} << col_groups_log) - 1)) << p.log_lo;
  const uint64_t row = e >> p.log_lo;
  const uint64_t col = e & ((1u << p.log_lo) - 1);
  return (hi << (p.log_L + p.k)) + (row << p.log_L) + col0 + col;
}

// The tile a block (launch index b) owns: b, or rev(b) for passes with a fused bit reversal.
PRESTAGE_HD_INLINE uint64_t block_tile(const Pass& p, uint64_t b) {
  if (!p.rev_in && !p.rev_out) return b;
  return rev_bits(static_cast<uint32_t>(b), p.log_n - p.tile_log());
}

// The L = 1 pass `p` (the plan's last) with the bit reversal fused into its loads (gather,
// the first DIT pass) or stores (the last DIF pass), and with up to 2^group_log sub-problems
// per tile (at most a 2^11 tile; none when the pass is the whole transform, which then runs in
// place): each row of a tile then reads or writes runs of 2^log_lo adjacent elements (8: 256 B,
// as the column passes) instead of single 32-byte elements (group_log 0).
// gpu_ntt.cu uses kRevGroupLog for the scattering pass, kGatherGroupLog for the gathering one
// (measured there: grouping made the scattered stores faster and the gathered loads slower).
inline constexpr unsigned kRevGroupLog = 3;
inline constexpr unsigned kGatherGroupLog = 0;
inline Pass fuse_reversal(Pass p, bool gather, unsigned group_log) {
  const unsigned spare = kTileLog - p.k, subs = p.log_n - p.k;
  p.log_lo = std::min({group_log, spare, subs});
  (gather ? p.rev_in : p.rev_out) = true;
  return p;
}

// The in-place last pass with the bit reversal fused (gpu_ntt.cu, mirror_pass_kernel), for a
// pass `p` from fuse_reversal() with log_n >= 2k: index (a, m, b) (k, mbits = log_n - 2k and k
// bits) moves to (rev b, rev m, rev a), so S_m, the indices with middle bits m, maps onto
// S_rev(m). Tiles are taken by ticket, the 2^(k - log_lo) tiles of one set after another in
// mirror_order()'s order, each m next to rev(m); tile t of S_m is block
// (t << mbits) | m of global_index's grouped-rows layout (rows a = (u, t), u the top log_lo
// bits of a, so hi = (a, m)).
PRESTAGE_HD_INLINE unsigned mirror_bits(const Pass& p) {
  return p.log_n - 2 * p.k;
}
PRESTAGE_HD_INLINE unsigned mirror_set_log(const Pass& p) {
  return p.k - p.log_lo;
}
// Ticket -> (m, block): *m the set, the return value the block tile. The set's tiles in ticket
// order: t ascending, or with `reversed` (gpu_ntt.hpp detail::MirrorOrder) t =
// rev(i) for the i-th ticket of the set, the order the scratch path's last pass takes a set's
// tiles in (block_tile), so that consecutive tickets store adjacent runs of every row (the
// bit reversal of t is the run's position in the row). Either way the tickets of a set cover
// its tiles once.
PRESTAGE_HD_INLINE uint64_t mirror_tile(const Pass& p, const uint32_t* order, uint32_t ticket,
                                        uint32_t* m, bool reversed = false) {
  const unsigned set_log = mirror_set_log(p);
  *m = order[ticket >> set_log];
  const uint32_t i = ticket & ((1u << set_log) - 1);
  return (uint64_t{reversed ? rev_bits(i, set_log) : i} << mirror_bits(p)) | *m;
}
// The sets in ticket order: m ascending, each followed by rev(m) when that differs
// (2^mbits entries).
inline std::vector<uint32_t> mirror_order(unsigned mbits) {
  std::vector<uint32_t> order;
  for (uint32_t m = 0; m < (1u << mbits); ++m) {
    const uint32_t r = rev_bits(m, mbits);
    if (r < m) continue;
    order.push_back(m);
    if (r != m) order.push_back(r);
  }
  return order;
}

// Global index g -> its bit-reversed position (log_n <= 31).
PRESTAGE_HD_INLINE uint64_t rev_index(const Pass& p, uint64_t g) {
  return rev_bits(static_cast<uint32_t>(g), p.log_n);
}

// Exponent of the inter-pass twiddle of tile element e: (c rev_k(j)) n / N, c the global column.
PRESTAGE_HD_INLINE uint64_t interpass_exponent(const Pass& p, uint64_t block, unsigned e) {
  const unsigned col_groups_log = p.log_L - p.log_lo;
  const uint64_t col0 = (block & ((uint64_t{1} << col_groups_log) - 1)) << p.log_lo;
  const uint64_t c = col0 + (e & ((1u << p.log_lo) - 1));
  const uint64_t k1 = rev_bits(e >> p.log_lo, p.k);
  return (c * k1) << (p.log_n - p.log_L - p.k);
}

// The slot of tile element e in Pass::tw_table: (row position << log_L) | global column.
PRESTAGE_HD_INLINE uint64_t interpass_slot(const Pass& p, uint64_t block, unsigned e) {
  const unsigned col_groups_log = p.log_L - p.log_lo;
  const uint64_t col0 = (block & ((uint64_t{1} << col_groups_log) - 1)) << p.log_lo;
  const uint64_t c = col0 + (e & ((1u << p.log_lo) - 1));
  return (uint64_t{e >> p.log_lo} << p.log_L) | c;
}

// The inter-pass twiddle a pass's loads or stores apply, a compile-time kernel variant (with a
// run-time `p.tw_table != nullptr` test per element and Op::apply's kSplit mode the plain
// inverse at 2^27 measured 0.3-0.5% slower on the H200, gpu/ntt/DECISIONS.md #11): none,
// root_pow (w^e), or Pass::tw_table.
enum TwiddleKind : int { kTwNone = 0, kTwRoot = 1, kTwTable = 2 };

// The inter-pass twiddle of tile element e (kTwRoot: w^-exponent when `inverse`; kTwTable: the
// entry of p.tw_table), and whether it is applied: always from a table, else where the
// exponent is not 0.
template <int kTw>
PRESTAGE_HD_INLINE Fr interpass_twiddle(const Pass& p, uint64_t block, unsigned e, const Fr* tw,
                                        bool inverse) {
  if constexpr (kTw == kTwTable)
    return p.tw_table[interpass_slot(p, block, e)];
  else
    return root_pow(tw, interpass_exponent(p, block, e), p.log_n, inverse);
}
template <int kTw>
PRESTAGE_HD_INLINE bool interpass_applies(const Pass& p, uint64_t block, unsigned e) {
  if constexpr (kTw == kTwTable)
    return true;
  else
    return interpass_exponent(p, block, e) != 0;
}

// Shared-memory position of tile element e: a swizzle that keeps the 8 threads of a 16-byte
// access phase on distinct banks for both unit patterns (consecutive e, and e stepping by 8).
// With 4 columns per tile (log_lo = 2: 2^26-2^27) a phase holding 4 columns x 2 rows 2^s apart is
// conflict-free for s = 0 and 3 only (tests/unit/gpuntt): the lowest radix-2 units (s = 2) and
// stage_unit's units at t = 3 .. 5 (s = t + 1) have 2-way conflicts. A swizzle that removes
// them all, e ^ (x0, x1, x1 ^ .. ^ x5) with x = e >> 3 (a POPC and 4 more integer instructions
// per address), measured slower on the H200: forward 2^27 0.4%, inverse 1.0-1.2%
// (gpu/ntt/DECISIONS.md #5); this one is kept.
PRESTAGE_HD_INLINE unsigned swz(unsigned e) {
  return e ^ ((e >> 3) & 7u);
}

// x * 2^-s mod r for 1 <= s <= 32, without a full product (the inverse's 1/n = 2^-log_n):
// t = x 2^(32-s) (< 2^287), then one 32-bit Montgomery reduction step, u = t + m r with
// m = t mod 2^32 * (-r^-1) mod 2^32, so u = 0 mod 2^32 and u / 2^32 = x 2^-s mod r, below
// (2^(32-s) + 2^32) r / 2^32 < 2r: one conditional subtraction. Works on any representative's
// value, so in Montgomery form too (x R 2^-s is the Montgomery form of x 2^-s). About a sixth
// of a product's instructions (4 64x32-bit products instead of 16 64x64-bit ones and a
// reduction). Requires x < r.
PRESTAGE_HD_INLINE Fr mul_pow2_inv(const Fr& x, unsigned s) {
  using ff::detail::mac;
  using ff::detail::sbb;
  constexpr auto P = Fr::modulus;
  constexpr uint32_t kInv32 = static_cast<uint32_t>(Fr::inv);  // -r^-1 mod 2^32
  const unsigned sh = 32 - s;
  uint64_t t[5];
  if (sh == 0) {
    PRESTAGE_UNROLL
    for (int i = 0; i < 4; ++i) t[i] = x.limb[i];
    t[4] = 0;
  } else {
    t[0] = x.limb[0] << sh;
    PRESTAGE_UNROLL
    for (int i = 1; i < 4; ++i) t[i] = (x.limb[i] << sh) | (x.limb[i - 1] >> (64 - sh));
    t[4] = x.limb[3] >> (64 - sh);
  }
  const uint64_t m = static_cast<uint32_t>(static_cast<uint32_t>(t[0]) * kInv32);
  uint64_t c = 0;
  PRESTAGE_UNROLL
  for (int i = 0; i < 4; ++i) t[i] = mac(t[i], m, P[i], c);
  t[4] += c;  // u < 2^288: no overflow
  Fr y;
  PRESTAGE_UNROLL
  for (int i = 0; i < 4; ++i) y.limb[i] = (t[i] >> 32) | (t[i + 1] << 32);
  // y < 2r < 2^256: subtract r once if y >= r.
  Fr d;
  uint64_t borrow = 0;
  PRESTAGE_UNROLL
  for (int i = 0; i < 4; ++i) d.limb[i] = sbb(y.limb[i], P[i], borrow);
  return borrow ? y : d;
}

// Element-wise operations fused into a pass's load or store (global index g, value x).
struct Op {
  enum Mode : int {
    kNone = 0,
    kConst = 1,     // x * c
    kTable = 2,     // x * hi[g >> 11] * lo[g & 2047]
    kTableRev = 3,  // x * hi[i >> 11] * lo[i & 2047], i = rev_log_n(g)
    kAbc = 4,       // store only: a[g] <- (a[g] * b[g] - x) (* c when scale)
    kPow2Inv = 5,   // x * 2^-shift (mul_pow2_inv: the inverse's 1/n)
    kSplit = 6,     // x * lo[((g >> shift) << keep) | (g mod 2^keep)] (coset_split_tables())
  };
  int mode = kNone;
  Fr c;
  const Fr* lo = nullptr;  // 2^11 x 32 B (fewer entries for small n), Montgomery
  const Fr* hi = nullptr;  // max(1, n >> 11) x 32 B, Montgomery
  Fr* a = nullptr;         // kAbc: n x 32 B
  const Fr* b = nullptr;   // kAbc: n x 32 B
  bool scale = false;      // kAbc: multiply by c
  unsigned shift = 0;      // kPow2Inv: 1..32; kSplit: the index bits dropped below `keep`
  unsigned keep = 0;       // kSplit: low index bits kept

  // x * c.
  static Op constant(const Fr& factor) {
    Op op;
    op.mode = kConst;
    op.c = factor;
    return op;
  }
  // x * 2^-s, 1 <= s <= 32 (1/n for n = 2^s).
  static Op pow2_inverse(unsigned s) {
    Op op;
    op.mode = kPow2Inv;
    op.shift = s;
    return op;
  }
  // x * table[((g >> drop) << keep) | (g mod 2^keep)]: one table read, one product.
  static Op split(const Fr* table, unsigned drop, unsigned keep) {
    Op op;
    op.mode = kSplit;
    op.lo = table;
    op.shift = drop;
    op.keep = keep;
    return op;
  }
  // x * hi[.] * lo[.] at the element's index (kTable) or its bit reversal (kTableRev).
  static Op table(const Fr* lo_table, const Fr* hi_table, bool reversed = false) {
    Op op;
    op.mode = reversed ? kTableRev : kTable;
    op.lo = lo_table;
    op.hi = hi_table;
    return op;
  }

  // kWithSplit: whether the kSplit mode is compiled in (the coset kernels); the plain kernels
  // (false) keep the run-time modes of ea03a08 (gpu/ntt/DECISIONS.md #11).
  template <bool kWithSplit = true>
  PRESTAGE_HD_INLINE Fr apply(const Fr& x, uint64_t g, unsigned log_n) const {
    if (mode == kConst) return x * c;
    if (mode == kPow2Inv) return mul_pow2_inv(x, shift);
    if (kWithSplit && mode == Mode::kSplit) {
      const uint64_t low = g & ((uint64_t{1} << keep) - 1);
      return x * lo[((g >> shift) << keep) | low];
    }
    if (mode == kTable || mode == kTableRev) {
      const uint64_t i = mode == kTable ? g : rev_bits(static_cast<uint32_t>(g), log_n);
      return x * (hi[i >> kCoefLoBits] * lo[i & ((1u << kCoefLoBits) - 1)]);
    }
    return x;
  }
};

// Shared-memory tile on the device (two 16-byte planes) or a plain array on the host.
struct PlaneTile {
  uint64_t* p0;  // tile_n x 16 B: limbs 0, 1 (16-byte aligned)
  uint64_t* p1;  // tile_n x 16 B: limbs 2, 3 (16-byte aligned)
  PRESTAGE_HD_INLINE Fr get(unsigned e) const {
    const unsigned s = swz(e);
    Fr x;
#if PRESTAGE_DEVICE_CODE
    const ulonglong2 a = reinterpret_cast<const ulonglong2*>(p0)[s];
    const ulonglong2 b = reinterpret_cast<const ulonglong2*>(p1)[s];
    x.limb[0] = a.x;
    x.limb[1] = a.y;
    x.limb[2] = b.x;
    x.limb[3] = b.y;
#else
    x.limb[0] = p0[2 * s];
    x.limb[1] = p0[2 * s + 1];
    x.limb[2] = p1[2 * s];
    x.limb[3] = p1[2 * s + 1];
#endif
    return x;
  }
  PRESTAGE_HD_INLINE void set(unsigned e, const Fr& x) const {
    const unsigned s = swz(e);
#if PRESTAGE_DEVICE_CODE
    reinterpret_cast<ulonglong2*>(p0)[s] = make_ulonglong2(x.limb[0], x.limb[1]);
    reinterpret_cast<ulonglong2*>(p1)[s] = make_ulonglong2(x.limb[2], x.limb[3]);
#else
    p0[2 * s] = x.limb[0];
    p0[2 * s + 1] = x.limb[1];
    p1[2 * s] = x.limb[2];
    p1[2 * s + 1] = x.limb[3];
#endif
  }
};

// ---- phases (each runs for every thread of the block between barriers) ----

// Internal twiddle table: ws[x] = W_R^x (W_R^-x when inverse), x < R/2, R = 2^k.
PRESTAGE_HD_INLINE void load_roots(const Pass& p, const Fr* tw, bool inverse, Fr* ws, unsigned tid,
                                   unsigned nthreads) {
  if (p.k == 0) return;
  const unsigned half = 1u << (p.k - 1);
  for (unsigned x = tid; x < half; x += nthreads) {
    ws[x] = root_pow(tw, uint64_t{x} << (p.log_n - p.k), p.log_n, inverse);
  }
}

// Global -> tile: tile element e <- data[g] (data[rev_n(g)] when p.rev_in), g its global index.
// kTwiddle: times the inter-pass twiddle (DIT passes with L > 1); then `pre` (at index g).
// Elements of a load/store batch for register units of 2^R elements (R = kRadix): all loads
// of a batch are in flight before the first use, and the batch needs no more registers than a
// unit does.
// The 256-thread blocks (kBlocks >= 3) keep batches of one element for radix-2 units: batches
// of two measured slower (forward 2^27 with scratch 38.67 against 37.93 ms on the H200; ptxas:
// 16 B of spills in the DIF column kernel at 80 registers; gpu/ntt/DECISIONS.md #7).
template <int kRadix, int kBlocks = 2>
inline constexpr unsigned kBatch = kRadix >= 3 ? 4u : static_cast<unsigned>(kRadix);

template <int kTwiddle, int kRadix, class Tile, int kLayout = kAnyLayout, int kBlocks = 2,
          bool kSplit = true>
PRESTAGE_HD_INLINE void load_tile(const Pass& p, uint64_t block, const Fr* data, const Fr* tw,
                                  bool inverse, const Op& pre, Tile& tile, unsigned tid,
                                  unsigned nthreads) {
  const unsigned tn = p.tile_n();
  constexpr unsigned B = kBatch<kRadix, kBlocks>;
  for (unsigned i0 = 0; i0 < kPerThread<kRadix, kBlocks>; i0 += B) {
    Fr v[B];
    Fr t[B];
#if PRESTAGE_DEVICE_CODE
#pragma unroll
#endif
    for (unsigned i = 0; i < B; ++i) {
      const unsigned e = tid + (i0 + i) * nthreads;
      if (e < tn) {
        const uint64_t g = global_index<kLayout>(p, block, e);
        v[i] = data[p.rev_in ? rev_index(p, g) : g];
        if (kTwiddle) t[i] = interpass_twiddle<kTwiddle>(p, block, e, tw, inverse);
      }
    }
#if PRESTAGE_DEVICE_CODE
#pragma unroll
#endif
    for (unsigned i = 0; i < B; ++i) {
      const unsigned e = tid + (i0 + i) * nthreads;
      if (e < tn) {
        Fr x = v[i];
        if (kTwiddle && interpass_applies<kTwiddle>(p, block, e)) x = x * t[i];
        if (pre.mode != Op::kNone)
          x = pre.template apply<kSplit>(x, global_index<kLayout>(p, block, e), p.log_n);
        tile.set(e, x);
      }
    }
  }
}

// Tile -> global: data[g] (data[rev_n(g)] when p.rev_out) <- tile element e. kTwiddle: times
// the inter-pass twiddle first (DIF passes with L > 1); then `post` at index g (kAbc writes
// post.a[g] instead of data).
template <int kTwiddle, int kRadix, class Tile, int kLayout = kAnyLayout, int kBlocks = 2,
          bool kSplit = true>
PRESTAGE_HD_INLINE void store_tile(const Pass& p, uint64_t block, Fr* data, const Fr* tw,
                                   bool inverse, const Op& post, const Tile& tile, unsigned tid,
                                   unsigned nthreads) {
  const unsigned tn = p.tile_n();
  constexpr unsigned B = kBatch<kRadix, kBlocks>;
  for (unsigned i0 = 0; i0 < kPerThread<kRadix, kBlocks>; i0 += B) {
    Fr t[B];
    if (kTwiddle) {
#if PRESTAGE_DEVICE_CODE
#pragma unroll
#endif
      for (unsigned i = 0; i < B; ++i) {
        const unsigned e = tid + (i0 + i) * nthreads;
        if (e < tn) t[i] = interpass_twiddle<kTwiddle>(p, block, e, tw, inverse);
      }
    }
#if PRESTAGE_DEVICE_CODE
#pragma unroll
#endif
    for (unsigned i = 0; i < B; ++i) {
      const unsigned e = tid + (i0 + i) * nthreads;
      if (e < tn) {
        Fr x = tile.get(e);
        if (kTwiddle && interpass_applies<kTwiddle>(p, block, e)) x = x * t[i];
        const uint64_t g = global_index<kLayout>(p, block, e);
        if (post.mode == Op::kAbc) {
          Fr h = post.a[g] * post.b[g] - x;
          if (post.scale) h = h * post.c;
          post.a[g] = h;
        } else {
          if (post.mode != Op::kNone) x = post.template apply<kSplit>(x, g, p.log_n);
          data[p.rev_out ? rev_index(p, g) : g] = x;
        }
      }
    }
  }
}

// One radix-2^M unit over stages t_lo .. t_lo + M - 1 of the tile's rows (DIF: top stage first;
// DIT: bottom stage first). Unit u: column u mod 2^log_lo, rows j0 + s 2^t_lo, s < 2^M. The
// butterfly of rows (j, j + 2^t) uses W_2^(t+1)^(j mod 2^t) = ws[(j mod 2^t) 2^(k-1-t)].
// kLowest (t_lo = 0): j mod 2^t = s mod 2^t is known at compile time, so products by 1 vanish.
// kSkipOne (radix-1 units of stage_unit(), whose twiddle index is warp-uniform): the butterflies
// at twiddle index 0 take the kOne form by a run-time branch that does not diverge.
template <int M, bool kLowest, bool kDit, class Tile, bool kSkipOne = false>
PRESTAGE_HD_INLINE void radix_unit(const Pass& p, unsigned t_lo, const Fr* ws, Tile& tile,
                                   unsigned u) {
  constexpr unsigned S = 1u << M;
  const unsigned lo_mask = (1u << p.log_lo) - 1;
  const unsigned col = u & lo_mask;
  const unsigned q = u >> p.log_lo;
  const unsigned tl = kLowest ? 0u : t_lo;
  const unsigned j0 = (q & ((1u << tl) - 1)) | ((q >> tl) << (tl + M));
  if constexpr (M == 1 && !kLowest) {
    // One butterfly, ordered so that fewer values are live across its product (the pass kernels
    // run at <= 64 registers with 512-thread blocks, <= 80 with 256): DIF stores the sum before the
    // product; DIT loads the upper element after it. The unit's two elements belong to this thread
    // alone within the stage.
    const unsigned e0 = (j0 << p.log_lo) | col, e1 = ((j0 + (1u << tl)) << p.log_lo) | col;
    const unsigned jl = j0 & ((1u << tl) - 1);
    const bool one = kSkipOne && jl == 0;
    if constexpr (kDit) {
      Fr v = tile.get(e1);
      if (!one) v = v * ws[jl << (p.k - 1 - tl)];
      const Fr a = tile.get(e0);
      tile.set(e1, a - v);
      tile.set(e0, a + v);
    } else {
      const Fr a = tile.get(e0), b = tile.get(e1);
      if (one) {
        tile.set(e0, a + b);
        tile.set(e1, a - b);
      } else {
        const Fr d = dif_sub(a, b);
        tile.set(e0, a + b);
        tile.set(e1, dif_mul(ws[jl << (p.k - 1 - tl)], d));
      }
    }
    return;
  }
  Fr x[S];
#if PRESTAGE_DEVICE_CODE
#pragma unroll
#endif
  for (unsigned s = 0; s < S; ++s) x[s] = tile.get(((j0 + (s << tl)) << p.log_lo) | col);
#if PRESTAGE_DEVICE_CODE
#pragma unroll
#endif
  for (int step = 0; step < M; ++step) {
    const int d = kDit ? step : M - 1 - step;  // stage t = tl + d
    const unsigned t = tl + static_cast<unsigned>(d);
#if PRESTAGE_DEVICE_CODE
#pragma unroll
#endif
    for (unsigned s = 0; s < S; ++s) {
      if ((s >> d) & 1u) continue;
      const unsigned s2 = s | (1u << d);
      const unsigned jl = kLowest ? (s & ((1u << d) - 1)) : ((j0 + (s << tl)) & ((1u << t) - 1));
      const Fr& w = ws[jl << (p.k - 1 - t)];
      // kLowest: jl is a compile-time constant per (s, d) once unrolled, so the products by 1
      // (jl == 0) vanish from the code rather than branching.
      if ((kLowest || kSkipOne) && jl == 0) {
        if (kDit)
          butterfly_dit<true>(x[s], x[s2], w);
        else
          butterfly_dif<true>(x[s], x[s2], w);
      } else {
        if (kDit)
          butterfly_dit<false>(x[s], x[s2], w);
        else
          butterfly_dif<false>(x[s], x[s2], w);
      }
    }
  }
#if PRESTAGE_DEVICE_CODE
#pragma unroll
#endif
  for (unsigned s = 0; s < S; ++s) tile.set(((j0 + (s << tl)) << p.log_lo) | col, x[s]);
}

// The stage groups of a pass: a lowest group of up to 2^r0 elements per unit (stages
// 0 .. m0 - 1, m0 = min(r0, k)), then groups of up to 2^r (r <= r0): group i >= 1 covers stages
// m0 + r (i - 1) .. min(m0 + r i, k) - 1. DIF runs groups top-down, DIT bottom-up.
// Products by 1 in the lowest group: with units of 2^m0 elements, stage t < m0 has 2^(m0-1-t)
// of its 2^(m0-1) butterflies per unit at twiddle index 0, all skipped at compile time, so the
// lowest group costs (m0 - 2 + 2^(1-m0)) n/2 products instead of (m0 - 1) n/2 for the tile's
// n elements: m0 = 1: 0; 2: n/4 (0.25 n saved); 3: 5n/8 (0.375 n saved).
PRESTAGE_HD_INLINE unsigned group_count(const Pass& p, unsigned r, unsigned r0) {
  return p.k <= r0 ? 1u : 1u + (p.k - r0 + r - 1) / r;
}
PRESTAGE_HD_INLINE unsigned group_lo(unsigned r, unsigned r0, unsigned i) {
  return i == 0 ? 0u : r0 + r * (i - 1);
}
PRESTAGE_HD_INLINE unsigned group_size(const Pass& p, unsigned r, unsigned r0, unsigned i) {
  const unsigned cap = i == 0 ? r0 : r;
  const unsigned left = p.k - group_lo(r, r0, i);
  return left < cap ? left : cap;
}

// Lever Z: a radix-1 unit of stage t (above the lowest group) is the butterfly of rows
// (j, j + 2^t), j = jl + hi 2^(t+1), jl < 2^t its twiddle index, in column col. run_group numbers
// units u = (q << log_lo) | col with q = (hi << t) | jl, so the 32 lanes of a warp span several
// jl and the products by w^0 (jl = 0, 2^-t of the stage) cannot be skipped without divergence.
// stage_unit() reads q the other way round, q = (jl << (k - 1 - t)) | hi: lanes span col and hi,
// and jl is the same for the whole warp when log_lo + k - 1 - t >= 5 (twiddle_uniform(): at 2^27
// with log_lo = 2, stages t = 2 .. 5, n/2 (1/4 + 1/8 + 1/16 + 1/32) = 0.23 n of the pass's 3.75 n
// products skipped), and the twiddle read is a shared-memory broadcast. A 16-byte phase then holds
// 4 columns x 2 rows 2^(t+1) apart: 2-way bank conflicts for t = 3 .. 5 (swz(), measured there);
// log_lo >= 2 required.
PRESTAGE_HD_INLINE bool twiddle_uniform(const Pass& p, unsigned t) {
  return p.log_lo >= 2 && p.log_lo + (p.k - 1 - t) >= 5;
}
PRESTAGE_HD_INLINE unsigned stage_unit(const Pass& p, unsigned t, unsigned u) {
  const unsigned hbits = p.k - 1 - t;
  const unsigned q = u >> p.log_lo;
  const unsigned hi = q & ((1u << hbits) - 1), jl = q >> hbits;
  return (((hi << t) | jl) << p.log_lo) | (u & ((1u << p.log_lo) - 1));
}

// All units of group i for thread tid (of nthreads): units of up to 2^kLow elements in the
// lowest group, up to 2^kRadix above it (kLow >= kRadix); radix-1 units above the lowest group
// through stage_unit() where twiddle_uniform().
template <bool kDit, int kRadix, int kLow, class Tile>
PRESTAGE_HD_INLINE void run_group(const Pass& p, unsigned i, const Fr* ws, Tile& tile, unsigned tid,
                                  unsigned nthreads) {
  static_assert(kLow >= kRadix && kLow <= static_cast<int>(kMaxRadixLog));
  const unsigned m = group_size(p, kRadix, kLow, i);
  const unsigned t_lo = group_lo(kRadix, kLow, i);
  const unsigned units = p.tile_n() >> m;
  if (i != 0 && m == 1 && twiddle_uniform(p, t_lo)) {
    for (unsigned u = tid; u < units; u += nthreads)
      radix_unit<1, false, kDit, Tile, true>(p, t_lo, ws, tile, stage_unit(p, t_lo, u));
    return;
  }
  for (unsigned u = tid; u < units; u += nthreads) {
    if (i == 0) {
      if (kLow >= 3 && m == 3)
        radix_unit<(kLow >= 3 ? 3 : 1), true, kDit>(p, 0, ws, tile, u);
      else if (kLow >= 2 && m == 2)
        radix_unit<(kLow >= 2 ? 2 : 1), true, kDit>(p, 0, ws, tile, u);
      else
        radix_unit<1, true, kDit>(p, 0, ws, tile, u);
    } else {
      if (kRadix >= 3 && m == 3)
        radix_unit<(kRadix >= 3 ? 3 : 1), false, kDit>(p, t_lo, ws, tile, u);
      else if (kRadix >= 2 && m == 2)
        radix_unit<(kRadix >= 2 ? 2 : 1), false, kDit>(p, t_lo, ws, tile, u);
      else
        radix_unit<1, false, kDit>(p, t_lo, ws, tile, u);
    }
  }
}

// ---- coset factors at one product an element (gpu/ntt/DECISIONS.md #10) ----
// The coset transforms scale by g^i before a forward (at the input index i) or by n^-1 g^-i
// after an inverse (at the output index i). Formed from hi[i >> 11] * lo[i & 2047] that is 2
// products an element (~4.2 ms of a 2^27 transform on the H200). For a plan of three passes
// (k0, k1, k2 stages: 2^21 .. 2^29) part of the factor rides on the middle pass's inter-pass
// twiddle, which is a product already (Pass::tw_table), and the rest is one table read:
// - forward, i = (x << k2) | c with c the middle pass's global column: g^c is the same for the
//   whole column, so it commutes with the first two passes' row transforms and joins the middle
//   pass's twiddle w^(2^k0 c rev(j)) (row position j); the first pass's loads multiply by
//   g^(x 2^k2), one read at index i >> k2;
// - inverse, at position q = (f, j, r) (k0, k1, k2 bits) before the bit reversal, output index
//   rev_n(q) = rev(r) 2^(k0+k1) + rev(j) 2^k0 + rev(f): g^(-rev(j) 2^k0) depends on the middle
//   pass's output row alone, so it joins that pass's twiddle; the last pass's stores multiply by
//   n^-1 g^-(rev(r) 2^(k0+k1) + rev(f)), one read at index (f, r).
// - the H chain (gpu_ntt.cu, interpolate_to_coset: DIF with w^-1, n^-1 g^i at the
//   coefficient index rev_n(q) in the fused pass, DIT with w): g^(rev(j) 2^k0) is the same for
//   the whole sub-problem (f, j) of the fused pass's DIT, so it joins the middle DIT pass's load
//   twiddle; the fused pass multiplies by n^-1 g^(rev(r) 2^(k0+k1) + rev(f)), one read at (f, r).
// So 1 product an element instead of 2; the tables are 2^(k0+k1) + 5 x 2^18-ish entries (6 x 8
// MiB at 2^27).
struct CosetSplit {
  unsigned k0 = 0, k1 = 0, k2 = 0;  // stages of the three passes
  std::vector<Fr> fwd_pre;          // 2^(k0+k1): g^(x 2^k2) at x (Op::split(., k2, 0) on the loads)
  std::vector<Fr> fwd_tw;           // [j < 2^k1][c < 2^k2]: (w^(2^k0 rev(j)) g)^c, middle pass
  std::vector<Fr> inv_tw;           // [j][c]: (g w^c)^(-2^k0 rev(j)), middle pass (with w^-1)
  std::vector<Fr> inv_post;         // [f < 2^k0][r < 2^k2]: n^-1 g^-(rev(r) 2^(k0+k1) + rev(f))
  std::vector<Fr> h_tw;             // [j][c]: (g w^c)^(2^k0 rev(j)), the H chain's middle DIT pass
  std::vector<Fr> h_mid;            // [f][r]: n^-1 g^(rev(r) 2^(k0+k1) + rev(f)), its fused pass
  unsigned log_n() const { return k0 + k1 + k2; }
  // The Ops: pre of the forward's first pass, post of the inverse's last pass, mid of the H
  // chain's fused pass (both at the position q = (f, j, r)).
  Op fwd_pre_op(const Fr* table) const { return Op::split(table, k2, 0); }
  Op inv_post_op(const Fr* table) const { return Op::split(table, log_n() - k0, k2); }
  Op h_mid_op(const Fr* table) const { return Op::split(table, log_n() - k0, k2); }
};

inline bool coset_split_applies(const std::vector<Pass>& passes) {
  return passes.size() == 3;
}

// The tables for the DIF plan `passes` (coset_split_applies), the domain root `omega` (a
// primitive 2^log_n-th root), shift g != 0 and n_inv = 1/n.
inline CosetSplit coset_split_tables(const std::vector<Pass>& passes, const Fr& omega, const Fr& g,
                                     const Fr& n_inv) {
  CosetSplit s;
  s.k0 = passes[0].k;
  s.k1 = passes[1].k;
  s.k2 = passes[2].k;
  auto pow2k = [](Fr x, unsigned k) {
    for (unsigned i = 0; i < k; ++i) x = x * x;
    return x;
  };
  auto powers = [](const Fr& start, const Fr& step, std::size_t count) {
    std::vector<Fr> v(count);
    Fr acc = start;
    for (std::size_t i = 0; i < count; ++i, acc = acc * step) v[i] = acc;
    return v;
  };
  const std::size_t n0 = std::size_t{1} << s.k0, n1 = std::size_t{1} << s.k1,
                    n2 = std::size_t{1} << s.k2;
  const Fr g_inv = g.inverse();
  s.fwd_pre = powers(Fr::one(), pow2k(g, s.k2), n0 * n1);
  const Fr W = pow2k(omega, s.k0);  // a primitive 2^(k1+k2)-th root
  const std::vector<Fr> Wp = powers(Fr::one(), W, n1);
  const std::vector<Fr> Wip = powers(Fr::one(), W.inverse(), n1);
  const std::vector<Fr> Gp = powers(Fr::one(), pow2k(g, s.k0), n1);       // g^(2^k0 e)
  const std::vector<Fr> Gip = powers(Fr::one(), pow2k(g_inv, s.k0), n1);  // g^(-2^k0 e)
  s.fwd_tw.reserve(n1 * n2);
  s.inv_tw.reserve(n1 * n2);
  s.h_tw.reserve(n1 * n2);
  for (std::size_t j = 0; j < n1; ++j) {
    const uint32_t e = rev_bits(static_cast<uint32_t>(j), s.k1);
    for (const Fr& x : powers(Fr::one(), Wp[e] * g, n2)) s.fwd_tw.push_back(x);
    for (const Fr& x : powers(Gip[e], Wip[e], n2)) s.inv_tw.push_back(x);
    for (const Fr& x : powers(Gp[e], Wp[e], n2)) s.h_tw.push_back(x);
  }
  // [f][r] = start(f) * step(r) at the bit-reversed f and r.
  auto rev_grid = [&](const std::vector<Fr>& a, const std::vector<Fr>& b) {
    std::vector<Fr> v(n0 * n2);
    for (std::size_t f = 0; f < n0; ++f) {
      const Fr& x = a[rev_bits(static_cast<uint32_t>(f), s.k0)];
      for (std::size_t r = 0; r < n2; ++r)
        v[f * n2 + r] = x * b[rev_bits(static_cast<uint32_t>(r), s.k2)];
    }
    return v;
  };
  s.inv_post = rev_grid(powers(n_inv, g_inv, n0),  // n^-1 g^-f, g^-(r 2^(k0+k1))
                        powers(Fr::one(), pow2k(g_inv, s.k0 + s.k1), n2));
  s.h_mid = rev_grid(powers(n_inv, g, n0), powers(Fr::one(), pow2k(g, s.k0 + s.k1), n2));
  return s;
}

// ---- host emulation (tests): the same phases, block after block, thread after thread ----

struct HostTile {
  Fr* v;
  PRESTAGE_HD_INLINE Fr get(unsigned e) const { return v[swz(e)]; }
  PRESTAGE_HD_INLINE void set(unsigned e, const Fr& x) const { v[swz(e)] = x; }
};

// Kinds of pass kernels: DIF (twiddle on store), DIT (twiddle on load), and the fused
// DIF(w^-1) -> scale -> DIT(w) pass of the H computation (L = 1 only).
enum class Kind { Dif, Dit, DifScaleDit };

// Runs one pass on the host exactly as the kernel does (tid loops inside barriers).
// Dif/Dit: `inverse` picks the roots; DifScaleDit: DIF with w^-1, `mid`, DIT with w.
// src -> dst (the same buffer for in-place passes; distinct when a multi-tile pass has
// rev_in or rev_out).
template <int kRadix = kMaxRadixLog, int kLow = kRadix, int kBlocks = 2>
void emulate_pass(Kind kind, const Pass& p, const Fr* src, Fr* dst, const Fr* tw, bool inverse,
                  const Op& pre, const Op& mid, const Op& post) {
  const unsigned nt = p.threads(kPerThread<kRadix, kBlocks>);
  std::vector<Fr> tile_mem(p.tile_n());
  const std::size_t half = p.k ? std::size_t{1} << (p.k - 1) : 0;
  std::vector<Fr> ws(half + 1), ws2(half + 1);
  HostTile tile{tile_mem.data()};
  for (std::size_t launch = 0; launch < p.blocks(); ++launch) {
    const uint64_t b = block_tile(p, launch);
    const bool inv1 = kind == Kind::DifScaleDit ? true : inverse;
    for (unsigned tid = 0; tid < nt; ++tid) load_roots(p, tw, inv1, ws.data(), tid, nt);
    if (kind == Kind::DifScaleDit) {
      for (unsigned tid = 0; tid < nt; ++tid) load_roots(p, tw, false, ws2.data(), tid, nt);
    }
    const bool tw_load = kind == Kind::Dit && p.log_L > 0;
    const bool tw_store = kind == Kind::Dif && p.log_L > 0;
    for (unsigned tid = 0; tid < nt; ++tid) {
      if (tw_load && p.tw_table != nullptr)
        load_tile<kTwTable, kRadix, HostTile, kAnyLayout, kBlocks>(p, b, src, tw, inverse, pre,
                                                                   tile, tid, nt);
      else if (tw_load)
        load_tile<kTwRoot, kRadix, HostTile, kAnyLayout, kBlocks>(p, b, src, tw, inverse, pre, tile,
                                                                  tid, nt);
      else
        load_tile<false, kRadix, HostTile, kAnyLayout, kBlocks>(p, b, src, tw, inverse, pre, tile,
                                                                tid, nt);
    }
    const unsigned G = group_count(p, kRadix, kLow);
    if (kind == Kind::Dit) {
      for (unsigned i = 0; i < G; ++i)
        for (unsigned tid = 0; tid < nt; ++tid)
          run_group<true, kRadix, kLow>(p, i, ws.data(), tile, tid, nt);
    } else {
      for (unsigned i = G; i-- > 0;)
        for (unsigned tid = 0; tid < nt; ++tid)
          run_group<false, kRadix, kLow>(p, i, ws.data(), tile, tid, nt);
    }
    if (kind == Kind::DifScaleDit) {
      for (unsigned e = 0; e < p.tile_n(); ++e) {
        tile.set(e, mid.apply(tile.get(e), global_index(p, b, e), p.log_n));
      }
      for (unsigned i = 0; i < G; ++i)
        for (unsigned tid = 0; tid < nt; ++tid)
          run_group<true, kRadix, kLow>(p, i, ws2.data(), tile, tid, nt);
    }
    for (unsigned tid = 0; tid < nt; ++tid) {
      if (tw_store && p.tw_table != nullptr)
        store_tile<kTwTable, kRadix, HostTile, kAnyLayout, kBlocks>(p, b, dst, tw, inverse, post,
                                                                    tile, tid, nt);
      else if (tw_store)
        store_tile<kTwRoot, kRadix, HostTile, kAnyLayout, kBlocks>(p, b, dst, tw, inverse, post,
                                                                   tile, tid, nt);
      else
        store_tile<false, kRadix, HostTile, kAnyLayout, kBlocks>(p, b, dst, tw, inverse, post, tile,
                                                                 tid, nt);
    }
  }
}

// In place (no permutation across tiles).
template <int kRadix = kMaxRadixLog, int kLow = kRadix, int kBlocks = 2>
void emulate_pass(Kind kind, const Pass& p, Fr* data, const Fr* tw, bool inverse, const Op& pre,
                  const Op& mid, const Op& post) {
  emulate_pass<kRadix, kLow, kBlocks>(kind, p, data, data, tw, inverse, pre, mid, post);
}

}  // namespace prestage::ntt::pass
