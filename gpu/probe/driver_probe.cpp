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

}  // namespace prestage::probe
