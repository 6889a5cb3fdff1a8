#pragma once
// Real proofs for the staging runtime (gpu/staging/runtime.hpp): every partition is a Groth16
// proof of the PoRep-shaped synthetic circuit (gpu/groth16/circuit.hpp) at the scenario's n,
// computed by the pipeline's own steps on the GPU and checked on the host (the pairing check).
//
// The circuit has exactly n wires (1 public input, n - 66 constraints, a 2^log2_n domain under
// snarkjs's rule), so its witness (n x 32 B, Montgomery) fits the pipeline's first buffer (d_a)
// once the H MSM has read H's scalars there. The key comes from a seeded setup with the
// textbook reduction (supraseal-c2's H: a final coset inverse NTT), made once per run: its
// scalars on the host, its points on the GPU (gpu/groth16/gpu_setup.hpp).
//
// What each pipeline step computes (the mapping runtime.cpp applies):
//   synthesis         evaluate_qap_into(circuit, witness): the slot's a, b, c (n x 32 B each)
//   h_input           a's and b's chains: iNTT + coset NTT; c's chain (the third input) stores
//                     (a * b - c) / Z(shift) into a's buffer instead of c's coset values
//   coset_intt        H's coefficients (n - 1 used, the last is 0) in a's buffer
//   msm_g1            H: the key's n - 1 H points, scalars from a's buffer
//   msm_g1_porep      by step name: msm_l (the key's C vector, n - 2 points, witness from wire
//                     2), msm_a (A, n points), msm_b_g1 (B1, n points); the witness is uploaded
//                     into a's buffer before the first of them
//   cpu msm_g2_cpu    B2 on the host (msm_g2 over n G2 points), then assemble and verify
//   msm_g2_porep      or B2 on the GPU (the witness as scalars, the key's B2 points resident or
//                     streamed); the proof is then assembled and verified on a host thread of
//                     its own after the partition's last step
// Every partition proves the same witness (the synthetic circuit's inputs come from its seed);
// the proofs differ in their blinding (r, s from the partition's id).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/groth16/groth16.hpp"

namespace prestage::staging {

// The key's G1 vectors the four G1 MSMs read.
enum class KeyVector { h, l, a, b1 };
constexpr int kKeyVectors = 4;

class PartitionProofs {
 public:
  // Builds the circuit, its witness and its key (setup from `seed`: scalars on `threads` host
  // threads, 0 = all; points on the current CUDA device). Also copies the witness into pinned host
  // memory (the upload's source).
  PartitionProofs(unsigned log2_n, std::uint64_t seed, unsigned threads);
  ~PartitionProofs();
  PartitionProofs(const PartitionProofs&) = delete;
  PartitionProofs& operator=(const PartitionProofs&) = delete;

  std::size_t n() const { return n_; }
  double setup_seconds() const { return setup_s_; }  // the witness and the key
  double witness_seconds() const { return witness_s_; }
  const groth16::ProvingKey& key() const { return pk_; }

  // The real synthesis of one partition: the QAP evaluations a, b, c (n x 32 B each,
  // Montgomery) of the witness, written into the slot's host buffers.
  void synthesize(ff::Fr* a, ff::Fr* b, ff::Fr* c, unsigned threads) const;

  // n x 32 B of pinned host memory holding the witness (Montgomery).
  const ff::Fr* witness_pinned() const { return witness_pinned_; }
  // The key's points of vector v (host) and where its scalars start in the witness.
  std::span<const ec::G1Affine> points(KeyVector v) const;
  std::size_t witness_offset(KeyVector v) const;
  // The key's B2 points (host; B_G2's MSM reads the witness from offset 0, as B1's).
  std::span<const ec::G2Affine> points_b2() const { return pk_.b2; }
  // The vector a porep MSM step reads, by the step's name (msm_l, msm_a, msm_b_g1).
  static std::optional<KeyVector> porep_vector(const std::string& step_name);

  // 1 / Z(shift) = 1 / (shift^n - 1) for the shift the runtime's coset tables use.
  ff::Fr z_inverse(const ff::Fr& shift) const;

  // The B2 MSM on the host (n G2 points, the witness as scalars).
  ec::G2Jacobian msm_b2(unsigned threads) const;
  // Assembles the proof from the five sums (blinding from `blind_seed`) and runs the pairing
  // check against the key's verifying key and the public input.
  bool check(const groth16::MsmSums& sums, std::uint64_t blind_seed) const;

 private:
  std::size_t n_ = 0;
  std::unique_ptr<groth16::SyntheticCircuit> circuit_;
  std::vector<ff::Fr> witness_;
  groth16::ProvingKey pk_;
  ff::Fr* witness_pinned_ = nullptr;
  double setup_s_ = 0;
  double witness_s_ = 0;
};

}  // namespace prestage::staging
