// Unit tests of the discrete-event engine and the simulated hardware (link, device memory).
// Each test states the system, the expectation and the tolerance.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <vector>

#include "model/calibration.hpp"
#include "sim/device.hpp"
#include "sim/engine.hpp"
#include "sim/link.hpp"
#include "tests/support/sim_support.hpp"

using namespace prestage;
using namespace prestage::sim;
using model::kGiB;

namespace {

Task<void> sleeper(Engine& e, double dt, int id, std::vector<int>& order) {
  co_await e.delay(dt);
  order.push_back(id);
}

// Wakes at t = 1 and yields once before recording its id.
Task<void> yielder(Engine& e, int id, std::vector<int>& order) {
  co_await e.delay(1.0);
  co_await e.yield_now();
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

// A consumer that pops until the queue reports closed, "processing" each item for `work` s.
struct ConsumerLog {
  std::vector<int> items;
  double ended = -1;  // when pop() returned false
};
Task<void> consumer(Engine& e, Queue<int>& q, double start, double work, ConsumerLog& log) {
  co_await e.delay(start);
  int v = 0;
  while (co_await q.pop(v)) {
    log.items.push_back(v);
    co_await e.delay(work);
  }
  log.ended = e.now();
}

Task<void> producer(Engine& e, Queue<int>& q, int first, int n, double start, double every) {
  co_await e.delay(start);
  for (int i = 0; i < n; ++i) {
    q.push(first + i);
    co_await e.delay(every);
  }
}

Task<void> closer(Engine& e, Queue<int>& q, double at) {
  co_await e.delay(at);
  q.close();
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

BOOST_AUTO_TEST_CASE(a_yield_lets_the_instants_other_events_run_first) {
  // System: a process that wakes at t = 1 and yields, spawned before two that wake at t = 1.
  // Expectation: the yielder runs after both, still at t = 1. Exact.
  Engine e;
  Processes p(e);
  std::vector<int> order;
  p.spawn(yielder(e, 0, order));
  p.spawn(sleeper(e, 1.0, 1, order));
  p.spawn(sleeper(e, 1.0, 2, order));
  e.run();
  BOOST_TEST(order == (std::vector<int>{1, 2, 0}), boost::test_tools::per_element());
  BOOST_TEST(e.now() == 1.0);
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

BOOST_AUTO_TEST_CASE(agenda_orders_many_events_by_time_then_insertion) {
  // System: 5000 processes, each sleeping 20 times for pseudo-random whole milliseconds (many
  // ties). Expectation: wake-ups come out in nondecreasing time; at equal times, in the order
  // they were scheduled (tracked by a global counter at scheduling time).
  Engine e;
  Processes p(e);
  struct Wake {
    double t;
    std::uint64_t scheduled;
  };
  std::vector<Wake> log;
  std::uint64_t counter = 0;
  auto proc = [](Engine& e, std::uint64_t seed, std::vector<Wake>& log,
                 std::uint64_t& counter) -> Task<void> {
    std::uint64_t x = seed;
    for (int i = 0; i < 20; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      std::uint64_t ticket = counter++;
      co_await e.delay(1e-3 * static_cast<double>(1 + (x >> 60)));
      log.push_back({e.now(), ticket});
    }
  };
  for (int i = 0; i < 5000; ++i) p.spawn(proc(e, static_cast<std::uint64_t>(i), log, counter));
  e.run();
  BOOST_REQUIRE_EQUAL(log.size(), 100000u);
  bool ordered = true;
  for (std::size_t i = 1; i < log.size(); ++i)
    ordered = ordered && (log[i - 1].t < log[i].t ||
                          (log[i - 1].t == log[i].t && log[i - 1].scheduled < log[i].scheduled));
  BOOST_TEST(ordered);
  BOOST_TEST(p.all_done());
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

BOOST_AUTO_TEST_CASE(queue_woken_consumer_keeps_waiting_when_another_takes_the_item) {
  // System: consumer A waits on an empty queue; at t = 1 a producer pushes one item (waking A)
  // and, in the same instant but before A runs, consumer B arrives and takes the item at once.
  // Expectation: A does not read the empty queue as closed: it keeps waiting, takes the second
  // item (pushed at t = 2), is busy with it until t = 12 and then sees the queue (closed at
  // t = 5) closed; B is busy with item 0 until t = 11. Exact times.
  Engine e;
  Processes p(e);
  Queue<int> q(e);
  ConsumerLog a, b;
  p.spawn(consumer(e, q, 0.0, 10.0, a));
  p.spawn(producer(e, q, 0, 2, 1.0, 1.0));
  p.spawn(consumer(e, q, 1.0, 10.0, b));
  p.spawn(closer(e, q, 5.0));
  e.run();
  BOOST_TEST(b.items == (std::vector<int>{0}), boost::test_tools::per_element());
  BOOST_TEST(a.items == (std::vector<int>{1}), boost::test_tools::per_element());
  BOOST_TEST(a.ended == 12.0);
  BOOST_TEST(b.ended == 11.0);
  BOOST_TEST(p.all_done());
}

BOOST_AUTO_TEST_CASE(queue_many_consumers_and_producers_every_consumer_lives_until_close) {
  // System: 4 consumers (each busy 1 s per item, starting at 0, 0.5, 1, 1.5 s) and 3 producers
  // pushing 30 items each, one every 2 s from t = 0, 0.5, 1 (1.5 items/s against 4 items/s of
  // capacity, so consumers wait, and pushes tie with consumers coming back for more); the queue
  // closes at t = 100, long after the last item.
  // Expectation: every item is taken exactly once; every consumer takes items and returns from
  // pop() only at the close, t = 100.
  Engine e;
  Processes p(e);
  Queue<int> q(e);
  std::vector<ConsumerLog> logs(4);
  for (int c = 0; c < 4; ++c) p.spawn(consumer(e, q, 0.5 * c, 1.0, logs[c]));
  for (int k = 0; k < 3; ++k) p.spawn(producer(e, q, 100 * k, 30, 0.5 * k, 2.0));
  p.spawn(closer(e, q, 100.0));
  e.run();
  std::vector<int> all;
  for (int c = 0; c < 4; ++c) {
    BOOST_TEST_CONTEXT("consumer " << c) {
      BOOST_TEST(!logs[c].items.empty());
      BOOST_TEST(logs[c].ended == 100.0);
    }
    all.insert(all.end(), logs[c].items.begin(), logs[c].items.end());
  }
  std::sort(all.begin(), all.end());
  std::vector<int> want;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 30; ++i) want.push_back(100 * k + i);
  BOOST_TEST(all == want, boost::test_tools::per_element());
  BOOST_TEST(q.size() == 0u);
  BOOST_TEST(p.all_done());
}

BOOST_AUTO_TEST_CASE(queue_waiters_are_served_in_arrival_order) {
  // System: three consumers wait on an empty queue (arriving at 0, 1, 2 s, each busy 100 s per
  // item); three items pushed at t = 10. Expectation: the first waiter gets the first item, and
  // so on; the queue closes at t = 50, while all three are busy until t = 110, when they see it
  // closed. Exact times.
  Engine e;
  Processes p(e);
  Queue<int> q(e);
  std::vector<ConsumerLog> logs(3);
  for (int c = 0; c < 3; ++c) p.spawn(consumer(e, q, 1.0 * c, 100.0, logs[c]));
  p.spawn(producer(e, q, 0, 3, 10.0, 0.0));
  p.spawn(closer(e, q, 50.0));
  e.run();
  for (int c = 0; c < 3; ++c) {
    BOOST_TEST(logs[c].items == (std::vector<int>{c}), boost::test_tools::per_element());
    BOOST_TEST(logs[c].ended == 110.0);
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

BOOST_AUTO_TEST_CASE(probe_semantics_minimum_reservation_release_at_free_largest) {
  // System: pool with a 64 MiB minimum reservation, largest allocation 1 GiB, released_to_os_by
  // [nothing] (idle memory goes back as soon as the free completes), release_keeps_threshold
  // false. Expectation: 1 MiB reserves 64 MiB (cold), a second 1 MiB is served warm; after both
  // frees nothing stays reserved even with a 1 GiB threshold; 1 GiB + 1 B is refused.
  auto c = cal();
  c.pool_minimum_reservation = 64.0 * MiB;
  c.pool_largest_allocation = static_cast<double>(GiB);
  c.released_by = {"nothing"};
  c.release_keeps_threshold = false;
  DeviceMemory m(c, 16.0 * GiB, 2, GiB);
  BOOST_TEST((m.malloc_async(0, MiB) == DeviceMemory::PoolAlloc::cold));
  BOOST_TEST(m.pool_reserved() == 64 * MiB);
  BOOST_TEST((m.malloc_async(0, MiB) == DeviceMemory::PoolAlloc::warm));
  m.free_async(0, MiB);
  BOOST_TEST(m.pool_reserved() == MiB);  // down to what is still in use
  m.free_async(0, MiB);
  BOOST_TEST(m.pool_reserved() == 0u);
  BOOST_TEST((m.malloc_async(0, GiB + 1) == DeviceMemory::PoolAlloc::failed));
}

BOOST_AUTO_TEST_CASE(mem_get_info_releases_when_calibrated_so) {
  // System: released_to_os_by [mem_get_info], threshold 0; 1 GiB idle in the pool.
  // Expectation: the cudaMemGetInfo call releases it and reports it free.
  auto c = cal();
  c.released_by = {"mem_get_info"};
  DeviceMemory m(c, 16.0 * GiB, 2, 0);
  BOOST_TEST(ok(m.malloc_async(0, GiB)));
  m.free_async(0, GiB);
  BOOST_TEST(m.pool_reserved() == GiB);
  BOOST_TEST(m.meminfo_call() == 31 * GiB / 2);
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
