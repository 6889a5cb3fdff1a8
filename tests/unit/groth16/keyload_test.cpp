// System: the one-pass key loader (groth16::from_zkey on io::map_zkey, gpu/groth16/key_points)
// and its eight-point curve checks (AVX-512 IFMA where the CPU has it, else scalar).
// Expectations: the eight-lane verdicts equal Affine::is_on_curve point for point (G1 and G2,
// points on and off the curve, IFMA and scalar paths); a key loaded from the mapping equals the
// key from read_zkey + from_zkey in every point and coefficient; a coordinate >= q and a point
// off the curve are InputErrors naming the file, the section and the point, with the byte offset
// as the line. Tolerance: exact.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <random>

#include "gpu/ff/fq_ifma.hpp"
#include "gpu/groth16/groth16.hpp"
#include "gpu/groth16/key_points.hpp"
#include "gpu/io/zkey.hpp"
#include "model/errors.hpp"

using namespace prestage;
using namespace prestage::groth16;
using ec::G1Affine;
using ec::G2Affine;

namespace {

// 8 x 8 points: multiples of the generator, every third one with y moved off the curve.
template <class Affine, class Jac>
std::vector<Affine> mixed_points(std::mt19937_64& g) {
  std::vector<Affine> v;
  Jac p = Jac::from_affine(Affine::generator()).mul(Fr::random(g));
  const Jac step = Jac::from_affine(Affine::generator()).mul(Fr::random(g));
  for (int i = 0; i < 64; ++i, p = p + step) {
    Affine a = p.to_affine();
    if (i % 3 == 1) a.y = a.y + a.y;  // y -> 2y: off the curve (y != 0 here)
    v.push_back(a);
  }
  return v;
}

template <class Affine>
void check_lanes(const std::vector<Affine>& v) {
  for (std::size_t g = 0; g < v.size(); g += 8) {
    const Affine* p[8];
    uint8_t want = 0;
    for (int l = 0; l < 8; ++l) {
      p[l] = &v[g + l];
      if (v[g + l].is_on_curve()) want |= uint8_t(1u << l);
    }
    BOOST_TEST(on_curve8(p, false) == want);
    BOOST_TEST(on_curve8(p, true) == want);  // IFMA when the CPU has it
  }
}

struct TempKey {
  std::string path;
  TempKey() {
    path = (std::filesystem::temp_directory_path() /
            ("prestage_keyload_" + std::to_string(::getpid()) + ".zkey"))
               .string();
  }
  ~TempKey() { std::filesystem::remove(path); }
};

ProvingKey small_key() {
  SyntheticCircuit circuit(SyntheticCircuit::Profile::dense, 150, 2, 7);
  SetupOptions so;
  so.seed = 3;
  so.with_coefs = true;
  return setup(circuit, so);
}

void expect_error(const std::string& path, const std::vector<std::string>& needles) {
  try {
    (void)load_zkey(path, 2);
    BOOST_FAIL("no InputError for " + path + " (" + needles.back() + ")");
  } catch (const InputError& e) {
    const std::string what = e.what();
    for (const auto& n : needles)
      BOOST_TEST(what.find(n) != std::string::npos, what << " lacks " << n);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(eight_lane_curve_checks_match_is_on_curve) {
  BOOST_TEST_MESSAGE("IFMA on this CPU: " << (ff::ifma::cpu_has_ifma() ? "yes" : "no"));
  std::mt19937_64 g(17);
  check_lanes(mixed_points<G1Affine, ec::G1Jacobian>(g));
  check_lanes(mixed_points<G2Affine, ec::G2Jacobian>(g));
}

BOOST_AUTO_TEST_CASE(mapped_load_equals_read_then_convert) {
  const ProvingKey pk = small_key();
  TempKey t;
  io::Zkey z = to_zkey(pk);
  z.a[4] = io::G1Raw{};  // an identity point (all-zero bytes) in A
  z.a[4].infinity = true;
  io::write_zkey(t.path, z);
  const ProvingKey ref = from_zkey(io::read_zkey(t.path), t.path);
  for (unsigned threads : {1u, 2u, 3u}) {
    const ProvingKey got = from_zkey(io::map_zkey(t.path), threads);
    BOOST_TEST(got.a.size() == ref.a.size());
    BOOST_TEST(got.h.size() == ref.h.size());
    BOOST_TEST(got.a[4].infinity);
    BOOST_TEST((got.a == ref.a));
    BOOST_TEST((got.b1 == ref.b1));
    BOOST_TEST((got.b2 == ref.b2));
    BOOST_TEST((got.c == ref.c));
    BOOST_TEST((got.h == ref.h));
    BOOST_TEST((got.ic == ref.ic));
    BOOST_TEST(got.coefs.size() == ref.coefs.size());
    bool same = true;
    for (std::size_t i = 0; i < got.coefs.size(); ++i)
      same = same && got.coefs[i].value == ref.coefs[i].value &&
             got.coefs[i].signal == ref.coefs[i].signal;
    BOOST_TEST(same);
  }
}

BOOST_AUTO_TEST_CASE(bad_points_are_input_errors_with_offsets) {
  const ProvingKey pk = small_key();
  TempKey t;
  const io::Zkey good = to_zkey(pk);
  {  // H point 37 off the curve (y doubled), and a later one too: the first is reported.
    io::Zkey z = good;
    G1Affine p = pk.h[37];
    p.y = p.y + p.y;
    for (int i = 0; i < 6; ++i) z.h[37].y[i] = p.y.limb[i];
    z.h[90].x = z.h[91].x;
    io::write_zkey(t.path, z);
    const io::MappedZkey m = io::map_zkey(t.path);
    expect_error(t.path, {t.path, "section 9 (H points)", "point 37 is not on the BLS12-381 curve",
                          "at byte " + std::to_string(m.h.offset + 37 * 96) + ":"});
  }
  {  // The first B2 point that is not the identity moved off the G2 curve (y.c1 doubled).
    io::Zkey z = good;
    std::size_t i = 0;
    while (pk.b2[i].infinity || pk.b2[i].y.c1.is_zero()) ++i;
    const ff::Fq y1 = pk.b2[i].y.c1 + pk.b2[i].y.c1;
    for (int k = 0; k < 6; ++k) z.b2[i].y1[k] = y1.limb[k];
    io::write_zkey(t.path, z);
    expect_error(t.path, {"section 7 (B2 points)",
                          "point " + std::to_string(i) + " is not on the BLS12-381 G2 curve"});
  }
  {  // C point 3's y = q: a range error at its y coordinate, before the curve check.
    io::Zkey z = good;
    z.c[3].y = io::kFqModulus;
    z.c[3].infinity = false;
    io::write_zkey(t.path, z);
    const io::MappedZkey m = io::map_zkey(t.path);
    expect_error(t.path, {"section 8 (C points)", "not below q",
                          "at byte " + std::to_string(m.c.offset + 3 * 96 + 48) + ":"});
  }
}
