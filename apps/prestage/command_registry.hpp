#pragma once
// Each subcommand of `prestage` lives in its own cmd_*.cpp in this folder and registers itself
// with PRESTAGE_REGISTER_COMMAND(fn) (named by __COUNTER__: the `sim` preset's unity build puts
// several cmd_*.cpp in one translation unit); fn adds a CLI11 subcommand whose callback returns
// the process exit code through set_exit_code(). Exit codes: 0 ok, 1 a negative result (e.g. a
// proof that does not verify), 2 bad input (prestage::InputError), 3 internal or device failure, 4
// unavailable (prestage::UnavailableError: no CUDA device, or a build without CUDA or prover).
// Each subcommand's --help footer lists its outputs, exit codes and accepted values
// (help_text.hpp).
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "model/errors.hpp"

namespace prestage::cli {

using CommandAdder = std::function<void(CLI::App&)>;
std::vector<CommandAdder>& command_adders();
void set_exit_code(int code);

struct CommandRegistrar {
  explicit CommandRegistrar(CommandAdder adder) { command_adders().push_back(std::move(adder)); }
};

// The prover's subcommands (prove, verify, setup, synth, vk) in a build without the host prover
// (PRESTAGE_ENABLE_PROVER=OFF, the `sim` preset): they keep their options and --help, but require
// none, so every call reaches the callback, which throws this (exit 4).
#ifdef PRESTAGE_HAVE_PROVER
inline constexpr bool kHaveProver = true;
#else
inline constexpr bool kHaveProver = false;
#endif
inline CLI::Option* prover_required(CLI::Option* o) {
  return kHaveProver ? o->required() : o;
}
[[noreturn]] inline void throw_no_prover(const std::string& command) {
  throw UnavailableError(command + ": this build has no prover (use the default preset)");
}

}  // namespace prestage::cli

#define PRESTAGE_CONCAT_INNER(a, b) a##b
#define PRESTAGE_CONCAT(a, b) PRESTAGE_CONCAT_INNER(a, b)
#define PRESTAGE_REGISTER_COMMAND(fn) \
  static ::prestage::cli::CommandRegistrar PRESTAGE_CONCAT(prestage_cmd_, __COUNTER__)(fn)
