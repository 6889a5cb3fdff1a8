// System: the batched binary-GCD inversion (gpu/ff/inverse_bingcd_hd.hpp) compiled by nvcc and
// run in a kernel, one element a thread (warps whose lanes take different step counts). Inputs:
// the host test's edge values (1, -1, 2, raw limbs 2^k and p - 2^k for every k, small raw values)
// and random elements (seed printed; PRESTAGE_SEED replays), for Fq, Fr and Fq2; zero.
// Expectation: every device result equals the host's Fermat inverse (Fp::inverse) bit for bit,
// zero maps to zero, and the device's outer step count equals the host's for the same input.
// Tolerance: none (exact). Without a GPU the binary exits 77 (visible skip).
#define PRESTAGE_FF_COMPACT_DEVICE_CODE 1
#include <cuda_runtime.h>

#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ff/fq.hpp"
#include "gpu/ff/fq2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/ff/inverse_bingcd_hd.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace {

namespace ff = prestage::ff;
namespace gt = prestage::gpu::test;

template <class F>
__global__ void invert_kernel(const F* in, F* out, unsigned* steps, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = ff::inverse_bingcd(in[i], &steps[i]);
}

__global__ void invert_fq2_kernel(const ff::Fq2* in, ff::Fq2* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = ff::inverse_bingcd(in[i]);
}

void check_cuda(cudaError_t e, const char* what) {
  BOOST_TEST_REQUIRE(e == cudaSuccess, what << ": " << cudaGetErrorString(e));
}

// Device results for `in` (n x sizeof(T) B each way), with the output poisoned (0xFF) first.
template <class T, class Launch>
std::vector<T> on_device(const std::vector<T>& in, std::vector<unsigned>* steps, Launch launch) {
  const unsigned n = static_cast<unsigned>(in.size());
  T *d_in = nullptr, *d_out = nullptr;
  unsigned* d_steps = nullptr;
  check_cuda(cudaMalloc(&d_in, n * sizeof(T)), "cudaMalloc");
  check_cuda(cudaMalloc(&d_out, n * sizeof(T)), "cudaMalloc");
  check_cuda(cudaMalloc(&d_steps, n * sizeof(unsigned)), "cudaMalloc");
  check_cuda(cudaMemcpy(d_in, in.data(), n * sizeof(T), cudaMemcpyHostToDevice), "H2D");
  check_cuda(cudaMemset(d_out, 0xFF, n * sizeof(T)), "poison");
  launch(d_in, d_out, d_steps, n);
  check_cuda(cudaGetLastError(), "launch");
  check_cuda(cudaDeviceSynchronize(), "kernel");
  std::vector<T> out(n);
  check_cuda(cudaMemcpy(out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
  if (steps != nullptr) {
    steps->resize(n);
    check_cuda(cudaMemcpy(steps->data(), d_steps, n * sizeof(unsigned), cudaMemcpyDeviceToHost),
               "D2H");
  }
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_steps);
  return out;
}

template <class F>
std::vector<F> inputs(std::mt19937_64& rng, int random_count) {
  std::vector<F> v = {F::zero(), F::one(), -F::one(), F::one().dbl()};
  for (unsigned k = 0; k < F::num_bits - 1; ++k) {
    typename F::Limbs l{};
    l[k / 64] = uint64_t{1} << (k % 64);
    v.push_back(F::from_raw(l));
    v.push_back(-F::from_raw(l));
  }
  for (uint64_t s = 1; s < 40; ++s) {
    typename F::Limbs l{};
    l[0] = s;
    v.push_back(F::from_raw(l));
    v.push_back(-F::from_raw(l));
  }
  for (int i = 0; i < random_count; ++i) v.push_back(F::random(rng));
  return v;
}

template <class F>
void check_field(std::mt19937_64& rng) {
  const std::vector<F> in = inputs<F>(rng, 4096);
  std::vector<unsigned> steps;
  const std::vector<F> got = on_device(in, &steps, [](const F* i, F* o, unsigned* s, unsigned n) {
    invert_kernel<F><<<(n + 127) / 128, 128>>>(i, o, s, n);
  });
  unsigned wrong = 0, step_diff = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    unsigned host_steps = 0;
    const F want = in[i].is_zero() ? F::zero() : in[i].inverse();
    (void)ff::inverse_bingcd(in[i], &host_steps);
    wrong += !(got[i] == want);
    step_diff += steps[i] != host_steps;
  }
  BOOST_TEST(wrong == 0u, F::num_bits << "-bit field, " << in.size() << " values");
  BOOST_TEST(step_diff == 0u);
}

}  // namespace

BOOST_AUTO_TEST_CASE(device_bingcd_matches_fermat) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  check_field<ff::Fq>(rng);
  check_field<ff::Fr>(rng);
  std::vector<ff::Fq2> in = {ff::Fq2::zero()};
  for (int i = 0; i < 1024; ++i) in.push_back(ff::Fq2::random(rng));
  in[1].c1 = ff::Fq::zero();
  in[2].c0 = ff::Fq::zero();
  const std::vector<ff::Fq2> got =
      on_device(in, nullptr, [](const ff::Fq2* i, ff::Fq2* o, unsigned*, unsigned n) {
        invert_fq2_kernel<<<(n + 127) / 128, 128>>>(i, o, n);
      });
  unsigned wrong = 0;
  for (std::size_t i = 0; i < in.size(); ++i)
    wrong += !(got[i] == (in[i] == ff::Fq2::zero() ? ff::Fq2::zero() : in[i].inverse()));
  BOOST_TEST(wrong == 0u);
}
