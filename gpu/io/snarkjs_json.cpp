#include "gpu/io/snarkjs_json.hpp"

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model/errors.hpp"

namespace prestage::io {

using ojson = nlohmann::ordered_json;

namespace {

ojson g1_obj(const G1Plain& p) {
  if (p.infinity) return ojson::array({"0", "1", "0"});
  return ojson::array({to_decimal(p.x), to_decimal(p.y), "1"});
}

ojson g2_obj(const G2Plain& p) {
  if (p.infinity)
    return ojson::array(
        {ojson::array({"0", "0"}), ojson::array({"1", "0"}), ojson::array({"0", "0"})});
  return ojson::array({ojson::array({to_decimal(p.x0), to_decimal(p.x1)}),
                       ojson::array({to_decimal(p.y0), to_decimal(p.y1)}),
                       ojson::array({"1", "0"})});
}

// snarkjs writes with bfj {space: 1}: the same layout as JSON.stringify(v, null, 1), which is
// nlohmann's dump(1) for the string/array/object values used here.
std::string dump(const ojson& j) {
  return j.dump(1);
}

struct JsonFile {
  std::string path;
  ojson root;
  [[noreturn]] void fail(const std::string& key, const std::string& msg) const {
    throw InputError(path, 0, key, msg);
  }
  const ojson& at(const ojson& parent, const std::string& key, const std::string& name) const {
    if (!parent.is_object() || !parent.contains(key)) fail(name, "missing");
    return parent.at(key);
  }
  const ojson& idx(const ojson& parent, size_t i, size_t len, const std::string& name) const {
    if (!parent.is_array() || parent.size() != len)
      fail(name, fmt::format("expected an array of {} elements", len));
    return parent.at(i);
  }
  template <size_t N>
  std::array<uint64_t, N> number(const ojson& v, const std::string& name,
                                 const std::array<uint64_t, N>& modulus) const {
    if (!v.is_string()) fail(name, "expected a decimal string");
    auto x = from_decimal<N>(v.get<std::string>());
    if (!x || !less_than(*x, modulus))
      fail(name, fmt::format("'{}' is not a decimal number below the field modulus",
                             v.get<std::string>()));
    return *x;
  }
  FqLimbs fq(const ojson& v, const std::string& name) const { return number(v, name, kFqModulus); }

  G1Plain g1(const ojson& v, const std::string& name) const {
    G1Plain p;
    for (size_t i = 0; i < 3; ++i) idx(v, i, 3, name);
    p.x = fq(v[0], name + "[0]");
    p.y = fq(v[1], name + "[1]");
    FqLimbs z = fq(v[2], name + "[2]");
    if (is_zero(z)) {
      p = G1Plain{};
      p.infinity = true;
    } else if (z != FqLimbs{1, 0, 0, 0, 0, 0}) {
      fail(name + "[2]", "z must be \"1\" (affine) or \"0\" (infinity)");
    }
    return p;
  }
  G2Plain g2(const ojson& v, const std::string& name) const {
    G2Plain p;
    for (size_t i = 0; i < 3; ++i)
      for (size_t k = 0; k < 2; ++k) idx(idx(v, i, 3, name), k, 2, fmt::format("{}[{}]", name, i));
    p.x0 = fq(v[0][0], name + "[0][0]");
    p.x1 = fq(v[0][1], name + "[0][1]");
    p.y0 = fq(v[1][0], name + "[1][0]");
    p.y1 = fq(v[1][1], name + "[1][1]");
    FqLimbs z0 = fq(v[2][0], name + "[2][0]"), z1 = fq(v[2][1], name + "[2][1]");
    if (is_zero(z0) && is_zero(z1)) {
      p = G2Plain{};
      p.infinity = true;
    } else if (z0 != FqLimbs{1, 0, 0, 0, 0, 0} || !is_zero(z1)) {
      fail(name + "[2]", "z must be [\"1\", \"0\"] (affine) or [\"0\", \"0\"] (infinity)");
    }
    return p;
  }
  void groth16_bls(const std::string& what) const {
    const ojson& proto = at(root, "protocol", "protocol");
    if (!proto.is_string() || proto.get<std::string>() != "groth16")
      fail("protocol",
           fmt::format("{} is for protocol {}, expected \"groth16\"", what, proto.dump()));
    const ojson& curve = at(root, "curve", "curve");
    if (!curve.is_string() || curve.get<std::string>() != "bls12381")
      fail("curve", fmt::format("{} is for curve {}, expected \"bls12381\" (wrong curve)", what,
                                curve.dump()));
  }
};

JsonFile parse_text(const std::string& path, std::string_view text) {
  JsonFile f{path, {}};
  try {
    f.root = ojson::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, 0, "", fmt::format("not valid JSON (byte {}): {}", e.byte, e.what()));
  } catch (const nlohmann::json::exception& e) {  // e.g. out_of_range: a number overflows
    throw InputError(path, 0, "", fmt::format("not valid JSON: {}", e.what()));
  }
  return f;
}

JsonFile load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_text(path, ss.str());
}

ProofJson proof_from(const JsonFile& f);
std::vector<FrLimbs> public_from(const JsonFile& f);
VkJson vk_from(const JsonFile& f);

}  // namespace

std::string proof_to_json(const ProofJson& p) {
  ojson j;
  j["pi_a"] = g1_obj(p.a);
  j["pi_b"] = g2_obj(p.b);
  j["pi_c"] = g1_obj(p.c);
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  return dump(j);
}

std::string public_to_json(const std::vector<FrLimbs>& signals) {
  ojson j = ojson::array();
  for (const auto& s : signals) j.push_back(to_decimal(s));
  return dump(j);
}

std::string vk_to_json(const VkJson& vk) {
  ojson j;
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  j["nPublic"] = vk.ic.empty() ? 0 : vk.ic.size() - 1;
  j["vk_alpha_1"] = g1_obj(vk.alpha1);
  j["vk_beta_2"] = g2_obj(vk.beta2);
  j["vk_gamma_2"] = g2_obj(vk.gamma2);
  j["vk_delta_2"] = g2_obj(vk.delta2);
  ojson ab = ojson::array();
  for (int i = 0; i < 2; ++i) {
    ojson f6 = ojson::array();
    for (int k = 0; k < 3; ++k)
      f6.push_back(ojson::array({to_decimal(vk.alphabeta12[6 * i + 2 * k]),
                                 to_decimal(vk.alphabeta12[6 * i + 2 * k + 1])}));
    ab.push_back(f6);
  }
  j["vk_alphabeta_12"] = ab;
  ojson ic = ojson::array();
  for (const auto& p : vk.ic) ic.push_back(g1_obj(p));
  j["IC"] = ic;
  return dump(j);
}

ProofJson read_proof_json(const std::string& path) {
  return proof_from(load(path));
}

ProofJson parse_proof_json(const std::string& name, std::string_view text) {
  return proof_from(parse_text(name, text));
}

namespace {
ProofJson proof_from(const JsonFile& f) {
  if (!f.root.is_object()) f.fail("", "expected a JSON object (a snarkjs proof)");
  f.groth16_bls("proof");
  ProofJson p;
  p.a = f.g1(f.at(f.root, "pi_a", "pi_a"), "pi_a");
  p.b = f.g2(f.at(f.root, "pi_b", "pi_b"), "pi_b");
  p.c = f.g1(f.at(f.root, "pi_c", "pi_c"), "pi_c");
  return p;
}
}  // namespace

std::vector<FrLimbs> read_public_json(const std::string& path) {
  return public_from(load(path));
}

std::vector<FrLimbs> parse_public_json(const std::string& name, std::string_view text) {
  return public_from(parse_text(name, text));
}

namespace {
std::vector<FrLimbs> public_from(const JsonFile& f) {
  if (!f.root.is_array()) f.fail("", "expected a JSON array of decimal strings (public signals)");
  std::vector<FrLimbs> out;
  for (size_t i = 0; i < f.root.size(); ++i)
    out.push_back(f.number(f.root[i], fmt::format("[{}]", i), kFrModulus));
  return out;
}
}  // namespace

VkJson read_vk_json(const std::string& path) {
  return vk_from(load(path));
}

VkJson parse_vk_json(const std::string& name, std::string_view text) {
  return vk_from(parse_text(name, text));
}

namespace {
VkJson vk_from(const JsonFile& f) {
  if (!f.root.is_object()) f.fail("", "expected a JSON object (a snarkjs verification key)");
  f.groth16_bls("verification key");
  VkJson vk;
  vk.alpha1 = f.g1(f.at(f.root, "vk_alpha_1", "vk_alpha_1"), "vk_alpha_1");
  vk.beta2 = f.g2(f.at(f.root, "vk_beta_2", "vk_beta_2"), "vk_beta_2");
  vk.gamma2 = f.g2(f.at(f.root, "vk_gamma_2", "vk_gamma_2"), "vk_gamma_2");
  vk.delta2 = f.g2(f.at(f.root, "vk_delta_2", "vk_delta_2"), "vk_delta_2");
  if (f.root.contains("vk_alphabeta_12")) {
    const ojson& ab = f.root["vk_alphabeta_12"];
    for (size_t i = 0; i < 2; ++i)
      for (size_t k = 0; k < 3; ++k)
        for (size_t c = 0; c < 2; ++c) {
          std::string name = fmt::format("vk_alphabeta_12[{}][{}][{}]", i, k, c);
          const ojson& v = f.idx(f.idx(f.idx(ab, i, 2, "vk_alphabeta_12"), k, 3, name), c, 2, name);
          vk.alphabeta12[6 * i + 2 * k + c] = f.fq(v, name);
        }
  }
  const ojson& ic = f.at(f.root, "IC", "IC");
  if (!ic.is_array() || ic.empty()) f.fail("IC", "expected a non-empty array of G1 points");
  for (size_t i = 0; i < ic.size(); ++i) vk.ic.push_back(f.g1(ic[i], fmt::format("IC[{}]", i)));
  const ojson& np = f.at(f.root, "nPublic", "nPublic");
  if (!np.is_number_unsigned() || np.get<uint64_t>() + 1 != ic.size())
    f.fail("nPublic", fmt::format("{} disagrees with the {} IC points (expected IC count - 1)",
                                  np.dump(), ic.size()));
  return vk;
}
}  // namespace

void write_file_atomic(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  fs::path target(path);
  std::error_code dir_ec;
  if (!path.empty() && (path.back() == '/' || fs::is_directory(target, dir_ec)))
    throw InputError(path, 0, "",
                     "is a directory; give the output file's name (a directory is never replaced)");
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) throw InputError(path, 0, "", "cannot create a file in its directory");
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);  // mkstemp makes 0600; give the file the usual permissions
  FILE* fp = fdopen(fd, "wb");
  bool ok = fp && std::fwrite(content.data(), 1, content.size(), fp) == content.size();
  ok = fp && std::fflush(fp) == 0 && fsync(fd) == 0 && ok;
  if (fp) std::fclose(fp);
  std::error_code ec;
  if (ok) fs::rename(name.data(), target, ec);
  if (!ok || ec) {
    fs::remove(name.data(), ec);
    throw InputError(path, 0, "", "cannot write file");
  }
}

}  // namespace prestage::io
