// `prestage verify --vk V --public P --proof F`: checks a Groth16 proof (snarkjs JSON files,
// BLS12-381) with one pairing-product check. Exit 0 valid, 1 invalid, 2 bad input (InputError:
// unreadable/malformed files, wrong curve or protocol, key points off the curve or outside the
// subgroup, a public-signal count that disagrees with the key). Proof points off the curve or
// outside the subgroup make the proof invalid (exit 1). Exit 4 in a build without the prover.
#include <fmt/core.h>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "model/errors.hpp"
#ifdef PRESTAGE_HAVE_PROVER
#include "gpu/groth16/groth16.hpp"
#include "gpu/io/snarkjs_json.hpp"
#endif

namespace {

struct VerifyArgs {
  std::string vk, pub, proof;
};

void add_verify(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* c = app.add_subcommand("verify", "check a Groth16 proof (snarkjs JSON, BLS12-381)");
  using prestage::cli::prover_required;
  prover_required(c->add_option("--vk", args->vk, "verification_key.json"));
  prover_required(c->add_option("--public", args->pub, "public.json"));
  prover_required(c->add_option("--proof", args->proof, "proof.json"));
  namespace help = prestage::cli::help;
  c->footer(help::footer(
      {{"Output files", "none (one line on stdout: OK or INVALID)"},
       {"Exit codes",
        help::exit_codes(
            "valid; 1 invalid (also: proof points off the curve or outside the subgroup)",
            " -- unreadable or malformed JSON, wrong curve or protocol, key points off the curve "
            "or outside the subgroup, a public-signal count that disagrees with the key",
            "; 4 unavailable (a build without the prover)")},
       {"Accepts", "snarkjs Groth16 JSON files on BLS12-381 (protocol groth16, curve bls12381)"}}));
  c->callback([args] {
#ifndef PRESTAGE_HAVE_PROVER
    (void)args;
    prestage::cli::throw_no_prover("verify");
#else
    using namespace prestage;
    const io::VkJson vkj = io::read_vk_json(args->vk);
    const std::vector<io::FrLimbs> pub = io::read_public_json(args->pub);
    const io::ProofJson pj = io::read_proof_json(args->proof);
    if (pub.size() + 1 != vkj.ic.size())
      throw InputError(args->pub, 0, "",
                       fmt::format("{} public signals, the verification key {} expects {}",
                                   pub.size(), args->vk, vkj.ic.size() - 1));
    std::vector<ff::Fr> x;
    for (const auto& v : pub) x.push_back(ff::Fr::from_canonical(v));
    const groth16::VerifyingKey vk = groth16::from_json(vkj);
    // A key with points off the curve or outside the subgroup is bad input, not a bad proof.
    auto check_g1 = [&](const ec::G1Affine& p, const std::string& key) {
      if (!p.is_on_curve() || !p.in_subgroup())
        throw InputError(args->vk, 0, key, "not a point of the BLS12-381 G1 subgroup");
    };
    auto check_g2 = [&](const ec::G2Affine& p, const std::string& key) {
      if (!p.is_on_curve() || !p.in_subgroup())
        throw InputError(args->vk, 0, key, "not a point of the BLS12-381 G2 subgroup");
    };
    check_g1(vk.alpha1, "vk_alpha_1");
    check_g2(vk.beta2, "vk_beta_2");
    check_g2(vk.gamma2, "vk_gamma_2");
    check_g2(vk.delta2, "vk_delta_2");
    for (size_t i = 0; i < vk.ic.size(); ++i) check_g1(vk.ic[i], fmt::format("IC[{}]", i));
    const bool ok = groth16::verify(vk, x, groth16::from_json(pj));
    fmt::print("{}\n", ok ? "OK: proof is valid" : "INVALID: proof does not verify");
    cli::set_exit_code(ok ? 0 : 1);
#endif
  });
}

PRESTAGE_REGISTER_COMMAND(add_verify);

}  // namespace
