// GPU Fr NTT (see gpu/ntt/gpu_ntt.hpp for the contract, gpu/ntt/ntt_pass.hpp for the passes).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "gpu/ntt/gpu_ntt.hpp"
#include "gpu/ntt/ntt_pass.hpp"

namespace prestage::ntt {

namespace {

using pass::Kind;
using pass::Op;
using pass::Pass;

constexpr unsigned kTableLoBits = 10;  // twiddle generation: w^e = hi[e >> 10] * lo[e & 1023]
// Dynamic shared memory a pass may need: a 2^11 tile plus two root tables of 2^10 entries.
constexpr int kMaxPassSmem = static_cast<int>(sizeof(Fr) << (pass::kTileLog + 1));

__global__ void twiddle_kernel(Fr* out, std::size_t count, const Fr* lo, const Fr* hi) {
  std::size_t e = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (e < count) out[e] = hi[e >> kTableLoBits] * lo[e & ((1u << kTableLoBits) - 1)];
}

// One pass (ntt_pass.hpp): roots -> shared, tile in from src (with the inter-pass twiddle for
// DIT; gathered at bit-reversed indices when p.rev_in), stage groups between barriers, tile out
// to dst (with the inter-pass twiddle for DIF; scattered when p.rev_out). src == dst for
// in-place passes. Shared memory:
// tile (2 planes x tile_n x 16 B) | ws (2^(k-1) x 32 B) | ws2 (DifScaleDit only).
// kTw: pass::TwiddleKind of the inter-pass twiddle (kTwNone when the pass has L = 1);
// kSplit: Op::kSplit compiled into the Ops (the coset variants; the plain kernels, false, are
// those of ea03a08).
template <Kind K, int kTw, bool kSplit, int kRadix, int kLow, int kMinBlocks>
__global__ void __launch_bounds__(pass::kMaxThreads<kRadix, kMinBlocks>, kMinBlocks)
    pass_kernel(const Fr* src, Fr* dst, const Fr* tw, Pass p, bool inverse, Op pre, Op mid,
                Op post) {
  // Index formula (pass::global_index): columns, rows (maybe grouped), or plain rows.
  constexpr int kLayout = kTw != pass::kTwNone     ? pass::kColumns
                          : K == Kind::DifScaleDit ? pass::kPlainRows
                                                   : pass::kRows;
  extern __shared__ __align__(16) uint64_t smem[];
  const unsigned tn = p.tile_n();
  pass::PlaneTile tile{smem, smem + 2 * tn};
  Fr* ws = reinterpret_cast<Fr*>(smem + 4 * tn);
  Fr* ws2 = ws + (p.k ? (1u << (p.k - 1)) : 0u);
  const unsigned tid = threadIdx.x, nt = blockDim.x;
  const uint64_t b = pass::block_tile(p, blockIdx.x);
  pass::load_roots(p, tw, K == Kind::DifScaleDit ? true : inverse, ws, tid, nt);
  if (K == Kind::DifScaleDit) pass::load_roots(p, tw, false, ws2, tid, nt);
  pass::load_tile<K == Kind::Dit ? kTw : pass::kTwNone, kRadix, pass::PlaneTile, kLayout,
                  kMinBlocks, kSplit>(p, b, src, tw, inverse, pre, tile, tid, nt);
  __syncthreads();
  const unsigned groups = pass::group_count(p, kRadix, kLow);
  if (K == Kind::Dit) {
    for (unsigned i = 0; i < groups; ++i) {
      pass::run_group<true, kRadix, kLow>(p, i, ws, tile, tid, nt);
      __syncthreads();
    }
  } else {
    for (unsigned i = groups; i-- > 0;) {
      pass::run_group<false, kRadix, kLow>(p, i, ws, tile, tid, nt);
      __syncthreads();
    }
  }
  if (K == Kind::DifScaleDit) {
    for (unsigned e = tid; e < tn; e += nt) {
      tile.set(e, mid.template apply<kSplit>(tile.get(e), pass::global_index<kLayout>(p, b, e),
                                             p.log_n));
    }
    __syncthreads();
    for (unsigned i = 0; i < groups; ++i) {
      pass::run_group<true, kRadix, kLow>(p, i, ws2, tile, tid, nt);
      __syncthreads();
    }
  }
  pass::store_tile<K == Kind::Dif ? kTw : pass::kTwNone, kRadix, pass::PlaneTile, kLayout,
                   kMinBlocks, kSplit>(p, b, dst, tw, inverse, post, tile, tid, nt);
}

// The last DIF pass with the bit reversal fused into its stores, in place: a persistent
// grid, every block resident (cooperative launch), takes tiles by ticket in the order of the
// domain's mirror table (DeviceDomain::mirror_state): the tiles of S_m, then those of S_rev(m).
// A tile of S_m writes only into S_rev(m) (index (a, m, b) -> (rev b, rev m, rev a)), whose
// tiles are the only ones reading there, so after loading its tile (and counting it in
// loaded[m]) and running its stages, a block waits until loaded[rev m] holds all 2^(k - log_lo)
// tiles of S_rev(m) before storing. No deadlock: tickets go out in order and a block waits only
// for the set paired with its own, so if every resident block waited, either one holds a ticket
// past the lowest waiting pair, which is then fully claimed, or all hold tickets of that pair, and
// the grid (at least the tiles of two sets) claims all of it: either way it is fully loaded,
// since loading never waits. Tickets -> tiles: pass::mirror_tile (tested on the host,
// tests/unit/nttinplace). Shared memory as pass_kernel (tile | ws).
// kSplit: Op::kSplit compiled into `post` (the coset inverse's variant).
// kRevOrder (detail::MirrorOrder::Reversed): a set's tiles taken in bit-reversed order
// (pass::mirror_tile), as the scratch path's last pass takes them, so that consecutive
// tickets store adjacent runs of each row; false: the ascending order, where the runs of
// consecutive tickets lie 2^(set_log - 1) runs apart (8 KB at 2^27).
template <int kRadix, int kLow, int kMinBlocks, bool kSplit = false, bool kRevOrder = false>
__global__ void __launch_bounds__(pass::kMaxThreads<kRadix, kMinBlocks>, kMinBlocks)
    mirror_pass_kernel(Fr* data, const Fr* tw, Pass p, bool inverse, Op post, uint32_t* state) {
  extern __shared__ __align__(16) uint64_t smem[];
  __shared__ uint32_t s_ticket;
  const unsigned tn = p.tile_n();
  pass::PlaneTile tile{smem, smem + 2 * tn};
  Fr* ws = reinterpret_cast<Fr*>(smem + 4 * tn);
  const unsigned tid = threadIdx.x, nt = blockDim.x;
  const unsigned mbits = pass::mirror_bits(p);
  const unsigned per_set_log = pass::mirror_set_log(p);  // tiles of one S_m, log2
  const uint32_t tiles = 1u << (p.log_n - p.tile_log());
  const uint32_t* order = state;
  uint32_t* ticket = state + (1u << mbits);
  uint32_t* loaded = ticket + 1;
  pass::load_roots(p, tw, inverse, ws, tid, nt);
  const unsigned groups = pass::group_count(p, kRadix, kLow);
  for (;;) {
    if (tid == 0) s_ticket = atomicAdd(ticket, 1u);
    __syncthreads();  // s_ticket and ws visible; the previous tile's stores read the tile
    const uint32_t t = s_ticket;
    if (t >= tiles) break;
    uint32_t m;
    const uint64_t b = pass::mirror_tile(p, order, t, &m, kRevOrder);
    pass::load_tile<pass::kTwNone, kRadix, pass::PlaneTile, pass::kRows, kMinBlocks, false>(
        p, b, data, tw, inverse, Op{}, tile, tid, nt);
    __syncthreads();  // every load of the tile has completed (its values are in shared memory)
    if (tid == 0) atomicAdd(loaded + m, 1u);
    for (unsigned i = groups; i-- > 0;) {
      pass::run_group<false, kRadix, kLow>(p, i, ws, tile, tid, nt);
      __syncthreads();
    }
    if (tid == 0) {
      const uint32_t* want = loaded + pass::rev_bits(m, mbits);
      const uint32_t full = 1u << per_set_log;
      uint32_t v;
      for (;;) {
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(want) : "memory");
        if (v >= full) break;
        __nanosleep(64);
      }
    }
    __syncthreads();
    pass::store_tile<pass::kTwNone, kRadix, pass::PlaneTile, pass::kRows, kMinBlocks, kSplit>(
        p, b, data, tw, inverse, post, tile, tid, nt);
    __syncthreads();  // before the next ticket overwrites s_ticket and the tile
  }
}

// Bit reversal of n >= 2^10 elements in place, coalesced: index (a, m, b) with a, b of 5 bits
// swaps with (rev b, rev m, rev a). Block m (m <= rev m) loads the 32 x 32 tiles of m and rev m
// (rows a, 32 consecutive b = 1 KB each), and writes each with the other's transpose-reversal.
// Shared: 4 planes x 1024 x 16 B = 64 KB; row r, column c at r * 32 + (c ^ (rev5(r) & 7)), so
// both the row-wise stores and the reversed column reads hit distinct banks.
constexpr int kRevSmem = 4 * 1024 * 16;
__global__ void __launch_bounds__(256) bit_reverse_tiled_kernel(Fr* data, unsigned log_n) {
  extern __shared__ uint64_t sm[];
  const unsigned mbits = log_n - 10;
  const uint32_t m = blockIdx.x;
  const uint32_t mr = pass::rev_bits(m, mbits);
  if (mr < m) return;
  const bool pair = mr != m;
  uint64_t* X0 = sm;
  uint64_t* X1 = sm + 2048;
  uint64_t* Y0 = sm + 4096;
  uint64_t* Y1 = sm + 6144;
  auto gidx = [&](uint32_t a, uint32_t mm, uint32_t bb) {
    return (uint64_t{a} << (log_n - 5)) | (uint64_t{mm} << 5) | bb;
  };
  auto slot = [](uint32_t r, uint32_t c) { return r * 32 + (c ^ (pass::rev_bits(r, 5) & 7)); };
  for (unsigned e = threadIdx.x; e < 1024; e += blockDim.x) {
    const uint32_t a = e >> 5, bb = e & 31;
    const unsigned s = slot(a, bb);
    const Fr u = data[gidx(a, m, bb)];
    X0[2 * s] = u.limb[0];
    X0[2 * s + 1] = u.limb[1];
    X1[2 * s] = u.limb[2];
    X1[2 * s + 1] = u.limb[3];
    if (pair) {
      const Fr v = data[gidx(a, mr, bb)];
      Y0[2 * s] = v.limb[0];
      Y0[2 * s + 1] = v.limb[1];
      Y1[2 * s] = v.limb[2];
      Y1[2 * s + 1] = v.limb[3];
    }
  }
  __syncthreads();
  for (unsigned e = threadIdx.x; e < 1024; e += blockDim.x) {
    const uint32_t a = e >> 5, bb = e & 31;
    const unsigned s = slot(pass::rev_bits(bb, 5), pass::rev_bits(a, 5));
    Fr u;  // tile X element (rev b, rev a)
    u.limb[0] = X0[2 * s];
    u.limb[1] = X0[2 * s + 1];
    u.limb[2] = X1[2 * s];
    u.limb[3] = X1[2 * s + 1];
    if (pair) {
      Fr v;  // tile Y element (rev b, rev a)
      v.limb[0] = Y0[2 * s];
      v.limb[1] = Y0[2 * s + 1];
      v.limb[2] = Y1[2 * s];
      v.limb[3] = Y1[2 * s + 1];
      data[gidx(a, m, bb)] = v;
      data[gidx(a, mr, bb)] = u;
    } else {
      data[gidx(a, m, bb)] = u;
    }
  }
}

// Kernel tuning (PRESTAGE_NTT_TUNING="row_log:radix[:low[:blocks[:rev_group[:gather_group]]]]",
// benchmarks only, read once per process; low defaults to radix, blocks to the default's where
// that combination is built, else 1, rev_group to 3, gather_group to 0; a combination not built
// is an error):
//   row_log  most stages of a pass with columns (plan()): 9 (2^9 rows x 4 columns per tile) or
//            8 (2^8 x 8; at 2^27 the last pass then takes 11 stages);
//   radix    register units of 2^radix elements between shared-memory exchanges (1 or 2);
//   low      units of 2^low elements for the lowest stages of each pass (low >= radix), where
//            the products by 1 vanish at compile time (ntt_pass.hpp, group_count);
//   blocks   __launch_bounds__ minimum blocks per multiprocessor (1, 2 or 3; 2 caps the kernels
//            at 64 registers so two 512-thread blocks stay resident; 3 runs 256-thread blocks,
//            8 elements per thread, at <= 80 registers: three tiles per SM, 24 warps);
//   rev_group  up to 2^rev_group sub-problems per tile in the forward's last DIF pass when the
//            bit reversal is fused into its stores (0..3; pass::fuse_reversal): runs of
//            2^rev_group adjacent elements per scattered row; 0 is single 32-byte
//            elements. DEFAULT 3 (at 2^27 the 9-stage pass has room for 4 sub-problems only),
//            measured on the H200, forward 2^27 with scratch: 0 43.69 ms, 3 42.21 ms
//            (gpu/ntt/DECISIONS.md #3);
//   gather_group  accepted (0..3) and ignored: it grouped the sub-problems of the
//            inverse's first DIT pass, whose loads gathered the permutation; the inverse now runs
//            DIF passes like the forward.
// DEFAULT 9:1:2:3: 256-thread blocks, three per SM at <= 80 registers, no spills. Measured on
// the H200 at 2^27, A/B in one call against 9:1:2:2 (the default before: 64 registers, 8-24 B
// of spills in three of its five kernels): forward with scratch 37.93 ms against 41.76 (-9.2%),
// groth16_h_circom 249.24 against 262.10 (data/gpu-runs/2026-11-30-h200/ntt7/run1). The
// earlier sweeps (9:1:1:1 .. 8:1:2:2, radix 2 and 3, each product): gpu/ntt/DECISIONS.md #2.
struct Tuning {
  unsigned row_log = pass::kColumnRowLog;
  int radix = 1;
  int low = 1;
  int blocks = 1;
  unsigned rev_group = pass::kRevGroupLog;
};
constexpr Tuning kDefaultTuning{pass::kColumnRowLog, 1, 2, 3, pass::kRevGroupLog};
// The (radix, low, blocks) combinations launch() has kernels for.
constexpr int kBuilt[] = {111, 112, 122, 123, 221};
constexpr bool built(int radix, int low, int blocks) {
  for (int k : kBuilt)
    if (k == radix * 100 + low * 10 + blocks) return true;
  return false;
}
const Tuning& tuning() {
  static const Tuning t = [] {
    Tuning r = kDefaultTuning;
    if (const char* v = std::getenv("PRESTAGE_NTT_TUNING")) {
      unsigned a = 0;
      int b = 0, c = -1, d = -1, e = static_cast<int>(pass::kRevGroupLog);
      int f = static_cast<int>(pass::kGatherGroupLog);
      const int got = std::sscanf(v, "%u:%d:%d:%d:%d:%d", &a, &b, &c, &d, &e, &f);
      constexpr int kMaxGroup = static_cast<int>(pass::kRevGroupLog);
      if (c < 0) c = b;
      if (d < 0) d = built(b, c, r.blocks) ? r.blocks : 1;
      if (got < 2 || a < 4 || a > 10 || !built(b, c, d) || e < 0 || e > kMaxGroup || f < 0 ||
          f > kMaxGroup) {
        throw std::invalid_argument(
            "PRESTAGE_NTT_TUNING: expected "
            "row_log:radix[:low[:blocks[:rev_group[:gather_group]]]], "
            "row_log in 4..10, radix:low:blocks one of 1:1:1 1:1:2 1:2:2 1:2:3 2:2:1, groups in "
            "0..3");
      }
      r.row_log = a;
      r.radix = b;
      r.low = c;
      r.blocks = d;
      r.rev_group = static_cast<unsigned>(e);
    }
    return r;
  }();
  return t;
}

std::vector<Pass> plan(unsigned log_n) {
  return pass::plan(log_n, tuning().row_log);
}

template <Kind K, int kTw, bool kSplit, int kRadix, int kLow, int kMinBlocks>
void launch_with(const Pass& p, const Fr* src, Fr* dst, const Fr* tw, bool inverse, const Op& pre,
                 const Op& mid, const Op& post, cudaStream_t stream) {
  constexpr auto kernel = pass_kernel<K, kTw, kSplit, kRadix, kLow, kMinBlocks>;
  static std::once_flag configured;  // raise the dynamic shared-memory limit once per kernel
  std::call_once(configured, [] {
    PRESTAGE_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxPassSmem));
    // Three resident blocks need three tiles + root tables (3 x 72 KB): ask for the largest
    // shared-memory carveout rather than leave the split to the driver's default.
    if (kMinBlocks >= 3) {
      PRESTAGE_CUDA_CHECK(cudaFuncSetAttribute(
          kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    }
  });
  const std::size_t roots = p.k ? std::size_t{1} << (p.k - 1) : 0;
  const std::size_t smem = sizeof(Fr) * (p.tile_n() + roots * (K == Kind::DifScaleDit ? 2 : 1));
  kernel<<<static_cast<unsigned>(p.blocks()), p.threads(pass::kPerThread<kRadix, kMinBlocks>), smem,
           stream>>>(src, dst, tw, p, inverse, pre, mid, post);
  PRESTAGE_CUDA_CHECK_LAUNCH();
}

// The built (radix, low, blocks) combinations. ptxas -v (nvcc 13.0, sm_90; Dif/Dit/fused
// kernels): 1:1:1 56-76 registers; 1:1:2 52-64, no spills; 1:2:2 64 with 8-24 B of spills;
// 1:2:3 (the default; its fused H pass runs 1:2:2's kernel) 72-80, no spills; 2:2:1 89-128. Not
// built (measured slower, see Tuning, or spills of 116-892 B at 64 registers; each costs CI compile
// time): 1:2:1 (80-104), 1:3:1 (114-120), 1:3:2, 2:2:2, 2:3:x.
template <Kind K, bool kTw>
void launch(const Pass& p, const Fr* src, Fr* dst, const Fr* tw, bool inverse, const Op& pre,
            const Op& mid, const Op& post, cudaStream_t stream) {
  constexpr int kT = kTw ? pass::kTwRoot : pass::kTwNone;
  const Tuning& t = tuning();
  switch (t.radix * 100 + t.low * 10 + t.blocks) {
#define PRESTAGE_NTT_CASE(R, L, B)                                                        \
  case R * 100 + L * 10 + B:                                                              \
    launch_with<K, kT, false, R, L, B>(p, src, dst, tw, inverse, pre, mid, post, stream); \
    break;
    PRESTAGE_NTT_CASE(1, 1, 1)
    PRESTAGE_NTT_CASE(1, 1, 2)
    PRESTAGE_NTT_CASE(1, 2, 2)
    PRESTAGE_NTT_CASE(2, 2, 1)
#undef PRESTAGE_NTT_CASE
    case 123:
      // The fused H pass holds two root tables (a 2^11 tile + 2 x 8 KB = 80 KB): three blocks do
      // not fit in shared memory, and two 256-thread blocks (16 warps) measured slower than its
      // two 512-thread blocks at 64 registers (groth16_h_circom 2^27 257.92 against 249.24 ms
      // on the H200; gpu/ntt/DECISIONS.md #8), so it keeps 1:2:2 under this tuning.
      if constexpr (K == Kind::DifScaleDit)
        launch_with<K, kT, false, 1, 2, 2>(p, src, dst, tw, inverse, pre, mid, post, stream);
      else
        launch_with<K, kT, false, 1, 2, 3>(p, src, dst, tw, inverse, pre, mid, post, stream);
      break;
    default:
      throw std::logic_error("gpu_ntt: tuning not built");
  }
}

// The coset variants (a Pass::tw_table twiddle or an Op::kSplit): built for the default tuning
// only (1:2:3; its fused H pass 1:2:2), each costs CI compile time; split_kernels_built() says
// whether the coset transforms may use them (else they take the hi * lo tables). Separate
// variants keep the plain kernels' SASS identical to ea03a08's (run-time branches made them
// 7-13% longer): measured on the H200 at 2^27, plain inverse in place 39.56 ms against 39.69
// with the branches (gpu/ntt/DECISIONS.md #11).
bool split_kernels_built() {
  const Tuning& t = tuning();
  return t.radix * 100 + t.low * 10 + t.blocks == 123;
}

template <Kind K, int kTw, bool kSplit>
void launch_coset(const Pass& p, const Fr* src, Fr* dst, const Fr* tw, bool inverse, const Op& pre,
                  const Op& mid, const Op& post, cudaStream_t stream) {
  if (!split_kernels_built()) throw std::logic_error("gpu_ntt: coset split kernels not built");
  if constexpr (K == Kind::DifScaleDit)
    launch_with<K, kTw, kSplit, 1, 2, 2>(p, src, dst, tw, inverse, pre, mid, post, stream);
  else
    launch_with<K, kTw, kSplit, 1, 2, 3>(p, src, dst, tw, inverse, pre, mid, post, stream);
}

void run_pass(Kind kind, const Pass& p, const Fr* src, Fr* dst, const Fr* tw, bool inverse,
              const Op& pre, const Op& mid, const Op& post, cudaStream_t stream) {
  const bool tw_on = p.log_L > 0;
  const bool split = pre.mode == Op::kSplit || mid.mode == Op::kSplit || post.mode == Op::kSplit;
  if (tw_on && p.tw_table != nullptr) {
    // The middle pass of a coset transform (forward, inverse: Dif) or of the H chain (Dit).
    if (split) throw std::logic_error("gpu_ntt: a table twiddle and a split Op in one pass");
    if (kind == Kind::Dif)
      launch_coset<Kind::Dif, pass::kTwTable, false>(p, src, dst, tw, inverse, pre, mid, post,
                                                     stream);
    else if (kind == Kind::Dit)
      launch_coset<Kind::Dit, pass::kTwTable, false>(p, src, dst, tw, inverse, pre, mid, post,
                                                     stream);
    else
      throw std::logic_error("gpu_ntt: fused pass with a table twiddle");
    return;
  }
  if (split) {
    // The coset forward's first pass (pre), the inverse's last pass with scratch or without the
    // mirror kernel (post), the H chain's fused pass (mid).
    if (kind == Kind::Dif && tw_on)
      launch_coset<Kind::Dif, pass::kTwRoot, true>(p, src, dst, tw, inverse, pre, mid, post,
                                                   stream);
    else if (kind == Kind::Dif)
      launch_coset<Kind::Dif, pass::kTwNone, true>(p, src, dst, tw, inverse, pre, mid, post,
                                                   stream);
    else if (kind == Kind::DifScaleDit && !tw_on && p.log_lo == 0 && !p.rev_in && !p.rev_out)
      launch_coset<Kind::DifScaleDit, pass::kTwNone, true>(p, src, dst, tw, inverse, pre, mid, post,
                                                           stream);
    else
      throw std::logic_error("gpu_ntt: split Op on a pass without a coset variant");
    return;
  }
  switch (kind) {
    case Kind::Dif:
      if (tw_on)
        launch<Kind::Dif, true>(p, src, dst, tw, inverse, pre, mid, post, stream);
      else
        launch<Kind::Dif, false>(p, src, dst, tw, inverse, pre, mid, post, stream);
      break;
    case Kind::Dit:
      if (tw_on)
        launch<Kind::Dit, true>(p, src, dst, tw, inverse, pre, mid, post, stream);
      else
        launch<Kind::Dit, false>(p, src, dst, tw, inverse, pre, mid, post, stream);
      break;
    case Kind::DifScaleDit:
      // Its kernels index tiles as plain rows (pass::kPlainRows).
      if (tw_on || p.log_lo != 0 || p.rev_in || p.rev_out)
        throw std::logic_error("gpu_ntt: fused pass needs L = 1, one sub-problem per tile");
      launch<Kind::DifScaleDit, false>(p, src, dst, tw, inverse, pre, mid, post, stream);
      break;
  }
}

void bit_reverse(const DeviceDomain& d, Fr* data, cudaStream_t stream) {
  const unsigned log_n = d.log_size();
  if (log_n < 10) throw std::logic_error("gpu_ntt: separate bit reversal below 2^10");
  static std::once_flag configured;
  std::call_once(configured, [] {
    PRESTAGE_CUDA_CHECK(cudaFuncSetAttribute(
        bit_reverse_tiled_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kRevSmem));
  });
  bit_reverse_tiled_kernel<<<1u << (log_n - 10), 256, kRevSmem, stream>>>(data, log_n);
  PRESTAGE_CUDA_CHECK_LAUNCH();
}

// The plan's last pass when it can run in place with the bit reversal fused (mirror_pass_kernel):
// at least two passes (one pass is a single tile, fused in place by pass_kernel) and
// log_n >= 2k for its k stages. Sets *mbits to log_n - 2k.
bool mirror_plan(const std::vector<Pass>& passes, unsigned* mbits) {
  if (passes.size() < 2) return false;
  const Pass& last = passes.back();
  if (last.log_n < 2 * last.k) return false;
  *mbits = last.log_n - 2 * last.k;
  return true;
}

// mirror_pass_kernel's launch for the last pass `p` (fused: rev_out): a grid of every block that
// fits at once, run cooperatively (all resident). Its fits() is false, and it launches nothing,
// when the device lacks cooperative launch or cannot hold two sets' tiles at once (the grid must,
// mirror_pass_kernel).
template <int kRadix, int kLow, int kMinBlocks, bool kSplit = false, bool kRevOrder = false>
struct MirrorLaunch {
  static constexpr auto kernel = mirror_pass_kernel<kRadix, kLow, kMinBlocks, kSplit, kRevOrder>;
  unsigned grid = 0, threads = 0;
  std::size_t smem = 0;

  explicit MirrorLaunch(const Pass& p) {
    static std::once_flag configured;
    std::call_once(configured, [] {
      PRESTAGE_CUDA_CHECK(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxPassSmem));
      if (kMinBlocks >= 3) {
        PRESTAGE_CUDA_CHECK(cudaFuncSetAttribute(kernel,
                                                 cudaFuncAttributePreferredSharedMemoryCarveout,
                                                 cudaSharedmemCarveoutMaxShared));
      }
    });
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    PRESTAGE_CUDA_CHECK(cudaGetDevice(&dev));
    PRESTAGE_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    PRESTAGE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    threads = p.threads(pass::kPerThread<kRadix, kMinBlocks>);
    smem = sizeof(Fr) * (p.tile_n() + (std::size_t{1} << (p.k - 1)));
    PRESTAGE_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    const std::size_t resident = std::size_t(per_sm) * std::size_t(sms);
    const std::size_t set_tiles = std::size_t{1} << (p.k - p.log_lo);
    if (coop && resident >= 2 * set_tiles)
      grid = static_cast<unsigned>(std::min<std::size_t>(resident, p.blocks()));
  }
  bool fits() const { return grid > 0; }

  void run(const Pass& p, Fr* data, const Fr* tw, bool inverse, const Op& post, uint32_t* state,
           cudaStream_t stream) const {
    const unsigned mbits = p.log_n - 2 * p.k;
    PRESTAGE_CUDA_CHECK(cudaMemsetAsync(state + (std::size_t{1} << mbits), 0,
                                        sizeof(uint32_t) * ((std::size_t{1} << mbits) + 1),
                                        stream));
    Fr* d = data;
    const Fr* t = tw;
    Pass pp = p;
    bool inv = inverse;
    Op po = post;
    uint32_t* st = state;
    void* args[] = {&d, &t, &pp, &inv, &po, &st};
    PRESTAGE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel),
                                                    dim3(grid), dim3(threads), args, smem, stream));
  }
};

// detail::set_mirror_order: the order of a set's tiles in the in-place last pass.
std::atomic<int> g_mirror_order{static_cast<int>(detail::kDefaultMirrorOrder)};
// The reversed-order kernels are built for the default tuning only (1:2:3, as the coset
// variants: split_kernels_built()); under another tuning the ascending order runs.
bool mirror_reversed() {
  return g_mirror_order.load(std::memory_order_relaxed) ==
             static_cast<int>(detail::MirrorOrder::Reversed) &&
         split_kernels_built();
}

// With the tuning's kernels: whether mirror_pass_kernel fits (see MirrorLaunch) and, when `data`
// is not null and it does, its launch.
bool mirror_pass(const Pass& p, Fr* data, const Fr* tw, bool inverse, const Op& post,
                 uint32_t* state, cudaStream_t stream) {
  auto go = [&](const auto& launch) {
    if (launch.fits() && data != nullptr) launch.run(p, data, tw, inverse, post, state, stream);
    return launch.fits();
  };
  const bool reversed = mirror_reversed();  // default tuning only, as the coset variants
  if (post.mode == Op::kSplit) {            // the coset inverse (default tuning only, launch_coset)
    if (!split_kernels_built()) throw std::logic_error("gpu_ntt: coset split kernels not built");
    return reversed ? go(MirrorLaunch<1, 2, 3, true, true>(p)) : go(MirrorLaunch<1, 2, 3, true>(p));
  }
  if (reversed) return go(MirrorLaunch<1, 2, 3, false, true>(p));
  const Tuning& t = tuning();
  switch (t.radix * 100 + t.low * 10 + t.blocks) {
    case 111:
      return go(MirrorLaunch<1, 1, 1>(p));
    case 112:
      return go(MirrorLaunch<1, 1, 2>(p));
    case 122:
      return go(MirrorLaunch<1, 2, 2>(p));
    case 123:
      return go(MirrorLaunch<1, 2, 3>(p));
    case 221:
      return go(MirrorLaunch<2, 2, 1>(p));
    default:
      throw std::logic_error("gpu_ntt: tuning not built");
  }
}

// Every transform: DIF passes with w (w^-1 when `inverse`), natural order out; `pre` on the first
// pass's loads (at the natural input index), `post` on the last pass's stores (at the index g
// before the permutation: an Op at the output's natural index is Op::table(.., reversed)). The bit
// reversal is fused into the last pass's stores when the plan has one pass (in place: the tile
// is the whole array), a scratch buffer is given (first pass data -> scratch, last pass scratch
// -> data, scattered in runs of 2^rev_group adjacent elements) or mirror_pass_kernel runs in
// place; otherwise it is a separate pass (bit_reverse_tiled_kernel). mid_tw: null, or (a plan of
// three passes) the middle pass's Pass::tw_table (coset transforms, pass::CosetSplit).
void transform(const DeviceDomain& d, Fr* data, Fr* scratch, bool inverse, const Op& pre,
               const Op& post, cudaStream_t stream, const Fr* mid_tw = nullptr) {
  auto passes = plan(d.log_size());
  const std::size_t m = passes.size();
  const Fr* tw = d.twiddles();
  if (mid_tw != nullptr) {
    if (m != 3) throw std::logic_error("gpu_ntt: coset split tables need a plan of three passes");
    passes[1].tw_table = mid_tw;
  }
  const Pass last_plain = passes[m - 1];
  passes[m - 1] = pass::fuse_reversal(passes[m - 1], /*gather=*/false, tuning().rev_group);
  if (m == 1 || scratch != nullptr) {
    for (std::size_t i = 0; i < m; ++i) {
      const Fr* src = m > 1 && i > 0 ? scratch : data;
      Fr* dst = m > 1 && i + 1 < m ? scratch : data;
      run_pass(Kind::Dif, passes[i], src, dst, tw, inverse, i == 0 ? pre : Op{}, Op{},
               i + 1 == m ? post : Op{}, stream);
    }
    return;
  }
  for (std::size_t i = 0; i + 1 < m; ++i) {
    run_pass(Kind::Dif, passes[i], data, data, tw, inverse, i == 0 ? pre : Op{}, Op{}, Op{},
             stream);
  }
  unsigned mbits = 0;
  if (d.mirror_state() != nullptr && mirror_plan(passes, &mbits) && mbits == d.mirror_bits() &&
      mirror_pass(passes[m - 1], data, tw, inverse, post, d.mirror_state(), stream)) {
    return;
  }
  run_pass(Kind::Dif, last_plain, data, data, tw, inverse, Op{}, Op{}, post, stream);
  bit_reverse(d, data, stream);
}

// Host power table: x^(i * step) for i < count.
std::vector<Fr> host_powers(const Fr& start, const Fr& step, std::size_t count) {
  std::vector<Fr> v(count);
  Fr acc = start;
  for (std::size_t i = 0; i < count; ++i) {
    v[i] = acc;
    acc = acc * step;
  }
  return v;
}

Fr pow2k(Fr x, unsigned k) {
  for (unsigned i = 0; i < k; ++i) x = x * x;
  return x;
}

}  // namespace

DeviceDomain::DeviceDomain(unsigned log_n, const Fr& omega, gpu::DeviceAllocator& alloc,
                           cudaStream_t stream)
    : log_n_(log_n), omega_(omega) {
  if (log_n < 1 || log_n > 31) throw std::invalid_argument("DeviceDomain: log_n not in 1..31");
  if (pow2k(omega, log_n) != Fr::one() || pow2k(omega, log_n - 1) == Fr::one()) {
    throw std::invalid_argument("DeviceDomain: omega is not a primitive 2^log_n-th root");
  }
  size_inv_ = Fr::from_u64(std::uint64_t{1} << log_n).inverse();
  const std::size_t half = size() / 2;
  twiddles_ = gpu::DeviceBuffer<Fr>(alloc, half, stream);
  // w^e = hi[e >> 10] * lo[e & 1023]: two small host tables, one multiply per entry on the GPU.
  const std::size_t lo_n = std::size_t{1} << kTableLoBits;
  const std::size_t hi_n = (half + lo_n - 1) / lo_n;
  std::vector<Fr> lo = host_powers(Fr::one(), omega, lo_n);
  std::vector<Fr> hi = host_powers(Fr::one(), pow2k(omega, kTableLoBits), hi_n);
  gpu::DeviceBuffer<Fr> d_tab(alloc, lo_n + hi_n, stream);
  PRESTAGE_CUDA_CHECK(
      cudaMemcpyAsync(d_tab.data(), lo.data(), lo_n * sizeof(Fr), cudaMemcpyHostToDevice, stream));
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(d_tab.data() + lo_n, hi.data(), hi_n * sizeof(Fr),
                                      cudaMemcpyHostToDevice, stream));
  twiddle_kernel<<<static_cast<unsigned>((half + 255) / 256), 256, 0, stream>>>(
      twiddles_.data(), half, d_tab.data(), d_tab.data() + lo_n);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  // The mirror table of the in-place last pass (transform(), mirror_pass_kernel).
  std::vector<uint32_t> order;
  if (mirror_plan(plan(log_n), &mirror_bits_)) {
    const uint32_t sets = 1u << mirror_bits_;
    order = pass::mirror_order(mirror_bits_);
    mirror_ = gpu::DeviceBuffer<uint32_t>(alloc, 2 * std::size_t{sets} + 1, stream);
    PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(mirror_.data(), order.data(), sets * sizeof(uint32_t),
                                        cudaMemcpyHostToDevice, stream));
  }
  // The host vectors and d_tab must outlive the copies and the kernel.
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

DeviceCosetShift::DeviceCosetShift(const DeviceDomain& domain, const Fr& g,
                                   gpu::DeviceAllocator& alloc, cudaStream_t stream,
                                   CosetTables tables)
    : g_(g) {
  if (g.is_zero()) throw std::invalid_argument("DeviceCosetShift: shift is zero");
  lo_count_ = std::size_t{1} << kLoBits;
  hi_count_ = std::max<std::size_t>(1, domain.size() >> kLoBits);
  const Fr g_inv = g.inverse();
  std::vector<Fr> host;
  host.reserve(3 * lo_count_ + 2 * hi_count_);
  for (const Fr& x : host_powers(Fr::one(), g, lo_count_)) host.push_back(x);
  for (const Fr& x : host_powers(Fr::one(), pow2k(g, kLoBits), hi_count_)) host.push_back(x);
  for (const Fr& x : host_powers(domain.size_inv(), g_inv, lo_count_)) host.push_back(x);
  for (const Fr& x : host_powers(Fr::one(), pow2k(g_inv, kLoBits), hi_count_)) host.push_back(x);
  for (const Fr& x : host_powers(domain.size_inv(), g, lo_count_)) host.push_back(x);
  tables_ = gpu::DeviceBuffer<Fr>(alloc, host.size(), stream);
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(tables_.data(), host.data(), host.size() * sizeof(Fr),
                                      cudaMemcpyHostToDevice, stream));
  const auto passes = plan(domain.log_size());
  std::vector<Fr> split;
  if (tables == CosetTables::Split && pass::coset_split_applies(passes)) {
    const pass::CosetSplit s =
        pass::coset_split_tables(passes, domain.omega(), g, domain.size_inv());
    split_k_[0] = s.k0;
    split_k_[1] = s.k1;
    split_k_[2] = s.k2;
    split_off_[0] = s.fwd_pre.size();
    split_off_[1] = split_off_[0] + s.fwd_tw.size();
    split_off_[2] = split_off_[1] + s.inv_tw.size();
    split_off_[3] = split_off_[2] + s.inv_post.size();
    split_off_[4] = split_off_[3] + s.h_tw.size();
    split.reserve(split_off_[4] + s.h_mid.size());
    for (const auto* v : {&s.fwd_pre, &s.fwd_tw, &s.inv_tw, &s.inv_post, &s.h_tw, &s.h_mid})
      split.insert(split.end(), v->begin(), v->end());
    split_ = gpu::DeviceBuffer<Fr>(alloc, split.size(), stream);
    PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(split_.data(), split.data(), split.size() * sizeof(Fr),
                                        cudaMemcpyHostToDevice, stream));
  }
  // The host vectors must outlive the copies.
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

namespace {
// The shape of `shift`'s split tables (pass::CosetSplit, for its Ops), built for `domain`.
pass::CosetSplit split_shape(const DeviceDomain& domain, const DeviceCosetShift& shift) {
  pass::CosetSplit s;
  s.k0 = shift.split_stages()[0];
  s.k1 = shift.split_stages()[1];
  s.k2 = shift.split_stages()[2];
  if (s.log_n() != domain.log_size())
    throw std::invalid_argument("gpu_ntt: coset shift built for another domain size");
  return s;
}
}  // namespace

void forward(const DeviceDomain& domain, Fr* d_data, cudaStream_t stream, Fr* d_scratch) {
  transform(domain, d_data, d_scratch, false, Op{}, Op{}, stream);
}

void inverse(const DeviceDomain& domain, Fr* d_data, cudaStream_t stream, Fr* d_scratch) {
  transform(domain, d_data, d_scratch, true, Op::pow2_inverse(domain.log_size()), Op{}, stream);
}

// Coset factors: CosetTables::Split (one product an element, part of the factor on the
// middle pass's twiddle) against HiLo (hi * lo, 2 products), measured in one process on the H200
// at 2^27: forward in place 40.29 / 42.61 ms (gpu/ntt/DECISIONS.md #10). The saving, 2.3-2.9 ms,
// is about one product an element at the measured Fr product rate (2^27 / 5.9e10/s = 2.3 ms).
void coset_forward(const DeviceDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                   cudaStream_t stream, Fr* d_scratch) {
  if (shift.split() && split_kernels_built()) {  // else hi * lo (another tuning)
    transform(domain, d_data, d_scratch, false,
              split_shape(domain, shift).fwd_pre_op(shift.split_fwd_pre()), Op{}, stream,
              shift.split_fwd_tw());
    return;
  }
  transform(domain, d_data, d_scratch, false, Op::table(shift.fwd_lo(), shift.fwd_hi()), Op{},
            stream);
}

void coset_inverse(const DeviceDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                   cudaStream_t stream, Fr* d_scratch) {
  if (shift.split() && split_kernels_built()) {  // else hi * lo (another tuning)
    transform(domain, d_data, d_scratch, true, Op{},
              split_shape(domain, shift).inv_post_op(shift.split_inv_post()), stream,
              shift.split_inv_tw());
    return;
  }
  transform(domain, d_data, d_scratch, true, Op{},
            Op::table(shift.inv_lo(), shift.inv_hi(), /*reversed=*/true), stream);
}

namespace detail {

void set_mirror_order(MirrorOrder order) {
  g_mirror_order.store(static_cast<int>(order), std::memory_order_relaxed);
}
MirrorOrder current_mirror_order() {
  return mirror_reversed() ? MirrorOrder::Reversed : MirrorOrder::Ascending;
}

InPlacePath in_place_path(const DeviceDomain& domain) {
  auto passes = plan(domain.log_size());
  if (passes.size() == 1) return InPlacePath::OnePass;
  unsigned mbits = 0;
  if (domain.mirror_state() == nullptr || !mirror_plan(passes, &mbits)) {
    return InPlacePath::SeparateReversal;
  }
  const Pass last = pass::fuse_reversal(passes.back(), /*gather=*/false, tuning().rev_group);
  return mirror_pass(last, nullptr, nullptr, false, Op{}, nullptr, nullptr)
             ? InPlacePath::Mirror
             : InPlacePath::SeparateReversal;
}

void interpolate_to_coset(const DeviceDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                          Fr* d_a, const Fr* d_b, const Fr& zinv, bool scale, cudaStream_t stream) {
  const auto passes = plan(domain.log_size());
  const Fr* tw = domain.twiddles();
  Op abc;
  if (d_a != nullptr) {
    abc.mode = Op::kAbc;
    abc.a = d_a;
    abc.b = d_b;
    abc.c = zinv;
    abc.scale = scale;
  }
  const std::size_t last = passes.size() - 1;
  for (std::size_t i = 0; i < last; ++i) {
    run_pass(Kind::Dif, passes[i], d_data, d_data, tw, true, Op{}, Op{}, Op{}, stream);
  }
  Op mid = Op::table(shift.fwd_lo_ninv(), shift.fwd_hi(), /*reversed=*/true);
  Pass middle_dit = passes.size() == 3 ? passes[1] : Pass{};
  // One product an element: pass::CosetSplit (h_tw, h_mid). Measured on the H200 at 2^27
  // against hi * lo: groth16_h_circom 249.34 -> 242.27 ms (three chains; gpu/ntt/DECISIONS.md
  // #10).
  if (shift.split() && split_kernels_built()) {  // else hi * lo (another tuning)
    mid = split_shape(domain, shift).h_mid_op(shift.split_h_mid());
    middle_dit.tw_table = shift.split_h_tw();
  }
  run_pass(Kind::DifScaleDit, passes[last], d_data, d_data, tw, false, Op{}, mid,
           last == 0 ? abc : Op{}, stream);
  for (std::size_t i = last; i-- > 0;) {
    run_pass(Kind::Dit, i == 1 && passes.size() == 3 ? middle_dit : passes[i], d_data, d_data, tw,
             false, Op{}, Op{}, i == 0 ? abc : Op{}, stream);
  }
}

}  // namespace detail

}  // namespace prestage::ntt
