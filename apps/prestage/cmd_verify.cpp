// `prestage verify --vk V --public P --proof F`: checks a Groth16 proof (snarkjs JSON files,
// BLS12-381) with one pairing-product check. Exit 0 valid, 1 invalid, 2 bad input (InputError:
// unreadable/malformed files, wrong curve or protocol, a public-signal count that disagrees with
// the key).
#include <fmt/core.h>

#include "apps/prestage/command_registry.hpp"
#include "gpu/groth16/groth16.hpp"
#include "gpu/io/snarkjs_json.hpp"
#include "model/errors.hpp"

namespace {

struct VerifyArgs {
  std::string vk, pub, proof;
};

void add_verify(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* c = app.add_subcommand("verify", "check a Groth16 proof (snarkjs JSON, BLS12-381)");
  c->add_option("--vk", args->vk, "verification_key.json")->required();
  c->add_option("--public", args->pub, "public.json")->required();
  c->add_option("--proof", args->proof, "proof.json")->required();
  c->callback([args] {
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
    const bool ok = groth16::verify(groth16::from_json(vkj), x, groth16::from_json(pj));
    fmt::print("{}\n", ok ? "OK: proof is valid" : "INVALID: proof does not verify");
    cli::set_exit_code(ok ? 0 : 1);
  });
}

PRESTAGE_REGISTER_COMMAND(add_verify);

}  // namespace
