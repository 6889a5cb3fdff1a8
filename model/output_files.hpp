#pragma once
// Safe outputs (issue 16): every file or directory a prestage program writes goes through here.
// Rules:
//   - An output is staged under a unique temporary name in the same directory as the target
//     (".<name>.prestage-tmp-XXXXXX", mkstemp/mkdtemp) and renamed into place at the end; on any
//     failure the temporary is removed and nothing else is touched.
//   - An existing output is never replaced without `force`.
//   - A file output never replaces a directory, nor anything that is not a regular file.
//   - A directory output replaces an existing directory (with `force`) only when prestage wrote
//     it (manifest.json with "prestage_output": 1, or an older one whose "tool" starts with
//     "prestage", and a "files" list naming, by relative path, every file anywhere in the tree:
//     one unlisted file, even deep in a subfolder, refuses) and it is not a protected path
//     ("/", the home directory, the working directory or one of its parents). The old directory
//     is swapped out atomically (renameat2 RENAME_EXCHANGE; else renamed aside first), then
//     removed: there is no moment with neither the old nor the new one in place.
// Paths are normalised first (absolute, "..", trailing slashes, symlinks: weakly_canonical).
// Refusals are InputError (exit code 2) naming the path, the option (`key`) and what to do.
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace prestage::output {

// The manifest key that marks a directory prestage wrote.
inline constexpr const char* kMarkerKey = "prestage_output";

// absolute + weakly_canonical, without a trailing separator. Empty path: InputError.
std::filesystem::path normalise(const std::string& path, const std::string& key = "-o");

// True when `dir` is a directory prestage wrote (see above); otherwise false and `*why` says why.
bool is_prestage_output_dir(const std::filesystem::path& dir, std::string* why = nullptr);

// Every file under `dir` (not folders), as sorted relative paths with '/': what a writer puts
// in its manifest's "files" list (add "manifest.json" itself). InputError if it cannot list.
std::vector<std::string> list_files(const std::filesystem::path& dir);

// "/", the home directory, the working directory and its parents (normalised `p`).
bool is_protected_path(const std::filesystem::path& p);

// Throws InputError unless a directory output at `path` may be written (and, when it exists,
// replaced with `force`).
void check_replaceable_dir(const std::string& path, bool force, const std::string& key = "-o");
// Throws InputError unless a file output at `path` may be written (and replaced with `force`).
void check_replaceable_file(const std::string& path, bool force, const std::string& key = "-o");

// What a staged output holds: the target the user named, the temporary path written first, and
// whether commit() has put it in place (OutputDir and OutputFile below).
class StagedOutput {
 public:
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  const std::filesystem::path& path() const { return tmp_; }
  const std::filesystem::path& target() const { return target_; }

 protected:
  StagedOutput(const std::string& given, std::string key, bool force)
      : given_(given), key_(std::move(key)), force_(force) {}
  ~StagedOutput() = default;

  std::string given_, key_;
  std::filesystem::path target_, tmp_;
  bool force_, committed_ = false;
};

// A directory output: write files into path(), then commit(). Not committed: the temporary
// directory (only it) is removed by the destructor.
class OutputDir : public StagedOutput {
 public:
  OutputDir(const std::string& target, bool force, std::string key = "-o");
  ~OutputDir();
  void commit();
};

// A file output: write the file at path() (it exists, empty), then commit().
class OutputFile : public StagedOutput {
 public:
  OutputFile(const std::string& target, bool force, std::string key = "-o");
  ~OutputFile();
  void commit();
};

// A unique empty file beside `target` (".<name>.<tag>-XXXXXX"), for helper files such as a
// program's stderr; the caller removes it.
std::filesystem::path temp_file_beside(const std::filesystem::path& target, const std::string& tag);

// One file, atomically: body writes it, then it is renamed to `path` (see OutputFile).
void write_file_atomic(const std::string& path, bool force,
                       const std::function<void(std::ostream&)>& body,
                       const std::string& key = "-o");

}  // namespace prestage::output
