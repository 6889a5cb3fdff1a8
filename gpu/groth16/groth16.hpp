#pragma once
// Groth16 on BLS12-381: keys, setup from seeded toxic waste, the host prover (H by coset NTT,
// textbook or circom reduction) and the verifier (one pairing-product check).
//
// QAP (snarkjs's layout, circuit.hpp): over the domain of n = 2^k points omega^j, wire i has
// u_i, v_i, w_i interpolating column i of A, B, C; rows n_constraints + s bind public wire s
// through A. For a satisfying witness, p = (sum w_i u_i)(sum w_i v_i) - (sum w_i w_i) is
// divisible by Z = X^n - 1, and the prover commits to p / Z in one of two ways:
//   textbook: evaluate a, b, c on the coset shift*<omega> (shift = ffjavascript's Fr.shift),
//             divide by Z(shift*omega^j) = shift^n - 1, interpolate back: h's n - 1 coefficients
//             meet H_i = tau^i Z(tau) / delta (n - 1 points);
//   circom:   evaluate a, b, c on the odd points of the 2n domain (shift = w[k+1]), where Z = -2,
//             and use p's values there directly: H_i = L'_{2i+1}(tau) / delta with L' the
//             Lagrange basis of the 2n domain (n points) -- what snarkjs's .zkey holds, so this
//             reduction is the one that proves against a snarkjs key.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/groth16/circuit.hpp"
#include "gpu/io/snarkjs_json.hpp"
#include "gpu/io/zkey.hpp"
#include "gpu/msm/host_msm.hpp"

namespace prestage::groth16 {

using ec::G1Affine;
using ec::G1Jacobian;
using ec::G2Affine;
using ec::G2Jacobian;

enum class Reduction { textbook, circom };
const char* to_string(Reduction r);

// One QAP coefficient of A (matrix 0) or B (matrix 1): row < domain size, signal < n_vars.
struct QapCoef {
  uint32_t matrix, row, signal;
  Fr value;  // Montgomery form
};

struct VerifyingKey {
  G1Affine alpha1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> ic;  // n_public + 1: (beta u_i + alpha v_i + w_i) / gamma
};

struct ProvingKey {
  Reduction reduction = Reduction::circom;
  uint32_t n_vars = 0, n_public = 0, log_n = 0;
  G1Affine alpha1, beta1, delta1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> a, b1;  // n_vars: u_i(tau), v_i(tau)
  std::vector<G2Affine> b2;     // n_vars: v_i(tau)
  std::vector<G1Affine> c;      // n_vars - n_public - 1: (beta u_i + alpha v_i + w_i) / delta
  std::vector<G1Affine> h;      // textbook: n - 1 points; circom: n points (see above)
  std::vector<G1Affine> ic;     // n_public + 1
  // A and B over the domain (snarkjs .zkey section 4), present when the key came from a .zkey
  // or export was asked for; the prover uses it when no Circuit is given.
  std::vector<QapCoef> coefs;
  // Set by from_zkey_in_place: the point sections and QAP coefficients stay in the mapped .zkey
  // (checked there, never copied), and a, b1, b2, c, h and coefs above are empty. The mapping
  // must outlive this key and its file must not change meanwhile (coefficient indices are
  // checked again on every read).
  struct InPlace {
    const io::MappedZkey* key = nullptr;
    msm::RawPoints a, b1, b2, c, h;  // as the vectors above, in the .zkey layout
  };
  std::optional<InPlace> in_place;

  uint64_t domain_size() const { return uint64_t(1) << log_n; }
  VerifyingKey verifying_key() const { return {alpha1, beta2, gamma2, delta2, ic}; }
};

struct Proof {
  G1Affine a;
  G2Affine b;
  G1Affine c;
};

struct SetupOptions {
  uint64_t seed = 1;  // toxic waste = deterministic function of the seed (tests, benchmarks only)
  Reduction reduction = Reduction::circom;
  bool with_coefs = false;  // also fill ProvingKey::coefs (needed to write a .zkey)
  unsigned threads = 0;
  // Where the key's points out[i] = scalars[i] * G come from (G the group's generator; out as
  // long as scalars): empty = the host's FixedBase on `threads` threads; set = a backend such as
  // gpu_setup.hpp's GPU one. Either gives the same key, point for point.
  std::function<void(std::span<const Fr>, std::span<G1Affine>)> g1_multiples;
  std::function<void(std::span<const Fr>, std::span<G2Affine>)> g2_multiples;
};

// Keys for `circuit` from toxic waste (tau, alpha, beta, gamma, delta) drawn from the seed.
// Host memory at its peak: the key and one n x 32 B scalar vector beside it (each vector of
// scalars is released once its points are made).
ProvingKey setup(const Circuit& circuit, const SetupOptions& options);

// The QAP's a, b, c evaluations over the domain (each n x 32 B, Montgomery) for witness w.
struct Evaluations {
  std::vector<Fr> a, b, c;
};
// From the circuit's rows (c from C): requires w.size() == circuit.n_wires().
Evaluations evaluate_qap(const Circuit& circuit, const std::vector<Fr>& w, unsigned threads = 0);
// The same into caller-owned buffers (e.g. pinned host memory a GPU run uploads: docs/story.md
// step 1), each exactly domain_size() elements (n x 32 B, Montgomery); rows past the
// constraints and public-input rows are zeroed. Throws std::invalid_argument on sizes.
void evaluate_qap_into(const Circuit& circuit, const std::vector<Fr>& w, std::span<Fr> a,
                       std::span<Fr> b, std::span<Fr> c, unsigned threads = 0);
// From the key's A/B coefficients, c = a * b pointwise (snarkjs's prover; exact whenever the
// witness satisfies the circuit, since C = A * B on every row then).
Evaluations evaluate_qap(const ProvingKey& pk, const std::vector<Fr>& w, unsigned threads = 0);

// The n scalars for the H points: textbook -> h's coefficients (h_{n-1} must be 0: returns
// nullopt otherwise, i.e. p is not divisible by Z); circom -> p on the odd 2n-domain points.
// Consumes `e` (transforms in place).
std::optional<std::vector<Fr>> h_scalars(Evaluations&& e, uint32_t log_n, Reduction reduction,
                                         unsigned threads = 0);

// Wall-clock seconds of each prover phase (filled when ProveOptions::timings is set).
struct ProveTimings {
  double qap = 0;       // a, b, c evaluations from the witness
  double h = 0;         // the NTTs and pointwise products of the reduction
  double msm_g1 = 0;    // A, B1, C and H MSMs
  double msm_g2 = 0;    // B2 MSM
  double assemble = 0;  // blinding and the final additions
};

struct ProveOptions {
  std::optional<uint64_t> seed;  // blinding r, s from this seed (tests); else std::random_device
  unsigned threads = 0;
  ProveTimings* timings = nullptr;
};

// A proof for witness w (n_vars values, Montgomery). Uses `circuit` for a, b, c when given,
// else pk.coefs. Throws std::invalid_argument on size mismatches and std::domain_error when the
// textbook reduction finds p not divisible by Z (unsatisfied witness).
Proof prove(const ProvingKey& pk, const std::vector<Fr>& w, const Circuit* circuit,
            const ProveOptions& options = {});

// The pieces of prove() that other provers (gpu/groth16/gpu_prover.hpp) share, so their proofs
// are the same for the same inputs and seed:
// prove()'s argument checks (std::invalid_argument on a witness or circuit that disagrees with pk).
void check_prove_inputs(const ProvingKey& pk, const std::vector<Fr>& w, const Circuit* circuit);
// The five MSM results: a = sum w_i A_i, b1 = sum w_i B1_i, c = sum_{i > n_public} w_i C_i,
// h = sum h_i H_i, b2 = sum w_i B2_i.
struct MsmSums {
  G1Jacobian a, b1, c, h;
  G2Jacobian b2;
};
// The proof from the MSM results: blinding r, s drawn from `seed` (else std::random_device) in
// that order, A = a + alpha + r delta, B = b2 + beta + s delta, C = c + h + s A + r B1 - r s delta.
Proof assemble_proof(const ProvingKey& pk, const MsmSums& sums, std::optional<uint64_t> seed);

// e(A, B) == e(alpha, beta) e(sum_i x_i IC_i, gamma) e(C, delta) with x_0 = 1 and
// x_1..x_nPublic = public_inputs. False (not an exception) for a wrong number of inputs or
// points off the curve / outside the subgroup.
bool verify(const VerifyingKey& vk, std::span<const Fr> public_inputs, const Proof& proof);

// ---- conversions to and from the snarkjs file formats (gpu/io) ----
// Proving key from a .zkey (reduction = circom; coefs filled). Throws InputError (naming
// `path`) when a point is not on the curve.
ProvingKey from_zkey(const io::Zkey& z, const std::string& path);
// The same from a mapped key (io::map_zkey): the point sections are read, range-checked and
// curve-checked in one pass from the mapping, never copied as G1Raw/G2Raw first. Errors as
// read_zkey + from_zkey (InputError naming the file, the offset and the section).
ProvingKey from_zkey(const io::MappedZkey& m, unsigned threads = 0);
// The same checks, but the points and coefficients are left in the mapping (ProvingKey::in_place):
// what `prestage prove` loads. ~40 MB less fresh memory for SHA-256-512 (measurement in
// data/bench/groth16_vs_snarkjs/README.md).
ProvingKey from_zkey_in_place(const io::MappedZkey& m, unsigned threads = 0);
// io::map_zkey(path) then from_zkey(m, threads).
ProvingKey load_zkey(const std::string& path, unsigned threads = 0);
io::Zkey to_zkey(const ProvingKey& pk);  // requires pk.reduction == circom and coefs
// One .zkey coefficient (value stored as v * R^2 mod r) as a QapCoef (value v, Montgomery).
QapCoef qap_coef(const io::ZkeyCoef& k);
io::ProofJson to_json(const Proof& p);
Proof from_json(const io::ProofJson& p);
io::VkJson to_json(const VerifyingKey& vk);  // computes vk_alphabeta_12 = e(alpha1, beta2)
VerifyingKey from_json(const io::VkJson& vk);
std::vector<Fr> witness_from_io(const std::vector<io::FrLimbs>& values);

}  // namespace prestage::groth16
