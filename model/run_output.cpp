#include "model/run_output.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "model/errors.hpp"
#include "model/output_files.hpp"
#include "model/version_info.hpp"

namespace prestage::model {
namespace fs = std::filesystem;

std::string file_sha256(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256: libcrypto's digest did not initialise");
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    if (in.gcount() > 0 &&
        EVP_DigestUpdate(ctx.get(), buf, static_cast<std::size_t>(in.gcount())) != 1)
      throw std::runtime_error("SHA-256: digest update failed");
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx.get(), md, &len) != 1)
    throw std::runtime_error("SHA-256: digest final failed");
  std::string hex;
  for (unsigned int i = 0; i < len; ++i) hex += fmt::format("{:02x}", md[i]);
  return hex;
}

std::optional<bool> same_file_as_recorded(const nlohmann::json& entry, const std::string& path) {
  if (!entry.is_object()) return std::nullopt;
  if (auto it = entry.find("sha256"); it != entry.end() && it->is_string() && !it->empty())
    return it->get<std::string>() == file_sha256(path);
  if (auto it = entry.find("hash_fnv1a64"); it != entry.end() && it->is_string() && !it->empty())
    return it->get<std::string>() == file_fnv1a64(path);
  return std::nullopt;
}

std::string file_fnv1a64(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::uint64_t h = 0xcbf29ce484222325ull;
  char buf[1 << 14];
  while (in) {
    in.read(buf, sizeof buf);
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      h ^= static_cast<unsigned char>(buf[i]);
      h *= 0x100000001b3ull;
    }
  }
  return fmt::format("{:016x}", h);
}

std::vector<std::string> measured_run_dirs(const std::string& root) {
  const auto measured = [](const fs::path& manifest) {
    std::ifstream in(manifest);
    nlohmann::json m;
    try {
      m = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
      throw InputError(manifest.string(), 0, "", std::string("not JSON: ") + e.what());
    }
    return m.is_object() && m.value("tool", "") == "prestage run --gpu";
  };
  std::vector<std::string> dirs;
  if (fs::exists(fs::path(root) / "manifest.json")) {
    if (measured(fs::path(root) / "manifest.json")) dirs.push_back(root);
    return dirs;
  }
  if (!fs::is_directory(root)) return dirs;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (it.depth() > 4) it.disable_recursion_pending();
    if (it->path().filename() == "manifest.json" && measured(it->path()))
      dirs.push_back(it->path().parent_path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

static void write_file(const fs::path& p, const std::string& what,
                       const std::function<void(std::ostream&)>& body) {
  std::ofstream out(p, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + p.string() + " (" + what + ")");
  body(out);
  out.flush();
  if (!out) throw std::runtime_error("write failed: " + p.string());
}

nlohmann::json policy_params_json(const Scenario& s) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, text] : s.params.resolved_text()) j[name] = text;
  // The inherited release_threshold, unset: the calibration's value is what the drivers use.
  if (!s.params.has_release_threshold)
    j["release_threshold"] = fmt::format(
        "{} B (the calibration's)", static_cast<std::uint64_t>(s.cal.release_threshold_default));
  return j;
}

void write_run(const std::string& dir, const Scenario& s, const RunResult& r,
               const std::string& command_line, bool overwrite, const std::string& tool,
               const nlohmann::json* extra_manifest) {
  // A unique temporary directory beside DIR, renamed into place at the end; with --force an
  // existing DIR is replaced only when prestage wrote it (model/output_files.hpp).
  output::OutputDir out(dir, overwrite, "-o");
  const fs::path& tmp = out.path();
  write_file(tmp / "summary.json", "summary",
             [&](std::ostream& o) { o << to_json(r.summary).dump(2) << "\n"; });
  write_file(tmp / "events.jsonl", "events", [&](std::ostream& o) { r.trace.write_jsonl(o); });
  write_file(tmp / "trace.json", "trace", [&](std::ostream& o) { r.trace.write_chrome(o); });
  nlohmann::json m;
  m[output::kMarkerKey] = 1;  // what --force looks for before it replaces a directory
  m["tool"] = tool;
  m["version"] = version_string();
  m["commit"] = git_commit();
  m["scenario"] = {{"file", s.file}, {"sha256", file_sha256(s.file)}, {"name", s.name}};
  m["calibration"] = {{"file", s.calibration_file},
                      {"sha256", file_sha256(s.calibration_file)},
                      {"device", s.cal.device_name},
                      {"driver", s.cal.driver},
                      {"measured_on", s.cal.measured_on}};
  m["pipeline"] = {{"file", s.pipeline_file},
                   {"name", s.pipe.name},
                   {"sha256", s.pipeline_file == "<embedded>" ? "" : file_sha256(s.pipeline_file)}};
  m["seed"] = s.seed;
  m["policy"] = s.policy;
  m["policy_params"] = policy_params_json(s);  // resolved: given or defaulted, with units
  m["command_line"] = command_line;
  if (extra_manifest && extra_manifest->is_object())
    for (const auto& [k, v] : extra_manifest->items()) m[k] = v;
  m["files"] = {"summary.json", "events.jsonl", "trace.json", "manifest.json"};
  write_file(tmp / "manifest.json", "manifest", [&](std::ostream& o) { o << m.dump(2) << "\n"; });
  out.commit();
}

}  // namespace prestage::model
