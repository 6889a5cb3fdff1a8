#pragma once
// Each subcommand of `prestage` lives in its own cmd_*.cpp in this folder and registers itself
// with PRESTAGE_REGISTER_COMMAND(fn); fn adds a CLI11 subcommand whose callback returns the
// process exit code through set_exit_code(). Exit codes: 0 ok, 1 a negative result (e.g. a proof
// that does not verify), 2 bad input (prestage::InputError), 3 internal or device failure.
#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

namespace prestage::cli {

using CommandAdder = std::function<void(CLI::App&)>;
std::vector<CommandAdder>& command_adders();
void set_exit_code(int code);

struct CommandRegistrar {
  explicit CommandRegistrar(CommandAdder adder) { command_adders().push_back(std::move(adder)); }
};

}  // namespace prestage::cli

#define PRESTAGE_CONCAT_INNER(a, b) a##b
#define PRESTAGE_CONCAT(a, b) PRESTAGE_CONCAT_INNER(a, b)
#define PRESTAGE_REGISTER_COMMAND(fn) \
  static ::prestage::cli::CommandRegistrar PRESTAGE_CONCAT(prestage_cmd_, __LINE__)(fn)
