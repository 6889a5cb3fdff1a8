// gpu_bench rows `h`: the Groth16 H computation (gpu/groth16/gpu_h.hpp). groth16_h_circom and
// groth16_h_textbook at 2^27 (2^20 with --quick or --max-log < 27), and groth16_h_input (one
// input's chain, detail::interpolate_to_coset) at every --ntt-logs size up to --max-log.
#include <algorithm>

#include "gpu/bench/bench_common.hpp"
#include "gpu/groth16/gpu_h.hpp"
#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/gpu_ntt.hpp"

namespace prestage::bench {
namespace {

namespace g = prestage::gpu;
using ff::Fr;

// The domain of size 2^log_n and the circom coset shift (a primitive 2n-th root of unity,
// snarkjs's groth16 prover), on `stream` from a synchronous allocator.
struct CircomDomain {
  g::SyncAllocator alloc;
  ntt::DeviceDomain domain;
  ntt::DeviceCosetShift coset;
  CircomDomain(unsigned log_n, cudaStream_t stream)
      : domain(log_n, prestage::ntt::root_of_unity(log_n), alloc, stream),
        coset(domain, prestage::ntt::root_of_unity(log_n + 1), alloc, stream) {}
};

void bench_h(unsigned log_n, Context& ctx) {
  const Ceilings& cl = ctx.cl;
  cudaStream_t stream = ctx.stream;
  const std::size_t n = std::size_t{1} << log_n;
  CircomDomain cd(log_n, stream);
  g::DeviceBuffer<Fr> a(cd.alloc, n, stream), b(cd.alloc, n, stream), c(cd.alloc, n, stream);
  random_fr(a.data(), n, 11, 0, stream);
  random_fr(b.data(), n, 12, 0, stream);
  random_fr(c.data(), n, 13, 0, stream);
  const double mem = 4.0 * n * sizeof(Fr) / cl.bandwidth_Bps;
  const double muls = 6 * (0.5 * double(n) * log_n + 2 * double(n)) + n;
  ctx.rows.push_back(row("groth16_h_circom", n,
                         time_runs(stream, 1, 5,
                                   [&] {
                                     groth16::compute_h_on_device(
                                         cd.domain, cd.coset, groth16::HReduction::Circom, a.data(),
                                         b.data(), c.data(), stream);
                                   }),
                         mem, muls / cl.fr_mul_per_s,
                         "memory: read a, b, c and write h once (4 n x 32 B); compute: 3 iNTT + 3 "
                         "coset NTT ((n/2) log2 n + 2n products each) + n"));
  ntt::DeviceCosetShift tb_coset(cd.domain, prestage::ntt::fr_roots().shift, cd.alloc, stream);
  ctx.rows.push_back(row("groth16_h_textbook", n,
                         time_runs(stream, 1, 5,
                                   [&] {
                                     groth16::compute_h_on_device(
                                         cd.domain, tb_coset, groth16::HReduction::Textbook,
                                         a.data(), b.data(), c.data(), stream);
                                   }),
                         mem, (muls + 0.5 * double(n) * log_n + 3 * double(n)) / cl.fr_mul_per_s,
                         "as groth16_h_circom, + n for 1/Z and a coset iNTT ((n/2) log2 n + 2n)"));
}

// One input's H chain (detail::interpolate_to_coset on one buffer, no fused pointwise):
// evaluations on the domain -> evaluations on the circom coset, the step the model times once
// per input (groth16::compute_h_on_device runs it for a, b and c).
void bench_h_input(unsigned log_n, Context& ctx) {
  const Ceilings& cl = ctx.cl;
  cudaStream_t stream = ctx.stream;
  const std::size_t n = std::size_t{1} << log_n;
  CircomDomain cd(log_n, stream);
  g::DeviceBuffer<Fr> x(cd.alloc, n, stream);  // n x 32 B, Montgomery
  random_fr(x.data(), n, 14, 0, stream);
  const int reps = log_n >= 26 ? 7 : 15;
  const double muls = 2 * (0.5 * double(n) * log_n + 2 * double(n));
  ctx.rows.push_back(row("groth16_h_input", n,
                         time_runs(stream, 2, reps,
                                   [&] {
                                     ntt::detail::interpolate_to_coset(cd.domain, cd.coset,
                                                                       x.data(), nullptr, nullptr,
                                                                       Fr::one(), false, stream);
                                   }),
                         2.0 * n * sizeof(Fr) / cl.bandwidth_Bps, muls / cl.fr_mul_per_s,
                         "memory: read + write n x 32 B once; compute: iNTT + coset NTT ((n/2) "
                         "log2 n + 2n products each)"));
}

const RegisterRows kH{
    {"h", "",
     "Groth16 H: circom and textbook at 2^27 (2^20 with --quick or --max-log < 27), "
     "one input's chain (groth16_h_input) at --ntt-logs sizes",
     20, [](Context& ctx) {
       const Options& o = ctx.opt;
       bench_h(o.max_log >= 27 && !o.quick ? 27 : std::min(o.max_log, 20u), ctx);
       for (unsigned k : o.ntt_logs)
         if (k <= o.max_log) bench_h_input(k, ctx);
     }}};

}  // namespace
}  // namespace prestage::bench
