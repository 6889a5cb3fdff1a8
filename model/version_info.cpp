// Version string shared by the CLI and manifests.
#include "model/version_info.hpp"

#include "prestage/version.hpp"

namespace prestage {
std::string version_string() {
  return std::string(kVersion) + " (" + kGitCommit + ")";
}
std::string git_commit() {
  return kGitCommit;
}
}  // namespace prestage
