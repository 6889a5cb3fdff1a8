#pragma once
// Helpers shared by the simulator's tests: fixture paths and temporary files.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace prestage::test {

// Runs `bin args` through the shell (stdout and stderr together) and returns its exit code
// (-1 when it did not exit normally) and output.
struct CliResult {
  int rc = -1;
  std::string out;  // stdout + stderr
};
inline CliResult run_cli(const std::string& bin, const std::string& args) {
  std::string cmd = bin + " " + args + " 2>&1";
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// Tests run from the source root (see tests/CMakeLists.txt).
inline const std::string kSyntheticCalibration = "tests/data/sim/calibration_synthetic.yaml";
inline const std::string kTinyScenario = "tests/data/sim/tiny.yaml";

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh directory under the system temp dir, removed at scope exit.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& tag) {
    path = std::filesystem::temp_directory_path() /
           ("prestage-test-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name, const std::string& text) const {
    auto p = path / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
};

// Replaces the first occurrence of `from` (which must exist) in `text`.
inline std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  if (pos == std::string::npos) throw std::runtime_error("fixture text not found: " + from);
  return text.replace(pos, from.size(), to);
}

// 1-based line number of the first line containing `needle`.
inline int line_of(const std::string& text, const std::string& needle) {
  auto pos = text.find(needle);
  if (pos == std::string::npos) return -1;
  int line = 1;
  for (std::size_t i = 0; i < pos; ++i) line += text[i] == '\n';
  return line;
}

}  // namespace prestage::test
