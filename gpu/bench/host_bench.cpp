// host_bench: times of the host reference NTT and MSM by size (a benchmark, not a test).
// Axes: operation (ntt::forward, ntt::inverse, ntt::coset_forward, ntt_circom_step_3pass,
// ntt_to_coset, msm_g1 (GLV), msm_g1_noglv,
// msm_g1*_noifma (scalar Fq in the batch-affine additions), msm_g2), log2 size, threads, MSM window
// bits. Output: CSV on stdout (and --out FILE), preceded by
// '#' lines naming the machine, date, commit and load, so a result can be traced to where it was
// measured. Each figure is the median of --runs runs on the same inputs (random, fixed seed).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "gpu/common/parallel.hpp"
#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ff/fq_ifma.hpp"
#include "gpu/msm/host_msm.hpp"
#include "gpu/ntt/host_ntt.hpp"
#include "model/output_files.hpp"
#include "model/version_info.hpp"

using prestage::ff::Fr;
namespace ntt = prestage::ntt;
namespace msm = prestage::msm;
namespace ec = prestage::ec;
namespace ff = prestage::ff;

namespace {

std::string first_line_with(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown";
}

std::string read_all(const char* path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

template <class Fn>
std::vector<double> time_runs(int runs, Fn&& fn) {
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms;
}

struct Out {
  std::ostringstream csv;
  void row(const std::string& op, unsigned log_n, unsigned threads, unsigned window,
           const std::vector<double>& ms, const char* buckets = "") {
    std::string line = fmt::format("{},{},{},{},{},{},{},{:.3f},{:.3f},{:.3f}\n", op, log_n,
                                   std::size_t{1} << log_n, threads, window, buckets, ms.size(),
                                   ms[ms.size() / 2], ms.front(), ms.back());
    csv << line;
    std::fputs(line.c_str(), stdout);
    std::fflush(stdout);
  }
  void comment(const std::string& s) {
    csv << "# " << s << "\n";
    std::printf("# %s\n", s.c_str());
  }
};

// Nanoseconds per operation of the arithmetic the transforms are made of, one thread: 8
// independent chains (throughput, as in an NTT stage or a bucket sweep), 2^20 operations.
template <class T, class Op>
double ns_per_op(std::mt19937_64& rng, T (*make)(std::mt19937_64&), Op op) {
  constexpr int kChains = 8, kOps = 1 << 17;
  T x[kChains];
  for (auto& v : x) v = make(rng);
  const T y = make(rng);
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kOps; ++i)
    for (auto& v : x) v = op(v, y);
  auto t1 = std::chrono::steady_clock::now();
  volatile uint64_t sink = 0;
  for (auto& v : x) sink = sink + reinterpret_cast<const uint64_t*>(&v)[0];
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / (kChains * double{kOps});
}

#if PRESTAGE_FF_HOST_IFMA
// Nanoseconds per Fq product on the eight IFMA lanes (gpu/ff/fq_ifma.hpp), one thread: Chains
// independent Fq8 chains (8 x Chains products in flight), 2^17 Fq8 products per chain.
template <int Chains>
PRESTAGE_IFMA_TARGET [[gnu::noinline]] double ns_per_ifma_mul(std::mt19937_64& rng) {
  namespace vi = ff::ifma;
  constexpr int kOps = 1 << 17;
  vi::Fq8 x[Chains];
  ff::Fq v[8];
  for (auto& c : x) {
    for (auto& e : v) e = ff::Fq::random(rng);
    c = vi::load(v);
  }
  for (auto& e : v) e = ff::Fq::random(rng);
  const vi::Fq8 y = vi::load(v);
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kOps; ++i)
    for (auto& c : x) c = vi::mul(c, y);
  auto t1 = std::chrono::steady_clock::now();
  volatile uint64_t sink = 0;
  for (auto& c : x) {
    vi::store(c, v);
    sink = sink + v[0].limb[0];
  }
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / (8.0 * Chains * kOps);
}
#endif

void bench_arith(Out& out) {
  std::mt19937_64 rng(3);
  using ff::Fq;
  auto fr = +[](std::mt19937_64& g) { return Fr::random(g); };
  auto fq = +[](std::mt19937_64& g) { return Fq::random(g); };
  auto g1 = +[](std::mt19937_64& g) {
    return ec::G1XYZZ::generator().to_jacobian().mul(Fr::random(g)).to_xyzz();
  };
  const ec::G1Affine q = ec::G1Jacobian::generator().mul(Fr::random(rng)).to_affine();
  auto line = [&](const char* op, double ns) {
    out.comment(fmt::format("{} {:.1f} ns/op", op, ns));
  };
  line("fr_mul", ns_per_op<Fr>(rng, fr, [](const Fr& a, const Fr& b) { return a * b; }));
  line("fr_add", ns_per_op<Fr>(rng, fr, [](const Fr& a, const Fr& b) { return a + b; }));
  line("fq_mul", ns_per_op<Fq>(rng, fq, [](const Fq& a, const Fq& b) { return a * b; }));
  line("fq_add", ns_per_op<Fq>(rng, fq, [](const Fq& a, const Fq& b) { return a + b; }));
#if PRESTAGE_FF_HOST_IFMA
  if (ff::ifma::cpu_has_ifma()) {
    line("fq_mul_ifma8_1chain", ns_per_ifma_mul<1>(rng));
    line("fq_mul_ifma8_2chains", ns_per_ifma_mul<2>(rng));
    line("fq_mul_ifma8_4chains", ns_per_ifma_mul<4>(rng));
  } else {
    out.comment("fq_mul_ifma8: CPU lacks AVX-512 IFMA");
  }
#endif
  line("g1_xyzz_add_mixed",
       ns_per_op<ec::G1XYZZ>(
           rng, g1, [&](const ec::G1XYZZ& a, const ec::G1XYZZ&) { return a.add_mixed(q); }));
  line("g1_xyzz_add", ns_per_op<ec::G1XYZZ>(rng, g1, [](const ec::G1XYZZ& a, const ec::G1XYZZ& b) {
         return a.add(b);
       }));
  auto t0 = std::chrono::steady_clock::now();
  Fq x = Fq::random(rng);
  for (int i = 0; i < 200; ++i) x = x.inverse() + Fq::one();
  auto t1 = std::chrono::steady_clock::now();
  volatile uint64_t sink = x.limb[0];
  (void)sink;
  line("fq_inverse", std::chrono::duration<double, std::nano>(t1 - t0).count() / 200);
}

const char* mode_name(msm::BucketMode m) {
  switch (m) {
    case msm::BucketMode::xyzz:
      return "xyzz";
    case msm::BucketMode::batch_affine:
      return "batch_affine";
    default:
      return "auto";
  }
}

// n distinct affine points: random multiples of the generator for a few seeds, then a chain of
// additions of a random point (cheap; Pippenger's cost does not depend on which points).
template <class Affine, class Jacobian>
std::vector<Affine> make_points(std::size_t n, std::mt19937_64& rng) {
  const Jacobian g = Jacobian::generator();
  const Jacobian step = g.mul(Fr::random(rng));
  Jacobian acc = g.mul(Fr::random(rng));
  std::vector<Jacobian> jac(n);
  for (std::size_t i = 0; i < n; ++i) {
    jac[i] = acc;
    acc = acc + step;
  }
  std::vector<Affine> out(n);
  ec::batch_to_affine(std::span<const Jacobian>(jac), std::span<Affine>(out));
  return out;
}

template <class Curve>
void bench_msm(Out& out, const char* op, unsigned lo, unsigned hi, int runs, unsigned threads,
               int sweep, const std::vector<msm::BucketMode>& modes, double binary, bool glv,
               bool simd) {
  using Affine = typename Curve::Affine;
  using Jacobian = typename Curve::Jacobian;
  if (lo > hi) return;
  std::mt19937_64 rng(2);
  const auto points = make_points<Affine, Jacobian>(std::size_t{1} << hi, rng);
  std::vector<Fr> scalars(points.size());
  // A fraction `binary` of the scalars are 0 or 1 (half each), as in PoRep witnesses.
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (auto& s : scalars) {
    const double x = u(rng);
    s = x < binary / 2 ? Fr::zero() : x < binary ? Fr::one() : Fr::random(rng);
  }
  for (unsigned k = lo; k <= hi; ++k) {
    const std::size_t n = std::size_t{1} << k;
    std::span<const Affine> p(points.data(), n);
    std::span<const Fr> s(scalars.data(), n);
    std::size_t general = 0;
    for (std::size_t i = 0; i < n; ++i) general += !(scalars[i].is_zero() || scalars[i].is_one());
    // sweep = 0: the library's own choice (window_bits 0), reported as the c it picks.
    // G1 with GLV: the rule sees 2 * general rows of 128-bit scalars (host_msm.cpp).
    const bool split = glv && std::is_same_v<Curve, msm::G1Curve>;
    const int c0 = static_cast<int>(split ? msm::window_bits_for(2 * general, 128)
                                          : msm::window_bits_for(general));
    for (int c = std::max(1, c0 - sweep); c <= std::min(16, c0 + sweep); ++c)
      for (msm::BucketMode mode : modes) {
        msm::HostOptions opt{threads, sweep == 0 ? 0u : static_cast<unsigned>(c), mode, glv};
        opt.simd = simd;
        auto ms = time_runs(runs, [&] { (void)msm::msm<Curve>(p, s, opt); });
        out.row(op, k, threads, static_cast<unsigned>(c), ms, mode_name(mode));
      }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Host NTT and MSM times by size (medians of --runs runs)"};
  unsigned ntt_lo = 10, ntt_hi = 20, g1_lo = 10, g1_hi = 18, g2_lo = 10, g2_hi = 14;
  int runs = 5, sweep = 0;
  unsigned threads = 0;
  std::string out_path;
  app.add_option("--ntt-min", ntt_lo, "smallest NTT log2 size")->check(CLI::Range(0, 32));
  app.add_option("--ntt-max", ntt_hi, "largest NTT log2 size (smaller than --ntt-min: skip)")
      ->check(CLI::Range(0, 32));
  app.add_option("--g1-min", g1_lo, "smallest G1 MSM log2 size")->check(CLI::Range(0, 30));
  app.add_option("--g1-max", g1_hi, "largest G1 MSM log2 size")->check(CLI::Range(0, 30));
  app.add_option("--g2-min", g2_lo, "smallest G2 MSM log2 size")->check(CLI::Range(0, 30));
  app.add_option("--g2-max", g2_hi, "largest G2 MSM log2 size")->check(CLI::Range(0, 30));
  app.add_option("--runs", runs, "runs per figure (the median is reported)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--threads", threads, "threads (0 = hardware concurrency)");
  app.add_option("--sweep-window", sweep, "also time MSM windows c0-k..c0+k around the rule's c0")
      ->check(CLI::Range(0, 15));
  app.add_option("--out", out_path, "also write the CSV to this file");
  std::string buckets = "auto";
  double binary = 0.0;
  bool arith = false, no_glv = false, no_ifma = false;
  app.add_flag("--no-glv", no_glv, "G1 MSM without the GLV endomorphism (op msm_g1_noglv)");
  app.add_flag("--no-ifma", no_ifma,
               "G1 batch-affine additions on the scalar Fq path, not AVX-512 IFMA (op suffix "
               "_noifma)");
  app.add_flag("--arith", arith, "also print ns per field/curve operation ('#' lines)");
  app.add_option("--binary-fraction", binary, "fraction of MSM scalars that are 0 or 1")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--buckets", buckets, "MSM bucket mode: auto, xyzz, batch_affine or all")
      ->check(CLI::IsMember({"auto", "xyzz", "batch_affine", "all"}));
  CLI11_PARSE(app, argc, argv);
  const unsigned t = prestage::host::resolve_threads(threads);
  const bool glv = !no_glv;

  Out out;
  out.comment("prestage host_bench " + prestage::version_string() + " commit " +
              prestage::git_commit());
  out.comment("date " + utc_now() + ", cpu " + first_line_with("/proc/cpuinfo", "model name") +
              ", hardware threads " + std::to_string(std::thread::hardware_concurrency()) +
              ", threads used " + std::to_string(t));
  out.comment("loadavg at start " + read_all("/proc/loadavg"));
  out.comment("figures: wall-clock ms, median/min/max of runs; inputs random (fixed seed)");
  out.comment("MSM scalars: fraction " + std::to_string(binary) + " are 0/1, the rest random");
  out.csv << "op,log_n,n,threads,window,buckets,runs,median_ms,min_ms,max_ms\n";
  std::puts("op,log_n,n,threads,window,buckets,runs,median_ms,min_ms,max_ms");

  if (arith) bench_arith(out);
  std::mt19937_64 rng(1);
  for (unsigned k = ntt_lo; k <= ntt_hi; ++k) {
    ntt::Domain d(k, t);
    std::vector<Fr> a(d.size());
    for (auto& x : a) x = Fr::random(rng);
    const Fr shift = d.circom_coset_shift();
    out.row("ntt::forward", k, t, 0, time_runs(runs, [&] { ntt::forward(d, a, t); }));
    out.row("ntt::inverse", k, t, 0, time_runs(runs, [&] { ntt::inverse(d, a, t); }));
    out.row("ntt::coset_forward", k, t, 0,
            time_runs(runs, [&] { ntt::coset_forward(d, a, shift, t); }));
    out.row("ntt_domain_build", k, t, 0, time_runs(runs, [&] { ntt::Domain again(k, t); }));
    // The circom reduction's step per polynomial, as the prover ran it before ntt::to_coset
    // (inverse, scale by g^i, forward) and with it (table built once, outside the timing).
    out.row("ntt_circom_step_3pass", k, t, 0, time_runs(runs, [&] {
              ntt::inverse(d, a, t);
              ntt::scale_by_powers(a, Fr::one(), shift, t);
              ntt::forward(d, a, t);
            }));
    const ntt::CosetShift cs(d, shift, t);
    out.row("ntt_to_coset", k, t, 0, time_runs(runs, [&] { ntt::to_coset(d, cs, a, t); }));
  }
  std::vector<msm::BucketMode> modes;
  if (buckets == "all")
    modes = {msm::BucketMode::xyzz, msm::BucketMode::batch_affine};
  else
    modes = {buckets == "xyzz"           ? msm::BucketMode::xyzz
             : buckets == "batch_affine" ? msm::BucketMode::batch_affine
                                         : msm::BucketMode::automatic};
  const std::string g1_op =
      std::string(glv ? "msm_g1" : "msm_g1_noglv") + (no_ifma ? "_noifma" : "");
  bench_msm<msm::G1Curve>(out, g1_op.c_str(), g1_lo, g1_hi, runs, t, sweep, modes, binary, glv,
                          !no_ifma);
  bench_msm<msm::G2Curve>(out, "msm_g2", g2_lo, g2_hi, runs, t, sweep, modes, binary, glv, true);
  out.comment("loadavg at end " + read_all("/proc/loadavg"));

  if (!out_path.empty()) {
    // Written whole to a unique temporary name beside it, then renamed: never a half-written
    // file; replaces an earlier regular file, never a directory (model/output_files.hpp).
    try {
      prestage::output::write_file_atomic(
          out_path, true, [&](std::ostream& f) { f << out.csv.str(); }, "--out");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "host_bench: %s\n", e.what());
      return 2;
    }
  }
  return 0;
}
