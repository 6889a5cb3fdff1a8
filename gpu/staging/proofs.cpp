#include "gpu/staging/proofs.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "gpu/groth16/gpu_setup.hpp"
#include "gpu/msm/host_msm.hpp"
#include "gpu/runtime/cuda_check.hpp"

namespace prestage::staging {

namespace {
constexpr std::uint32_t kPublic = 1;            // one public input (wire 1)
constexpr std::uint64_t kSyntheticInputs = 64;  // SyntheticCircuit's private input wires
}  // namespace

PartitionProofs::PartitionProofs(unsigned log2_n, std::uint64_t seed, unsigned threads)
    : n_(std::size_t{1} << log2_n) {
  if (log2_n < 9) throw std::invalid_argument("real proofs need log2_n >= 9");
  // n wires: 1 (the constant) + kPublic + kSyntheticInputs + constraints.
  const std::uint64_t constraints = n_ - 1 - kPublic - kSyntheticInputs;
  circuit_ = std::make_unique<groth16::SyntheticCircuit>(groth16::SyntheticCircuit::Profile::porep,
                                                         constraints, kPublic, seed);
  if (circuit_->n_wires() != n_ || circuit_->domain_size() != n_)
    throw std::logic_error("partition circuit: wires or domain are not n");
  const auto t0 = std::chrono::steady_clock::now();
  witness_ = circuit_->witness();
  witness_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  groth16::SetupOptions so;
  so.seed = seed;
  so.reduction = groth16::Reduction::textbook;
  so.threads = threads;
  // The key's ~5n G1 and n G2 products on the GPU: the host's took about 28 min at 2^27.
  pk_ = groth16::setup(*circuit_, groth16::with_gpu_multiples(so));
  setup_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  void* p = nullptr;
  PRESTAGE_CUDA_CHECK(cudaHostAlloc(&p, n_ * sizeof(ff::Fr), cudaHostAllocPortable));
  witness_pinned_ = static_cast<ff::Fr*>(p);
  std::memcpy(witness_pinned_, witness_.data(), n_ * sizeof(ff::Fr));
}

PartitionProofs::~PartitionProofs() {
  if (witness_pinned_) cudaFreeHost(witness_pinned_);
}

void PartitionProofs::synthesize(ff::Fr* a, ff::Fr* b, ff::Fr* c, unsigned threads) const {
  groth16::evaluate_qap_into(*circuit_, witness_, {a, n_}, {b, n_}, {c, n_}, threads);
}

std::span<const ec::G1Affine> PartitionProofs::points(KeyVector v) const {
  switch (v) {
    case KeyVector::h:
      return pk_.h;
    case KeyVector::l:
      return pk_.c;
    case KeyVector::a:
      return pk_.a;
    case KeyVector::b1:
      return pk_.b1;
  }
  return {};
}

std::size_t PartitionProofs::witness_offset(KeyVector v) const {
  return v == KeyVector::l ? pk_.n_public + 1 : 0;
}

std::optional<KeyVector> PartitionProofs::porep_vector(const std::string& step_name) {
  if (step_name == "msm_l") return KeyVector::l;
  if (step_name == "msm_a") return KeyVector::a;
  if (step_name == "msm_b_g1") return KeyVector::b1;
  return std::nullopt;
}

ff::Fr PartitionProofs::z_inverse(const ff::Fr& shift) const {
  ff::Fr gn = shift;
  for (std::size_t m = 1; m < n_; m *= 2) gn = gn * gn;
  const ff::Fr z = gn - ff::Fr::one();
  if (z.is_zero()) throw std::invalid_argument("coset shift is an n-th root of unity");
  return z.inverse();
}

ec::G2Jacobian PartitionProofs::msm_b2(unsigned threads) const {
  return msm::msm_g2(pk_.b2, witness_, threads);
}

bool PartitionProofs::check(const groth16::MsmSums& sums, std::uint64_t blind_seed) const {
  const groth16::Proof proof = groth16::assemble_proof(pk_, sums, blind_seed);
  const ff::Fr pub[kPublic] = {witness_[1]};
  return groth16::verify(pk_.verifying_key(), pub, proof);
}

}  // namespace prestage::staging
