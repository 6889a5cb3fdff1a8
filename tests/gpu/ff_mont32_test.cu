// System: the field-product candidates of gpu/ff/mont32_candidates.hpp (32-bit CIOS, even/odd
// CIOS, SOS, dedicated squaring; Fq2 Karatsuba over each, lazy-reduction Fq2; 32-bit add/sub)
// and the defaults (Fp::operator*, sqr, +, -, Fq2::operator*, Fq2::sqr), run on the GPU.
// Expectation: every device result is bit-identical to the host's Fp::operator* (or Fq2
// product / square) on 2^17 random pairs per field plus every pair of edge values (0, 1, 2,
// p - 1, p - 2, R mod p, R^2 mod p, raw 1, raw p - 1, raw p - 2); outputs are poisoned (0xFF)
// before each launch. Tolerance: none (exact). Without a GPU: exit 77 (visible skip).
#include <cuda_runtime.h>

#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpu/ff/mont32_candidates.hpp"
#include "gpu/runtime/cuda_check.hpp"
#include "tests/unit/ff/mont32_edges.hpp"

using namespace prestage::ff;
namespace cand = prestage::ff::candidates;

namespace {

template <class Op, class T>
__global__ void apply_kernel(const T* a, const T* b, T* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) out[i] = Op::apply(a[i], b[i]);
}

uint64_t seed() {
  uint64_t s;
  if (const char* v = std::getenv("PRESTAGE_SEED")) {
    s = std::stoull(v);
  } else {
    std::random_device rd;
    s = (uint64_t{rd()} << 32) ^ rd();
  }
  BOOST_TEST_MESSAGE("seed " << s);
  return s;
}

// Inputs on the device, shared by every candidate of one element type.
template <class T>
struct Inputs {
  std::vector<T> a, b;
  T *da = nullptr, *db = nullptr, *dout = nullptr;  // n x sizeof(T) B each, Montgomery
  explicit Inputs(std::vector<T> a_, std::vector<T> b_) : a(std::move(a_)), b(std::move(b_)) {
    const std::size_t bytes = a.size() * sizeof(T);
    PRESTAGE_CUDA_CHECK(cudaMalloc(&da, bytes));
    PRESTAGE_CUDA_CHECK(cudaMalloc(&db, bytes));
    PRESTAGE_CUDA_CHECK(cudaMalloc(&dout, bytes));
    PRESTAGE_CUDA_CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    PRESTAGE_CUDA_CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
  }
  ~Inputs() {
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
  }
  Inputs(const Inputs&) = delete;
  Inputs& operator=(const Inputs&) = delete;
};

// Runs Op on the device and compares each output with want(a, b) on the host.
template <class Op, class T, class Want>
void check(const Inputs<T>& in, Want want) {
  const std::size_t n = in.a.size();
  PRESTAGE_CUDA_CHECK(cudaMemset(in.dout, 0xFF, n * sizeof(T)));
  apply_kernel<Op, T><<<static_cast<unsigned>((n + 255) / 256), 256>>>(in.da, in.db, in.dout, n);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  std::vector<T> out(n);
  PRESTAGE_CUDA_CHECK(cudaMemcpy(out.data(), in.dout, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::size_t bad = 0, first = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(out[i] == want(in.a[i], in.b[i]))) {
      if (bad++ == 0) first = i;
    }
  }
  BOOST_TEST(bad == 0u,
             Op::name << ": " << bad << " of " << n << " differ (first at " << first << ")");
}

template <class F>
Inputs<F> field_inputs(std::mt19937_64& rng) {
  std::vector<F> a, b;
  const auto e = test::edge_values<F>();
  for (const F& x : e)
    for (const F& y : e) {
      a.push_back(x);
      b.push_back(y);
    }
  for (int i = 0; i < (1 << 17); ++i) {
    a.push_back(F::random(rng));
    b.push_back(F::random(rng));
  }
  return Inputs<F>(std::move(a), std::move(b));
}

template <class F>
void check_field(std::mt19937_64& rng) {
  const Inputs<F> in = field_inputs<F>(rng);
  auto mul = [](const F& x, const F& y) { return x * y; };
  auto sqr = [](const F& x, const F&) { return x * x; };
  check<cand::mul_cios>(in, mul);
  check<cand::mul_eo>(in, mul);
  check<cand::mul_eo_imm>(in, mul);
  check<cand::mul_sos>(in, mul);
  check<cand::mul_default>(in, mul);
  check<cand::sqr_eo>(in, sqr);
  check<cand::sqr_sos>(in, sqr);
  check<cand::sqr_sos_imm>(in, sqr);
  check<cand::sqr_default>(in, sqr);
  check<cand::add_w32>(in, [](const F& x, const F& y) { return x + y; });
  check<cand::add_default>(in, [](const F& x, const F& y) { return x + y; });
  check<cand::sub_w32>(in, [](const F& x, const F& y) { return x - y; });
  check<cand::sub_default>(in, [](const F& x, const F& y) { return x - y; });
  check<cand::add_limb64>(in, [](const F& x, const F& y) { return x + y; });
  check<cand::sub_limb64>(in, [](const F& x, const F& y) { return x - y; });
}

}  // namespace

BOOST_AUTO_TEST_CASE(fr_products_on_device_match_host) {
  std::mt19937_64 rng(seed());
  check_field<Fr>(rng);
}

BOOST_AUTO_TEST_CASE(fq_products_on_device_match_host) {
  std::mt19937_64 rng(seed());
  check_field<Fq>(rng);
}

BOOST_AUTO_TEST_CASE(fq2_products_on_device_match_host) {
  std::mt19937_64 rng(seed());
  std::vector<Fq2> a, b;
  std::vector<Fq2> e;
  for (const Fq& x : test::edge_values<Fq>())
    for (const Fq& y : test::edge_values<Fq>()) e.push_back({x, y});
  for (std::size_t i = 0; i < e.size(); ++i) {
    for (std::size_t j = 0; j < e.size(); j += 7) {
      a.push_back(e[i]);
      b.push_back(e[j]);
    }
  }
  for (int i = 0; i < (1 << 17); ++i) {
    a.push_back(Fq2::random(rng));
    b.push_back(Fq2::random(rng));
  }
  const Inputs<Fq2> in(std::move(a), std::move(b));
  auto mul = [](const Fq2& x, const Fq2& y) { return x * y; };
  auto sqr = [](const Fq2& x, const Fq2&) { return x.sqr(); };
  check<cand::fq2_mul_cios>(in, mul);
  check<cand::fq2_mul_eo>(in, mul);
  check<cand::fq2_mul_lazy>(in, mul);
  check<cand::fq2_mul_default>(in, mul);
  check<cand::fq2_sqr_cios>(in, sqr);
  check<cand::fq2_sqr_eo>(in, sqr);
  check<cand::fq2_sqr_default>(in, sqr);
}
