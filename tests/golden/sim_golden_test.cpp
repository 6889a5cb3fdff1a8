// Golden and determinism tests of the simulator. The golden scenario (tests/golden/data/sim/
// tiny.yaml: two workers, naive pre-staging, out-of-memory and retries, seeded jitter) must give
// exactly tests/golden/data/sim/tiny.events.jsonl. After an intended model change, regenerate with
//   PRESTAGE_UPDATE_GOLDEN=1 build/ci/tests/golden_sim
// and review the diff of the event log before committing it.
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model/scenario.hpp"
#include "sim/runner.hpp"
#include "tests/support/sim_support.hpp"

using namespace prestage;

namespace {
const std::string kScenario = "tests/golden/data/sim/tiny.yaml";
const std::string kGolden = "tests/golden/data/sim/tiny.events.jsonl";

struct Outputs {
  std::string jsonl, chrome, summary;
};
Outputs run_once(const model::Overrides& ov = {}) {
  auto s = model::load_scenario(kScenario, ov);
  auto r = sim::run_scenario(s, true);
  Outputs o;
  std::ostringstream a, b;
  r.trace.write_jsonl(a);
  r.trace.write_chrome(b);
  o.jsonl = a.str();
  o.chrome = b.str();
  o.summary = model::to_json(r.summary).dump();
  return o;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(sim_golden)

BOOST_AUTO_TEST_CASE(same_scenario_and_seed_give_byte_identical_outputs) {
  Outputs a = run_once(), b = run_once();
  BOOST_TEST(a.jsonl == b.jsonl);
  BOOST_TEST(a.chrome == b.chrome);
  BOOST_TEST(a.summary == b.summary);
  // Another seed changes the jittered kernel times, so the log.
  Outputs c = run_once({{"run.seed", "43"}});
  BOOST_TEST(a.jsonl != c.jsonl);
}

BOOST_AUTO_TEST_CASE(event_log_matches_the_golden_file) {
  Outputs a = run_once();
  if (const char* up = std::getenv("PRESTAGE_UPDATE_GOLDEN"); up && std::string(up) == "1") {
    std::ofstream(kGolden, std::ios::binary) << a.jsonl;
    BOOST_TEST_MESSAGE("golden file rewritten: " << kGolden);
  }
  std::string golden = test::read_text(kGolden);
  BOOST_REQUIRE_MESSAGE(!golden.empty(), "missing golden file " << kGolden);
  if (a.jsonl != golden) {
    // Point at the first differing line.
    std::istringstream x(a.jsonl), y(golden);
    std::string lx, ly;
    int line = 1;
    while (std::getline(x, lx) && std::getline(y, ly) && lx == ly) ++line;
    BOOST_ERROR("event log differs from " << kGolden << " at line " << line << "\n  got:    " << lx
                                          << "\n  golden: " << ly);
  }
  // The golden run exercises the interesting paths: out-of-memory, retries and memory samples.
  auto sum = nlohmann::json::parse(a.summary);
  BOOST_TEST(sum["oom_events"].size() > 0u);
  BOOST_TEST(sum["partitions"]["retried"].get<int>() > 0);
  BOOST_TEST(a.jsonl.find("\"kind\":\"memory\"") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
