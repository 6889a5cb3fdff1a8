// System: `prestage SUBCOMMAND --help` for every subcommand `prestage --help` lists. Each exits 0
// and its footer lists the output files and the exit codes (0 and 2 at least, each explained);
// the scenario commands list every registered policy and every scenario key the loader accepts
// (from model::policy_names() and model::scenario_sections(), so a new policy or key shows up).
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "model/policy/policy.hpp"
#include "model/scenario.hpp"
#include "tests/support/sim_support.hpp"

using namespace prestage;

namespace {
using Result = test::CliResult;
Result run(const std::string& args) {
  return test::run_cli(PRESTAGE_BIN, args);
}

// The names under "Subcommands:" in `prestage --help`.
std::vector<std::string> subcommands() {
  Result r = run("--help");
  BOOST_REQUIRE_EQUAL(r.rc, 0);
  std::istringstream in(r.out);
  std::string line;
  bool on = false;
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    if (line.rfind("Subcommands:", 0) == 0) {
      on = true;
      continue;
    }
    std::smatch m;
    if (on && std::regex_search(line, m, std::regex("^  ([a-z][a-z0-9-]*) "))) out.push_back(m[1]);
  }
  return out;
}

// The footer: everything from the "Output files:" line on.
std::string footer(const std::string& help) {
  auto at = help.find("\nOutput files:");
  return at == std::string::npos ? std::string() : help.substr(at + 1);
}

// The footer's words with line breaks (and their indent) folded into spaces.
std::string unwrapped(const std::string& s) {
  return std::regex_replace(s, std::regex("\n  "), " ");
}
}  // namespace

BOOST_AUTO_TEST_CASE(every_subcommand_help_lists_outputs_and_exit_codes) {
  const auto subs = subcommands();
  const std::set<std::string> have(subs.begin(), subs.end());
  for (const char* expected : {"simulate", "sweep", "compare", "run", "validate", "prove", "verify",
                               "setup", "synth", "vk"})
    BOOST_TEST(have.count(expected) == 1u, "prestage --help lists " << expected);
  for (const auto& sub : subs) {
    Result r = run(sub + " --help");
    BOOST_TEST(r.rc == 0, sub << ": " << r.out);
    const std::string f = unwrapped(footer(r.out));
    BOOST_TEST(!f.empty(), sub << " --help has no footer: " << r.out);
    BOOST_TEST(f.find("\nExit codes: 0 ") != std::string::npos, sub << ": " << f);
    BOOST_TEST(std::regex_search(f, std::regex("; 2 bad input \\(the message names the file, "
                                               "line and key")),
               sub << ": " << f);
    BOOST_TEST(f.find("3 internal error") != std::string::npos, sub << ": " << f);
  }
}

BOOST_AUTO_TEST_CASE(device_and_prover_commands_document_exit_4) {
  for (const char* sub : {"run", "validate", "prove", "verify", "setup", "synth", "vk"}) {
    const std::string f = unwrapped(footer(run(std::string(sub) + " --help").out));
    BOOST_TEST(f.find("4 unavailable") != std::string::npos, sub << ": " << f);
  }
  const std::string v = unwrapped(footer(run("verify --help").out));
  BOOST_TEST(v.find("1 invalid") != std::string::npos, v);
}

BOOST_AUTO_TEST_CASE(scenario_commands_list_policies_and_scenario_keys) {
  const auto policies = prestage::model::policy_names();
  BOOST_REQUIRE(!policies.empty());
  for (const char* sub : {"simulate", "sweep", "run", "validate"}) {
    const std::string f = unwrapped(footer(run(std::string(sub) + " --help").out));
    auto pol = f.find("\nPolicies: ");
    BOOST_TEST_REQUIRE(pol != std::string::npos, sub << ": " << f);
    const std::string pol_line = f.substr(pol + 1, f.find('\n', pol + 1) - pol - 1);
    for (const auto& p : policies)
      BOOST_TEST(std::regex_search(pol_line, std::regex("[ ,]" + p + "[ ,]")),
                 sub << " lists policy " << p << ": " << pol_line);
    auto keys = f.find("\nScenario keys: ");
    BOOST_TEST_REQUIRE(keys != std::string::npos, sub << ": " << f);
    const std::string key_line = f.substr(keys + 1, f.find('\n', keys + 1) - keys - 1);
    for (const auto& sec : prestage::model::scenario_sections()) {
      std::string want = (sec.name.empty() ? std::string("top level") : sec.name) + ": ";
      for (std::size_t i = 0; i < sec.keys.size(); ++i) want += (i ? ", " : "") + sec.keys[i];
      BOOST_TEST(key_line.find(want) != std::string::npos,
                 sub << " lists '" << want << "': " << key_line);
    }
  }
  // The output files of each run directory.
  const std::string s = unwrapped(footer(run("simulate --help").out));
  for (const char* file : {"summary.json", "events.jsonl", "trace.json", "manifest.json"})
    BOOST_TEST(s.find(file) != std::string::npos, file);
}

BOOST_AUTO_TEST_CASE(the_scenario_loader_rejects_a_key_the_help_does_not_list) {
  // The help's key lists are the loader's: an unknown key's error names the same list.
  namespace fs = std::filesystem;
  const auto& top = prestage::model::scenario_sections().front();
  BOOST_REQUIRE(top.name.empty());
  auto dir = fs::temp_directory_path() / ("prestage-test-cli-help-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string f = (dir / "bad.yaml").string();
  std::ofstream(f) << "schema: prestage-scenario/1\nname: x\nnot_a_key: 1\n";
  try {
    prestage::model::load_scenario(f);
    BOOST_FAIL("loaded a scenario with an unknown key");
  } catch (const prestage::InputError& e) {
    std::string want;
    for (std::size_t i = 0; i < top.keys.size(); ++i) want += (i ? ", " : "") + top.keys[i];
    BOOST_TEST(std::string(e.what()).find("expected one of: " + want) != std::string::npos,
               e.what());
  }
  fs::remove_all(dir);
}
