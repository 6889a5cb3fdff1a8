// GPU Fr NTT (see gpu/ntt/gpu_ntt.hpp for the contract, gpu/ntt/ntt_pass.hpp for the passes).
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "gpu/ntt/gpu_ntt.hpp"
#include "gpu/ntt/ntt_pass.hpp"

namespace prestage::gpu {

namespace {

using ntt_pass::Kind;
using ntt_pass::Op;
using ntt_pass::Pass;

constexpr unsigned kTableLoBits = 10;  // twiddle generation: w^e = hi[e >> 10] * lo[e & 1023]
// Dynamic shared memory a pass may need: a 2^11 tile plus two root tables of 2^10 entries.
constexpr int kMaxPassSmem = static_cast<int>(sizeof(Fr) << (ntt_pass::kTileLog + 1));

__global__ void twiddle_kernel(Fr* out, std::size_t count, const Fr* lo, const Fr* hi) {
  std::size_t e = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (e < count) out[e] = hi[e >> kTableLoBits] * lo[e & ((1u << kTableLoBits) - 1)];
}

// One pass (ntt_pass.hpp): roots -> shared, tile in (with the inter-pass twiddle for DIT),
// stage groups between barriers, tile out (with the inter-pass twiddle for DIF). Shared memory:
// tile (2 planes x tile_n x 16 B) | ws (2^(k-1) x 32 B) | ws2 (DifScaleDit only).
template <Kind K, bool kTw, int kRadix>
__global__ void __launch_bounds__(ntt_pass::kMaxThreads<kRadix>)
    pass_kernel(Fr* data, const Fr* tw, Pass p, bool inverse, Op pre, Op mid, Op post) {
  extern __shared__ __align__(16) uint64_t smem[];
  const unsigned tn = p.tile_n();
  ntt_pass::PlaneTile tile{smem, smem + 2 * tn};
  Fr* ws = reinterpret_cast<Fr*>(smem + 4 * tn);
  Fr* ws2 = ws + (p.k ? (1u << (p.k - 1)) : 0u);
  const unsigned tid = threadIdx.x, nt = blockDim.x;
  const uint64_t b = blockIdx.x;
  ntt_pass::load_roots(p, tw, K == Kind::DifScaleDit ? true : inverse, ws, tid, nt);
  if (K == Kind::DifScaleDit) ntt_pass::load_roots(p, tw, false, ws2, tid, nt);
  ntt_pass::load_tile<K == Kind::Dit && kTw, kRadix>(p, b, data, tw, inverse, pre, tile, tid, nt);
  __syncthreads();
  const unsigned groups = ntt_pass::group_count(p, kRadix);
  if (K == Kind::Dit) {
    for (unsigned i = 0; i < groups; ++i) {
      ntt_pass::run_group<true, kRadix>(p, i, ws, tile, tid, nt);
      __syncthreads();
    }
  } else {
    for (unsigned i = groups; i-- > 0;) {
      ntt_pass::run_group<false, kRadix>(p, i, ws, tile, tid, nt);
      __syncthreads();
    }
  }
  if (K == Kind::DifScaleDit) {
    for (unsigned e = tid; e < tn; e += nt) {
      tile.set(e, mid.apply(tile.get(e), ntt_pass::global_index(p, b, e), p.log_n));
    }
    __syncthreads();
    for (unsigned i = 0; i < groups; ++i) {
      ntt_pass::run_group<true, kRadix>(p, i, ws2, tile, tid, nt);
      __syncthreads();
    }
  }
  ntt_pass::store_tile<K == Kind::Dif && kTw, kRadix>(p, b, data, tw, inverse, post, tile, tid, nt);
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
  const uint32_t mr = ntt_pass::rev_bits(m, mbits);
  if (mr < m) return;
  const bool pair = mr != m;
  uint64_t* X0 = sm;
  uint64_t* X1 = sm + 2048;
  uint64_t* Y0 = sm + 4096;
  uint64_t* Y1 = sm + 6144;
  auto gidx = [&](uint32_t a, uint32_t mm, uint32_t bb) {
    return (uint64_t{a} << (log_n - 5)) | (uint64_t{mm} << 5) | bb;
  };
  auto slot = [](uint32_t r, uint32_t c) { return r * 32 + (c ^ (ntt_pass::rev_bits(r, 5) & 7)); };
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
    const unsigned s = slot(ntt_pass::rev_bits(bb, 5), ntt_pass::rev_bits(a, 5));
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

// Small domains (n < 2^10): one thread per pair.
__global__ void bit_reverse_small_kernel(Fr* data, unsigned log_n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >> log_n) return;
  const uint32_t r = ntt_pass::rev_bits(i, log_n);
  if (i < r) {
    const Fr a = data[i];
    const Fr b = data[r];
    data[i] = b;
    data[r] = a;
  }
}

// Kernel tuning, measured on the H200 (data/gpu-runs/2026-11-30-h200/gpuntt/README.md):
//   row_log  most stages of a pass with columns (plan()): 9 (tiles of 2048) or 8 (1024);
//   radix    register units of 2^radix elements between shared-memory exchanges (1, 2, 3).
// The device product (gpu/ff/mont_ptx.hpp) is a chain of volatile asm statements, so one
// thread's independent products do not overlap: throughput comes from resident warps, and
// registers (which bound them) matter more than shared-memory round trips. Forward 2^27 (final
// build, 30ddecd): radix 1 (48-64 registers, 2 blocks of 512 threads per SM) 67.7 ms; radix 2
// (64-118 registers) 74.6 ms; radix 3 (128-184 registers, one 256-thread block per SM)
// 170 ms. row_log 8 against 9 (radix 1, before the PTX add/sub): 76.0 against 74.5 ms.
// PRESTAGE_NTT_TUNING="row_log:radix" overrides the defaults (benchmarks only; read once).
struct Tuning {
  unsigned row_log = ntt_pass::kColumnRowLog;
  int radix = 1;
};
const Tuning& tuning() {
  static const Tuning t = [] {
    Tuning r;
    if (const char* v = std::getenv("PRESTAGE_NTT_TUNING")) {
      unsigned a = 0;
      int b = 0;
      if (std::sscanf(v, "%u:%d", &a, &b) != 2 || a < 4 || a > 10 || b < 1 || b > 3) {
        throw std::invalid_argument(
            "PRESTAGE_NTT_TUNING: expected row_log:radix, row_log in 4..10, radix in 1..3");
      }
      r.row_log = a;
      r.radix = b;
    }
    return r;
  }();
  return t;
}

std::vector<Pass> plan(unsigned log_n) {
  return ntt_pass::plan(log_n, tuning().row_log);
}

template <Kind K, bool kTw, int kRadix>
void launch_with(const Pass& p, Fr* data, const Fr* tw, bool inverse, const Op& pre, const Op& mid,
                 const Op& post, cudaStream_t stream) {
  static std::once_flag configured;  // raise the dynamic shared-memory limit once per kernel
  std::call_once(configured, [] {
    PRESTAGE_CUDA_CHECK(cudaFuncSetAttribute(
        pass_kernel<K, kTw, kRadix>, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxPassSmem));
  });
  const std::size_t roots = p.k ? std::size_t{1} << (p.k - 1) : 0;
  const std::size_t smem = sizeof(Fr) * (p.tile_n() + roots * (K == Kind::DifScaleDit ? 2 : 1));
  pass_kernel<K, kTw, kRadix>
      <<<static_cast<unsigned>(p.blocks()), p.threads(ntt_pass::kPerThread<kRadix>), smem,
         stream>>>(data, tw, p, inverse, pre, mid, post);
  PRESTAGE_CUDA_CHECK_LAUNCH();
}

template <Kind K, bool kTw>
void launch(const Pass& p, Fr* data, const Fr* tw, bool inverse, const Op& pre, const Op& mid,
            const Op& post, cudaStream_t stream) {
  switch (tuning().radix) {
    case 1:
      launch_with<K, kTw, 1>(p, data, tw, inverse, pre, mid, post, stream);
      break;
    case 2:
      launch_with<K, kTw, 2>(p, data, tw, inverse, pre, mid, post, stream);
      break;
    default:
      launch_with<K, kTw, 3>(p, data, tw, inverse, pre, mid, post, stream);
  }
}

void run_pass(Kind kind, const Pass& p, Fr* data, const Fr* tw, bool inverse, const Op& pre,
              const Op& mid, const Op& post, cudaStream_t stream) {
  const bool tw_on = p.log_L > 0;
  switch (kind) {
    case Kind::Dif:
      if (tw_on)
        launch<Kind::Dif, true>(p, data, tw, inverse, pre, mid, post, stream);
      else
        launch<Kind::Dif, false>(p, data, tw, inverse, pre, mid, post, stream);
      break;
    case Kind::Dit:
      if (tw_on)
        launch<Kind::Dit, true>(p, data, tw, inverse, pre, mid, post, stream);
      else
        launch<Kind::Dit, false>(p, data, tw, inverse, pre, mid, post, stream);
      break;
    case Kind::DifScaleDit:
      if (tw_on) throw std::logic_error("gpu_ntt: fused pass needs L = 1");
      launch<Kind::DifScaleDit, false>(p, data, tw, inverse, pre, mid, post, stream);
      break;
  }
}

void bit_reverse(const DeviceNttDomain& d, Fr* data, cudaStream_t stream) {
  const unsigned log_n = d.log_size();
  if (log_n >= 10) {
    static std::once_flag configured;
    std::call_once(configured, [] {
      PRESTAGE_CUDA_CHECK(cudaFuncSetAttribute(
          bit_reverse_tiled_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kRevSmem));
    });
    bit_reverse_tiled_kernel<<<1u << (log_n - 10), 256, kRevSmem, stream>>>(data, log_n);
  } else {
    bit_reverse_small_kernel<<<(static_cast<unsigned>(d.size()) + 255) / 256, 256, 0, stream>>>(
        data, log_n);
  }
  PRESTAGE_CUDA_CHECK_LAUNCH();
}

// Forward (w) as DIF passes then bit reversal; `pre` on the first pass's loads.
void forward_impl(const DeviceNttDomain& d, Fr* data, const Op& pre, cudaStream_t stream) {
  const auto passes = plan(d.log_size());
  for (std::size_t i = 0; i < passes.size(); ++i) {
    run_pass(Kind::Dif, passes[i], data, d.twiddles(), false, i == 0 ? pre : Op{}, Op{}, Op{},
             stream);
  }
  bit_reverse(d, data, stream);
}

// Inverse (w^-1) as bit reversal then DIT passes; `post` on the last pass's stores.
void inverse_impl(const DeviceNttDomain& d, Fr* data, const Op& post, cudaStream_t stream) {
  bit_reverse(d, data, stream);
  const auto passes = plan(d.log_size());
  for (std::size_t i = passes.size(); i-- > 0;) {
    run_pass(Kind::Dit, passes[i], data, d.twiddles(), true, Op{}, Op{}, i == 0 ? post : Op{},
             stream);
  }
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

DeviceNttDomain::DeviceNttDomain(unsigned log_n, const Fr& omega, DeviceAllocator& alloc,
                                 cudaStream_t stream)
    : log_n_(log_n), omega_(omega) {
  if (log_n < 1 || log_n > 31) throw std::invalid_argument("DeviceNttDomain: log_n not in 1..31");
  if (pow2k(omega, log_n) != Fr::one() || pow2k(omega, log_n - 1) == Fr::one()) {
    throw std::invalid_argument("DeviceNttDomain: omega is not a primitive 2^log_n-th root");
  }
  size_inv_ = Fr::from_u64(std::uint64_t{1} << log_n).inverse();
  const std::size_t half = size() / 2;
  twiddles_ = DeviceBuffer<Fr>(alloc, half, stream);
  // w^e = hi[e >> 10] * lo[e & 1023]: two small host tables, one multiply per entry on the GPU.
  const std::size_t lo_n = std::size_t{1} << kTableLoBits;
  const std::size_t hi_n = (half + lo_n - 1) / lo_n;
  std::vector<Fr> lo = host_powers(Fr::one(), omega, lo_n);
  std::vector<Fr> hi = host_powers(Fr::one(), pow2k(omega, kTableLoBits), hi_n);
  DeviceBuffer<Fr> d_tab(alloc, lo_n + hi_n, stream);
  PRESTAGE_CUDA_CHECK(
      cudaMemcpyAsync(d_tab.data(), lo.data(), lo_n * sizeof(Fr), cudaMemcpyHostToDevice, stream));
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(d_tab.data() + lo_n, hi.data(), hi_n * sizeof(Fr),
                                      cudaMemcpyHostToDevice, stream));
  twiddle_kernel<<<static_cast<unsigned>((half + 255) / 256), 256, 0, stream>>>(
      twiddles_.data(), half, d_tab.data(), d_tab.data() + lo_n);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  // The host vectors and d_tab must outlive the copies and the kernel.
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

DeviceCosetShift::DeviceCosetShift(const DeviceNttDomain& domain, const Fr& g,
                                   DeviceAllocator& alloc, cudaStream_t stream)
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
  tables_ = DeviceBuffer<Fr>(alloc, host.size(), stream);
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(tables_.data(), host.data(), host.size() * sizeof(Fr),
                                      cudaMemcpyHostToDevice, stream));
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void ntt_forward(const DeviceNttDomain& domain, Fr* d_data, cudaStream_t stream) {
  forward_impl(domain, d_data, Op{}, stream);
}

void ntt_inverse(const DeviceNttDomain& domain, Fr* d_data, cudaStream_t stream) {
  Op post;
  post.mode = Op::kConst;
  post.c = domain.size_inv();
  inverse_impl(domain, d_data, post, stream);
}

void ntt_coset_forward(const DeviceNttDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                       cudaStream_t stream) {
  Op pre;
  pre.mode = Op::kTable;
  pre.lo = shift.fwd_lo();
  pre.hi = shift.fwd_hi();
  forward_impl(domain, d_data, pre, stream);
}

void ntt_coset_inverse(const DeviceNttDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                       cudaStream_t stream) {
  Op post;
  post.mode = Op::kTable;
  post.lo = shift.inv_lo();
  post.hi = shift.inv_hi();
  inverse_impl(domain, d_data, post, stream);
}

namespace detail {

void ntt_interpolate_to_coset(const DeviceNttDomain& domain, const DeviceCosetShift& shift,
                              Fr* d_data, Fr* d_a, const Fr* d_b, const Fr& zinv, bool scale,
                              cudaStream_t stream) {
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
    run_pass(Kind::Dif, passes[i], d_data, tw, true, Op{}, Op{}, Op{}, stream);
  }
  Op mid;
  mid.mode = Op::kTableRev;
  mid.lo = shift.fwd_lo_ninv();
  mid.hi = shift.fwd_hi();
  run_pass(Kind::DifScaleDit, passes[last], d_data, tw, false, Op{}, mid, last == 0 ? abc : Op{},
           stream);
  for (std::size_t i = last; i-- > 0;) {
    run_pass(Kind::Dit, passes[i], d_data, tw, false, Op{}, Op{}, i == 0 ? abc : Op{}, stream);
  }
}

}  // namespace detail

}  // namespace prestage::gpu
