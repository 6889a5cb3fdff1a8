// prestage: command-line front end. Subcommands register themselves (command_registry.hpp).
#include <fmt/core.h>

#include <exception>

#include "apps/prestage/command_registry.hpp"
#include "model/errors.hpp"
#include "model/version_info.hpp"

namespace prestage::cli {
int g_exit_code = 0;
std::vector<CommandAdder>& command_adders() {
  static std::vector<CommandAdder> adders;
  return adders;
}
void set_exit_code(int code) {
  g_exit_code = code;
}
}  // namespace prestage::cli

int main(int argc, char** argv) {
  CLI::App app{"prestage: GPU memory staging research framework (Groth16 on BLS12-381)"};
  app.set_version_flag("--version", prestage::version_string());
  app.require_subcommand(1);
  for (auto& add : prestage::cli::command_adders()) add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const prestage::InputError& e) {
    fmt::print(stderr, "prestage: error: {}\n", e.what());
    return 2;
  } catch (const prestage::UnavailableError& e) {
    fmt::print(stderr, "prestage: unavailable: {}\n", e.what());
    return 4;
  } catch (const std::exception& e) {
    fmt::print(stderr, "prestage: internal error: {}\n", e.what());
    return 3;
  }
  return prestage::cli::g_exit_code;
}
