// System: gpu/io readers and writers of the snarkjs formats (.r1cs, .wtns, .zkey, JSON).
// Expectation: round trips are exact; every malformed file (truncated, wrong magic/version,
// wrong prime, sizes that disagree, values out of range) throws InputError whose message names
// the file and the byte offset or key. Tolerance: exact.
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include <sys/wait.h>
#include <unistd.h>

#include "gpu/io/binfile.hpp"
#include "gpu/io/r1cs.hpp"
#include "gpu/io/snarkjs_json.hpp"
#include "gpu/io/wtns.hpp"
#include "gpu/io/zkey.hpp"
#include "model/errors.hpp"

namespace fs = std::filesystem;
using namespace prestage;
using namespace prestage::io;

namespace {

struct TmpDir {
  fs::path dir;
  TmpDir() {
    dir = fs::temp_directory_path() / ("prestage_io_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  ~TmpDir() { fs::remove_all(dir); }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

std::vector<uint8_t> slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void spit(const std::string& p, const std::vector<uint8_t>& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// Expects f() to throw InputError whose message contains every needle.
void expect_input_error(const std::function<void()>& f, std::vector<std::string> needles) {
  try {
    f();
  } catch (const InputError& e) {
    std::string msg = e.what();
    for (const auto& n : needles)
      BOOST_TEST(msg.find(n) != std::string::npos, "'" << msg << "' should mention '" << n << "'");
    return;
  }
  BOOST_FAIL("expected InputError mentioning " << needles.front());
}

R1cs small_r1cs() {
  // x * y = z with public z (wire 1), private x, y (wires 2, 3); coefficient 5 on one term.
  R1cs r;
  r.n_wires = 4;
  r.n_pub_out = 1;
  r.n_prv_in = 2;
  r.n_labels = 4;
  r.n_constraints = 2;
  r.lc_begin = {0};
  auto lc = [&](std::vector<R1csTerm> t) {
    for (auto& x : t) r.terms.push_back(x);
    r.lc_begin.push_back(r.terms.size());
  };
  lc({{2, {1, 0, 0, 0}}});
  lc({{3, {1, 0, 0, 0}}});
  lc({{1, {1, 0, 0, 0}}});
  lc({{2, {5, 0, 0, 0}}, {0, {7, 0, 0, 0}}});
  lc({{0, {1, 0, 0, 0}}});
  lc({});
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(decimal_round_trip_matches_known_values) {
  BOOST_TEST(to_decimal(FrLimbs{0, 0, 0, 0}) == "0");
  BOOST_TEST(to_decimal(kFrModulus) ==
             "52435875175126190479447740508185965837690552500527637822603658699938581184513");
  BOOST_TEST(to_decimal(kFqModulus) ==
             "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442"
             "687629129015664037894272559787");
  std::mt19937_64 g(7);
  for (int i = 0; i < 100; ++i) {
    FqLimbs a{g(), g(), g(), g(), g(), g() >> 4};
    auto back = from_decimal<6>(to_decimal(a));
    BOOST_REQUIRE(back.has_value());
    BOOST_TEST((*back == a));
  }
  BOOST_TEST(!from_decimal<4>("").has_value());
  BOOST_TEST(!from_decimal<4>("12a").has_value());
  BOOST_TEST(!from_decimal<4>("-1").has_value());
  BOOST_TEST(!from_decimal<1>("18446744073709551616").has_value());  // 2^64 overflows one limb
}

BOOST_AUTO_TEST_CASE(r1cs_round_trip_and_corruptions) {
  TmpDir t;
  const std::string p = t.file("c.r1cs");
  write_r1cs(p, small_r1cs());
  R1cs back = read_r1cs(p);
  BOOST_TEST(back.n_wires == 4u);
  BOOST_TEST(back.n_constraints == 2u);
  BOOST_TEST(back.terms.size() == 6u);
  BOOST_TEST(back.lc_begin == small_r1cs().lc_begin);
  BOOST_TEST(back.terms[3].coeff[0] == 5u);

  const auto good = slurp(p);
  const std::string bad = t.file("bad.r1cs");
  // Truncated at every length: always InputError naming the file, never a crash.
  for (size_t len = 0; len < good.size(); ++len) {
    spit(bad, std::vector<uint8_t>(good.begin(), good.begin() + long(len)));
    expect_input_error([&] { read_r1cs(bad); }, {bad});
  }
  auto corrupt = [&](size_t at, uint8_t v, std::vector<std::string> needles) {
    auto b = good;
    b[at] = v;
    spit(bad, b);
    expect_input_error([&] { read_r1cs(bad); }, needles);
  };
  corrupt(0, 'x', {bad, "magic"});
  corrupt(4, 9, {bad, "version"});
  // Header section data starts at 12 + 12 = 24: n8 (4 bytes), then the prime.
  corrupt(24, 48, {bad, "field size"});
  corrupt(28, 0x02, {bad, "not the BLS12-381 scalar field", "wrong curve"});
  // nWires (after n8 and the 32-byte prime) set to 2: too few for 1 output + 2 inputs.
  corrupt(24 + 36, 2, {bad, "counts disagree"});
  // First term's wire (constraints section: header 64 bytes + 12 + nTerms 4) out of range.
  const size_t sec2 = 24 + 64 + 12;
  corrupt(sec2 + 4, 200, {bad, "wire 200 out of range"});
  // A coefficient >= r.
  {
    auto b = good;
    for (int i = 0; i < 32; ++i) b[sec2 + 8 + i] = 0xff;
    spit(bad, b);
    expect_input_error([&] { read_r1cs(bad); }, {bad, "not below r"});
  }
  // A trailing byte after the last section.
  {
    auto b = good;
    b.push_back(0);
    spit(bad, b);
    expect_input_error([&] { read_r1cs(bad); }, {bad, "trailing"});
  }
  expect_input_error([&] { read_r1cs(t.file("missing.r1cs")); }, {"missing.r1cs", "cannot open"});
}

BOOST_AUTO_TEST_CASE(wtns_round_trip_and_corruptions) {
  TmpDir t;
  const std::string p = t.file("w.wtns");
  Witness w;
  w.values = {{1, 0, 0, 0},
              {42, 0, 0, 0},
              {kFrModulus[0] - 1, kFrModulus[1], kFrModulus[2], kFrModulus[3]}};
  write_wtns(p, w);
  BOOST_TEST((read_wtns(p).values == w.values));
  const auto good = slurp(p);
  const std::string bad = t.file("bad.wtns");
  for (size_t len = 0; len < good.size(); len += 7) {
    spit(bad, std::vector<uint8_t>(good.begin(), good.begin() + long(len)));
    expect_input_error([&] { read_wtns(bad); }, {bad});
  }
  // nWitness in the header (offset 24 + 36) disagreeing with section 2's size.
  auto b = good;
  b[24 + 36] = 4;
  spit(bad, b);
  expect_input_error([&] { read_wtns(bad); }, {bad, "disagrees"});
  // Wire 0 must be the constant 1.
  Witness w2 = w;
  w2.values[0] = {2, 0, 0, 0};
  write_wtns(bad, w2);
  expect_input_error([&] { read_wtns(bad); }, {bad, "constant wire"});
  // A value = r.
  w2 = w;
  w2.values[1] = kFrModulus;
  write_wtns(bad, w2);
  expect_input_error([&] { read_wtns(bad); }, {bad, "value 1", "not below r"});
}

BOOST_AUTO_TEST_CASE(zkey_round_trip_and_corruptions) {
  TmpDir t;
  Zkey z;
  z.n_vars = 4;
  z.n_public = 1;
  z.domain_size = 4;
  G1Raw p1;
  p1.x = {1, 2, 3, 4, 5, 6};
  p1.y = {7, 8, 9, 10, 11, 12};
  G2Raw p2;
  p2.x0 = {1, 0, 0, 0, 0, 0};
  p2.y1 = {2, 0, 0, 0, 0, 0};
  z.alpha1 = z.beta1 = z.delta1 = p1;
  z.beta2 = z.gamma2 = z.delta2 = p2;
  z.ic = {p1, G1Raw{}};
  z.ic[1].infinity = true;
  z.coefs = {{0, 0, 2, {9, 0, 0, 0}}, {1, 3, 3, {10, 0, 0, 0}}};
  z.a = z.b1 = {p1, p1, p1, p1};
  z.b2 = {p2, p2, p2, p2};
  z.c = {p1, p1};
  z.h = {p1, p1, p1, p1};
  const std::string p = t.file("k.zkey");
  write_zkey(p, z);
  Zkey back = read_zkey(p);
  BOOST_TEST(back.n_vars == 4u);
  BOOST_TEST(back.domain_size == 4u);
  BOOST_TEST((back.alpha1.x == p1.x));
  BOOST_TEST((back.beta2.y1 == p2.y1));
  BOOST_TEST(back.ic[1].infinity);
  BOOST_TEST(!back.ic[0].infinity);
  BOOST_TEST(back.coefs.size() == 2u);
  BOOST_TEST(back.coefs[1].constraint == 3u);
  BOOST_TEST(back.h.size() == 4u);

  const auto good = slurp(p);
  const std::string bad = t.file("bad.zkey");
  for (size_t len = 0; len < good.size(); len += 97) {
    spit(bad, std::vector<uint8_t>(good.begin(), good.begin() + long(len)));
    expect_input_error([&] { read_zkey(bad); }, {bad});
  }
  auto with = [&](std::function<void(Zkey&)> f, std::vector<std::string> needles) {
    Zkey y = z;
    f(y);
    write_zkey(bad, y);
    expect_input_error([&] { read_zkey(bad); }, needles);
  };
  with([](Zkey& y) { y.domain_size = 3; }, {bad, "power of two"});
  with([](Zkey& y) { y.n_vars = 5; }, {bad, "section 5", "disagrees"});
  with([](Zkey& y) { y.coefs[0].signal = 4; }, {bad, "signal 4 >= nVars"});
  with([](Zkey& y) { y.coefs[1].constraint = 4; }, {bad, "constraint 4 >= domainSize"});
  with([](Zkey& y) { y.coefs[0].matrix = 2; }, {bad, "matrix 2"});
  with([](Zkey& y) { y.a[2].x = kFqModulus; }, {bad, "section 5 (A points)", "not below q"});
  // Wrong curve: the base field prime in section 2 (header data at 12 + 12 + 4 + 12).
  auto b = good;
  b[12 + 16 + 12 + 4] ^= 1;
  spit(bad, b);
  expect_input_error([&] { read_zkey(bad); }, {bad, "not BLS12-381 q", "wrong curve"});
  // A PLONK key (protocol 2).
  b = good;
  b[24] = 2;
  spit(bad, b);
  expect_input_error([&] { read_zkey(bad); }, {bad, "not Groth16"});
}

BOOST_AUTO_TEST_CASE(json_round_trip_and_bad_files) {
  TmpDir t;
  ProofJson pr;
  pr.a.x = {123, 0, 0, 0, 0, 0};
  pr.a.y = {456, 0, 0, 0, 0, 1};
  pr.b.x0 = {1, 0, 0, 0, 0, 0};
  pr.b.x1 = {2, 0, 0, 0, 0, 0};
  pr.b.y0 = {3, 0, 0, 0, 0, 0};
  pr.b.y1 = {4, 0, 0, 0, 0, 0};
  pr.c.infinity = true;
  const std::string s = proof_to_json(pr);
  // snarkjs layout: 1-space indentation, projective "1", the point at infinity as 0,1,0.
  BOOST_TEST(s.substr(0, 22) == "{\n \"pi_a\": [\n  \"123\",\n");
  BOOST_TEST(s.find("\"pi_c\": [\n  \"0\",\n  \"1\",\n  \"0\"\n ]") != std::string::npos);
  const std::string tail = " \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}";
  BOOST_TEST(s.substr(s.size() - tail.size()) == tail);
  const std::string p = t.file("proof.json");
  write_file_atomic(p, s);
  ProofJson back = read_proof_json(p);
  BOOST_TEST((back.a.y == pr.a.y));
  BOOST_TEST((back.b.y1 == pr.b.y1));
  BOOST_TEST(back.c.infinity);

  auto bad_json = [&](const std::string& text, std::vector<std::string> needles) {
    write_file_atomic(p, text);
    needles.insert(needles.begin(), p);
    expect_input_error([&] { read_proof_json(p); }, needles);
  };
  std::string wrong_curve = s;
  wrong_curve.replace(wrong_curve.find("bls12381"), 8, "bn128");
  bad_json(wrong_curve, {"curve", "wrong curve"});
  std::string big = s;
  big.replace(big.find("\"123\""), 5, "\"" + to_decimal(kFqModulus) + "\"");
  bad_json(big, {"pi_a[0]", "below the field modulus"});
  bad_json("{", {"not valid JSON"});
  bad_json("{\"protocol\": \"groth16\", \"curve\": \"bls12381\"}", {"pi_a", "missing"});

  const std::string pub = t.file("public.json");
  write_file_atomic(pub, public_to_json({{7, 0, 0, 0}, {0, 0, 0, 0}}));
  BOOST_TEST(slurp(pub).size() == std::string("[\n \"7\",\n \"0\"\n]").size());
  BOOST_TEST(read_public_json(pub).size() == 2u);
  write_file_atomic(pub, "[\"1\", 2]");
  expect_input_error([&] { read_public_json(pub); }, {pub, "[1]", "decimal string"});

  VkJson vk;
  vk.ic.resize(3);
  const std::string vkp = t.file("vk.json");
  std::string vks = vk_to_json(vk);
  write_file_atomic(vkp, vks);
  BOOST_TEST(read_vk_json(vkp).ic.size() == 3u);
  vks.replace(vks.find("\"nPublic\": 2"), 12, "\"nPublic\": 3");
  write_file_atomic(vkp, vks);
  expect_input_error([&] { read_vk_json(vkp); }, {vkp, "nPublic"});
}

BOOST_AUTO_TEST_CASE(a_mapped_file_that_shrinks_exits_2_naming_it) {
  // System: a .wtns mapped by open_binfile, then truncated to 0 bytes by "another process"
  // (here: the same one) and read again, in a forked child whose stderr goes to a pipe.
  // Expectation: the child exits with 2 (bad input) and its message names the file and SIGBUS.
  TmpDir t;
  const std::string p = t.file("shrinks.wtns");
  Witness w;
  w.values.assign(3000, {7, 0, 0, 0});  // ~96 kB: several pages
  w.values[0] = {1, 0, 0, 0};
  write_wtns(p, w);
  int fds[2];
  BOOST_REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    const BinFile f = open_binfile(p, "wtns", 2);
    if (::truncate(p.c_str(), 0) != 0) ::_exit(10);
    volatile uint8_t sink = 0;
    for (uint64_t i = 0; i < f.size; i += 4096) sink = sink + f.data.get()[i];
    ::_exit(11);  // not reached: the read past the new end faults
  }
  ::close(fds[1]);
  std::string err;
  char buf[512];
  for (ssize_t k; (k = ::read(fds[0], buf, sizeof buf)) > 0;) err.append(buf, std::size_t(k));
  ::close(fds[0]);
  int status = 0;
  BOOST_REQUIRE(::waitpid(child, &status, 0) == child);
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 2,
             "exit status " << WEXITSTATUS(status) << ", stderr: " << err);
  BOOST_TEST(err.find(p) != std::string::npos, err);
  BOOST_TEST(err.find("SIGBUS") != std::string::npos, err);
}
