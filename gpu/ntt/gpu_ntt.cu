// GPU Fr NTT (see gpu/ntt/gpu_ntt.hpp for the contract and the algorithm).
#include <stdexcept>
#include <vector>

#include "gpu/ntt/gpu_ntt.hpp"

namespace prestage::gpu {

namespace {

constexpr unsigned kTileLog = 11;  // 2048 elements x 32 B = 64 KB of shared memory per block
constexpr unsigned kMaxLoLog = 2;  // up to 4 consecutive elements per row: 128 B reads
constexpr unsigned kThreads = 256;
constexpr unsigned kTableLoBits = 10;  // twiddle generation: w^e = hi[e >> 10] * lo[e & 1023]

// Scaling applied to element i when loading (first DIF pass) or storing (last DIT pass).
struct Scale {
  int mode = 0;  // 0: none; 1: multiply by c; 2: multiply by hi[i >> 11] * lo[i & 2047]
  Fr c;
  const Fr* lo = nullptr;
  const Fr* hi = nullptr;
  __device__ __forceinline__ Fr apply(const Fr& x, std::size_t i) const {
    if (mode == 1) return x * c;
    if (mode == 2) {
      return x * (hi[i >> DeviceCosetShift::kLoBits] *
                  lo[i & ((std::size_t{1} << DeviceCosetShift::kLoBits) - 1)]);
    }
    return x;
  }
};

__global__ void twiddle_kernel(Fr* out, std::size_t count, const Fr* lo, const Fr* hi) {
  std::size_t e = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (e < count) out[e] = hi[e >> kTableLoBits] * lo[e & ((1u << kTableLoBits) - 1)];
}

__global__ void bit_reverse_kernel(Fr* data, unsigned log_n) {
  std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >> log_n) return;
  std::size_t r = __brev(static_cast<unsigned>(i)) >> (32 - log_n);
  if (i < r) {
    Fr a = data[i];
    Fr b = data[r];
    data[i] = b;
    data[r] = a;
  }
}

// One pass of `k` radix-2 stages over tiles of 2^k rows x 2^log_lo consecutive elements.
// Element (hi, j, lo) of the pass is global index hi * L 2^k + j L + lo0 + lo, L = 2^log_L.
// DIF (forward): stages with half-size h = L 2^t, t = k-1 .. 0; DIT (inverse): t = 0 .. k-1.
// The twiddle of the pair (i, i + h) is w^((i mod h) n / 2h) (w^-1 for the inverse).
template <bool kDit>
__global__ void __launch_bounds__(kThreads)
    ntt_pass_kernel(Fr* data, const Fr* twiddles, unsigned log_n, unsigned log_L, unsigned k,
                    unsigned log_lo, Scale pre, Scale post) {
  extern __shared__ Fr tile[];
  const unsigned tile_log = k + log_lo;
  const unsigned tile_n = 1u << tile_log;
  const std::size_t lo_groups = std::size_t{1} << (log_L - log_lo);
  const std::size_t hi = blockIdx.x / lo_groups;
  const std::size_t lo0 = (blockIdx.x % lo_groups) << log_lo;
  const std::size_t base = (hi << (log_L + k)) + lo0;
  const unsigned lo_mask = (1u << log_lo) - 1;
  const std::size_t half_n = std::size_t{1} << (log_n - 1);

  for (unsigned e = threadIdx.x; e < tile_n; e += blockDim.x) {
    std::size_t g = base + (std::size_t{e >> log_lo} << log_L) + (e & lo_mask);
    Fr x = data[g];
    if (pre.mode != 0) x = pre.apply(x, g);
    tile[e] = x;
  }
  __syncthreads();

  for (unsigned s = 0; s < k; ++s) {
    const unsigned t = kDit ? s : k - 1 - s;
    const unsigned shift = log_n - 1 - t - log_L;  // log2(n / 2h)
    for (unsigned b = threadIdx.x; b < tile_n / 2; b += blockDim.x) {
      const unsigned lo = b & lo_mask;
      const unsigned q = b >> log_lo;
      const unsigned jlow = q & ((1u << t) - 1);
      const unsigned j0 = ((q >> t) << (t + 1)) | jlow;
      const unsigned p0 = (j0 << log_lo) | lo;
      const unsigned p1 = p0 + (1u << (t + log_lo));
      const std::size_t exp = ((std::size_t{jlow} << log_L) + lo0 + lo) << shift;
      Fr u = tile[p0];
      Fr v = tile[p1];
      if (kDit) {
        if (exp != 0) v = v * (-twiddles[half_n - exp]);  // w^-e = -w^(n/2 - e)
        tile[p0] = u + v;
        tile[p1] = u - v;
      } else {
        tile[p0] = u + v;
        Fr d = u - v;
        tile[p1] = exp != 0 ? d * twiddles[exp] : d;
      }
    }
    __syncthreads();
  }

  for (unsigned e = threadIdx.x; e < tile_n; e += blockDim.x) {
    std::size_t g = base + (std::size_t{e >> log_lo} << log_L) + (e & lo_mask);
    Fr x = tile[e];
    if (post.mode != 0) x = post.apply(x, g);
    data[g] = x;
  }
}

struct Pass {
  unsigned log_L, k, log_lo;
};

// Groups the log_n stages (largest half-size first) into passes that fit one tile.
std::vector<Pass> plan_passes(unsigned log_n) {
  std::vector<Pass> passes;
  unsigned r = log_n;
  while (r > 0) {
    for (unsigned k = std::min(r, kTileLog); k >= 1; --k) {
      unsigned log_L = r - k;
      unsigned log_lo = std::min(log_L, kMaxLoLog);
      if (k + log_lo <= kTileLog) {
        passes.push_back({log_L, k, log_lo});
        r -= k;
        break;
      }
    }
  }
  return passes;
}

template <bool kDit>
void launch_pass(const DeviceNttDomain& d, Fr* data, const Pass& p, const Scale& pre,
                 const Scale& post, cudaStream_t stream) {
  static bool configured = false;  // raise the dynamic shared-memory limit once per kernel
  if (!configured) {
    PRESTAGE_CUDA_CHECK(cudaFuncSetAttribute(ntt_pass_kernel<kDit>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(sizeof(Fr) << kTileLog)));
    configured = true;
  }
  const unsigned tile_log = p.k + p.log_lo;
  const std::size_t blocks = d.size() >> tile_log;
  const unsigned threads = std::min<unsigned>(kThreads, std::max(1u, (1u << tile_log) / 2));
  ntt_pass_kernel<kDit><<<static_cast<unsigned>(blocks), threads, sizeof(Fr) << tile_log, stream>>>(
      data, d.twiddles(), d.log_size(), p.log_L, p.k, p.log_lo, pre, post);
  PRESTAGE_CUDA_CHECK_LAUNCH();
}

void bit_reverse(const DeviceNttDomain& d, Fr* data, cudaStream_t stream) {
  const std::size_t n = d.size();
  bit_reverse_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(data,
                                                                                 d.log_size());
  PRESTAGE_CUDA_CHECK_LAUNCH();
}

void forward_impl(const DeviceNttDomain& d, Fr* data, const Scale& pre, cudaStream_t stream) {
  const auto passes = plan_passes(d.log_size());
  for (std::size_t i = 0; i < passes.size(); ++i) {
    launch_pass<false>(d, data, passes[i], i == 0 ? pre : Scale{}, Scale{}, stream);
  }
  bit_reverse(d, data, stream);
}

void inverse_impl(const DeviceNttDomain& d, Fr* data, const Scale& post, cudaStream_t stream) {
  bit_reverse(d, data, stream);
  const auto passes = plan_passes(d.log_size());
  for (std::size_t i = passes.size(); i-- > 0;) {
    launch_pass<true>(d, data, passes[i], Scale{}, i == 0 ? post : Scale{}, stream);
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
  host.reserve(2 * (lo_count_ + hi_count_));
  for (const Fr& x : host_powers(Fr::one(), g, lo_count_)) host.push_back(x);
  for (const Fr& x : host_powers(Fr::one(), pow2k(g, kLoBits), hi_count_)) host.push_back(x);
  for (const Fr& x : host_powers(domain.size_inv(), g_inv, lo_count_)) host.push_back(x);
  for (const Fr& x : host_powers(Fr::one(), pow2k(g_inv, kLoBits), hi_count_)) host.push_back(x);
  tables_ = DeviceBuffer<Fr>(alloc, host.size(), stream);
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(tables_.data(), host.data(), host.size() * sizeof(Fr),
                                      cudaMemcpyHostToDevice, stream));
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void ntt_forward(const DeviceNttDomain& domain, Fr* d_data, cudaStream_t stream) {
  forward_impl(domain, d_data, Scale{}, stream);
}

void ntt_inverse(const DeviceNttDomain& domain, Fr* d_data, cudaStream_t stream) {
  Scale post;
  post.mode = 1;
  post.c = domain.size_inv();
  inverse_impl(domain, d_data, post, stream);
}

void ntt_coset_forward(const DeviceNttDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                       cudaStream_t stream) {
  Scale pre;
  pre.mode = 2;
  pre.lo = shift.fwd_lo();
  pre.hi = shift.fwd_hi();
  forward_impl(domain, d_data, pre, stream);
}

void ntt_coset_inverse(const DeviceNttDomain& domain, const DeviceCosetShift& shift, Fr* d_data,
                       cudaStream_t stream) {
  Scale post;
  post.mode = 2;
  post.lo = shift.inv_lo();
  post.hi = shift.inv_hi();
  inverse_impl(domain, d_data, post, stream);
}

}  // namespace prestage::gpu
