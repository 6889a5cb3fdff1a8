// System: experiment 02/03's scenario files (two GPU workers on a 16 GiB card, the H200's
// measured link and allocator parameters from data/calibration/h200.yaml), run in the simulator
// at a reduced proof count (2 proofs x 10 partitions instead of 10 x 10).
// Expectations:
//  - naive pre-staging runs out of device memory within the first partitions the two workers
//    stage (the story: "from the second partition on") and loses work;
//  - the memory-aware tiers (device synchronise, trim, check free memory, 512 MiB margin): the
//    story reports no out-of-memory. With the measured parameters the model DISAGREES: a worker's
//    tier check does not see the 12 GiB that an unstaged partition will still allocate inside the
//    GPU lock, and two workers woken by the same synchronisation read the same free memory
//    (experiments/03_tiers_16g/README.md). So this test checks what the model says (fewer OOMs
//    than naive, every proof completed through retries, none lost) and prints the story's
//    expectation as a warning, instead of forcing it;
//  - our budget policy (no device-wide synchronisation; it syncs its own streams after each
//    partition so the other worker's cudaMalloc sees its freed MSM scratch) never runs out of
//    memory.
// Tolerance: none (event counts are exact; the simulator is deterministic).
#include <boost/test/unit_test.hpp>
#include <string>

#include "model/scenario.hpp"
#include "sim/runner.hpp"

namespace {
prestage::sim::Summary run_reduced(const std::string& scenario) {
  auto s = prestage::model::load_scenario(scenario, {{"workload.proofs", "2"}});
  BOOST_TEST_REQUIRE(s.proofs == 2);
  BOOST_TEST_REQUIRE(s.workers_per_gpu == 2);
  BOOST_TEST_REQUIRE(s.vram == 16.0 * (1ull << 30));
  return prestage::sim::run_scenario(s, false).summary;
}
const char* kNaive = "experiments/02_two_workers_naive_16g/naive_2w.yaml";
const char* kTiers = "experiments/03_tiers_16g/tiers_device_2w.yaml";
const char* kBudget = "experiments/03_tiers_16g/budget_2w.yaml";
}  // namespace

BOOST_AUTO_TEST_SUITE(experiments_16g_two_workers)

BOOST_AUTO_TEST_CASE(naive_prestaging_runs_out_of_memory_in_the_first_partitions) {
  auto m = run_reduced(kNaive);
  BOOST_TEST_MESSAGE("naive, 2 workers, 16 GiB: " << m.ooms.size() << " OOM events, "
                                                  << m.partitions_lost << " partitions lost");
  BOOST_TEST_REQUIRE(!m.ooms.empty());
  BOOST_TEST(m.ooms.front().partition <= 1);  // one of the two partitions staged first
  BOOST_TEST(m.partitions_lost > 0);
}

BOOST_AUTO_TEST_CASE(memory_aware_tiers_run_out_of_memory_less_often_than_naive) {
  // System: experiment 03's tiers scenario (reduced), H200 calibration capped at 16 GiB.
  // Expectation: fewer out-of-memory events than naive pre-staging. Not enforced: that every
  // partition completes. With the measured kernel curves (calibration from gpu_bench, commits
  // 14e1632 and 2a8dbb9) the model loses partitions under tiers: the free-memory check ignores the
  // d_bc the lock holder will still cudaMalloc inside the lock, so a worker that pre-staged d_a
  // makes the other's in-lock allocation fail (experiments/03_tiers_16g/README.md). Reported, not
  // forced.
  auto naive = run_reduced(kNaive);
  auto m = run_reduced(kTiers);
  BOOST_TEST_MESSAGE("tiers (device sync), 2 workers, 16 GiB: "
                     << m.ooms.size() << " OOM events, retried " << m.partitions_retried
                     << ", lost " << m.partitions_lost << ", proofs " << m.proofs_completed);
  BOOST_TEST(m.ooms.size() < naive.ooms.size());
  BOOST_WARN_MESSAGE(m.partitions_lost == 0,
                     "model: the tiers lose " << m.partitions_lost << " partitions");
  // The story's claim, checked visibly but not enforced (see the header and the README).
  BOOST_WARN_MESSAGE(m.ooms.empty(),
                     "story: the tiers never run out of memory; the model with the H200's "
                     "measured parameters: "
                         << m.ooms.size() << " out-of-memory events");
}

BOOST_AUTO_TEST_CASE(budget_policy_never_runs_out_of_memory) {
  auto m = run_reduced(kBudget);
  BOOST_TEST(m.ooms.empty());
  BOOST_TEST(m.proofs_completed == 2);
  BOOST_TEST(m.partitions_lost == 0);
}

BOOST_AUTO_TEST_SUITE_END()
