// System: `prestage run SCENARIO --gpu -o DIR` on a machine or build without a usable GPU, and
// with bad arguments. Expectation: exit 2 for bad input, exit 4 without a device, a message that
// says which, and no output directory (nor any temporary one) left behind. Exact.
#include <sys/wait.h>

#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>

#include "tests/support/sim_support.hpp"

namespace fs = std::filesystem;
using namespace prestage;

namespace {
using Result = test::CliResult;
Result run(const std::string& args) {
  return test::run_cli(PRESTAGE_BIN, args);
}
bool no_gpu() {
  // CI and the development VM have none; on a GPU machine the exit-4 case does not apply.
  return !fs::exists("/dev/nvidia0");
}
std::size_t entries(const fs::path& d) {
  std::size_t k = 0;
  for (auto it = fs::directory_iterator(d); it != fs::directory_iterator(); ++it) ++k;
  return k;
}
}  // namespace

BOOST_AUTO_TEST_CASE(run_without_gpu_flag_is_bad_input_and_writes_nothing) {
  test::TempDir d("run-cli-flag");
  auto r =
      run("run data/scenarios/gpu/e03_two_workers_16g_tiers.yaml -o " + (d.path / "out").string());
  BOOST_TEST(r.rc == 2);
  BOOST_TEST(r.out.find("--gpu") != std::string::npos, r.out);
  BOOST_TEST(entries(d.path) == 0u);
}

BOOST_AUTO_TEST_CASE(run_gpu_without_a_device_exits_4_and_writes_nothing) {
  if (!no_gpu()) return;
  test::TempDir d("run-cli-nogpu");
  auto r = run("run data/scenarios/gpu/e03_two_workers_16g_tiers.yaml --gpu -o " +
               (d.path / "out").string());
  BOOST_TEST(r.rc == 4, r.out);
  BOOST_TEST(r.out.find("unavailable") != std::string::npos, r.out);
  BOOST_TEST(entries(d.path) == 0u);
}

BOOST_AUTO_TEST_CASE(bad_scenario_is_bad_input_before_any_device_is_touched) {
  test::TempDir d("run-cli-bad");
  std::string bad = d.file("bad.yaml", "schema: prestage-scenario/1\nname: x\n");
  auto r = run("run " + bad + " --gpu -o " + (d.path / "out").string());
  BOOST_TEST(r.rc == 2, r.out);
  BOOST_TEST(r.out.find(bad) != std::string::npos, r.out);
  BOOST_TEST(!fs::exists(d.path / "out"));
}

BOOST_AUTO_TEST_CASE(every_gpu_scenario_of_the_repository_loads_for_the_simulator_too) {
  // The GPU scenarios are the same files `prestage simulate` takes.
  for (const auto& e : fs::directory_iterator("data/scenarios/gpu")) {
    if (e.path().extension() != ".yaml") continue;
    test::TempDir d("run-cli-sim");
    auto r = run("simulate " + e.path().string() + " -q -o " + (d.path / "out").string());
    BOOST_TEST(r.rc == 0, e.path().string() + ": " + r.out);
    BOOST_TEST(fs::exists(d.path / "out" / "summary.json"));
  }
}
