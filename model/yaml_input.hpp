#pragma once
// Strict YAML input: every read names the file, the line (yaml-cpp Mark, 1-based) and the key path
// ("pcie.h2d.pinned.latency") so a bad file gets an InputError that points at the problem. Maps
// are checked against the keys the reader expects: an unknown key is an error, never ignored, and
// so is a key given twice in one map (yaml-cpp alone would silently keep one of the two).
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "model/errors.hpp"

namespace prestage::yaml {

// Loads a file (InputError on a missing file or a YAML syntax error, with its line; on a key
// given twice in one map, at the second one's line, naming the key path; on a document nested
// deeper than 100 levels or whose aliases expand it past 10^5 nodes).
YAML::Node load_file(const std::string& path);
// Parses text (for embedded defaults and tests); `name` stands for the file in messages.
YAML::Node load_string(const std::string& text, const std::string& name);

// A node together with where it came from. Cheap to copy (yaml-cpp nodes are handles).
class In {
 public:
  In(YAML::Node node, std::string file, std::string path, int line_hint = 0)
      : node_(std::move(node)), file_(std::move(file)), path_(std::move(path)), hint_(line_hint) {}

  const YAML::Node& node() const { return node_; }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  int line() const;  // 1-based; the parent's line when the node has no mark (0 if none)

  [[noreturn]] void fail(const std::string& message) const;

  bool is_map() const { return node_.IsMap(); }
  bool is_seq() const { return node_.IsSequence(); }
  bool is_scalar() const { return node_.IsScalar(); }
  bool has(const char* key) const { return node_.IsMap() && node_[key]; }

  // Requires a map whose keys are all in `allowed` (else InputError at the offending key).
  const In& expect_map(std::initializer_list<const char*> allowed) const;
  const In& expect_map(const std::vector<std::string>& allowed) const;
  // Required / optional child of a map.
  In at(const char* key) const;
  In at(const std::string& key) const { return at(key.c_str()); }
  // Element i of a sequence.
  In item(std::size_t i) const;
  std::size_t size() const;               // sequence length (InputError unless a sequence)
  std::vector<std::string> keys() const;  // map keys in file order

  std::string str() const;
  double num() const;           // finite number
  double positive() const;      // > 0
  double non_negative() const;  // >= 0
  std::int64_t integer() const;
  bool boolean() const;
  // One of `choices` (InputError listing them otherwise).
  std::string choice(std::initializer_list<const char*> choices) const;
  // Bytes: an integer, or a number with a unit suffix "512MiB", "16 GiB", "4GB", "1e9".
  std::uint64_t bytes() const;

 private:
  YAML::Node node_;
  std::string file_;
  std::string path_;
  int hint_;
};

// Parses a byte count with optional unit suffix (B, KiB, MiB, GiB, TiB, kB, MB, GB, TB).
// Returns false on a malformed string.
bool parse_bytes(const std::string& text, std::uint64_t& out);

}  // namespace prestage::yaml
