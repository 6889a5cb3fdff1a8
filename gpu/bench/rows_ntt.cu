// gpu_bench rows `ntt`: the Fr NTT (gpu/ntt/gpu_ntt.hpp) at every --ntt-logs size up to
// --max-log: forward, inverse, coset forward, coset inverse, each in place (fr_ntt_*: the
// permutation fused into the last pass in place, or a separate bit-reversal pass, as the row's
// in_place_path says) and with an n x 32 B scratch buffer (fr_ntt_*_scratch: the permutation
// fused into the last pass). --forward-only: the forward rows only.
#include <string>

#include "gpu/bench/bench_common.hpp"
#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/gpu_ntt.hpp"

namespace prestage::bench {
namespace {

namespace g = prestage::gpu;
using ff::Fr;

void bench_ntt(unsigned log_n, bool all_variants, Context& ctx) {
  const Ceilings& cl = ctx.cl;
  cudaStream_t stream = ctx.stream;
  json& rows = ctx.rows;
  g::SyncAllocator alloc;
  const std::size_t n = std::size_t{1} << log_n;
  ntt::DeviceDomain domain(log_n, prestage::ntt::root_of_unity(log_n), alloc, stream);
  // The data buffers before the coset tables: their addresses then do not depend on the tables'
  // size.
  g::DeviceBuffer<Fr> d(alloc, n, stream);
  g::DeviceBuffer<Fr> scratch(alloc, n, stream);  // n x 32 B for the *_scratch rows
  ntt::DeviceCosetShift coset(domain, prestage::ntt::fr_roots().shift, alloc, stream);
  // The coset factor's products an element: 1 with split tables, else 2 (hi * lo, then x).
  const double coset_muls = coset.split() ? 1.0 : 2.0;
  const std::string coset_how =
      coset.split() ? " (+ n: g^i split, one table read an element)" : " (+ 2n: g^i = hi * lo)";
  random_fr(d.data(), n, 1000 + log_n, 0, stream);
  const int reps = log_n >= 26 ? 7 : 15;
  const double mem = 2.0 * n * sizeof(Fr) / cl.bandwidth_Bps;
  const double muls = 0.5 * double(n) * log_n;
  const double comp = muls / cl.fr_mul_per_s;
  const double coset_comp = (muls + coset_muls * n) / cl.fr_mul_per_s;
  const std::string how =
      "memory: read + write n x 32 B once; compute: (n/2) log2 n Fr products at the measured rate";
  const auto path = ntt::detail::in_place_path(domain);
  const char* path_name = path == ntt::detail::InPlacePath::Mirror    ? "fused_last_pass"
                          : path == ntt::detail::InPlacePath::OnePass ? "one_pass"
                                                                      : "separate_bit_reversal";
  const std::size_t first_row = rows.size();
  Fr* x = d.data();
  Fr* sp = scratch.data();
  const auto timed = [&](const char* name, double compute_s, const std::string& row_how,
                         const auto& body) {
    rows.push_back(row(name, n, time_runs(stream, 2, reps, body), mem, compute_s, row_how));
  };
  timed("fr_ntt_forward", comp, how, [&] { ntt::forward(domain, x, stream); });
  timed("fr_ntt_forward_scratch", comp, how, [&] { ntt::forward(domain, x, stream, sp); });
  if (all_variants) {
    // 1/n: a shift and one 32-bit reduction step on the first pass's loads
    // (ntt::pass::mul_pow2_inv), not counted as a product.
    const std::string inv_how = how + " (1/n by shift, not counted)";
    const std::string coset_inv_how = how + coset_how + ", n^-1 in the table";
    timed("fr_ntt_inverse", comp, inv_how, [&] { ntt::inverse(domain, x, stream); });
    timed("fr_ntt_coset_forward", coset_comp, how + coset_how,
          [&] { ntt::coset_forward(domain, coset, x, stream); });
    timed("fr_ntt_coset_inverse", coset_comp, coset_inv_how,
          [&] { ntt::coset_inverse(domain, coset, x, stream); });
    timed("fr_ntt_inverse_scratch", comp, inv_how, [&] { ntt::inverse(domain, x, stream, sp); });
    timed("fr_ntt_coset_forward_scratch", coset_comp, how + coset_how,
          [&] { ntt::coset_forward(domain, coset, x, stream, sp); });
    timed("fr_ntt_coset_inverse_scratch", coset_comp, coset_inv_how,
          [&] { ntt::coset_inverse(domain, coset, x, stream, sp); });
  }
  // The in-place rows' permutation (the *_scratch rows always fuse it into the last pass).
  for (std::size_t i = first_row; i < rows.size(); ++i) {
    const std::string name = rows[i]["name"];
    if (name.find("_scratch") == std::string::npos) rows[i]["in_place_path"] = path_name;
  }
}

const RegisterRows kNtt{
    {"ntt", "", "Fr NTT forward/inverse/coset, in place and with scratch, at --ntt-logs sizes", 10,
     [](Context& ctx) {
       for (unsigned k : ctx.opt.ntt_logs)
         if (k <= ctx.opt.max_log) bench_ntt(k, !ctx.opt.forward_only, ctx);
     }}};

}  // namespace
}  // namespace prestage::bench
