// System: the device-only 32-bit PTX Montgomery product (gpu/ff/mont_ptx.hpp) for Fr and Fq.
// Expectation: bit-identical to Fp::operator* (the host result) on random inputs and on the
// edge values 0, 1, p - 1, p - 2. Tolerance: none.
#include <cuda_runtime.h>

#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ff/fq.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/ff/mont_ptx.hpp"
#include "gpu/runtime/cuda_check.hpp"

namespace {

template <class F>
__global__ void ptx_mul_kernel(const F* a, const F* b, F* out, std::size_t n) {
  std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) out[i] = prestage::ff::detail::mul_ptx(a[i], b[i]);
}

template <class F>
void check(std::mt19937_64& rng) {
  std::vector<F> edge = {F::zero(), F::one(), -F::one(), -F::one() - F::one()};
  std::vector<F> a, b;
  for (const F& x : edge) {
    for (const F& y : edge) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  for (int i = 0; i < (1 << 16); ++i) {
    a.push_back(F::random(rng));
    b.push_back(i % 7 == 0 ? edge[i % 4] : F::random(rng));
  }
  const std::size_t n = a.size();
  F *da, *db, *dout;
  PRESTAGE_CUDA_CHECK(cudaMalloc(&da, n * sizeof(F)));
  PRESTAGE_CUDA_CHECK(cudaMalloc(&db, n * sizeof(F)));
  PRESTAGE_CUDA_CHECK(cudaMalloc(&dout, n * sizeof(F)));
  PRESTAGE_CUDA_CHECK(cudaMemcpy(da, a.data(), n * sizeof(F), cudaMemcpyHostToDevice));
  PRESTAGE_CUDA_CHECK(cudaMemcpy(db, b.data(), n * sizeof(F), cudaMemcpyHostToDevice));
  PRESTAGE_CUDA_CHECK(cudaMemset(dout, 0xFF, n * sizeof(F)));
  ptx_mul_kernel<F><<<static_cast<unsigned>((n + 255) / 256), 256>>>(da, db, dout, n);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  std::vector<F> out(n);
  PRESTAGE_CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(F), cudaMemcpyDeviceToHost));
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += !(out[i] == a[i] * b[i]);
  BOOST_TEST(bad == 0u, bad << " of " << n << " products differ");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
}

}  // namespace

BOOST_AUTO_TEST_CASE(ptx_montgomery_product_matches_host) {
  std::random_device rd;
  const uint64_t seed = (uint64_t{rd()} << 32) ^ rd();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  check<prestage::ff::Fr>(rng);
  check<prestage::ff::Fq>(rng);
}
