// `prestage setup --r1cs R --zkey K --vk V [--seed S] [--textbook]` and
// `prestage synth --profile porep --log-domain N --public P --seed S --r1cs R --wtns W`:
// `prestage vk --zkey K -o V`: verification_key.json of a .zkey.
// Test/benchmark tooling around the Groth16 host prover.
//   setup: keys for a circom .r1cs from toxic waste derived from the seed (NOT a ceremony: the
//          seed reveals tau; for tests and benchmarks only), written as a snarkjs-compatible
//          .zkey (circom reduction) and verification_key.json, so `snarkjs groth16 prove` and
//          `prestage prove` run on the same key without a powers-of-tau ceremony.
//   synth:  a synthetic circuit (gpu/groth16/circuit.hpp) and its satisfying witness as
//          .r1cs/.wtns files, sized to a 2^N domain.
// All three exit 4 in a build without the host prover (the `sim` preset).
#include <fmt/core.h>

#include <chrono>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "model/errors.hpp"
#ifdef PRESTAGE_HAVE_PROVER
#include "gpu/groth16/groth16.hpp"
#include "gpu/io/r1cs.hpp"
#include "gpu/io/snarkjs_json.hpp"
#include "gpu/io/wtns.hpp"
#include "gpu/io/zkey.hpp"
#endif
#ifdef PRESTAGE_HAVE_GPU_PROVER
#include <cuda_runtime.h>

#include "gpu/groth16/gpu_setup.hpp"
#endif

namespace {

struct SetupArgs {
  std::string r1cs, zkey, vk;
  uint64_t seed = 1;
  unsigned threads = 0;
  bool gpu = false;
};

void add_setup(CLI::App& app) {
  auto a = std::make_shared<SetupArgs>();
  CLI::App* c = app.add_subcommand(
      "setup", "seeded (insecure, deterministic) Groth16 setup of a .r1cs -> snarkjs .zkey + vk");
  using prestage::cli::prover_required;
  namespace help = prestage::cli::help;
  prover_required(c->add_option("--r1cs", a->r1cs, "circuit (.r1cs, BLS12-381)"));
  prover_required(c->add_option("--zkey", a->zkey, "output proving key (.zkey)"));
  prover_required(c->add_option("--vk", a->vk, "output verification_key.json"));
  c->add_option("--seed", a->seed, "toxic-waste seed (tests and benchmarks only)");
  c->add_option("--threads", a->threads, "worker threads (0 = all cores)");
  c->add_flag("--gpu", a->gpu,
              "the key's points (k * G, ~5n G1 and n G2) on CUDA device 0; the same key as "
              "without (the host's products are nearly all of the setup's time)");
  c->footer(help::footer(
      {{"Output files",
        "the proving key (--zkey, snarkjs .zkey, circom reduction) and "
        "verification_key.json (--vk)"},
       {"Exit codes", help::exit_codes("keys written",
                                       " -- unreadable or malformed .r1cs, a circuit too large "
                                       "for Fr",
                                       "; 4 unavailable (a build without the prover; --gpu "
                                       "without a CUDA device or a build without CUDA)")},
       {"Accepts",
        "a circom .r1cs over BLS12-381; --seed any 64-bit integer (NOT a ceremony: "
        "the seed reveals tau)"}}));
  c->callback([a] {
#ifndef PRESTAGE_HAVE_PROVER
    (void)a;
    prestage::cli::throw_no_prover("setup");
#else
    using namespace prestage;
    const auto t0 = std::chrono::steady_clock::now();
    const io::R1cs r = io::read_r1cs(a->r1cs);
    groth16::R1csCircuit circuit(r);
    if (circuit.domain_log2() + 1 > 32)
      throw InputError(a->r1cs, 0, "section 1 (header)", "circuit too large for BLS12-381 Fr");
    groth16::SetupOptions so;
    so.seed = a->seed;
    so.with_coefs = true;
    so.threads = a->threads;
    if (a->gpu) {
#ifdef PRESTAGE_HAVE_GPU_PROVER
      int devices = 0;
      const cudaError_t e = cudaGetDeviceCount(&devices);
      if (e != cudaSuccess || devices == 0)
        throw UnavailableError(fmt::format("setup --gpu: no usable CUDA device ({})",
                                           e != cudaSuccess ? cudaGetErrorString(e) : "none"));
      so = groth16::with_gpu_multiples(so);
#else
      throw UnavailableError("setup --gpu: this build has no CUDA (the prover's GPU code)");
#endif
    }
    const groth16::ProvingKey pk = groth16::setup(circuit, so);
    io::write_zkey(a->zkey, groth16::to_zkey(pk));
    io::write_file_atomic(a->vk, io::vk_to_json(groth16::to_json(pk.verifying_key())));
    fmt::print(stderr, "prestage setup: {} constraints, domain 2^{}, points on the {}: {:.3f} s\n",
               r.n_constraints, pk.log_n, a->gpu ? "GPU" : "host",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    cli::set_exit_code(0);
#endif
  });
}

struct SynthArgs {
  std::string profile = "porep", r1cs, wtns;
  uint32_t log_domain = 10, n_public = 1;
  uint64_t seed = 1;
};

void add_synth(CLI::App& app) {
  auto a = std::make_shared<SynthArgs>();
  CLI::App* c =
      app.add_subcommand("synth", "write a synthetic circuit (.r1cs) and its witness (.wtns)");
  c->add_option("--profile", a->profile, "porep (mostly 0/1 witness) or dense");
  c->add_option("--log-domain", a->log_domain, "QAP domain 2^N (constraints = 2^N - public - 1)")
      ->check(CLI::Range(2, 28));
  c->add_option("--public", a->n_public, "public values")->check(CLI::Range(0, 1000));
  c->add_option("--seed", a->seed, "generator seed");
  using prestage::cli::prover_required;
  namespace help = prestage::cli::help;
  prover_required(c->add_option("--r1cs", a->r1cs, "output .r1cs"));
  prover_required(c->add_option("--wtns", a->wtns, "output .wtns"));
  c->footer(help::footer(
      {{"Output files", "the circuit (--r1cs, circom .r1cs) and its satisfying witness (--wtns)"},
       {"Exit codes", help::exit_codes("files written", " -- e.g. an unknown --profile",
                                       "; 4 unavailable (a build without the prover)")},
       {"Accepts", "--profile porep or dense; --log-domain 2..28; --public 0..1000"}}));
  c->callback([a] {
#ifndef PRESTAGE_HAVE_PROVER
    (void)a;
    prestage::cli::throw_no_prover("synth");
#else
    using namespace prestage;
    groth16::SyntheticCircuit::Profile prof;
    try {
      prof = groth16::SyntheticCircuit::parse_profile(a->profile);
    } catch (const std::invalid_argument& e) {
      throw InputError("", 0, "--profile", e.what());
    }
    groth16::SyntheticCircuit s(
        prof, groth16::SyntheticCircuit::constraints_for_domain(a->log_domain, a->n_public),
        a->n_public, a->seed);
    io::R1cs r;
    r.n_wires = s.n_wires();
    r.n_pub_out = 0;
    r.n_pub_in = s.n_public();
    r.n_prv_in = s.n_private_inputs();
    r.n_labels = s.n_wires();
    r.n_constraints = uint32_t(s.n_constraints());
    r.lc_begin.reserve(3 * s.n_constraints() + 1);
    r.lc_begin.push_back(0);
    groth16::Row row;
    for (uint64_t k = 0; k < s.n_constraints(); ++k) {
      s.row(k, row);
      for (const auto* lc : {&row.a, &row.b, &row.c}) {
        for (const auto& t : *lc) r.terms.push_back({t.wire, t.coeff.to_canonical()});
        r.lc_begin.push_back(r.terms.size());
      }
    }
    io::Witness w;
    for (const auto& v : s.witness()) w.values.push_back(v.to_canonical());
    io::write_r1cs(a->r1cs, r);
    io::write_wtns(a->wtns, w);
    cli::set_exit_code(0);
#endif
  });
}

void add_vk(CLI::App& app) {
  auto a = std::make_shared<std::pair<std::string, std::string>>();
  CLI::App* c = app.add_subcommand(
      "vk", "export verification_key.json from a .zkey (as `snarkjs zkey export verificationkey`)");
  using prestage::cli::prover_required;
  namespace help = prestage::cli::help;
  prover_required(c->add_option("--zkey", a->first, "Groth16 proving key (.zkey)"));
  prover_required(c->add_option("-o,--vk", a->second, "output verification_key.json"));
  c->footer(help::footer(
      {{"Output files", "verification_key.json (-o), as snarkjs writes it"},
       {"Exit codes", help::exit_codes("written", " -- an unreadable or malformed .zkey",
                                       "; 4 unavailable (a build without the prover)")},
       {"Accepts", "a snarkjs Groth16 .zkey on BLS12-381"}}));
  c->callback([a] {
#ifndef PRESTAGE_HAVE_PROVER
    (void)a;
    prestage::cli::throw_no_prover("vk");
#else
    using namespace prestage;
    const groth16::ProvingKey pk = groth16::from_zkey(io::read_zkey(a->first), a->first);
    io::write_file_atomic(a->second, io::vk_to_json(groth16::to_json(pk.verifying_key())));
    cli::set_exit_code(0);
#endif
  });
}

PRESTAGE_REGISTER_COMMAND(add_setup);
PRESTAGE_REGISTER_COMMAND(add_vk);
PRESTAGE_REGISTER_COMMAND(add_synth);

}  // namespace
