// System: the Groth16 host prover (gpu/groth16) on synthetic circuits with seeded setups.
// Expectations: honest proofs verify under both reductions; tampered proofs and wrong public
// inputs do not; the textbook and circom reductions commit to the same p(tau) = a b - c at a
// random tau; an unsatisfying witness is caught; a key survives the .zkey round trip and still
// proves. Tolerance: exact (field and group equalities).
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <random>

#include "gpu/groth16/groth16.hpp"
#include "gpu/io/zkey.hpp"
#include "gpu/ntt/domain.hpp"

using namespace prestage;
using namespace prestage::groth16;

namespace {

std::vector<Fr> publics(const std::vector<Fr>& w, uint32_t n_public) {
  return {w.begin() + 1, w.begin() + 1 + n_public};
}

// p(tau) for evaluations v over the 2^log_n domain (naive Lagrange interpolation).
Fr interpolate_at(const std::vector<Fr>& v, uint32_t log_n, const Fr& tau) {
  const uint64_t n = v.size();
  const Fr omega = ntt::root_of_unity(log_n);
  Fr tau_n = tau.pow(n), x = Fr::one(), acc = Fr::zero();
  const Fr factor = (tau_n - Fr::one()) * Fr::from_u64(n).inverse();
  for (uint64_t j = 0; j < n; ++j, x *= omega) acc += v[j] * factor * x * (tau - x).inverse();
  return acc;
}

}  // namespace

BOOST_AUTO_TEST_CASE(round_trip_both_reductions_and_tampering) {
  for (auto profile : {SyntheticCircuit::Profile::porep, SyntheticCircuit::Profile::dense}) {
    SyntheticCircuit circuit(profile, SyntheticCircuit::constraints_for_domain(7, 3), 3, 11);
    const std::vector<Fr> w = circuit.witness();
    BOOST_REQUIRE(first_unsatisfied(circuit, w) == -1);
    for (Reduction red : {Reduction::textbook, Reduction::circom}) {
      BOOST_TEST_MESSAGE("profile " << int(profile) << " reduction " << to_string(red));
      SetupOptions so;
      so.seed = 5;
      so.reduction = red;
      so.with_coefs = true;
      const ProvingKey pk = setup(circuit, so);
      BOOST_TEST(pk.log_n == 7u);
      BOOST_TEST(pk.h.size() == (red == Reduction::circom ? 128u : 127u));
      const VerifyingKey vk = pk.verifying_key();
      ProveOptions po;
      po.seed = 99;
      const Proof proof = prove(pk, w, &circuit, po);
      const std::vector<Fr> x = publics(w, 3);
      BOOST_TEST(verify(vk, x, proof));
      if (red == Reduction::circom) {  // snarkjs's way: a, b from the key's coefficients, c = ab
        const Proof p2 = prove(pk, w, nullptr, po);
        BOOST_TEST(verify(vk, x, p2));
      }
      // Tampering: each proof element moved, a public input changed, a missing input.
      Proof t = proof;
      t.a = (G1Jacobian::from_affine(t.a) + G1Affine::generator()).to_affine();
      BOOST_TEST(!verify(vk, x, t));
      t = proof;
      t.b = (G2Jacobian::from_affine(t.b) + G2Affine::generator()).to_affine();
      BOOST_TEST(!verify(vk, x, t));
      t = proof;
      t.c = -t.c;
      BOOST_TEST(!verify(vk, x, t));
      std::vector<Fr> x2 = x;
      x2[1] += Fr::one();
      BOOST_TEST(!verify(vk, x2, proof));
      BOOST_TEST(!verify(vk, std::vector<Fr>(x.begin(), x.end() - 1), proof));
    }
  }
}

BOOST_AUTO_TEST_CASE(textbook_and_circom_reductions_commit_to_the_same_polynomial) {
  // p = a b - c. Textbook: h's coefficients with p = h Z, so p(tau) = h(tau) Z(tau).
  // Circom: p on the odd points of the 2n domain, p(tau) = sum_i p_i L'_{2i+1}(tau).
  SyntheticCircuit circuit(SyntheticCircuit::Profile::dense, 50, 2, 3);
  const std::vector<Fr> w = circuit.witness();
  const uint32_t k = circuit.domain_log2();
  const uint64_t n = uint64_t(1) << k;
  Evaluations e = evaluate_qap(circuit, w);
  std::mt19937_64 g(17);
  const Fr tau = Fr::random(g);
  const Fr p_tau =
      interpolate_at(e.a, k, tau) * interpolate_at(e.b, k, tau) - interpolate_at(e.c, k, tau);
  auto text = h_scalars(evaluate_qap(circuit, w), k, Reduction::textbook);
  auto circ = h_scalars(evaluate_qap(circuit, w), k, Reduction::circom);
  BOOST_REQUIRE(text.has_value());
  BOOST_REQUIRE(circ.has_value());
  BOOST_TEST(text->size() == n - 1);
  BOOST_TEST(circ->size() == n);
  Fr h_tau = Fr::zero();
  for (uint64_t i = text->size(); i-- > 0;) h_tau = h_tau * tau + (*text)[i];
  BOOST_TEST((h_tau * (tau.pow(n) - Fr::one()) == p_tau));
  // 2n-domain Lagrange at the odd points.
  const Fr omega2 = ntt::root_of_unity(k + 1);
  const Fr factor = (tau.pow(2 * n) - Fr::one()) * Fr::from_u64(2 * n).inverse();
  Fr acc = Fr::zero(), x = omega2;
  for (uint64_t i = 0; i < n; ++i, x *= omega2 * omega2)
    acc += (*circ)[i] * factor * x * (tau - x).inverse();
  BOOST_TEST((acc == p_tau));
}

BOOST_AUTO_TEST_CASE(unsatisfied_witness_is_caught) {
  SyntheticCircuit circuit(SyntheticCircuit::Profile::porep, 100, 2, 8);
  std::vector<Fr> w = circuit.witness();
  w[w.size() - 7] += Fr::one();  // a gate output no longer matches its gate
  BOOST_TEST(first_unsatisfied(circuit, w) == int64_t(circuit.n_constraints() - 7));
  BOOST_TEST(!h_scalars(evaluate_qap(circuit, w), circuit.domain_log2(), Reduction::textbook));
  SetupOptions so;
  so.reduction = Reduction::textbook;
  const ProvingKey tk = setup(circuit, so);
  BOOST_CHECK_THROW(prove(tk, w, &circuit), std::domain_error);
  so.reduction = Reduction::circom;
  const ProvingKey ck = setup(circuit, so);
  const Proof p = prove(ck, w, &circuit);
  BOOST_TEST(!verify(ck.verifying_key(), publics(w, 2), p));
}

BOOST_AUTO_TEST_CASE(zkey_round_trip_still_proves) {
  SyntheticCircuit circuit(SyntheticCircuit::Profile::porep, 200, 2, 21);
  const std::vector<Fr> w = circuit.witness();
  SetupOptions so;
  so.seed = 4;
  so.with_coefs = true;
  const ProvingKey pk = setup(circuit, so);
  const auto path = (std::filesystem::temp_directory_path() /
                     ("prestage_g16_" + std::to_string(::getpid()) + ".zkey"))
                        .string();
  io::write_zkey(path, to_zkey(pk));
  const ProvingKey back = from_zkey(io::read_zkey(path), path);
  std::filesystem::remove(path);
  BOOST_TEST(back.coefs.size() == pk.coefs.size());
  BOOST_TEST((back.coefs[3].value == pk.coefs[3].value));
  BOOST_TEST((back.h.back() == pk.h.back()));
  BOOST_TEST((back.b2[5] == pk.b2[5]));
  const Proof p = prove(back, w, nullptr);
  BOOST_TEST(verify(pk.verifying_key(), publics(w, 2), p));
  // JSON conversions are lossless.
  const Proof q = from_json(to_json(p));
  BOOST_TEST((q.a == p.a && q.b == p.b && q.c == p.c));
}

BOOST_AUTO_TEST_CASE(synthetic_porep_profile_shape) {
  // System: the PoRep-shaped generator at 2^14. Expectation: satisfied; witness mostly 0/1 with
  // balanced bits (each of zeros and ones 30-70%, field values <= 10%); 3-5 nonzeros per row;
  // rows are a pure function of (seed, k). Tolerance: the stated ranges.
  SyntheticCircuit c(SyntheticCircuit::Profile::porep,
                     SyntheticCircuit::constraints_for_domain(14, 1), 1, 123);
  BOOST_TEST(c.domain_log2() == 14u);
  const std::vector<Fr> w = c.witness();
  BOOST_TEST(first_unsatisfied(c, w) == -1);
  double zeros = 0, ones = 0;
  for (const Fr& x : w) {
    zeros += x.is_zero();
    ones += x == Fr::one();
  }
  zeros /= double(w.size());
  ones /= double(w.size());
  BOOST_TEST(zeros > 0.3);
  BOOST_TEST(zeros < 0.7);
  BOOST_TEST(ones > 0.3);
  BOOST_TEST(ones < 0.7);
  BOOST_TEST(1 - zeros - ones <= 0.1);
  Row r1, r2;
  size_t nnz = 0;
  for (uint64_t k = 0; k < c.n_constraints(); ++k) {
    c.row(k, r1);
    const size_t row_nnz = r1.a.size() + r1.b.size() + r1.c.size();
    BOOST_TEST_REQUIRE((row_nnz >= 3 && row_nnz <= 5));
    nnz += row_nnz;
  }
  c.row(77, r1);
  SyntheticCircuit(SyntheticCircuit::Profile::porep, c.n_constraints(), 1, 123).row(77, r2);
  BOOST_TEST(r1.c.size() == r2.c.size());
  BOOST_TEST(r1.a[0].wire == r2.a[0].wire);
  BOOST_TEST_MESSAGE("porep 2^14: zeros " << zeros << ", ones " << ones << ", nnz/row "
                                          << double(nnz) / double(c.n_constraints()));
}
