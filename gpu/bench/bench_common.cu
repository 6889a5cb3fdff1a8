// gpu_bench's common parts (bench_common.hpp): registry, timing, random inputs, ceilings, rows.
#include "gpu/bench/bench_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "gpu/ff/fq.hpp"
#include "gpu/ff/mont_ptx.hpp"

namespace prestage::bench {

namespace g = prestage::gpu;
using ff::Fq;
using ff::Fr;

std::vector<RowFamily>& registry() {
  static std::vector<RowFamily> families;
  return families;
}

RegisterRows::RegisterRows(RowFamily f) {
  registry().push_back(std::move(f));
}

namespace {

__device__ __forceinline__ uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__global__ void random_fr_kernel(Fr* out, std::size_t n, uint64_t seed, int kind) {
  std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const uint64_t h = mix64(seed ^ mix64(i));
  Fr x{};
  for (int k = 0; k < 4; ++k) x.limb[k] = mix64(h + k);
  x.limb[3] %= Fr::modulus[3];
  if (kind == 1) {
    const unsigned u = static_cast<unsigned>(mix64(h ^ 0x5555) % 100);
    if (u < 50)
      x = Fr::zero();
    else if (u < 95)
      x = Fr::one();
  }
  out[i] = x;
}

unsigned blocks(std::size_t n, unsigned t = 256) {
  return static_cast<unsigned>((n + t - 1) / t);
}

// data[k] <- data[k] * m, `iters` times, 4 independent chains per thread; kPtx: the 32-bit CIOS of
// gpu/ff/mont_ptx.hpp instead of the default Fp::operator*.
template <class F, bool kPtx>
__device__ __forceinline__ F bench_mul(const F& a, const F& b) {
  if constexpr (kPtx) return prestage::ff::detail::mul_ptx(a, b);
  return a * b;
}
template <class F, bool kPtx = false>
__global__ void mul_rate_kernel(F* data, int iters) {
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  F a0 = data[4 * t], a1 = data[4 * t + 1], a2 = data[4 * t + 2], a3 = data[4 * t + 3];
  const F m = a0 + a3;
  for (int i = 0; i < iters; ++i) {
    a0 = bench_mul<F, kPtx>(a0, m);
    a1 = bench_mul<F, kPtx>(a1, m);
    a2 = bench_mul<F, kPtx>(a2, m);
    a3 = bench_mul<F, kPtx>(a3, m);
  }
  data[4 * t] = a0;
  data[4 * t + 1] = a1;
  data[4 * t + 2] = a2;
  data[4 * t + 3] = a3;
}

template <class F, bool kPtx = false>
double mul_rate(g::DeviceAllocator& alloc, cudaStream_t stream, int sms) {
  const std::size_t threads =
      static_cast<std::size_t>(sms) * 2048;  // full occupancy worth of threads
  g::DeviceBuffer<F> d(alloc, 4 * threads, stream);
  random_fr(reinterpret_cast<Fr*>(d.data()), d.bytes() / sizeof(Fr), 7, 0, stream);
  const int iters = 256;
  auto ms = time_runs(stream, 1, 5, [&] {
    mul_rate_kernel<F, kPtx><<<blocks(threads), 256, 0, stream>>>(d.data(), iters);
    PRESTAGE_CUDA_CHECK_LAUNCH();
  });
  return double(threads) * 4 * iters / (median(ms) * 1e-3);
}

}  // namespace

void random_fr(Fr* out, std::size_t n, std::uint64_t seed, int kind, cudaStream_t stream) {
  random_fr_kernel<<<blocks(n), 256, 0, stream>>>(out, n, seed, kind);
  PRESTAGE_CUDA_CHECK_LAUNCH();
}

std::vector<double> time_runs(cudaStream_t stream, int warm, int reps,
                              const std::function<void()>& body) {
  for (int i = 0; i < warm; ++i) body();
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> ms;
  g::Event start, stop;
  for (int i = 0; i < reps; ++i) {
    start.record(stream);
    body();
    stop.record(stream);
    stop.synchronize();
    ms.push_back(g::Event::elapsed_ms(start, stop));
  }
  return ms;
}

Ceilings measure_ceilings(g::DeviceAllocator& alloc, cudaStream_t stream, json& out) {
  Ceilings c;
  int dev = 0, sms = 0;
  PRESTAGE_CUDA_CHECK(cudaGetDevice(&dev));
  PRESTAGE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const std::size_t bytes = std::size_t{2} << 30;
  g::DeviceBuffer<unsigned char> a(alloc, bytes, stream), b(alloc, bytes, stream);
  PRESTAGE_CUDA_CHECK(cudaMemsetAsync(a.data(), 0x5A, bytes, stream));
  auto ms = time_runs(stream, 2, 9, [&] {
    PRESTAGE_CUDA_CHECK(
        cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, stream));
  });
  c.bandwidth_Bps = 2.0 * bytes / (median(ms) * 1e-3);
  c.fr_mul_per_s = mul_rate<Fr>(alloc, stream, sms);
  c.fq_mul_per_s = mul_rate<Fq>(alloc, stream, sms);
  // The default Fp::operator* (on the device the even/odd CIOS of gpu/ff/mont32.hpp) and, for
  // comparison, the 32-bit CIOS of gpu/ff/mont_ptx.hpp.
  const double fr_ptx = mul_rate<Fr, true>(alloc, stream, sms);
  const double fq_ptx = mul_rate<Fq, true>(alloc, stream, sms);
  out["mul_rates_ptx32"] = {{"fr_mul_per_s", fr_ptx}, {"fq_mul_per_s", fq_ptx}};
  std::printf(
      "default products: Fr %.3g /s, Fq %.3g /s; 32-bit CIOS (mont_ptx): Fr %.3g /s, "
      "Fq %.3g /s\n",
      c.fr_mul_per_s, c.fq_mul_per_s, fr_ptx, fq_ptx);
  const double fr_generic = c.fr_mul_per_s, fq_generic = c.fq_mul_per_s;
  // Floors use the faster of the two measured products (the best rate this device showed).
  c.fr_mul_per_s = std::max(c.fr_mul_per_s, fr_ptx);
  c.fq_mul_per_s = std::max(c.fq_mul_per_s, fq_ptx);
  out["ceilings"] = {
      {"d2d_bandwidth_GBps", c.bandwidth_Bps / 1e9},
      {"d2d_how", "cudaMemcpyAsync D2D of 2 GiB, (read + write bytes) / median of 9"},
      {"fr_mul_per_s_default", fr_generic},
      {"fq_mul_per_s_default", fq_generic},
      {"fr_mul_per_s_floor", c.fr_mul_per_s},
      {"fq_mul_per_s_floor", c.fq_mul_per_s},
      {"mul_how",
       "4 independent Montgomery-product chains x 256 per thread, SMs x 2048 "
       "threads, median of 5"},
      {"sms", sms}};
  std::printf("ceilings: D2D %.0f GB/s, Fr mul %.3g /s, Fq mul %.3g /s\n", c.bandwidth_Bps / 1e9,
              c.fr_mul_per_s, c.fq_mul_per_s);
  return c;
}

json row(const std::string& name, std::size_t n, const std::vector<double>& ms, double mem_floor_s,
         double compute_floor_s, const std::string& how) {
  const double med = median(ms);
  const double floor_ms = 1e3 * std::max(mem_floor_s, compute_floor_s);
  std::printf("%-28s n=2^%-2d median %9.3f ms  floor %8.3f ms (%s-bound floor)  x%.2f\n",
              name.c_str(), static_cast<int>(std::log2(double(n))), med, floor_ms,
              mem_floor_s > compute_floor_s ? "memory" : "compute", med / floor_ms);
  std::fflush(stdout);
  return {{"name", name},
          {"log_n", static_cast<int>(std::log2(double(n)))},
          {"n", n},
          {"median_ms", med},
          {"runs_ms", ms},
          {"floor_ms", floor_ms},
          {"floor_memory_ms", 1e3 * mem_floor_s},
          {"floor_compute_ms", 1e3 * compute_floor_s},
          {"floor_how", how},
          {"ratio_to_floor", med / floor_ms}};
}

}  // namespace prestage::bench
