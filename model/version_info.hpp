#pragma once
// Version and git commit of this build, recorded in every manifest.
#include <string>

namespace prestage {
std::string version_string();
std::string git_commit();
}  // namespace prestage
