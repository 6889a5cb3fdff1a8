#include "model/yaml_input.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace prestage::yaml {

static std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

static int mark_line(const YAML::Node& n) {
  return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

// yaml-cpp keeps both entries of a repeated key and node[key] answers with one of them: a
// repeated key in any map of the document is an error at its second occurrence.
// Aliases make the document a graph: `a: &a [*a]` is a node inside itself, and ten anchors of ten
// aliases each expand to 10^10 nodes. Every reader walks the expansion, so the walk here is
// bounded -- kMaxDepth levels, kMaxNodes nodes in all -- and a document past either is an error
// (the project's inputs are a few levels deep and small: the largest in data/ and tests/data/,
// data/calibration/h200-2026-12-02.yaml, has 1764 nodes).
constexpr int kMaxDepth = 100;
constexpr std::size_t kMaxNodes = 100000;

static void check_unique_keys(const YAML::Node& n, const std::string& file, const std::string& path,
                              int depth, std::size_t& nodes) {
  if (++nodes > kMaxNodes)
    throw InputError(file, mark_line(n), path,
                     "the document expands to more than " + std::to_string(kMaxNodes) +
                         " nodes (aliases of aliases?)");
  if ((n.IsMap() || n.IsSequence()) && depth >= kMaxDepth)
    throw InputError(file, mark_line(n), path.size() > 60 ? path.substr(0, 60) + "..." : path,
                     "nested deeper than " + std::to_string(kMaxDepth) +
                         " levels (an alias inside its own anchor?)");
  if (n.IsMap()) {
    std::vector<std::pair<std::string, int>> seen;  // key, line (maps are small)
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (it->first.IsScalar()) {
        const std::string& k = it->first.Scalar();
        int ln = mark_line(it->first);
        for (const auto& [key, first] : seen)
          if (key == k)
            throw InputError(file, ln, join(path, k),
                             "duplicate key (first given at line " + std::to_string(first) + ")");
        seen.emplace_back(k, ln);
        check_unique_keys(it->second, file, join(path, k), depth + 1, nodes);
      } else {
        check_unique_keys(it->first, file, path, depth + 1, nodes);
        check_unique_keys(it->second, file, path, depth + 1, nodes);
      }
    }
  } else if (n.IsSequence()) {
    std::size_t i = 0;
    for (auto it = n.begin(); it != n.end(); ++it, ++i)
      check_unique_keys(*it, file, path + "[" + std::to_string(i) + "]", depth + 1, nodes);
  }
}

static void check_unique_keys(const YAML::Node& doc, const std::string& file) {
  std::size_t nodes = 0;
  check_unique_keys(doc, file, "", 0, nodes);
}

YAML::Node load_file(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw InputError(path, 0, "", "file not found");
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw InputError(path, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", e.msg);
  }
  check_unique_keys(doc, path);
  return doc;
}

YAML::Node load_string(const std::string& text, const std::string& name) {
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(name, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", e.msg);
  }
  check_unique_keys(doc, name);
  return doc;
}

int In::line() const {
  if (node_.IsDefined()) {
    YAML::Mark m = node_.Mark();
    if (m.line >= 0) return m.line + 1;
  }
  return hint_;
}

void In::fail(const std::string& message) const {
  throw InputError(file_, line(), path_, message);
}

const In& In::expect_map(std::initializer_list<const char*> allowed) const {
  std::vector<std::string> v(allowed.begin(), allowed.end());
  return expect_map(v);
}

const In& In::expect_map(const std::vector<std::string>& allowed) const {
  if (!node_.IsMap()) fail("expected a map");
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    std::string k = it->first.Scalar();
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == k;
    if (!ok) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      int ln = it->first.Mark().line >= 0 ? it->first.Mark().line + 1 : line();
      throw InputError(file_, ln, join(path_, k), "unknown key (expected one of: " + list + ")");
    }
  }
  return *this;
}

In In::at(const char* key) const {
  if (!node_.IsMap()) fail("expected a map");
  YAML::Node child = node_[key];
  if (!child) throw InputError(file_, line(), join(path_, key), "missing required key");
  int ln = line();
  for (auto it = node_.begin(); it != node_.end(); ++it)
    if (it->first.Scalar() == key && it->first.Mark().line >= 0) ln = it->first.Mark().line + 1;
  return In(child, file_, join(path_, key), ln);
}

In In::item(std::size_t i) const {
  if (!node_.IsSequence()) fail("expected a list");
  return In(node_[i], file_, path_ + "[" + std::to_string(i) + "]", line());
}

std::size_t In::size() const {
  if (!node_.IsSequence()) fail("expected a list");
  return node_.size();
}

std::vector<std::string> In::keys() const {
  if (!node_.IsMap()) fail("expected a map");
  std::vector<std::string> out;
  for (auto it = node_.begin(); it != node_.end(); ++it) out.push_back(it->first.Scalar());
  return out;
}

std::string In::str() const {
  if (!node_.IsScalar()) fail("expected a scalar value");
  return node_.Scalar();
}

double In::num() const {
  std::string s = str();
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  // The whole scalar (a NUL inside it, as "1\0x" can spell, is not the end of the number).
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
    fail("expected a finite number, got '" + s + "'");
  return v;
}

double In::positive() const {
  double v = num();
  if (!(v > 0)) fail("expected a number > 0, got " + str());
  return v;
}

double In::non_negative() const {
  double v = num();
  if (v < 0) fail("expected a number >= 0, got " + str());
  return v;
}

std::int64_t In::integer() const {
  std::string s = str();
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
    fail("expected an integer, got '" + s + "'");
  return v;
}

bool In::boolean() const {
  std::string s = str();
  if (s == "true") return true;
  if (s == "false") return false;
  fail("expected true or false, got '" + s + "'");
}

std::string In::choice(std::initializer_list<const char*> choices) const {
  std::string s = str();
  std::string list;
  for (const char* c : choices) {
    if (s == c) return s;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  fail("expected one of: " + list + "; got '" + s + "'");
}

bool parse_bytes(const std::string& text, std::uint64_t& out) {
  const char* p = text.c_str();
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(p, &end);
  if (end == p || errno == ERANGE || !std::isfinite(v) || v < 0) return false;
  std::string unit = text.substr(static_cast<std::size_t>(end - p));  // the rest, NULs too
  while (!unit.empty() && unit.front() == ' ') unit.erase(unit.begin());
  double mult = 0;
  if (unit.empty() || unit == "B")
    mult = 1;
  else if (unit == "KiB")
    mult = 1024.0;
  else if (unit == "MiB")
    mult = 1024.0 * 1024;
  else if (unit == "GiB")
    mult = 1024.0 * 1024 * 1024;
  else if (unit == "TiB")
    mult = 1024.0 * 1024 * 1024 * 1024;
  else if (unit == "kB")
    mult = 1e3;
  else if (unit == "MB")
    mult = 1e6;
  else if (unit == "GB")
    mult = 1e9;
  else if (unit == "TB")
    mult = 1e12;
  else
    return false;
  double b = std::round(v * mult);
  if (b > 1.8e19) return false;
  out = static_cast<std::uint64_t>(b);
  return true;
}

std::uint64_t In::bytes() const {
  std::uint64_t b = 0;
  if (!parse_bytes(str(), b))
    fail("expected a byte count (e.g. 4294967296, \"512MiB\", \"16GiB\"), got '" + str() + "'");
  return b;
}

}  // namespace prestage::yaml
