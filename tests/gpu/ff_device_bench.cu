// Benchmark (not a test): device throughput of the gpu/ff and gpu/ec arithmetic as written
// (multiplication inlined), so GPU kernel work has a measured baseline. The device product is
// now the even/odd CIOS of gpu/ff/mont32.hpp (its candidates: gpu/bench/ff_bench.cu); the
// figures below are of the generic 64-bit CIOS, the device path at commit ec2125c.
// Axes: operation x threads x iterations per thread. Each thread runs a dependent chain
// (x <- x * y, or acc <- acc + P for point additions) on its own data; the time is the median of
// 5 launches (CUDA events). Every thread's result is checked against the host for a sample of
// threads, so the inlined device path is also checked for correctness.
// Output: one JSON object per line on stdout (operation, threads, iters, median_ms, ops_per_s,
// checked, mismatches, device).
// Build: cmake --build <dir> --target ff_device_bench (excluded from the default build).
//
// Measured 2026-11-30, NVIDIA H200 (driver 580.159.04, sm_90, nvcc 13.0 -O3, commit ec2125c),
// 1,081,344 threads, all sampled results equal to the host's:
//   fr_mul 2.96e10/s, fq_mul 1.31e10/s, g1_xyzz_madd 6.58e8/s.
// For scale: a 2^24-point G1 MSM with 16 windows of 16 bits does ~2.7e8 bucket additions,
// ~0.41 s at this rate against the 90 ms target (docs/gpu-performance.md), so MSM kernels need a
// faster device multiplication than this generic CIOS.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ff/fq2.hpp"
#include "gpu/ff/fr.hpp"

using namespace prestage;

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// Field chain: x <- x * y, iters times.
template <class F>
PRESTAGE_HD F field_chain(F x, const F& y, int iters) {
  for (int i = 0; i < iters; ++i) x = x * y;
  return x;
}

// Point chain: acc <- acc + p (XYZZ mixed addition), iters times.
template <class C>
PRESTAGE_HD ec::XYZZ<C> madd_chain(ec::XYZZ<C> acc, const ec::Affine<C>& p, int iters) {
  for (int i = 0; i < iters; ++i) acc = acc.add_mixed(p);
  return acc;
}

template <class F>
__global__ void field_kernel(F* x, const F* y, int iters, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = field_chain(x[i], y[i], iters);
}

template <class C>
__global__ void madd_kernel(ec::XYZZ<C>* acc, const ec::Affine<C>* p, int iters, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] = madd_chain(acc[i], p[i], iters);
}

template <class T>
bool same(const T& a, const T& b) {
  return a == b;
}
template <class C>
bool same(const ec::XYZZ<C>& a, const ec::XYZZ<C>& b) {
  return a.X == b.X && a.Y == b.Y && a.ZZ == b.ZZ && a.ZZZ == b.ZZZ;
}

// Runs kernel(d_state, d_in) five times from the same initial state; reports the median.
template <class S, class In, class Launch, class Host>
void run(const char* name, std::vector<S> state, const std::vector<In>& in, int iters,
         Launch launch, Host host, const std::string& device) {
  const int n = static_cast<int>(state.size());
  S* d_state = nullptr;  // n x sizeof(S) B
  In* d_in = nullptr;    // n x sizeof(In) B
  check(cudaMalloc(&d_state, n * sizeof(S)), "cudaMalloc");
  check(cudaMalloc(&d_in, n * sizeof(In)), "cudaMalloc");
  check(cudaMemcpy(d_in, in.data(), n * sizeof(In), cudaMemcpyHostToDevice), "H2D");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  std::vector<float> ms;
  std::vector<S> out(n);
  for (int rep = 0; rep < 6; ++rep) {  // rep 0 is a warm-up
    check(cudaMemcpy(d_state, state.data(), n * sizeof(S), cudaMemcpyHostToDevice), "H2D");
    check(cudaEventRecord(start), "record");
    launch(d_state, d_in, iters, n);
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "sync");
    check(cudaGetLastError(), "kernel");
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "elapsed");
    if (rep > 0) ms.push_back(t);
  }
  check(cudaMemcpy(out.data(), d_state, n * sizeof(S), cudaMemcpyDeviceToHost), "D2H");
  int checked = 0, mismatches = 0;
  for (int i = 0; i < n; i += std::max(1, n / 64)) {
    ++checked;
    mismatches += !same(out[i], host(state[i], in[i], iters));
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  std::printf(
      "{\"operation\": \"%s\", \"threads\": %d, \"iters\": %d, \"median_ms\": %.4f, "
      "\"ops_per_s\": %.4e, \"checked\": %d, \"mismatches\": %d, \"device\": \"%s\"}\n",
      name, n, iters, median, double(n) * iters / (median * 1e-3), checked, mismatches,
      device.c_str());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(d_state);
  cudaFree(d_in);
}

}  // namespace

int main(int argc, char** argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "props");
  const std::string device = prop.name;
  // Enough threads to fill the GPU several times over: 8 x 1024 per SM.
  const int n = argc > 1 ? std::atoi(argv[1]) : prop.multiProcessorCount * 8 * 1024;
  std::mt19937_64 rng(42);
  constexpr int kBlock = 256;
  const int grid = (n + kBlock - 1) / kBlock;

  {
    std::vector<ff::Fr> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = ff::Fr::random(rng), y[i] = ff::Fr::random(rng);
    run(
        "fr_mul", x, y, 256,
        [&](ff::Fr* s, const ff::Fr* in, int it, int m) {
          field_kernel<<<grid, kBlock>>>(s, in, it, m);
        },
        [](ff::Fr a, const ff::Fr& b, int it) { return field_chain(a, b, it); }, device);
  }
  {
    std::vector<ff::Fq> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = ff::Fq::random(rng), y[i] = ff::Fq::random(rng);
    run(
        "fq_mul", x, y, 128,
        [&](ff::Fq* s, const ff::Fq* in, int it, int m) {
          field_kernel<<<grid, kBlock>>>(s, in, it, m);
        },
        [](ff::Fq a, const ff::Fq& b, int it) { return field_chain(a, b, it); }, device);
  }
  {
    // Points: a few distinct random multiples, repeated (host set-up stays fast).
    const int distinct = 64;
    std::vector<ec::G1Affine> base(distinct);
    for (auto& p : base) p = ec::G1Affine::generator().mul(ff::Fr::random(rng)).to_affine();
    std::vector<ec::G1XYZZ> acc(n);
    std::vector<ec::G1Affine> pts(n);
    for (int i = 0; i < n; ++i) {
      acc[i] = base[i % distinct].to_xyzz();
      pts[i] = base[(i * 7 + 3) % distinct];
    }
    run(
        "g1_xyzz_madd", acc, pts, 32,
        [&](ec::G1XYZZ* s, const ec::G1Affine* in, int it, int m) {
          madd_kernel<<<grid, kBlock>>>(s, in, it, m);
        },
        [](ec::G1XYZZ a, const ec::G1Affine& p, int it) { return madd_chain(a, p, it); }, device);
  }
  return 0;
}
