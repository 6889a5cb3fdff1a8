// (Second case below: the 1/n scaling, ntt::pass::mul_pow2_inv.)
// System: the NTT butterflies on the device (butterfly_dif, butterfly_dit in
// gpu/ntt/ntt_pass.hpp: Fr's operators, on the device gpu/ff's even/odd CIOS product and 32-bit
// PTX add/sub), with a twiddle and with the compile-time twiddle 1 (kOne, the products the
// lowest-group units skip). Expectation: bit-identical to the same functions on the host, and
// the kOne forms equal the general forms with w = 1, on all pairs of edge values (0, 1, 2,
// r - 1, r - 2, (r -+ 1)/2, words of all ones, 2^192) and on 2^16 random triples (seed
// printed). Tolerance: none.
#include <cuda_runtime.h>

#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ff/fr.hpp"
#include "gpu/ntt/ntt_pass.hpp"
#include "gpu/runtime/cuda_check.hpp"

namespace {

using prestage::ff::Fr;
namespace np = prestage::ntt::pass;

// Per i (a, b, w: n x 32 B each, Montgomery): out (n x 8 x 32 B) holds the DIF outputs (a', b'),
// the DIT outputs, the DIF outputs with kOne and the DIT outputs with kOne.
__global__ void butterfly_kernel(const Fr* a, const Fr* b, const Fr* w, Fr* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  Fr x = a[i], y = b[i];
  np::butterfly_dif<false>(x, y, w[i]);
  out[8 * i] = x;
  out[8 * i + 1] = y;
  x = a[i], y = b[i];
  np::butterfly_dit<false>(x, y, w[i]);
  out[8 * i + 2] = x;
  out[8 * i + 3] = y;
  x = a[i], y = b[i];
  np::butterfly_dif<true>(x, y, w[i]);
  out[8 * i + 4] = x;
  out[8 * i + 5] = y;
  x = a[i], y = b[i];
  np::butterfly_dit<true>(x, y, w[i]);
  out[8 * i + 6] = x;
  out[8 * i + 7] = y;
}

// The host results in the kernel's layout; the kOne forms computed with w = 1 in the general form.
std::vector<Fr> host_butterflies(const std::vector<Fr>& a, const std::vector<Fr>& b,
                                 const std::vector<Fr>& w) {
  std::vector<Fr> out(8 * a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    Fr x = a[i], y = b[i];
    np::butterfly_dif<false>(x, y, w[i]);
    out[8 * i] = x, out[8 * i + 1] = y;
    x = a[i], y = b[i];
    np::butterfly_dit<false>(x, y, w[i]);
    out[8 * i + 2] = x, out[8 * i + 3] = y;
    x = a[i], y = b[i];
    np::butterfly_dif<false>(x, y, Fr::one());
    out[8 * i + 4] = x, out[8 * i + 5] = y;
    x = a[i], y = b[i];
    np::butterfly_dit<false>(x, y, Fr::one());
    out[8 * i + 6] = x, out[8 * i + 7] = y;
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(device_butterflies_match_host) {
  std::random_device rd;
  const uint64_t seed = (uint64_t{rd()} << 32) ^ rd();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const Fr two = Fr::one() + Fr::one();
  const Fr half_down = (-Fr::one()) * two.inverse();
  std::vector<Fr> edge = {Fr::zero(),
                          Fr::one(),
                          two,
                          -Fr::one(),
                          -two,
                          half_down,
                          half_down + Fr::one(),
                          Fr::from_raw({0xffffffffffffffffull, 0, 0, 0}),
                          Fr::from_raw({0xffffffffffffffffull, 0xffffffffffffffffull, 0, 0}),
                          Fr::from_raw({0, 0, 0, 1})};
  std::vector<Fr> a, b, w;
  for (const Fr& x : edge) {
    for (const Fr& y : edge) {
      a.push_back(x);
      b.push_back(y);
      w.push_back(edge[(a.size() * 7) % edge.size()]);
    }
  }
  for (int i = 0; i < (1 << 16); ++i) {
    a.push_back(Fr::random(rng));
    b.push_back(i % 5 == 0 ? edge[i % edge.size()] : Fr::random(rng));
    w.push_back(Fr::random(rng));
  }
  const std::size_t n = a.size();
  Fr *da, *db, *dw, *dout;
  PRESTAGE_CUDA_CHECK(cudaMalloc(&da, n * sizeof(Fr)));
  PRESTAGE_CUDA_CHECK(cudaMalloc(&db, n * sizeof(Fr)));
  PRESTAGE_CUDA_CHECK(cudaMalloc(&dw, n * sizeof(Fr)));
  PRESTAGE_CUDA_CHECK(cudaMalloc(&dout, 8 * n * sizeof(Fr)));
  PRESTAGE_CUDA_CHECK(cudaMemcpy(da, a.data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
  PRESTAGE_CUDA_CHECK(cudaMemcpy(db, b.data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
  PRESTAGE_CUDA_CHECK(cudaMemcpy(dw, w.data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
  PRESTAGE_CUDA_CHECK(cudaMemset(dout, 0xFF, 8 * n * sizeof(Fr)));  // poison
  butterfly_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(da, db, dw, dout, n);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  std::vector<Fr> out(8 * n);
  PRESTAGE_CUDA_CHECK(cudaMemcpy(out.data(), dout, 8 * n * sizeof(Fr), cudaMemcpyDeviceToHost));
  const std::vector<Fr> ref = host_butterflies(a, b, w);
  const char* what[4] = {"DIF", "DIT", "DIF (w = 1)", "DIT (w = 1)"};
  for (int f = 0; f < 4; ++f) {
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      bad += !(out[8 * i + 2 * f] == ref[8 * i + 2 * f]);
      bad += !(out[8 * i + 2 * f + 1] == ref[8 * i + 2 * f + 1]);
    }
    BOOST_TEST(bad == 0u, bad << " of " << 2 * n << " " << what[f] << " outputs differ");
  }
  PRESTAGE_CUDA_CHECK(cudaFree(da));
  PRESTAGE_CUDA_CHECK(cudaFree(db));
  PRESTAGE_CUDA_CHECK(cudaFree(dw));
  PRESTAGE_CUDA_CHECK(cudaFree(dout));
}

namespace {
// out[i * 32 + s - 1] = mul_pow2_inv(x[i], s), s = 1..32 (n x 32 x 32 B).
__global__ void pow2_inv_kernel(const Fr* x, Fr* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  for (unsigned s = 1; s <= 32; ++s) out[i * 32 + s - 1] = np::mul_pow2_inv(x[i], s);
}
}  // namespace

// System: ntt::pass::mul_pow2_inv on the device (the inverse NTT's 1/n on the first pass's
// loads). Expectation: bit-identical to Fr's host product x * (2^s)^-1 for s = 1..32, on edge
// values (0, 1, r - 1, words of all ones, 2^192) and 2^12 random x (seed printed). Tolerance:
// none.
BOOST_AUTO_TEST_CASE(device_pow2_inverse_matches_host_product) {
  std::random_device rd;
  const uint64_t seed = (uint64_t{rd()} << 32) ^ rd();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  std::vector<Fr> x = {Fr::zero(), Fr::one(), -Fr::one(),
                       Fr::from_raw({0xffffffffffffffffull, 0xffffffffffffffffull, 0, 0}),
                       Fr::from_raw({0, 0, 0, 1})};
  for (int i = 0; i < (1 << 12); ++i) x.push_back(Fr::random(rng));
  const std::size_t n = x.size();
  Fr *dx, *dout;
  PRESTAGE_CUDA_CHECK(cudaMalloc(&dx, n * sizeof(Fr)));
  PRESTAGE_CUDA_CHECK(cudaMalloc(&dout, 32 * n * sizeof(Fr)));
  PRESTAGE_CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
  PRESTAGE_CUDA_CHECK(cudaMemset(dout, 0xFF, 32 * n * sizeof(Fr)));  // poison
  pow2_inv_kernel<<<static_cast<unsigned>((n + 127) / 128), 128>>>(dx, dout, n);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  std::vector<Fr> out(32 * n);
  PRESTAGE_CUDA_CHECK(cudaMemcpy(out.data(), dout, 32 * n * sizeof(Fr), cudaMemcpyDeviceToHost));
  for (unsigned s = 1; s <= 32; ++s) {
    const Fr inv = Fr::from_u64(uint64_t{1} << s).inverse();
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) bad += !(out[i * 32 + s - 1] == x[i] * inv);
    BOOST_TEST(bad == 0u, "s = " << s << ": " << bad << " of " << n << " differ");
  }
  PRESTAGE_CUDA_CHECK(cudaFree(dx));
  PRESTAGE_CUDA_CHECK(cudaFree(dout));
}
