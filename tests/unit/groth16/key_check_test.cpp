// System: a snarkjs .zkey with one bit flipped in a QAP coefficient (section 4), proved from with
// a witness that satisfies the circuit's .r1cs, as `prestage prove --r1cs` does: the key loads
// (the flip stays in range), the proof fails verification, and groth16::throw_failed_verification
// says why (gpu/groth16/key_check.hpp).
// Expectations: the InputError names the .zkey (not the witness), "section 4 (coefficients)", the
// flipped record's index and its byte offset -- for a flip in the value, in the signal and in the
// row; with the coefficients intact but the H points of another setup, it blames the key's points;
// without the circuit it names both files and says --r1cs tells which. The unflipped key's proof
// verifies. Tolerance: exact (messages matched by substring, offsets exact).
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <vector>

#include <unistd.h>

#include "gpu/groth16/groth16.hpp"
#include "gpu/groth16/key_check.hpp"
#include "gpu/io/r1cs.hpp"
#include "gpu/io/zkey.hpp"
#include "model/errors.hpp"

namespace fs = std::filesystem;
using namespace prestage;
using namespace prestage::groth16;

namespace {

// x * y = z; (2x + 3) * y = t; z * (t + 1) = u. Wires: 0 one, 1 z (public), 2 x, 3 y, 4 t, 5 u.
// Witness x = 3, y = 5: z = 15, t = 45, u = 690. Domain 8 (3 constraints + 2 public rows).
io::R1cs circuit_r1cs() {
  io::R1cs r;
  r.n_wires = 6;
  r.n_pub_out = 1;
  r.n_prv_in = 2;
  r.n_labels = 6;
  r.n_constraints = 3;
  r.lc_begin = {0};
  auto lc = [&](std::vector<io::R1csTerm> t) {
    for (auto& x : t) r.terms.push_back(x);
    r.lc_begin.push_back(r.terms.size());
  };
  lc({{2, {1, 0, 0, 0}}});
  lc({{3, {1, 0, 0, 0}}});
  lc({{1, {1, 0, 0, 0}}});
  lc({{2, {2, 0, 0, 0}}, {0, {3, 0, 0, 0}}});
  lc({{3, {1, 0, 0, 0}}});
  lc({{4, {1, 0, 0, 0}}});
  lc({{1, {1, 0, 0, 0}}});
  lc({{4, {1, 0, 0, 0}}, {0, {1, 0, 0, 0}}});
  lc({{5, {1, 0, 0, 0}}});
  return r;
}

std::vector<Fr> witness() {
  std::vector<Fr> w;
  for (uint64_t v : {1, 15, 3, 5, 45, 690}) w.push_back(Fr::from_u64(v));
  return w;
}

struct Files {
  fs::path dir;
  std::string zkey, wtns = "witness.wtns", r1cs = "circuit.r1cs";
  Files() {
    dir = fs::temp_directory_path() / ("prestage_key_check_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    zkey = (dir / "key.zkey").string();
  }
  ~Files() { fs::remove_all(dir); }
};

std::vector<uint8_t> slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void spit(const std::string& p, const std::vector<uint8_t>& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// The proof from the key at `path` (coefficients as `prestage prove` reads them) verifies?
bool proof_verifies(const std::string& path) {
  const io::MappedZkey m = io::map_zkey(path);  // the load checks pass
  const ProvingKey pk = from_zkey_in_place(m, 1);
  const std::vector<Fr> w = witness();
  ProveOptions o;
  o.seed = 9;
  o.threads = 1;
  const Proof p = prove(pk, w, nullptr, o);
  return verify(pk.verifying_key(), std::vector<Fr>{w[1]}, p);
}

std::string failure_message(const Files& f, const Circuit* c) {
  try {
    throw_failed_verification(f.zkey, f.wtns, c, f.r1cs);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_all(const std::string& what, const std::vector<std::string>& needles) {
  for (const auto& n : needles)
    BOOST_TEST(what.find(n) != std::string::npos, "'" << what << "' lacks '" << n << "'");
}

// Index of the key's coefficient (matrix, row, signal).
std::size_t find_coef(const ProvingKey& pk, uint32_t matrix, uint32_t row, uint32_t signal) {
  for (std::size_t i = 0; i < pk.coefs.size(); ++i)
    if (pk.coefs[i].matrix == matrix && pk.coefs[i].row == row && pk.coefs[i].signal == signal)
      return i;
  BOOST_FAIL("no coefficient");
  return 0;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_flipped_coefficient_bit_is_blamed_on_the_key_with_its_offset) {
  const R1csCircuit circuit(circuit_r1cs());
  BOOST_REQUIRE(first_unsatisfied(circuit, witness(), 1) == -1);
  SetupOptions so;
  so.seed = 3;
  so.with_coefs = true;
  so.threads = 1;
  const ProvingKey pk = setup(circuit, so);
  Files f;
  io::write_zkey(f.zkey, to_zkey(pk));
  BOOST_TEST(proof_verifies(f.zkey));
  BOOST_TEST(!compare_coefficients(io::map_zkey(f.zkey), circuit).has_value());
  const std::vector<uint8_t> good = slurp(f.zkey);
  const uint64_t base = io::map_zkey(f.zkey).coefs_offset;
  // The coefficient 2 of x in A's constraint 1 (2x + 3): record bytes 0-3 matrix, 4-7 row,
  // 8-11 signal, 12-43 value (v R^2 mod r, little-endian).
  const std::size_t i = find_coef(pk, 0, 1, 2);
  const uint64_t rec = base + 44 * i;
  const std::string at = "at byte " + std::to_string(rec) + ":";
  const std::string coef = "coefficient " + std::to_string(i) + " (A, ";
  struct Flip {
    const char* what;
    uint64_t byte;
    uint8_t mask;
    const char* says;
  };
  for (const Flip& flip :
       {Flip{"value bit 0", rec + 12, 0x01, "the circuit's 2"},
        Flip{"signal 2 -> 3", rec + 8, 0x01, "that row of A has no term in signal 3"},
        Flip{"row 1 -> 3", rec + 4, 0x02, "public-input row 0, signal 2"}}) {
    BOOST_TEST_CONTEXT(flip.what) {
      std::vector<uint8_t> bad = good;
      bad[flip.byte] ^= flip.mask;
      spit(f.zkey, bad);
      BOOST_TEST(!proof_verifies(f.zkey));  // loads, proves, does not verify
      const std::string what = failure_message(f, &circuit);
      BOOST_TEST_MESSAGE(flip.what << ": " << what);
      expect_all(what, {f.zkey + ":" + std::to_string(rec) + ": key 'section 4 (coefficients)'", at,
                        coef, flip.says, "satisfies every constraint of " + f.r1cs});
      BOOST_TEST(what.find(f.wtns + ":") == std::string::npos, what);  // not blamed
    }
  }
  {  // Without the circuit: both named, and how to tell which.
    const std::string what = failure_message(f, nullptr);
    expect_all(what, {f.wtns, f.zkey, "section 4", "--r1cs"});
  }
  {  // Coefficients intact, H points from another setup: the key's points are blamed.
    so.seed = 4;
    io::Zkey z = to_zkey(pk);
    z.h = to_zkey(setup(circuit, so)).h;
    io::write_zkey(f.zkey, z);
    BOOST_TEST(!proof_verifies(f.zkey));
    const std::string what = failure_message(f, &circuit);
    expect_all(what, {f.zkey + ": ", "coefficients (section 4) match the circuit",
                      "the key's points (sections 2, 3, 5-9) are inconsistent"});
  }
}
