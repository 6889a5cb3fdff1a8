// System: the NTT butterfly's device sum and difference mod r (add_mod, sub_mod in
// gpu/ntt/ntt_pass.hpp: 32-bit PTX carry chains). Expectation: bit-identical to Fr's + and -
// (the host result) on all pairs of edge values (0, 1, 2, r - 1, r - 2, (r -+ 1)/2, words of all
// ones) and on 2^16 random pairs (seed printed). Tolerance: none.
#include <cuda_runtime.h>

#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ff/fr.hpp"
#include "gpu/ntt/ntt_pass.hpp"
#include "gpu/runtime/cuda_check.hpp"

namespace {

using prestage::ff::Fr;

// out[2i] = a[i] + b[i], out[2i + 1] = a[i] - b[i] (mod r).
__global__ void add_sub_kernel(const Fr* a, const Fr* b, Fr* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) {
    out[2 * i] = prestage::gpu::ntt_pass::add_mod(a[i], b[i]);
    out[2 * i + 1] = prestage::gpu::ntt_pass::sub_mod(a[i], b[i]);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(device_add_sub_match_host) {
  std::random_device rd;
  const uint64_t seed = (uint64_t{rd()} << 32) ^ rd();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const Fr two = Fr::one() + Fr::one();
  const Fr half_down = (-Fr::one()) * two.inverse();  // raw limbs differ; still residues < r
  Fr ones_low = Fr::from_raw({0xffffffffffffffffull, 0, 0, 0});
  Fr ones_mid = Fr::from_raw({0xffffffffffffffffull, 0xffffffffffffffffull, 0, 0});
  std::vector<Fr> edge = {
      Fr::zero(), Fr::one(), two, -Fr::one(), -two, half_down, half_down + Fr::one(),
      ones_low,   ones_mid};
  edge.push_back(Fr::from_raw({0, 0, 0, 1}));
  std::vector<Fr> a, b;
  for (const Fr& x : edge) {
    for (const Fr& y : edge) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  for (int i = 0; i < (1 << 16); ++i) {
    a.push_back(Fr::random(rng));
    b.push_back(i % 5 == 0 ? edge[i % edge.size()] : Fr::random(rng));
  }
  const std::size_t n = a.size();
  Fr *da, *db, *dout;
  PRESTAGE_CUDA_CHECK(cudaMalloc(&da, n * sizeof(Fr)));
  PRESTAGE_CUDA_CHECK(cudaMalloc(&db, n * sizeof(Fr)));
  PRESTAGE_CUDA_CHECK(cudaMalloc(&dout, 2 * n * sizeof(Fr)));
  PRESTAGE_CUDA_CHECK(cudaMemcpy(da, a.data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
  PRESTAGE_CUDA_CHECK(cudaMemcpy(db, b.data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
  PRESTAGE_CUDA_CHECK(cudaMemset(dout, 0xFF, 2 * n * sizeof(Fr)));
  add_sub_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(da, db, dout, n);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  std::vector<Fr> out(2 * n);
  PRESTAGE_CUDA_CHECK(cudaMemcpy(out.data(), dout, 2 * n * sizeof(Fr), cudaMemcpyDeviceToHost));
  std::size_t bad_add = 0, bad_sub = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bad_add += !(out[2 * i] == a[i] + b[i]);
    bad_sub += !(out[2 * i + 1] == a[i] - b[i]);
  }
  BOOST_TEST(bad_add == 0u, bad_add << " of " << n << " sums differ");
  BOOST_TEST(bad_sub == 0u, bad_sub << " of " << n << " differences differ");
  PRESTAGE_CUDA_CHECK(cudaFree(da));
  PRESTAGE_CUDA_CHECK(cudaFree(db));
  PRESTAGE_CUDA_CHECK(cudaFree(dout));
}
