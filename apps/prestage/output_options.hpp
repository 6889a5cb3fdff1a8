#pragma once
// The options of a command that writes one output directory, declared alike everywhere:
// -o/--out DIR (required), --force (replaces only a directory that prestage wrote: the check is
// model/output_files.hpp's OutputDir) and, where the command prints a summary line, -q/--quiet.
#include <CLI/CLI.hpp>
#include <string>

namespace prestage::cli {

// Adds -o/--out (described as `what`), --force and, when `quiet` is given, -q/--quiet to `cmd`.
inline void add_output_dir_options(CLI::App* cmd, std::string& out, bool& force,
                                   bool* quiet = nullptr,
                                   const std::string& what = "Output directory") {
  cmd->add_option("-o,--out", out, what)->required();
  cmd->add_flag("--force", force, "Replace an existing output directory that prestage wrote");
  if (quiet) cmd->add_flag("-q,--quiet", *quiet, "Do not print the summary line");
}

}  // namespace prestage::cli
