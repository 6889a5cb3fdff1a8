// Unit tests of the discrete-event engine and the simulated hardware (link, device memory).
// Each test states the system, the expectation and the tolerance.
#include <boost/test/unit_test.hpp>
#include <vector>

#include "model/calibration.hpp"
#include "sim/device.hpp"
#include "sim/engine.hpp"
#include "sim/link.hpp"
#include "tests/unit/sim_support.hpp"

using namespace prestage;
using namespace prestage::sim;
using model::kGiB;

namespace {

Task<void> sleeper(Engine& e, double dt, int id, std::vector<int>& order) {
  co_await e.delay(dt);
  order.push_back(id);
}

Task<void> locker(Engine& e, Mutex& m, int id, std::vector<std::pair<int, double>>& got) {
  co_await m.lock();
  got.push_back({id, e.now()});
  co_await e.delay(1.0);
  m.unlock();
}

Task<void> mover(Engine& e, Link& l, double start, int dir, double bytes, double cap, double& end) {
  co_await e.delay(start);
  co_await l.transfer(dir, bytes, cap);
  end = e.now();
}

Task<void> gpu_work(Engine& e, WorkTracker& w, double start, double dt) {
  co_await e.delay(start);
  auto id = w.begin();
  co_await e.delay(dt);
  w.end(id);
}

Task<void> device_syncer(Engine& e, WorkTracker& w, double at, double& done) {
  co_await e.delay(at);
  co_await w.drain();
  done = e.now();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sim_engine)

BOOST_AUTO_TEST_CASE(simultaneous_events_run_in_insertion_order) {
  // System: five processes that all wake at t = 1. Expectation: they run in spawn order.
  Engine e;
  Processes p(e);
  std::vector<int> order;
  for (int i = 0; i < 5; ++i) p.spawn(sleeper(e, 1.0, i, order));
  e.run();
  BOOST_TEST(order == (std::vector<int>{0, 1, 2, 3, 4}), boost::test_tools::per_element());
  BOOST_TEST(e.now() == 1.0);
  BOOST_TEST(p.all_done());
}

BOOST_AUTO_TEST_CASE(earlier_events_first) {
  Engine e;
  Processes p(e);
  std::vector<int> order;
  p.spawn(sleeper(e, 3.0, 0, order));
  p.spawn(sleeper(e, 1.0, 1, order));
  p.spawn(sleeper(e, 2.0, 2, order));
  e.run();
  BOOST_TEST(order == (std::vector<int>{1, 2, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(mutex_is_fifo) {
  // System: three processes take a lock held 1 s each. Expectation: granted at 0, 1, 2 in order.
  Engine e;
  Processes p(e);
  Mutex m(e);
  std::vector<std::pair<int, double>> got;
  for (int i = 0; i < 3; ++i) p.spawn(locker(e, m, i, got));
  e.run();
  BOOST_REQUIRE_EQUAL(got.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    BOOST_TEST(got[i].first == i);
    BOOST_TEST(got[i].second == double(i));
  }
}

BOOST_AUTO_TEST_CASE(two_overlapping_copies_share_max_min_fairly) {
  // System: one direction of 60 GB/s aggregate; two 1 GiB copies, each capped at 50 GB/s, start
  // together. Expectation: each gets 30 GB/s and both finish at 1 GiB / 30 GB/s. Tolerance 1e-12 s.
  Engine e;
  Processes p(e);
  Link l(e, model::LinkSharing::shared, 60e9, 100e9);
  double a = 0, b = 0;
  p.spawn(mover(e, l, 0, 0, kGiB, 50e9, a));
  p.spawn(mover(e, l, 0, 0, kGiB, 50e9, b));
  e.run();
  BOOST_TEST(std::abs(a - kGiB / 30e9) < 1e-12);
  BOOST_TEST(std::abs(b - kGiB / 30e9) < 1e-12);
  BOOST_TEST(l.bytes_moved(0) == 2 * kGiB);
}

BOOST_AUTO_TEST_CASE(rates_are_recomputed_when_a_copy_starts_and_ends) {
  // System: copy A (1 GiB, cap 50 GB/s) alone from t = 0; copy B (same) joins at t = 10 ms on a
  // 60 GB/s direction. Expectation: A moves 0.5 GB alone, then both run at 30 GB/s until A ends at
  // 10 ms + (1 GiB - 0.5 GB) / 30 GB/s; B has 0.5 GB left, alone at 50 GB/s: +10 ms.
  // Tolerance 1e-12 s.
  Engine e;
  Processes p(e);
  Link l(e, model::LinkSharing::shared, 60e9, 100e9);
  double a = 0, b = 0;
  p.spawn(mover(e, l, 0, 0, kGiB, 50e9, a));
  p.spawn(mover(e, l, 0.01, 0, kGiB, 50e9, b));
  e.run();
  double a_end = 0.01 + (kGiB - 0.5e9) / 30e9;
  BOOST_TEST(std::abs(a - a_end) < 1e-12);
  BOOST_TEST(std::abs(b - (a_end + 0.01)) < 1e-12);
}

BOOST_AUTO_TEST_CASE(bidirectional_capacity_is_shared_across_directions) {
  // System: h2d and d2h 1 GiB copies, each capped at 50 GB/s, directions 60 GB/s each, the link
  // 80 GB/s both ways. Expectation: each gets 40 GB/s; both end at 1 GiB / 40 GB/s (1e-12 s).
  Engine e;
  Processes p(e);
  Link l(e, model::LinkSharing::shared, 60e9, 80e9);
  double a = 0, b = 0;
  p.spawn(mover(e, l, 0, 0, kGiB, 50e9, a));
  p.spawn(mover(e, l, 0, 1, kGiB, 50e9, b));
  e.run();
  BOOST_TEST(std::abs(a - kGiB / 40e9) < 1e-12);
  BOOST_TEST(std::abs(b - kGiB / 40e9) < 1e-12);
}

BOOST_AUTO_TEST_CASE(queued_link_serves_copies_in_submission_order) {
  // System: queued direction; two 1 GiB copies capped at 50 GB/s submitted together.
  // Expectation: the first ends at 1 GiB / 50 GB/s, the second at twice that (1e-12 s).
  Engine e;
  Processes p(e);
  Link l(e, model::LinkSharing::queued, 60e9, 100e9);
  double a = 0, b = 0;
  p.spawn(mover(e, l, 0, 0, kGiB, 50e9, a));
  p.spawn(mover(e, l, 0, 0, kGiB, 50e9, b));
  e.run();
  BOOST_TEST(std::abs(a - kGiB / 50e9) < 1e-12);
  BOOST_TEST(std::abs(b - 2 * kGiB / 50e9) < 1e-12);
}

BOOST_AUTO_TEST_CASE(device_sync_waits_for_work_issued_before_it_only) {
  // System: work A runs 0..5 s, work B 0..3 s; a device sync at t = 1; work C issued at 2..10.
  // Expectation: the sync returns at 5 (A and B done; C was issued after the call).
  Engine e;
  Processes p(e);
  WorkTracker w(e);
  double done = -1;
  p.spawn(gpu_work(e, w, 0, 5));
  p.spawn(gpu_work(e, w, 0, 3));
  p.spawn(device_syncer(e, w, 1, done));
  p.spawn(gpu_work(e, w, 2, 8));
  e.run();
  BOOST_TEST(done == 5.0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sim_device_memory)

static bool ok(DeviceMemory::PoolAlloc a) {
  return a != DeviceMemory::PoolAlloc::failed;
}
static model::Calibration cal() {
  return model::load_calibration(test::kSyntheticCalibration);
}
constexpr std::uint64_t MiB = 1ull << 20, GiB = 1ull << 30;

BOOST_AUTO_TEST_CASE(sync_allocator_rounds_to_granularity_and_refuses_when_full) {
  // System: 16 GiB card, context 0.5 GiB, 2 MiB granularity. Expectation: 1 B takes 2 MiB;
  // 15.5 GiB - 2 MiB more fits exactly; one byte more does not; a refused call changes nothing.
  auto c = cal();
  DeviceMemory m(c, 16.0 * GiB, 2, 0);
  std::uint64_t g = 0;
  BOOST_TEST(m.malloc(1, &g));
  BOOST_TEST(g == 2 * MiB);
  BOOST_TEST(m.meminfo_free() == 31 * GiB / 2 - 2 * MiB);
  std::uint64_t g2 = 0;
  BOOST_TEST(!m.malloc(31 * GiB / 2 - 2 * MiB + 1, &g2));
  BOOST_TEST(m.used() == 2 * MiB);
  BOOST_TEST(m.malloc(31 * GiB / 2 - 2 * MiB, &g2));
  BOOST_TEST(m.meminfo_free() == 0u);
}

BOOST_AUTO_TEST_CASE(pool_grows_in_granularity_steps_and_reuse_follows_the_calibrated_rules) {
  // System: pool granularity 32 MiB, same stream reuse immediate, other stream after_sync.
  // Expectation: 100 MiB on stream 0 reserves 128 MiB; after its free, stream 0 reuses it (no
  // growth) but stream 1 cannot (growth to 256 MiB) until a device sync, which also releases the
  // idle bytes above the 0 threshold.
  auto c = cal();
  DeviceMemory m(c, 16.0 * GiB, 2, 0);
  BOOST_TEST(ok(m.malloc_async(0, 100 * MiB)));
  BOOST_TEST(m.pool_reserved() == 128 * MiB);
  m.free_async(0, 100 * MiB);
  BOOST_TEST(ok(m.malloc_async(0, 100 * MiB)));
  BOOST_TEST(m.pool_reserved() == 128 * MiB);
  m.free_async(0, 100 * MiB);
  BOOST_TEST(ok(m.malloc_async(1, 100 * MiB)));
  BOOST_TEST(m.pool_reserved() == 256 * MiB);
  m.synchronized(model::SyncKind::device, {0, 1});
  BOOST_TEST(m.pool_reserved() == 100 * MiB);  // down to what is in use
  BOOST_TEST(m.pool_used() == 100 * MiB);
}

BOOST_AUTO_TEST_CASE(cudamalloc_cannot_see_idle_pool_memory_unless_calibrated_so) {
  // System: 16 GiB card (15.5 GiB usable); 8 GiB through the pool, freed with cudaFreeAsync (idle
  // in the pool). Expectation with both reclaim flags false: cudaMalloc(8 GiB) fails and
  // cudaMemGetInfo counts the idle pool as used; after a device sync (released_to_os_by has
  // device_sync, threshold 0) it succeeds. cudamalloc_reclaims_idle_pool alone: fails before any
  // sync, succeeds after a sync that released nothing (threshold UINT64_MAX).
  // cudamalloc_reclaims_completed_frees_before_sync: succeeds at once.
  auto c = cal();
  DeviceMemory m(c, 16.0 * GiB, 2, 0);
  BOOST_TEST(ok(m.malloc_async(0, 8 * GiB)));
  m.free_async(0, 8 * GiB);
  BOOST_TEST(m.meminfo_free() == 31 * GiB / 2 - 8 * GiB);
  std::uint64_t g = 0;
  BOOST_TEST(!m.malloc(8 * GiB, &g));
  m.synchronized(model::SyncKind::device, {0, 1});
  BOOST_TEST(m.malloc(8 * GiB, &g));

  auto c1 = cal();
  c1.cudamalloc_reclaims_idle_pool = true;
  DeviceMemory m1(c1, 16.0 * GiB, 2, ~0ull);
  BOOST_TEST(ok(m1.malloc_async(0, 8 * GiB)));
  m1.free_async(0, 8 * GiB);
  BOOST_TEST(!m1.malloc(8 * GiB, &g));
  BOOST_TEST(m1.synchronized(model::SyncKind::device, {0, 1}) == 0u);  // kept: threshold max
  BOOST_TEST(m1.pool_reserved() == 8 * GiB);
  BOOST_TEST(m1.malloc(8 * GiB, &g));
  BOOST_TEST(m1.pool_reserved() == 8 * GiB - 512 * MiB);  // takes only what it lacks

  auto c2 = cal();
  c2.cudamalloc_reclaims_completed_frees_before_sync = true;
  DeviceMemory m2(c2, 16.0 * GiB, 2, 0);
  BOOST_TEST(ok(m2.malloc_async(0, 8 * GiB)));
  m2.free_async(0, 8 * GiB);
  BOOST_TEST(m2.malloc(8 * GiB, &g));
}

BOOST_AUTO_TEST_CASE(release_threshold_keeps_idle_memory_across_syncs) {
  // System: threshold 4 GiB; 6 GiB freed into the pool, then a device sync. Expectation: the
  // pool keeps 4 GiB reserved; TrimTo(0) releases those 4 GiB and reports them.
  auto c = cal();
  DeviceMemory m(c, 16.0 * GiB, 2, 4 * GiB);
  BOOST_TEST(ok(m.malloc_async(0, 6 * GiB)));
  m.free_async(0, 6 * GiB);
  m.synchronized(model::SyncKind::device, {0, 1});
  BOOST_TEST(m.pool_reserved() == 4 * GiB);
  BOOST_TEST(m.trim(0) == 4 * GiB);
  BOOST_TEST(m.pool_reserved() == 0u);
}

BOOST_AUTO_TEST_CASE(meminfo_flag_selects_reserved_or_used) {
  // System: 1 GiB idle in the pool. Expectation: free counts it as used only when
  // meminfo_counts_pool_reserved_as_used is true.
  auto c = cal();
  c.meminfo_counts_pool_reserved = false;
  DeviceMemory m(c, 16.0 * GiB, 2, 0);
  BOOST_TEST(ok(m.malloc_async(0, GiB)));
  m.free_async(0, GiB);
  BOOST_TEST(m.meminfo_free() == 31 * GiB / 2);
}

BOOST_AUTO_TEST_SUITE_END()
