// System: the prover's in-place key path: msm::msm over msm::RawPoints (points left in a byte
// buffer in the .zkey layout, any alignment) and groth16::from_zkey_in_place (points and QAP
// coefficients checked in the mapping, never copied).
// Expectations: the raw-point MSM returns the same Jacobian limbs as the MSM over the decoded
// vector (G1 and G2; scalars 0, 1 and general; identity bases; misaligned records with padding
// between them; 1 and 2 threads; IFMA and scalar paths); a proof from the in-place key equals the
// proof from the copied key for the same blinding seed (both reductions' inputs from the key's
// coefficients) and verifies; a bad point is the same InputError as from the copying loader.
// Tolerance: exact (limb equality).
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "gpu/ec/sample_points.hpp"
#include "gpu/groth16/groth16.hpp"
#include "gpu/groth16/key_points.hpp"
#include "gpu/io/zkey.hpp"
#include "gpu/msm/host_msm.hpp"
#include "model/errors.hpp"

using namespace prestage;
using namespace prestage::groth16;
using ff::Fr;

namespace {

// The points as .zkey records (x, y limbs LE; identity all zero) at `offset` into a buffer with
// `stride` bytes per record.
template <class Affine>
std::vector<uint8_t> records(const std::vector<Affine>& p, std::size_t offset, std::size_t stride) {
  constexpr std::size_t kBytes = 2 * sizeof(typename Affine::Field);
  std::vector<uint8_t> out(offset + p.size() * stride, 0xa5);  // padding: not zero
  for (std::size_t i = 0; i < p.size(); ++i) {
    uint8_t* at = out.data() + offset + i * stride;
    if (p[i].infinity)
      std::memset(at, 0, kBytes);
    else
      std::memcpy(at, static_cast<const void*>(&p[i]), kBytes);
  }
  return out;
}

template <class Curve, class Affine, class Jac>
void check_raw(std::size_t n, std::mt19937_64& rng) {
  const auto base = ec::random_walk_points<Affine, Jac>(64, rng);
  std::vector<Affine> p(n);
  std::vector<Fr> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    p[i] = base[rng() % base.size()];
    const unsigned r = rng() % 8;
    s[i] = r < 3 ? Fr::one() : r < 5 ? Fr::zero() : Fr::random(rng);
    if (i % 53 == 7) p[i] = Affine::identity();
  }
  constexpr std::size_t kBytes = 2 * sizeof(typename Affine::Field);
  for (std::size_t offset : {std::size_t{0}, std::size_t{4}})
    for (std::size_t stride : {kBytes, kBytes + 12}) {
      const std::vector<uint8_t> buf = records(p, offset, stride);
      const msm::RawPoints raw{buf.data() + offset, n, stride};
      for (unsigned threads : {1u, 2u})
        for (bool simd : {true, false}) {
          msm::HostOptions o;
          o.threads = threads;
          o.simd = simd;
          const Jac want = msm::msm<Curve>(std::span<const Affine>(p), s, o);
          const Jac got = msm::msm<Curve>(raw, s, o);
          BOOST_TEST((got.X == want.X && got.Y == want.Y && got.Z == want.Z),
                     "n " << n << " offset " << offset << " stride " << stride << " threads "
                          << threads << " simd " << simd);
        }
    }
}

struct TempKey {
  std::string path;
  TempKey() {
    path = (std::filesystem::temp_directory_path() /
            ("prestage_inplace_" + std::to_string(::getpid()) + ".zkey"))
               .string();
  }
  ~TempKey() { std::filesystem::remove(path); }
};

// A key with QAP coefficients for `circuit` (setup seed `seed`).
ProvingKey key_for(const SyntheticCircuit& circuit, uint64_t seed) {
  SetupOptions so;
  so.seed = seed;
  so.with_coefs = true;
  return setup(circuit, so);
}

// Fq equality is limb equality (always fully reduced, gpu/ff/fp.hpp).
bool same_limbs(const ec::G1Affine& a, const ec::G1Affine& b) {
  return a.infinity == b.infinity && a.x == b.x && a.y == b.y;
}

}  // namespace

BOOST_AUTO_TEST_CASE(raw_point_msm_equals_span_msm) {
  std::mt19937_64 rng(29);
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{9}, std::size_t{700}, std::size_t{3000}})
    check_raw<msm::G1Curve, ec::G1Affine, ec::G1Jacobian>(n, rng);
  for (std::size_t n : {std::size_t{9}, std::size_t{700}})
    check_raw<msm::G2Curve, ec::G2Affine, ec::G2Jacobian>(n, rng);
}

BOOST_AUTO_TEST_CASE(raw_points_need_a_stride) {
  const uint8_t b[8] = {};
  const msm::RawPoints raw{b, 1, 8};
  const std::vector<Fr> s(1, Fr::one());
  BOOST_CHECK_THROW(msm::msm<msm::G1Curve>(raw, s), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(in_place_key_proves_as_the_copied_key) {
  // A porep-shaped circuit (mostly 0/1 witness values) and a dense one (general values).
  for (auto profile : {SyntheticCircuit::Profile::porep, SyntheticCircuit::Profile::dense}) {
    SyntheticCircuit circuit(profile, 1000, 3, 11);
    const ProvingKey pk = key_for(circuit, 5);
    TempKey t;
    io::Zkey z = to_zkey(pk);
    z.a[6] = io::G1Raw{};  // an identity point in A
    z.a[6].infinity = true;
    io::write_zkey(t.path, z);
    const io::MappedZkey m = io::map_zkey(t.path);
    const ProvingKey copied = from_zkey(m, 2);
    const ProvingKey in_place = from_zkey_in_place(m, 2);
    BOOST_TEST(in_place.in_place.has_value());
    BOOST_TEST(in_place.a.empty());
    BOOST_TEST(in_place.coefs.empty());
    BOOST_TEST(in_place.in_place->h.count == copied.h.size());
    const std::vector<Fr> w = circuit.witness();
    for (unsigned threads : {1u, 2u}) {
      ProveOptions po;
      po.seed = 77;
      po.threads = threads;
      const Proof want = prove(copied, w, nullptr, po);
      const Proof got = prove(in_place, w, nullptr, po);
      BOOST_TEST(same_limbs(got.a, want.a));
      BOOST_TEST(same_limbs(got.c, want.c));
      BOOST_TEST((got.b.infinity == want.b.infinity && got.b.x == want.b.x && got.b.y == want.b.y));
      std::vector<Fr> pub(w.begin() + 1, w.begin() + 1 + pk.n_public);
      BOOST_TEST(verify(in_place.verifying_key(), pub, got));
    }
  }
}

BOOST_AUTO_TEST_CASE(in_place_bad_point_is_the_same_input_error) {
  SyntheticCircuit circuit(SyntheticCircuit::Profile::dense, 150, 2, 7);
  const ProvingKey pk = key_for(circuit, 3);
  TempKey t;
  io::Zkey z = to_zkey(pk);
  std::size_t bad = 5;
  while (pk.b1[bad].infinity) ++bad;
  ec::G1Affine p = pk.b1[bad];
  p.y = p.y + p.y;  // off the curve
  for (int i = 0; i < 6; ++i) z.b1[bad].y[i] = p.y.limb[i];
  io::write_zkey(t.path, z);
  const io::MappedZkey m = io::map_zkey(t.path);
  std::string copied_msg, in_place_msg;
  try {
    (void)from_zkey(m, 2);
  } catch (const InputError& e) {
    copied_msg = e.what();
  }
  try {
    (void)from_zkey_in_place(m, 2);
  } catch (const InputError& e) {
    in_place_msg = e.what();
  }
  BOOST_TEST(!in_place_msg.empty());
  BOOST_TEST(in_place_msg == copied_msg);
  BOOST_TEST(in_place_msg.find("section 6 (B1 points)") != std::string::npos, in_place_msg);
  BOOST_TEST(in_place_msg.find("point " + std::to_string(bad) + " is not on the BLS12-381 curve") !=
                 std::string::npos,
             in_place_msg);
}
