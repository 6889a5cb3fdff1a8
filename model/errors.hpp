#pragma once
// Errors shared by every layer. Bad input (files, scenario keys, command-line values) throws
// InputError, which names the file, the line (0 when not applicable) and the key; the CLI turns
// it into a message on stderr and exit code 2. Nothing half-written may be left behind when one
// is thrown: writers stage output in a temporary directory and rename it at the end.
#include <stdexcept>
#include <string>

namespace prestage {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, std::string key, const std::string& what)
      : std::runtime_error(format(file, line, key, what)),
        file_(std::move(file)),
        line_(line),
        key_(std::move(key)) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key() const { return key_; }

 private:
  static std::string format(const std::string& file, int line, const std::string& key,
                            const std::string& what) {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) s += ":" + std::to_string(line);
    if (!key.empty()) s += ": key '" + key + "'";
    return s + ": " + what;
  }
  std::string file_;
  int line_;
  std::string key_;
};

// Bad input of one kind: the scenario is well-formed but cannot run on its card (a buffer larger
// than the VRAM left beside the context). `prestage simulate` exits 2 as for any InputError; a
// sweep marks such a point infeasible and runs the others.
class InfeasibleError : public InputError {
 public:
  explicit InfeasibleError(const InputError& e) : InputError(e) {}
};

// What the request needs is not there (a CUDA device for `prove --gpu`, a CUDA build): not bad
// input, not a bug. The CLI prints it and exits with code 4.
class UnavailableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace prestage
