// Probe section driver_serialisation: do host calls from different threads serialise in the
// driver? While thread A runs one long call (cudaHostRegister / cudaHostUnregister of G GiB),
// thread B repeats short calls (an empty kernel launch + cudaStreamSynchronize on its own
// stream; a 64 MiB cudaMalloc + cudaFree) and records each one's latency. If B's longest latency
// during A's call is about A's duration, B waited behind A. Also: pinning cost of G GiB alone and
// from two threads at once. The staging runtime's first measured runs (two workers, 16 GiB)
// showed kernel steps 0.3-0.4 s longer than their kernels while the other worker pinned.
#include <cuda_runtime.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpu/probe/cuda_util.hpp"
#include "gpu/probe/kernels.hpp"
#include "gpu/probe/probes.hpp"
#include "gpu/probe/stats.hpp"

namespace prestage::probe {
namespace {

struct HostBlock {  // page-aligned, touched host memory
  explicit HostBlock(std::size_t b) : bytes(b) {
    p = static_cast<char*>(std::aligned_alloc(4096, b));
    if (!p) throw std::runtime_error("driver_serialisation: host allocation failed");
    std::memset(p, 1, b);
  }
  ~HostBlock() { std::free(p); }
  char* p;
  std::size_t bytes;
};

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Latencies (s) of thread B's calls while `a_call` runs on thread A (which starts after B's
// first few calls); A's own duration in *a_seconds.
std::vector<double> b_latencies_during(int device, bool malloc_calls,
                                       const std::function<void()>& a_call, double* a_seconds) {
  std::atomic<bool> a_running{false}, a_done{false};
  std::vector<double> lat;
  std::thread b([&] {
    check(cudaSetDevice(device), "cudaSetDevice");
    cudaStream_t s;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    int warm = 0;
    while (!a_done.load()) {
      double t0 = host_now();
      if (malloc_calls) {
        void* p = nullptr;
        check(cudaMalloc(&p, 64u << 20), "cudaMalloc");
        check(cudaFree(p), "cudaFree");
      } else {
        launch_empty(s);
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
      }
      double dt = host_now() - t0;
      if (a_running.load()) lat.push_back(dt);
      if (++warm == 20) a_running.store(true);  // A may start
    }
    check(cudaStreamDestroy(s), "cudaStreamDestroy");
  });
  while (!a_running.load()) std::this_thread::yield();
  double t0 = host_now();
  a_call();
  *a_seconds = host_now() - t0;
  a_done.store(true);
  b.join();
  return lat;
}

Json summary(const std::vector<double>& v) {
  double mx = 0;
  for (double x : v) mx = std::max(mx, x);
  return Json{{"calls", v.size()}, {"median_s", v.empty() ? 0.0 : median(v)}, {"max_s", mx}};
}

}  // namespace

Json probe_driver_serialisation(ProbeContext& c) {
  Json out = Json::object();
  const std::vector<double> sizes_gib =
      c.quick ? std::vector<double>{0.25} : std::vector<double>{4, 12};
  for (double gib : sizes_gib) {
    const auto bytes = static_cast<std::size_t>(gib * (1ull << 30));
    HostBlock h(bytes);
    Json row = Json::object();
    for (bool malloc_calls : {false, true}) {
      double reg_s = 0, unreg_s = 0;
      auto during_reg = b_latencies_during(
          c.device, malloc_calls,
          [&] { check(cudaHostRegister(h.p, bytes, cudaHostRegisterDefault), "cudaHostRegister"); },
          &reg_s);
      auto during_unreg = b_latencies_during(
          c.device, malloc_calls, [&] { check(cudaHostUnregister(h.p), "cudaHostUnregister"); },
          &unreg_s);
      const char* b_call = malloc_calls ? "b_cudaMalloc_64MiB_cudaFree" : "b_launch_sync";
      row[b_call] = {{"during_cudaHostRegister", summary(during_reg)},
                     {"cudaHostRegister_s", reg_s},
                     {"during_cudaHostUnregister", summary(during_unreg)},
                     {"cudaHostUnregister_s", unreg_s}};
    }
    // Pinning cost: G GiB alone, and two threads pinning G GiB each at once.
    HostBlock h2(bytes);
    double alone = host_now();
    check(cudaHostRegister(h.p, bytes, cudaHostRegisterDefault), "cudaHostRegister");
    alone = host_now() - alone;
    check(cudaHostUnregister(h.p), "cudaHostUnregister");
    std::vector<double> both(2, 0);
    double t0 = host_now();
    std::thread t1([&] {
      check(cudaSetDevice(c.device), "cudaSetDevice");
      double s = host_now();
      check(cudaHostRegister(h2.p, bytes, cudaHostRegisterDefault), "cudaHostRegister");
      both[1] = host_now() - s;
    });
    double s0 = host_now();
    check(cudaHostRegister(h.p, bytes, cudaHostRegisterDefault), "cudaHostRegister");
    both[0] = host_now() - s0;
    t1.join();
    double together = host_now() - t0;
    check(cudaHostUnregister(h.p), "cudaHostUnregister");
    check(cudaHostUnregister(h2.p), "cudaHostUnregister");
    row["register_alone_s"] = alone;
    row["register_two_threads_each_s"] = both;
    row["register_two_threads_wall_s"] = together;
    out[fmt::format("{}GiB", gib)] = row;
  }
  out["reading"] =
      "b_*.during_*.max_s close to the A call's duration: B's call waited behind A's (the driver "
      "serialises them); close to b's median outside A: it did not";
  return out;
}

// Probe section driver_waits: which of a worker's own calls wait while another thread pins, and
// what the GPU does meanwhile. The staging runs (two workers) showed steps that overlap the other
// worker's cudaHostRegister / cudaHostUnregister lasting about the overlap longer than alone:
// uploads, H-chain kernels, allocations. Thread A runs one pinning call of G GiB; thread B runs
// one of these cases, started before A's call:
//   sync_kernel_ends_inside: a spin kernel that ends in the middle of A's call, with B already
//     blocked in cudaStreamSynchronize. Does the sync return at the kernel's end or at A's?
//   sync_kernel_ends_after: a spin kernel that ends after A's call. Is the kernel slowed?
//   launch_only: empty kernel launches, no sync: does the launch call itself wait?
//   pool_alloc: cudaMallocAsync + cudaFreeAsync of 64 MiB, no sync: do they wait?
//   copy_pageable / copy_pinned: one H2D cudaMemcpyAsync of C GiB + stream sync, A starting just
//     after it: the copy's device time (events) and host time against the same copy alone.
//   launch_while_device_busy: a 0.3 s spin kernel runs while A starts; empty launches on a second
//     stream: does a call that waits for the device hold the driver while it waits?
//   handoff_malloc: B's cudaMalloc waits for A's call; A allocates as soon as its call returns:
//     which of the two goes first once the driver is free?
//   handoff_sequence: the same with three cudaMallocs of A back to back: how many go before B's?
namespace {

struct Timed {
  double start = 0, end = 0;
};

// Runs `a_call` on this thread `delay_s` after `b_case` started on another thread; returns A's
// interval (host clock).
Timed run_beside(int device, double delay_s, const std::function<void()>& b_case,
                 const std::function<void()>& a_call) {
  std::atomic<bool> b_started{false};
  std::thread b([&] {
    check(cudaSetDevice(device), "cudaSetDevice");
    b_started.store(true);
    b_case();
  });
  while (!b_started.load()) std::this_thread::yield();
  host_sleep(delay_s);
  Timed a;
  a.start = host_now();
  a_call();
  a.end = host_now();
  b.join();
  return a;
}

// The longest of B's calls (start, end; host clock) that overlapped A's interval (s).
double longest_call_during(const std::vector<std::pair<double, double>>& calls, const Timed& a) {
  double mx = 0;
  for (auto [t0, t1] : calls)
    if (t1 > a.start && t0 < a.end) mx = std::max(mx, t1 - t0);
  return mx;
}

double elapsed(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, from, to), "cudaEventElapsedTime");
  return ms * 1e-3;
}

}  // namespace

Json probe_driver_waits(ProbeContext& c) {
  const double gib = c.quick ? 0.25 : 12;
  const double copy_gib = c.quick ? 0.125 : 2;
  const int reps = c.quick ? 1 : 3;
  const auto bytes = static_cast<std::size_t>(gib * (1ull << 30));
  const auto copy_bytes = static_cast<std::size_t>(copy_gib * (1ull << 30));
  HostBlock h(bytes);          // A's pinning target
  HostBlock src(copy_bytes);   // B's pageable copy source
  void* pinned_src = nullptr;  // B's pinned copy source
  check(cudaMallocHost(&pinned_src, copy_bytes), "cudaMallocHost");
  std::memset(pinned_src, 2, copy_bytes);
  void* dst = nullptr;
  check(cudaMalloc(&dst, copy_bytes), "cudaMalloc");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");

  auto do_register = [&] {
    check(cudaHostRegister(h.p, bytes, cudaHostRegisterDefault), "cudaHostRegister");
  };
  auto do_unregister = [&] { check(cudaHostUnregister(h.p), "cudaHostUnregister"); };

  // A's durations alone, to place B's kernel ends inside / after A's call.
  std::vector<double> reg_alone, unreg_alone;
  for (int r = 0; r < reps; ++r) {
    double t0 = host_now();
    do_register();
    reg_alone.push_back(host_now() - t0);
    t0 = host_now();
    do_unregister();
    unreg_alone.push_back(host_now() - t0);
  }
  // B's copies alone: device time (events) and host time (call to sync return).
  auto copy_alone = [&](const void* from) {
    std::vector<double> dev, host;
    for (int r = 0; r < reps; ++r) {
      double t0 = host_now();
      check(cudaEventRecord(e0, s), "cudaEventRecord");
      check(cudaMemcpyAsync(dst, from, copy_bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync");
      check(cudaEventRecord(e1, s), "cudaEventRecord");
      check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
      host.push_back(host_now() - t0);
      dev.push_back(elapsed(e0, e1));
    }
    return Json{{"device_s", median(dev)}, {"host_s", median(host)}};
  };
  Json alone = {{"bytes", bytes},
                {"cudaHostRegister_s", median(reg_alone)},
                {"cudaHostUnregister_s", median(unreg_alone)},
                {"copy_pageable", copy_alone(src.p)},
                {"copy_pinned", copy_alone(pinned_src)}};

  const double lead = 0.02;  // s: B's call starts this long before A's
  Json cases = Json::object();
  for (bool reg : {true, false}) {
    const double a_dur = reg ? median(reg_alone) : median(unreg_alone);
    const char* a_name = reg ? "during_cudaHostRegister" : "during_cudaHostUnregister";
    Json rows = Json::object();
    auto a_call = [&] { reg ? do_register() : do_unregister(); };
    auto prepare = [&] {  // an unregister needs the block registered first
      if (!reg) do_register();
    };
    // A's call, then B's loop stops once its blocked call, if any, has returned and been recorded.
    auto a_then_stop = [&](std::atomic<bool>* stop) {
      return [&a_call, stop] {
        a_call();
        host_sleep(0.02);
        stop->store(true);
      };
    };
    auto finish = [&] {
      if (reg) do_unregister();
    };
    // Spin kernels ending inside / after A's call.
    for (bool inside : {true, false}) {
      Json samples = Json::array();
      std::vector<double> sync_after_kernel, a_after_kernel, kernel_stretch;
      for (int r = 0; r < reps; ++r) {
        prepare();
        const double spin_s = inside ? lead + 0.5 * a_dur : lead + a_dur + 0.2;
        double launch = 0, ret = 0;
        Timed a = run_beside(
            c.device, lead,
            [&] {
              launch = host_now();
              check(cudaEventRecord(e0, s), "cudaEventRecord");
              launch_spin(s, spin_s);
              check(cudaEventRecord(e1, s), "cudaEventRecord");
              check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
              ret = host_now();
            },
            a_call);
        finish();
        const double dev = elapsed(e0, e1);
        const double kernel_end = launch + dev;  // host clock; launch latency ~10 us
        sync_after_kernel.push_back(ret - kernel_end);
        a_after_kernel.push_back(a.end - kernel_end);
        kernel_stretch.push_back(dev - spin_s);
        samples.push_back({{"spin_s", spin_s},
                           {"kernel_device_s", dev},
                           {"a_start_after_launch_s", a.start - launch},
                           {"a_s", a.end - a.start},
                           {"sync_return_after_kernel_end_s", ret - kernel_end},
                           {"a_end_after_kernel_end_s", a.end - kernel_end}});
      }
      rows[inside ? "sync_kernel_ends_inside" : "sync_kernel_ends_after"] = {
          {"sync_return_after_kernel_end_s", median(sync_after_kernel)},
          {"a_end_after_kernel_end_s", median(a_after_kernel)},
          {"kernel_device_minus_spin_s", median(kernel_stretch)},
          {"samples", samples}};
    }
    // A host-paced step, as the prover's kernel steps are (an MSM launches, syncs to read a
    // count, launches again; a streamed MSM syncs at every chunk): spin kernels of 5 ms, each
    // followed by a stream sync, for 0.3 s + A's duration; A starts 0.1 s in. The stretch over
    // the same sequence alone, against A's duration: 1 = the step makes no progress during A.
    {
      const double piece = 0.005;
      const int pieces = static_cast<int>((0.3 + a_dur) / piece);
      auto sequence = [&] {
        for (int k = 0; k < pieces; ++k) {
          launch_spin(s, piece);
          check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        }
      };
      std::vector<double> alone_s, during_s, a_s;
      for (int r = 0; r < reps; ++r) {
        double t0 = host_now();
        sequence();
        alone_s.push_back(host_now() - t0);
        prepare();
        double b0 = 0, b1 = 0;
        Timed a = run_beside(
            c.device, 0.1,
            [&] {
              b0 = host_now();
              sequence();
              b1 = host_now();
            },
            a_call);
        finish();
        during_s.push_back(b1 - b0);
        a_s.push_back(a.end - a.start);
      }
      rows["paced_sequence"] = {
          {"pieces", pieces},
          {"piece_s", piece},
          {"alone_s", median(alone_s)},
          {"during_a_s", median(during_s)},
          {"a_s", median(a_s)},
          {"stretch_over_a", (median(during_s) - median(alone_s)) / median(a_s)}};
    }
    // Calls without a sync: each call's latency while A runs: an empty launch, a pool
    // allocation and free, and the policies' memory reading (cudaMemGetInfo and the default
    // pool's reserved bytes, as the runtime's MemoryView reads them).
    enum class Call { launch, pool, meminfo };
    for (Call call : {Call::launch, Call::pool, Call::meminfo}) {
      std::vector<double> maxima, overlap_calls;
      for (int r = 0; r < reps; ++r) {
        prepare();
        std::vector<std::pair<double, double>> calls;  // (start, end), host clock
        std::atomic<bool> stop{false};
        Timed a = run_beside(
            c.device, lead,
            [&] {
              while (!stop.load()) {
                double t0 = host_now();
                if (call == Call::pool) {
                  void* p = nullptr;
                  check(cudaMallocAsync(&p, 64u << 20, s), "cudaMallocAsync");
                  check(cudaFreeAsync(p, s), "cudaFreeAsync");
                } else if (call == Call::meminfo) {
                  size_t free_b = 0, total_b = 0;
                  check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
                  cudaMemPool_t pool_h = nullptr;
                  check(cudaDeviceGetDefaultMemPool(&pool_h, c.device),
                        "cudaDeviceGetDefaultMemPool");
                  std::uint64_t reserved = 0;  // the attribute is a cuuint64_t (64-bit)
                  check(
                      cudaMemPoolGetAttribute(pool_h, cudaMemPoolAttrReservedMemCurrent, &reserved),
                      "cudaMemPoolGetAttribute");
                } else {
                  launch_empty(s);
                }
                calls.emplace_back(t0, host_now());
                if (calls.size() % 256 == 0) check(cudaStreamSynchronize(s), "sync");
              }
            },
            a_then_stop(&stop));
        finish();
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        maxima.push_back(longest_call_during(calls, a));
        overlap_calls.push_back(static_cast<double>(calls.size()));
      }
      rows[call == Call::pool      ? "pool_alloc_no_sync"
           : call == Call::meminfo ? "meminfo_no_sync"
                                   : "launch_only"] = {{"max_call_during_a_s", median(maxima)},
                                                       {"calls_per_run", median(overlap_calls)}};
    }
    // Launches while the device is busy: B starts a spin kernel of 0.3 s on its stream, then
    // launches empty kernels on a second stream without syncing; A starts 20 ms into the spin.
    // A call that waits for the device (cudaHostUnregister does: sync_kernel_ends_after) returns
    // about A's duration after the spin ends. If it holds the driver while it waits, B's
    // launches wait from A's start to A's return (longest call ~ spin end - A start + A's
    // duration); if not, only A's own work blocks them (~ A's duration).
    {
      cudaStream_t s2;
      check(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "cudaStreamCreate");
      const double busy_s = 0.3;
      std::vector<double> maxima, a_after_kernel, busy_left, a_s;
      for (int r = 0; r < reps; ++r) {
        prepare();
        std::vector<std::pair<double, double>> calls;  // (start, end), host clock
        std::atomic<bool> stop{false};
        double launch = 0;
        Timed a = run_beside(
            c.device, lead,
            [&] {
              launch = host_now();
              check(cudaEventRecord(e0, s), "cudaEventRecord");
              launch_spin(s, busy_s + lead);
              check(cudaEventRecord(e1, s), "cudaEventRecord");
              while (!stop.load()) {
                double t0 = host_now();
                launch_empty(s2);
                calls.emplace_back(t0, host_now());
                if (calls.size() % 256 == 0) check(cudaStreamSynchronize(s2), "sync");
              }
              check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
            },
            a_then_stop(&stop));
        finish();
        check(cudaStreamSynchronize(s2), "cudaStreamSynchronize");
        const double kernel_end = launch + elapsed(e0, e1);
        maxima.push_back(longest_call_during(calls, a));
        a_after_kernel.push_back(a.end - kernel_end);
        busy_left.push_back(std::max(0.0, kernel_end - a.start));
        a_s.push_back(a.end - a.start);
      }
      check(cudaStreamDestroy(s2), "cudaStreamDestroy");
      rows["launch_while_device_busy"] = {{"busy_s", busy_s},
                                          {"max_call_during_a_s", median(maxima)},
                                          {"device_busy_after_a_start_s", median(busy_left)},
                                          {"a_s", median(a_s)},
                                          {"a_end_after_kernel_end_s", median(a_after_kernel)}};
    }
    // Hand-off: B's cudaMalloc of 64 MiB issued 45 ms into A's call waits for A (as the
    // allocations above); A issues its own cudaMalloc of 64 MiB as soon as its call returns. Which
    // returns first, the thread that held the driver or the one that waited for it? (The naive
    // 16 GiB runs: the pinning worker's allocate-fail-free went ahead of the waiting worker's
    // allocation; a FIFO hand-off would have ordered them the other way.)
    {
      std::vector<double> b_after_a_next, b_waited;
      int holder_first = 0;
      for (int r = 0; r < reps; ++r) {
        prepare();
        double b0 = 0, b1 = 0, a_next1 = 0;
        void* pa = nullptr;
        void* pb = nullptr;
        run_beside(
            c.device, 0.005,
            [&] {
              host_sleep(0.05);
              b0 = host_now();
              check(cudaMalloc(&pb, 64ull << 20), "cudaMalloc");
              b1 = host_now();
            },
            [&] {
              a_call();
              check(cudaMalloc(&pa, 64ull << 20), "cudaMalloc");
              a_next1 = host_now();
            });
        check(cudaFree(pa), "cudaFree");
        check(cudaFree(pb), "cudaFree");
        finish();
        b_after_a_next.push_back(b1 - a_next1);
        b_waited.push_back(b1 - b0);
        if (a_next1 < b1) ++holder_first;
      }
      rows["handoff_malloc"] = {{"b_return_after_a_next_return_s", median(b_after_a_next)},
                                {"b_call_s", median(b_waited)},
                                {"holder_first", holder_first},
                                {"reps", reps}};
    }
    // The same with three cudaMallocs of A back to back after its call: how many of them go
    // before B's waiting one? (The naive 16 GiB run: the pinning worker made three calls, 1.3 ms,
    // before the waiting worker's allocation went through.)
    {
      constexpr int kCalls = 3;
      std::vector<double> ahead;
      for (int r = 0; r < reps; ++r) {
        prepare();
        double b1 = 0, a_end[kCalls] = {};
        void* pa[kCalls] = {};
        void* pb = nullptr;
        run_beside(
            c.device, 0.005,
            [&] {
              host_sleep(0.05);
              check(cudaMalloc(&pb, 64ull << 20), "cudaMalloc");
              b1 = host_now();
            },
            [&] {
              a_call();
              for (int k = 0; k < kCalls; ++k) {
                check(cudaMalloc(&pa[k], 64ull << 20), "cudaMalloc");
                a_end[k] = host_now();
              }
            });
        for (void* p : pa) check(cudaFree(p), "cudaFree");
        check(cudaFree(pb), "cudaFree");
        finish();
        int n_ahead = 0;
        for (double t : a_end) n_ahead += t < b1 ? 1 : 0;
        ahead.push_back(n_ahead);
      }
      rows["handoff_sequence"] = {{"holder_calls", kCalls},
                                  {"holder_calls_before_waiter", ahead},
                                  {"median_before_waiter", median(ahead)},
                                  {"reps", reps}};
    }
    // Copies, A starting just after the copy ("copy_*"), or the copy issued 45 ms into A's call
    // ("copy_*_issued_inside": does the cudaMemcpyAsync call wait for A?).
    for (int variant = 0; variant < 4; ++variant) {
      const bool pinned = variant % 2 == 1, inside = variant >= 2;
      std::vector<double> dev, host, a_s, issued;
      for (int r = 0; r < reps; ++r) {
        prepare();
        double t0 = 0, t1 = 0;
        Timed a = run_beside(
            c.device, 0.005,
            [&] {
              if (inside) host_sleep(0.05);
              t0 = host_now();
              check(cudaEventRecord(e0, s), "cudaEventRecord");
              check(cudaMemcpyAsync(dst, pinned ? pinned_src : static_cast<void*>(src.p),
                                    copy_bytes, cudaMemcpyHostToDevice, s),
                    "cudaMemcpyAsync");
              check(cudaEventRecord(e1, s), "cudaEventRecord");
              check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
              t1 = host_now();
            },
            a_call);
        finish();
        dev.push_back(elapsed(e0, e1));
        host.push_back(t1 - t0);
        a_s.push_back(a.end - a.start);
        issued.push_back(t0 - a.start);
      }
      rows[std::string(pinned ? "copy_pinned" : "copy_pageable") +
           (inside ? "_issued_inside" : "")] = {{"device_s", median(dev)},
                                                {"host_s", median(host)},
                                                {"a_s", median(a_s)},
                                                {"issued_after_a_start_s", median(issued)}};
    }
    cases[a_name] = rows;
  }
  check(cudaEventDestroy(e0), "cudaEventDestroy");
  check(cudaEventDestroy(e1), "cudaEventDestroy");
  check(cudaStreamDestroy(s), "cudaStreamDestroy");
  check(cudaFree(dst), "cudaFree");
  check(cudaFreeHost(pinned_src), "cudaFreeHost");

  // Verdicts, against A's duration (a wait is "the whole rest of A's call" or "none").
  Json summary = Json::object();
  for (const char* a_name : {"during_cudaHostRegister", "during_cudaHostUnregister"}) {
    const Json& r = cases[a_name];
    const Json& in = r["sync_kernel_ends_inside"];
    const double rest = in["a_end_after_kernel_end_s"].get<double>();
    const double a_dur = std::string(a_name) == "during_cudaHostRegister"
                             ? alone["cudaHostRegister_s"].get<double>()
                             : alone["cudaHostUnregister_s"].get<double>();
    const auto copy_stretch = [&](const char* k) {
      return r[k]["host_s"].get<double>() - alone[k]["host_s"].get<double>();
    };
    summary[a_name] = {
        {"paced_step_stretch_over_a", r["paced_sequence"]["stretch_over_a"]},
        {"stream_sync_waits", in["sync_return_after_kernel_end_s"].get<double>() >= 0.5 * rest},
        {"launch_waits", r["launch_only"]["max_call_during_a_s"].get<double>() >= 0.5 * a_dur},
        {"pool_alloc_waits",
         r["pool_alloc_no_sync"]["max_call_during_a_s"].get<double>() >= 0.5 * a_dur},
        {"meminfo_waits", r["meminfo_no_sync"]["max_call_during_a_s"].get<double>() >= 0.5 * a_dur},
        {"kernel_slowed_s", r["sync_kernel_ends_after"]["kernel_device_minus_spin_s"]},
        // When A's call returns, A's next call goes ahead of B's, which waited for A.
        {"holder_goes_first", 2 * r["handoff_malloc"]["holder_first"].get<int>() >
                                  r["handoff_malloc"]["reps"].get<int>()},
        // Holds the driver while it waits for the device: another thread's launches waited
        // through more than half of that wait on top of A's own work.
        {"driver_held_while_waiting_for_device",
         r["launch_while_device_busy"]["max_call_during_a_s"].get<double>() >=
             a_dur +
                 0.5 * r["launch_while_device_busy"]["device_busy_after_a_start_s"].get<double>()},

        {"copy_pageable_host_stretch_s", copy_stretch("copy_pageable")},
        {"copy_pinned_host_stretch_s", copy_stretch("copy_pinned")},
        {"copy_pageable_issued_inside_host_stretch_s",
         r["copy_pageable_issued_inside"]["host_s"].get<double>() -
             alone["copy_pageable"]["host_s"].get<double>()},
        {"copy_pinned_issued_inside_host_stretch_s",
         r["copy_pinned_issued_inside"]["host_s"].get<double>() -
             alone["copy_pinned"]["host_s"].get<double>()},
        {"copy_pageable_device_stretch_s", r["copy_pageable"]["device_s"].get<double>() -
                                               alone["copy_pageable"]["device_s"].get<double>()},
        {"copy_pinned_device_stretch_s", r["copy_pinned"]["device_s"].get<double>() -
                                             alone["copy_pinned"]["device_s"].get<double>()}};
  }
  return Json{
      {"method", fmt::format("thread A: one cudaHostRegister / cudaHostUnregister of {} GiB "
                             "(touched malloc'd block); thread B's case starts {} s before "
                             "A (copies: 5 ms); {} repetitions, medians; copies of {} GiB "
                             "H2D; host clock, kernel and copy device times by CUDA events",
                             gib, lead, reps, copy_gib)},
      {"alone", alone},
      {"cases", cases},
      {"summary", summary}};
}

// Probe section handoff_runtime: the hand-off when a pinning call returns while another
// thread's call waits for the driver, with the holder making the staging runtime's own calls.
// driver_waits' handoff_sequence measured a holder's three 64 MiB cudaMallocs against a waiting
// cudaMalloc (all three went first). The two-worker staging runs (session i, grid row 26) have a
// waiting cudaHostRegister instead, and a holder whose next calls are the stager's placement:
// cudaDeviceSynchronize, cudaMemGetInfo, the pool's reserved attribute, cudaMemPoolTrimTo,
// cudaMemGetInfo, cudaMalloc of 4 GiB and of 8 GiB, each followed by cudaMemGetInfo (the
// runtime's memory samples). There the holder lost the driver after its first one to four calls.
// Thread A: one cudaHostRegister / cudaHostUnregister of G GiB, then that sequence; thread B:
// its waiting call (cudaHostRegister of its own G GiB, or cudaMalloc of 64 MiB) issued 45 ms
// into A's call. Per case: how many of A's calls returned before B's, each call's median time,
// and B's return after A's call returned.
Json probe_handoff_runtime(ProbeContext& c) {
  const double gib = c.quick ? 0.25 : 12;
  const int reps = c.quick ? 1 : 3;
  const auto bytes = static_cast<std::size_t>(gib * (1ull << 30));
  const std::size_t big = c.quick ? std::size_t{64} << 20 : std::size_t{4} << 30;  // d_a, B
  HostBlock ha(bytes), hb(bytes);  // A's and B's pinning targets
  const char* names[] = {"cudaDeviceSynchronize", "cudaMemGetInfo",  "pool_reserved_attr",
                         "cudaMemPoolTrimTo",     "cudaMemGetInfo",  "cudaMalloc_d_a",
                         "cudaMemGetInfo",        "cudaMalloc_d_bc", "cudaMemGetInfo"};
  constexpr int kCalls = 9;
  Json cases = Json::object();
  for (bool a_reg : {true, false}) {
    for (bool b_pins : {true, false}) {
      std::vector<double> ahead, b_after_a;
      std::vector<std::vector<double>> call_s(kCalls);
      for (int r = 0; r < reps; ++r) {
        if (!a_reg)
          check(cudaHostRegister(ha.p, bytes, cudaHostRegisterDefault), "cudaHostRegister");
        double a_ret = 0, b_ret = 0;
        double a_end[kCalls] = {}, a_dur[kCalls] = {};
        void* d_a = nullptr;
        void* d_bc = nullptr;
        void* pb = nullptr;
        std::string err;  // an exception must not leave B's thread (std::terminate)
        run_beside(
            c.device, 0.005,
            [&] {
              try {
                host_sleep(0.045);
                if (b_pins)
                  check(cudaHostRegister(hb.p, bytes, cudaHostRegisterDefault),
                        "cudaHostRegister B");
                else
                  check(cudaMalloc(&pb, 64ull << 20), "cudaMalloc B");
                b_ret = host_now();
              } catch (const std::exception& e) {
                err = e.what();
              }
            },
            [&] {
              if (a_reg)
                check(cudaHostRegister(ha.p, bytes, cudaHostRegisterDefault), "cudaHostRegister");
              else
                check(cudaHostUnregister(ha.p), "cudaHostUnregister");
              a_ret = host_now();
              std::size_t fr = 0, tot = 0;
              std::uint64_t reserved = 0;
              for (int k = 0; k < kCalls; ++k) {
                const double t0 = host_now();
                switch (k) {
                  case 0:
                    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
                    break;
                  case 2:
                    check(cudaMemPoolGetAttribute(c.pool, cudaMemPoolAttrReservedMemCurrent,
                                                  &reserved),
                          "cudaMemPoolGetAttribute");
                    break;
                  case 3:
                    check(cudaMemPoolTrimTo(c.pool, 0), "cudaMemPoolTrimTo");
                    break;
                  case 5:
                    check(cudaMalloc(&d_a, big), "cudaMalloc d_a");
                    break;
                  case 7:
                    check(cudaMalloc(&d_bc, 2 * big), "cudaMalloc d_bc");
                    break;
                  default:
                    check(cudaMemGetInfo(&fr, &tot), "cudaMemGetInfo");
                    break;
                }
                a_end[k] = host_now();
                a_dur[k] = a_end[k] - t0;
              }
            });
        check(cudaFree(d_a), "cudaFree");
        check(cudaFree(d_bc), "cudaFree");
        if (pb) check(cudaFree(pb), "cudaFree");
        if (b_pins && err.empty()) check(cudaHostUnregister(hb.p), "cudaHostUnregister B");
        if (a_reg) check(cudaHostUnregister(ha.p), "cudaHostUnregister");
        if (!err.empty()) throw std::runtime_error(err);
        int n_ahead = 0;
        for (int k = 0; k < kCalls; ++k) {
          n_ahead += a_end[k] < b_ret ? 1 : 0;
          call_s[k].push_back(a_dur[k]);
        }
        ahead.push_back(n_ahead);
        b_after_a.push_back(b_ret - a_ret);
      }
      Json calls = Json::array();
      for (int k = 0; k < kCalls; ++k)
        calls.push_back(
            {{"call", names[k]}, {"median_s", median(call_s[k])}, {"samples_s", call_s[k]}});
      cases[fmt::format("{}_then_{}", a_reg ? "register" : "unregister",
                        b_pins ? "waiting_register" : "waiting_malloc")] = {
          {"holder_calls_before_waiter", ahead},
          {"median_before_waiter", median(ahead)},
          {"waiter_return_after_holder_return_s", b_after_a},
          {"holder_calls", calls},
          {"reps", reps}};
    }
  }
  Json summary = Json::object();
  for (auto& [k, v] : cases.items()) summary[k] = v["median_before_waiter"];
  return Json{{"method", fmt::format("thread A: cudaHostRegister / cudaHostUnregister of {} GiB "
                                     "(touched malloc'd block), then the stager's {} calls; "
                                     "thread B: cudaHostRegister of its own {} GiB or cudaMalloc "
                                     "of 64 MiB, issued 45 ms into A's call; host clock; {} "
                                     "repetitions; malloc sizes {} and {} B",
                                     gib, kCalls, gib, reps, big, 2 * big)},
              {"cases", cases},
              {"summary", summary}};
}

// Probe section free_release: while thread A's cudaFree of G GiB runs (device idle), can thread
// B's cudaMalloc of G GiB, which fits only in that memory, succeed, and before A's call returns?
// Session a's naive 16 GiB run (r1) showed it once: worker 0's 8 GiB cudaMalloc, started 3 us
// before worker 1's cudaFree of 4 GiB, returned 2.1 ms before that free did, and succeeded. The
// model releases a cudaFree's memory when the call ends.
Json probe_free_release(ProbeContext& c) {
  const std::size_t g = (c.quick ? std::size_t{1} : std::size_t{4}) << 30;  // A's buffer, B's ask
  const int reps = c.quick ? 3 : 10;
  // Whatever this section holds is freed on every way out, so that a failure here leaves the
  // card to the next section as it found it.
  struct Held {
    void** p;
    ~Held() {
      if (*p) (void)cudaFree(*p);
      *p = nullptr;
    }
  };
  void* a_buf = nullptr;
  void* ballast = nullptr;
  void* b_buf = nullptr;
  Held hold_a{&a_buf}, hold_ballast{&ballast}, hold_b{&b_buf};
  check(cudaMalloc(&a_buf, g), "cudaMalloc A");
  // Ballast: leave g / 2 free, so B's g fits only once A's g is released.
  const gpu::MemInfo m = gpu::mem_info();
  std::size_t ballast_bytes = m.free_bytes > g / 2 ? m.free_bytes - g / 2 : 0;
  // The allocator keeps some slack: step down until one fits.
  for (int k = 0; k < 64 && ballast_bytes > 0;
       ++k, ballast_bytes -= std::min<std::size_t>(ballast_bytes, std::size_t{32} << 20))
    if (probe_try(cudaMalloc(&ballast, ballast_bytes)) == cudaSuccess) break;
  // B alone first: its cudaMalloc of g must fail with A's buffer held (else the case is void).
  void* probe_b = nullptr;
  const bool b_fits_alone = probe_try(cudaMalloc(&probe_b, g)) == cudaSuccess;
  if (b_fits_alone) check(cudaFree(probe_b), "cudaFree");
  Json samples = Json::array();
  std::vector<double> b_end_after_a_end, a_free_s;
  int b_ok_count = 0, b_before_a_end = 0;
  for (int r = 0; r < reps && !b_fits_alone; ++r) {
    if (!a_buf) check(cudaMalloc(&a_buf, g), "cudaMalloc A");
    std::atomic<bool> go{false};
    double a0 = 0, a1 = 0, b0 = 0, b1 = 0;
    bool b_ok = false;
    std::thread b([&] {
      check(cudaSetDevice(c.device), "cudaSetDevice");
      while (!go.load()) {
      }
      b0 = host_now();
      b_ok = probe_try(cudaMalloc(&b_buf, g)) == cudaSuccess;
      b1 = host_now();
    });
    host_sleep(0.01);
    go.store(true);
    a0 = host_now();
    check(cudaFree(a_buf), "cudaFree A");
    a1 = host_now();
    a_buf = nullptr;
    b.join();
    if (b_ok) {
      ++b_ok_count;
      if (b1 < a1) ++b_before_a_end;
      check(cudaFree(b_buf), "cudaFree B");
      b_buf = nullptr;
    }
    b_end_after_a_end.push_back(b1 - a1);
    a_free_s.push_back(a1 - a0);
    samples.push_back({{"b_ok", b_ok},
                       {"b_start_after_a_start_s", b0 - a0},
                       {"b_end_after_a_end_s", b1 - a1},
                       {"a_free_s", a1 - a0}});
  }
  const std::size_t ballast_held = ballast ? ballast_bytes : 0;
  if (a_buf) check(cudaFree(a_buf), "cudaFree A");
  a_buf = nullptr;
  if (ballast) check(cudaFree(ballast), "cudaFree ballast");
  ballast = nullptr;
  Json summary = {{"reps", b_fits_alone ? 0 : reps},
                  {"b_fits_alone", b_fits_alone},
                  {"b_succeeded", b_ok_count},
                  {"b_returned_before_a", b_before_a_end}};
  if (!a_free_s.empty()) {
    summary["a_free_s"] = median(a_free_s);
    summary["b_end_after_a_end_s"] = median(b_end_after_a_end);
    // Memory is released while the free is still under way: B got it before A's call returned.
    summary["released_before_free_returns"] = 2 * b_before_a_end > reps;
  }
  const double gib = static_cast<double>(g) / (1ull << 30);
  return Json{{"method", fmt::format("thread A holds {} GiB and cudaFree()s it (device idle); "
                                     "a ballast holds the rest of the card but about {} GiB; "
                                     "thread B, spinning on a flag A sets just before its call, "
                                     "asks cudaMalloc for {} GiB (it fits only in A's memory); "
                                     "host clock; {} repetitions",
                                     gib, gib / 2, gib, reps)},
              {"ballast_B", ballast_held},
              {"samples", samples},
              {"summary", summary}};
}

// Probe section free_holds_driver: thread A's cudaFree of 4 GiB waits for the device (a spin
// kernel of 0.3 s on another stream, started 20 ms before; probe device_sync_calls: cudaFree
// synchronizes the device). Does it hold the driver while it waits, so that thread B's
// cudaMemGetInfo (the runtime's memory readings) and kernel launches wait through it? And when it
// returns, does A's next cudaMemGetInfo return before B's call that waited? Session g's naive 16
// GiB run (r1): worker 0's memory reading after a failed cudaMalloc returned only after worker
// 1's cudaFree and the cudaHostUnregister / cudaHostRegister worker 1 issued right after it. The
// same B calls beside the spin kernel without A ("alone") show what the kernel itself costs them.
Json probe_free_holds_driver(ProbeContext& c) {
  const double busy_s = c.quick ? 0.05 : 0.3;
  const double lead = 0.02;  // s: B starts its calls this long before A's cudaFree
  const int reps = c.quick ? 1 : 3;
  const std::size_t g = (c.quick ? std::size_t{1} : std::size_t{4}) << 30;
  cudaStream_t s, s2;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "cudaStreamCreate");
  enum class Call { meminfo, launch };
  auto b_call = [&](Call call) {
    if (call == Call::meminfo) {
      std::size_t free_b = 0, total_b = 0;
      check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    } else {
      launch_empty(s2);
    }
  };
  Json rows = Json::object();
  for (Call call : {Call::meminfo, Call::launch}) {
    std::vector<double> longest_alone, longest_during, a_s, busy_left, a_next_first;
    for (int r = 0; r < reps; ++r) {
      for (bool with_a : {false, true}) {
        void* a_buf = nullptr;
        check(cudaMalloc(&a_buf, g), "cudaMalloc A");
        std::vector<std::pair<double, double>> calls;  // B's (start, end), host clock
        std::atomic<bool> stop{false};
        const double kernel_start = host_now();
        launch_spin(s, busy_s);
        double a_next_end = 0;
        Timed a = run_beside(
            c.device, lead,
            [&] {
              while (!stop.load()) {
                const double t0 = host_now();
                b_call(call);
                calls.emplace_back(t0, host_now());
                if (call == Call::launch && calls.size() % 256 == 0)
                  check(cudaStreamSynchronize(s2), "sync");
              }
            },
            [&] {
              if (with_a) {
                check(cudaFree(a_buf), "cudaFree A");
                a_buf = nullptr;
                std::size_t free_b = 0, total_b = 0;
                check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo A");
                a_next_end = host_now();
              } else {
                host_sleep(busy_s);
              }
              stop.store(true);
            });
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        check(cudaStreamSynchronize(s2), "cudaStreamSynchronize");
        if (a_buf) check(cudaFree(a_buf), "cudaFree A");
        const double longest = longest_call_during(calls, a);
        if (!with_a) {
          longest_alone.push_back(longest);
          continue;
        }
        longest_during.push_back(longest);
        a_s.push_back(a.end - a.start);
        busy_left.push_back(std::max(0.0, kernel_start + busy_s - a.start));
        // B's call in flight when A's cudaFree returned (the one that waited, if any): did A's
        // next call return before it?
        for (auto [t0, t1] : calls)
          if (t0 < a_next_end && t1 > a_next_end - 1e-9) {
            a_next_first.push_back(a_next_end <= t1 ? 1.0 : 0.0);
            break;
          }
      }
    }
    rows[call == Call::meminfo ? "meminfo" : "launch"] = {
        {"longest_call_alone_s", median(longest_alone)},
        {"longest_call_during_a_s", median(longest_during)},
        {"a_s", median(a_s)},
        {"device_busy_after_a_start_s", median(busy_left)},
        {"a_next_first", a_next_first}};
  }
  check(cudaStreamDestroy(s), "cudaStreamDestroy");
  check(cudaStreamDestroy(s2), "cudaStreamDestroy");
  // Verdict: B's calls waited through more than half of A's cudaFree (beyond what the kernel
  // alone cost them).
  const auto holds = [&](const char* k) {
    const Json& r = rows[k];
    return r["longest_call_during_a_s"].get<double>() - r["longest_call_alone_s"].get<double>() >=
           0.5 * r["a_s"].get<double>();
  };
  return Json{
      {"method", fmt::format("thread A: cudaFree of {} GiB {} s into a {} s spin kernel "
                             "on another stream, then one cudaMemGetInfo; thread B: "
                             "back-to-back cudaMemGetInfo (or empty launches on a third "
                             "stream) from {} s before A; the same without A (alone); {} "
                             "repetitions, medians; host clock",
                             static_cast<double>(g) / (1ull << 30), lead, busy_s, lead, reps)},
      {"rows", rows},
      {"summary",
       {{"free_holds_driver_for_meminfo", holds("meminfo")},
        {"free_holds_driver_for_launch", holds("launch")}}}};
}

}  // namespace prestage::probe
