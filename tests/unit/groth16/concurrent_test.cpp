// System: the host Groth16 prover's concurrent steps: evaluate_qap sums matrix A and matrix B
// on two threads when given 2+ threads, and h_scalars (circom reduction) transforms a and b
// concurrently on T/2 and T - T/2 threads before c on all T.
// Expectations: for 1, 2, 3 and 4 threads the QAP evaluations, the h scalars and the proof (same
// blinding seed) are the same field elements as with one thread, from the copied key and from
// the in-place (mapped .zkey) key, on a porep-shaped (mostly 0/1) and a dense witness; the
// proof verifies.
// Tolerance: exact (limb equality).
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <span>

#include "gpu/groth16/groth16.hpp"
#include "gpu/io/zkey.hpp"

using namespace prestage;
using namespace prestage::groth16;
using ff::Fr;

namespace {

struct TempKey {
  std::string path;
  TempKey() {
    path = (std::filesystem::temp_directory_path() /
            ("prestage_proveconc_" + std::to_string(std::random_device{}()) + ".zkey"))
               .string();
  }
  ~TempKey() { std::filesystem::remove(path); }
};

bool same(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i])) return false;
  return true;
}

bool same_proof(const Proof& x, const Proof& y) {
  return x.a.infinity == y.a.infinity && x.a.x == y.a.x && x.a.y == y.a.y &&
         x.b.infinity == y.b.infinity && x.b.x == y.b.x && x.b.y == y.b.y &&
         x.c.infinity == y.c.infinity && x.c.x == y.c.x && x.c.y == y.c.y;
}

}  // namespace

BOOST_AUTO_TEST_CASE(thread_count_does_not_change_qap_h_or_proof) {
  for (auto profile : {SyntheticCircuit::Profile::porep, SyntheticCircuit::Profile::dense}) {
    SyntheticCircuit circuit(profile, 1500, 3, 13);
    SetupOptions so;
    so.seed = 9;
    so.with_coefs = true;
    const ProvingKey copied = setup(circuit, so);
    TempKey t;
    io::write_zkey(t.path, to_zkey(copied));
    const io::MappedZkey m = io::map_zkey(t.path);
    const ProvingKey in_place = from_zkey_in_place(m, 1);
    const std::vector<Fr> w = circuit.witness();
    const std::vector<Fr> pub(w.begin() + 1, w.begin() + 1 + copied.n_public);
    for (const ProvingKey* pk : {&copied, &in_place}) {
      const Evaluations e1 = evaluate_qap(*pk, w, 1);
      const auto h1 = h_scalars(Evaluations(e1), pk->log_n, Reduction::circom, 1);
      BOOST_TEST_REQUIRE(h1.has_value());
      ProveOptions po;
      po.seed = 41;
      po.threads = 1;
      const Proof p1 = prove(*pk, w, nullptr, po);
      BOOST_TEST(verify(pk->verifying_key(), pub, p1));
      for (unsigned threads : {2u, 3u, 4u}) {
        BOOST_TEST_CONTEXT("profile " << int(profile) << " in place " << (pk == &in_place)
                                      << " threads " << threads) {
          const Evaluations e = evaluate_qap(*pk, w, threads);
          BOOST_TEST(same(e.a, e1.a));
          BOOST_TEST(same(e.b, e1.b));
          BOOST_TEST(same(e.c, e1.c));
          const auto h = h_scalars(Evaluations(e), pk->log_n, Reduction::circom, threads);
          BOOST_TEST_REQUIRE(h.has_value());
          BOOST_TEST(same(*h, *h1));
          po.threads = threads;
          BOOST_TEST(same_proof(prove(*pk, w, nullptr, po), p1));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(setup_scalars_and_coefficients_do_not_depend_on_the_thread_count) {
  // System: groth16::setup's row scatter (u, v, w at tau), split across threads above 2^16
  // constraints with a lock per wire stripe. The products are intercepted (SetupOptions's
  // g1_multiples / g2_multiples record the scalars they are given instead of multiplying),
  // so the test sees every key scalar at 2^17 without the products' cost.
  // Expectation: 1, 3 and 4 threads give the same scalars, vector by vector, and the same QAP
  // coefficients in the same order (with_coefs: the .zkey's section 4), on the porep and dense
  // circuits. Tolerance: exact.
  for (auto profile : {SyntheticCircuit::Profile::porep, SyntheticCircuit::Profile::dense}) {
    SyntheticCircuit circuit(profile, SyntheticCircuit::constraints_for_domain(17, 2), 2, 11);
    BOOST_REQUIRE(circuit.n_constraints() >= (1u << 16));
    auto scalars_of = [&](unsigned threads, std::vector<QapCoef>* coefs) {
      std::vector<std::vector<Fr>> seen;
      SetupOptions so;
      so.seed = 5;
      so.threads = threads;
      so.with_coefs = true;
      so.g1_multiples = [&](std::span<const Fr> s, std::span<G1Affine>) {
        seen.emplace_back(s.begin(), s.end());
      };
      so.g2_multiples = [&](std::span<const Fr> s, std::span<G2Affine>) {
        seen.emplace_back(s.begin(), s.end());
      };
      *coefs = setup(circuit, so).coefs;
      return seen;
    };
    std::vector<QapCoef> coefs1, coefs_t;
    const auto one = scalars_of(1, &coefs1);
    BOOST_REQUIRE_EQUAL(one.size(), 6u);  // a, b1, b2, c, ic, h
    for (unsigned threads : {3u, 4u}) {
      const auto many = scalars_of(threads, &coefs_t);
      BOOST_REQUIRE_EQUAL(many.size(), one.size());
      for (std::size_t v = 0; v < one.size(); ++v)
        BOOST_TEST(same(many[v], one[v]), "vector " << v << ", " << threads << " threads");
      BOOST_REQUIRE_EQUAL(coefs_t.size(), coefs1.size());
      bool coefs_equal = true;
      for (std::size_t i = 0; i < coefs1.size(); ++i)
        coefs_equal = coefs_equal && coefs_t[i].matrix == coefs1[i].matrix &&
                      coefs_t[i].row == coefs1[i].row && coefs_t[i].signal == coefs1[i].signal &&
                      coefs_t[i].value == coefs1[i].value;
      BOOST_TEST(coefs_equal, threads << " threads");
    }
  }
}
