// PCIe and host-memory questions of docs/story.md. See probes.hpp for each function's contract.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "gpu/probe/cuda_util.hpp"
#include "gpu/probe/kernels.hpp"
#include "gpu/probe/probes.hpp"
#include "gpu/probe/stats.hpp"

namespace prestage::probe {
namespace {

// Host and device staging buffers for the link tests (each max_bytes, pattern-filled).
struct LinkBuffers {
  explicit LinkBuffers(std::size_t bytes)
      : pinned(bytes), pageable(bytes), dev(device_bytes(bytes)) {}
  gpu::PinnedHostBuffer<std::uint8_t> pinned;  // max_bytes, cudaMallocHost
  PageableBuffer pageable;                     // max_bytes, aligned_alloc, touched
  gpu::DeviceBuffer<std::uint8_t> dev;         // max_bytes, cudaMalloc
};

int reps_for(std::uint64_t bytes, bool quick) {
  if (quick) return bytes <= 1 * MiB ? 7 : 3;
  if (bytes <= 1 * MiB) return 21;
  if (bytes <= 64 * MiB) return 9;
  if (bytes <= 256 * MiB) return 7;
  return 5;
}

// One timed copy: {device seconds between events around it, host seconds of the call}.
struct CopyTime {
  double device_s, call_s;
};
CopyTime timed_copy(void* dst, const void* src, std::size_t n, cudaMemcpyKind kind, cudaStream_t s,
                    Event& e0, Event& e1) {
  e0.record(s);
  const double t0 = host_now();
  PROBE_CUDA(cudaMemcpyAsync(dst, src, n, kind, s));
  const double call = host_now() - t0;
  e1.record(s);
  e1.synchronize();
  return {seconds_between(e0, e1), call};
}

// Round trip host -> device -> host through `host` (src region [0, n), dst region [2n, 3n)).
bool round_trip_ok(std::uint8_t* host, std::uint8_t* dev, std::size_t n, cudaStream_t s) {
  fill_host_pattern(host, n, 0xabcdef);
  std::memset(host + 2 * n, 0x11, n);
  PROBE_CUDA(cudaMemcpyAsync(dev, host, n, cudaMemcpyHostToDevice, s));
  PROBE_CUDA(cudaMemcpyAsync(host + 2 * n, dev, n, cudaMemcpyDeviceToHost, s));
  PROBE_CUDA(cudaStreamSynchronize(s));
  return std::memcmp(host, host + 2 * n, n) == 0;
}

// Two copies released together by a gate event; times relative to the gate.
using PairTimes = PairTiming;
PairTimes gated_pair(void* da, const void* sa, cudaMemcpyKind ka, void* db, const void* sb,
                     cudaMemcpyKind kb, std::size_t n, cudaStream_t s1, cudaStream_t s2,
                     cudaStream_t g) {
  Event gate, as, ae, bs, be;
  launch_spin(g, 0.005);  // holds both streams until both copies are queued
  gate.record(g);
  PROBE_CUDA(cudaStreamWaitEvent(s1, gate, 0));
  PROBE_CUDA(cudaStreamWaitEvent(s2, gate, 0));
  as.record(s1);
  PROBE_CUDA(cudaMemcpyAsync(da, sa, n, ka, s1));
  ae.record(s1);
  bs.record(s2);
  PROBE_CUDA(cudaMemcpyAsync(db, sb, n, kb, s2));
  be.record(s2);
  ae.synchronize();
  be.synchronize();
  return {seconds_between(gate, as), seconds_between(gate, ae), seconds_between(gate, bs),
          seconds_between(gate, be)};
}

Json pair_json(const std::vector<PairTimes>& v, std::size_t n, double solo_bw) {
  Json reps = Json::array();
  std::vector<double> agg, overlap, bw_a, bw_b, end_ratio;
  int a_first = 0;
  for (const PairTimes& p : v) {
    const double span = std::max(p.a_end, p.b_end) - std::min(p.a_start, p.b_start);
    const double ov = std::max(0.0, std::min(p.a_end, p.b_end) - std::max(p.a_start, p.b_start));
    const double shorter = std::min(p.a_end - p.a_start, p.b_end - p.b_start);
    agg.push_back(2.0 * n / span);
    overlap.push_back(shorter > 0 ? ov / shorter : 0);
    bw_a.push_back(n / (p.a_end - p.a_start));
    bw_b.push_back(n / (p.b_end - p.b_start));
    const PairVerdict pv = classify_pair(p);
    end_ratio.push_back(pv.first_end_ratio);
    a_first += pv.a_finished_first ? 1 : 0;
    reps.push_back(Json{{"a_start_s", p.a_start},
                        {"a_end_s", p.a_end},
                        {"b_start_s", p.b_start},
                        {"b_end_s", p.b_end}});
  }
  const double ov = median(overlap);
  // Verdict from the end times (see classify_pair): start events cannot see a copy-engine queue.
  const double er = median(end_ratio);
  const char* verdict = classify_pair({0, er, 0, 1}).verdict;
  return Json{{"bytes_each", n},
              {"repetitions", reps},
              {"median_aggregate_bw", median(agg)},
              {"median_overlap_fraction", ov},
              {"median_first_end_ratio", er},
              {"first_submitted_finished_first", a_first},
              {"median_bw_a", median(bw_a)},
              {"median_bw_b", median(bw_b)},
              {"solo_bw", solo_bw},
              {"aggregate_over_solo", median(agg) / solo_bw},
              {"verdict", verdict}};
}

}  // namespace

Json probe_pcie(ProbeContext& c) {
  const std::size_t max_bytes = c.quick ? 64 * MiB : 4 * GiB;
  LinkBuffers buf(max_bytes);
  Stream s1, s2, g;
  Event e0, e1;
  fill_host_pattern(buf.pinned.data(), max_bytes, 0x1234);
  launch_fill(buf.dev.data(), max_bytes, 0x4321, s1);
  PROBE_CUDA(cudaStreamSynchronize(s1));
  Json out;

  // Correctness first: a round trip through each kind of host memory returns the pattern.
  const std::size_t vn = std::min<std::size_t>(16 * MiB, max_bytes / 4);
  out["round_trip_pinned_ok"] = round_trip_ok(buf.pinned.data(), buf.dev.data(), vn, s1);
  out["round_trip_pageable_ok"] = round_trip_ok(buf.pageable.get(), buf.dev.data(), vn, s1);
  fill_host_pattern(buf.pinned.data(), max_bytes, 0x1234);
  if (!out["round_trip_pinned_ok"].get<bool>() || !out["round_trip_pageable_ok"].get<bool>())
    throw std::runtime_error("PCIe round trip returned different bytes");

  // Bandwidth by size.
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t n = 4 * KiB; n <= max_bytes; n *= 4) sizes.push_back(n);
  Json bw = Json::object();
  for (const char* dir : {"h2d", "d2h"}) {
    for (const char* kind : {"pinned", "pageable"}) {
      const bool h2d = std::string(dir) == "h2d";
      std::uint8_t* host = std::string(kind) == "pinned" ? buf.pinned.data() : buf.pageable.get();
      Json rows = Json::array();
      std::vector<double> xs, ys;
      for (std::uint64_t n : sizes) {
        const int reps = reps_for(n, c.quick);
        std::vector<double> dev_s, call_s;
        for (int r = -2; r < reps; ++r) {  // two warm-ups
          const CopyTime t =
              h2d ? timed_copy(buf.dev.data(), host, n, cudaMemcpyHostToDevice, s1, e0, e1)
                  : timed_copy(host, buf.dev.data(), n, cudaMemcpyDeviceToHost, s1, e0, e1);
          if (r < 0) continue;
          dev_s.push_back(t.device_s);
          call_s.push_back(t.call_s);
        }
        const double med = median(dev_s);
        rows.push_back(Json{{"bytes", n},
                            {"repetitions", reps},
                            {"device_s", dev_s},
                            {"call_s", call_s},
                            {"median_s", med},
                            {"median_call_s", median(call_s)},
                            {"bandwidth", n / med}});
        xs.push_back(static_cast<double>(n));
        ys.push_back(med);
      }
      const CostFit f = fit_cost(xs, ys, true);
      bw[dir][kind] = {{"rows", rows},
                       {"fit",
                        {{"latency_s", f.fixed},
                         {"bandwidth", f.slope > 0 ? 1.0 / f.slope : 0.0},
                         {"rms_rel_residual", f.rms_rel_residual},
                         {"max_rel_residual", f.max_rel_residual}}},
                       {"smallest_size_s", ys.front()}};
    }
  }
  out["bandwidth"] = bw;
  auto solo_bw = [&](const char* dir, std::uint64_t n) {
    for (const Json& r : bw[dir]["pinned"]["rows"])
      if (r["bytes"] == n) return r["bandwidth"].get<double>();
    return 0.0;
  };

  // Concurrency: full duplex and two copies in one direction, regions [k n, (k+1) n).
  const std::size_t cn = max_bytes / 4;
  const int creps = c.quick ? 2 : 5;
  std::uint8_t* hp = buf.pinned.data();
  std::uint8_t* dp = buf.dev.data();
  std::vector<PairTimes> duplex, h2d2, d2h2;
  for (int r = 0; r < creps; ++r) {
    duplex.push_back(gated_pair(dp, hp, cudaMemcpyHostToDevice, hp + 2 * cn, dp + 2 * cn,
                                cudaMemcpyDeviceToHost, cn, s1, s2, g));
    h2d2.push_back(gated_pair(dp, hp, cudaMemcpyHostToDevice, dp + cn, hp + cn,
                              cudaMemcpyHostToDevice, cn, s1, s2, g));
    d2h2.push_back(gated_pair(hp + 2 * cn, dp + 2 * cn, cudaMemcpyDeviceToHost, hp + 3 * cn,
                              dp + 3 * cn, cudaMemcpyDeviceToHost, cn, s1, s2, g));
  }
  out["duplex"] = pair_json(duplex, cn, solo_bw("h2d", cn));
  out["duplex"]["solo_bw_d2h"] = solo_bw("d2h", cn);
  out["same_direction_h2d"] = pair_json(h2d2, cn, solo_bw("h2d", cn));
  out["same_direction_d2h"] = pair_json(d2h2, cn, solo_bw("d2h", cn));

  // Does a pageable copy block the calling host thread?
  const std::size_t pn = c.quick ? 16 * MiB : 256 * MiB;
  const double spin = 0.05;
  const int preps = c.quick ? 2 : 5;
  struct Case {
    const char* name;
    bool h2d, pageable, busy;
    std::size_t n;
  };
  const std::vector<Case> cases = {
      {"h2d_pageable_idle_stream", true, true, false, pn},
      {"d2h_pageable_idle_stream", false, true, false, pn},
      {"h2d_pinned_idle_stream", true, false, false, pn},
      {"d2h_pinned_idle_stream", false, false, false, pn},
      {"h2d_pageable_busy_stream", true, true, true, pn},
      {"h2d_pageable_64KiB_busy_stream", true, true, true, 64 * KiB},
      {"d2h_pageable_busy_stream", false, true, true, pn},
      {"h2d_pinned_busy_stream", true, false, true, pn},
  };
  Json blocking = Json::array();
  for (const Case& k : cases) {
    std::vector<double> call_s, dev_s;
    for (int r = 0; r < preps; ++r) {
      std::uint8_t* host = k.pageable ? buf.pageable.get() : buf.pinned.data();
      if (k.busy) launch_spin(s1, spin);
      e0.record(s1);
      const double t0 = host_now();
      if (k.h2d)
        PROBE_CUDA(cudaMemcpyAsync(dp, host, k.n, cudaMemcpyHostToDevice, s1));
      else
        PROBE_CUDA(cudaMemcpyAsync(host, dp, k.n, cudaMemcpyDeviceToHost, s1));
      call_s.push_back(host_now() - t0);
      e1.record(s1);
      e1.synchronize();
      dev_s.push_back(seconds_between(e0, e1));
    }
    const double mc = median(call_s), md = median(dev_s);
    blocking.push_back(Json{{"case", k.name},
                            {"bytes", k.n},
                            {"stream_busy_s", k.busy ? spin : 0.0},
                            {"call_s", call_s},
                            {"copy_s", dev_s},
                            {"median_call_s", mc},
                            {"median_copy_s", md},
                            {"call_over_copy", mc / md}});
  }
  out["pageable_blocking"] = blocking;
  auto call_over = [&](const char* name) {
    for (const Json& b : blocking)
      if (b["case"] == name) return b["call_over_copy"].get<double>();
    return 0.0;
  };
  auto call_s_of = [&](const char* name) {
    for (const Json& b : blocking)
      if (b["case"] == name) return b["median_call_s"].get<double>();
    return 0.0;
  };

  // The pinned H2D rate again at the largest size, after everything above: from the same
  // cudaMallocHost buffer, and from the pageable buffer registered with cudaHostRegister, the
  // memory the staging runtime uploads from. Session i's probe (2026-12-07c) measured 42.8 GB/s
  // in the sweep while the same lease's staged uploads moved at 55.1 GB/s (every other lease:
  // 54-55 GB/s both): a rate that differs here from the sweep's flags the sweep.
  Json pinned_check = Json::object();
  {
    const int reps = c.quick ? 2 : 5;
    auto rate = [&](const std::uint8_t* host) {
      std::vector<double> dev_s;
      for (int r = -2; r < reps; ++r) {
        const CopyTime t =
            timed_copy(buf.dev.data(), host, max_bytes, cudaMemcpyHostToDevice, s1, e0, e1);
        if (r >= 0) dev_s.push_back(t.device_s);
      }
      return static_cast<double>(max_bytes) / median(dev_s);
    };
    const double again = rate(buf.pinned.data());
    PROBE_CUDA(cudaHostRegister(buf.pageable.get(), max_bytes, cudaHostRegisterDefault));
    double registered = 0;
    try {
      registered = rate(buf.pageable.get());
    } catch (...) {
      (void)cudaHostUnregister(buf.pageable.get());
      throw;
    }
    PROBE_CUDA(cudaHostUnregister(buf.pageable.get()));
    const double sweep = solo_bw("h2d", max_bytes);
    pinned_check = {{"bytes", max_bytes},
                    {"repetitions", reps},
                    {"sweep_bandwidth", sweep},
                    {"malloc_host_again_bandwidth", again},
                    {"host_registered_bandwidth", registered},
                    {"again_over_sweep", sweep > 0 ? again / sweep : 0.0},
                    {"registered_over_sweep", sweep > 0 ? registered / sweep : 0.0}};
  }
  out["pinned_check"] = pinned_check;
  out["pinned_check_method"] =
      "after the rest of the section: H2D copies of the largest size from the cudaMallocHost "
      "buffer again and from the pageable buffer registered (cudaHostRegister, default flags), "
      "2 warm-ups then the repetitions, CUDA events, medians; ratios against the sweep's rate";

  out["method"] = fmt::format(
      "cudaMemcpyAsync on a non-blocking stream between a {} B device buffer and a pinned "
      "(cudaMallocHost) or pageable (aligned_alloc, pattern-filled and touched) buffer; CUDA "
      "events around each copy; sizes 4 KiB x 4^k up to {} B; 2 warm-ups then 21 (<= 1 MiB), "
      "9 (<= 64 MiB), 7 (256 MiB) or 5 repetitions, medians; latency + bandwidth from a "
      "least-squares fit of relative residuals over the medians; concurrency: two {} B copies "
      "released by one gate event, {} repetitions, medians; blocking: host clock around the "
      "call, {} B, {} repetitions",
      max_bytes, max_bytes, cn, creps, pn, preps);
  const double h2d_solo = solo_bw("h2d", cn), d2h_solo = solo_bw("d2h", cn);
  out["summary"] = {
      {"h2d_pageable_blocks_host", call_over("h2d_pageable_idle_stream") >= 0.5},
      {"d2h_pageable_blocks_host", call_over("d2h_pageable_idle_stream") >= 0.5},
      {"h2d_pageable_waits_for_stream", call_s_of("h2d_pageable_busy_stream") >= 0.5 * spin},
      {"d2h_pageable_waits_for_stream", call_s_of("d2h_pageable_busy_stream") >= 0.5 * spin},
      {"same_direction_h2d", out["same_direction_h2d"]["verdict"]},
      {"same_direction_d2h", out["same_direction_d2h"]["verdict"]},
      {"same_direction_h2d_aggregate", out["same_direction_h2d"]["median_aggregate_bw"]},
      {"same_direction_d2h_aggregate", out["same_direction_d2h"]["median_aggregate_bw"]},
      {"bidirectional_aggregate", out["duplex"]["median_aggregate_bw"]},
      {"bidirectional_over_sum_of_solo",
       out["duplex"]["median_aggregate_bw"].get<double>() / (h2d_solo + d2h_solo)},
      {"concurrency_bytes_each", cn},
      {"h2d_pinned_again_over_sweep", pinned_check["again_over_sweep"]},
      {"h2d_registered_over_sweep", pinned_check["registered_over_sweep"]}};
  return out;
}

Json probe_host_memory(ProbeContext& c) {
  const std::vector<std::uint64_t> sizes =
      c.quick ? std::vector<std::uint64_t>{16 * MiB, 64 * MiB}
              : std::vector<std::uint64_t>{64 * MiB, 256 * MiB, 1 * GiB, 4 * GiB};
  const int reps = c.quick ? 2 : 3;
  PageableBuffer pageable(sizes.back());
  Json rows = Json::array();
  std::vector<double> gib, reg, unreg, mh, fh;
  for (std::uint64_t n : sizes) {
    std::vector<double> vr, vu, vm, vf;
    for (int r = 0; r < reps; ++r) {
      double t0 = host_now();
      PROBE_CUDA(cudaHostRegister(pageable.get(), n, cudaHostRegisterDefault));
      vr.push_back(host_now() - t0);
      t0 = host_now();
      PROBE_CUDA(cudaHostUnregister(pageable.get()));
      vu.push_back(host_now() - t0);
      void* p = nullptr;
      t0 = host_now();
      PROBE_CUDA(cudaMallocHost(&p, n));
      vm.push_back(host_now() - t0);
      static_cast<volatile std::uint8_t*>(p)[n - 1] = 1;
      t0 = host_now();
      PROBE_CUDA(cudaFreeHost(p));
      vf.push_back(host_now() - t0);
    }
    rows.push_back(Json{{"bytes", n},
                        {"host_register_s", vr},
                        {"host_unregister_s", vu},
                        {"malloc_host_s", vm},
                        {"free_host_s", vf}});
    gib.push_back(static_cast<double>(n) / GiB);
    reg.push_back(median(vr));
    unreg.push_back(median(vu));
    mh.push_back(median(vm));
    fh.push_back(median(vf));
  }
  auto fit = [&](const std::vector<double>& y) {
    const CostFit f = fit_cost(gib, y, true);
    return Json{{"fixed_s", f.fixed},
                {"fixed_clamped_to_zero", f.clamped},
                {"per_gib_s", f.slope},
                {"points", f.points},
                {"rms_rel_residual", f.rms_rel_residual},
                {"max_rel_residual", f.max_rel_residual}};
  };
  Json out;
  out["method"] = fmt::format(
      "host clock around cudaHostRegister(default flags)/cudaHostUnregister of a touched "
      "page-aligned malloc'd buffer and cudaMallocHost/cudaFreeHost, {} repetitions per size, "
      "medians, least-squares fit of relative residuals: fixed + per GiB",
      reps);
  out["rows"] = rows;
  out["summary"] = {{"host_register", fit(reg)},
                    {"host_unregister", fit(unreg)},
                    {"malloc_host", fit(mh)},
                    {"free_host", fit(fh)}};
  return out;
}

}  // namespace prestage::probe

namespace prestage::probe {

// Probe section multi_gpu_h2d: pinned H2D copies of G GiB into each of two devices, alone and both
// at once (one host thread a device, released together), to see whether the host side (pinned
// memory bandwidth, the PCIe root) caps their sum. Skipped, with the reason, on one device.
Json probe_multi_gpu_h2d(ProbeContext& c) {
  int count = 0;
  PROBE_CUDA(cudaGetDeviceCount(&count));
  const std::size_t bytes = c.quick ? 256 * MiB : 4 * GiB;
  const int reps = c.quick ? 3 : 5;
  const std::string method = fmt::format(
      "a pinned H2D cudaMemcpyAsync of {} GiB (cudaMallocHost, portable) into devices 0 and 1, "
      "each alone and both at once (one host thread a device, released by one latch); device "
      "intervals by CUDA events, the pair's span by the host clock; {} repetitions, medians",
      static_cast<double>(bytes) / GiB, reps);
  if (count < 2)
    return Json{{"method", method},
                {"skipped", fmt::format("{} CUDA device(s): the section needs two", count)},
                {"summary", {{"devices", count}}}};
  struct Side {
    int device = 0;
    void* host = nullptr;  // bytes, pinned
    void* dev = nullptr;   // bytes, on `device`
    cudaStream_t stream = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
  };
  Side side[2];
  // Frees everything on every way out, each resource with its own device current.
  struct Release {
    Side* s;
    int back;
    ~Release() {
      for (int d = 0; d < 2; ++d) {
        (void)cudaSetDevice(s[d].device);
        if (s[d].e0) (void)cudaEventDestroy(s[d].e0);
        if (s[d].e1) (void)cudaEventDestroy(s[d].e1);
        if (s[d].stream) (void)cudaStreamDestroy(s[d].stream);
        if (s[d].dev) (void)cudaFree(s[d].dev);
        if (s[d].host) (void)cudaFreeHost(s[d].host);
      }
      (void)cudaSetDevice(back);
    }
  } release{side, c.device};
  for (int d = 0; d < 2; ++d) {
    side[d].device = d;
    PROBE_CUDA(cudaSetDevice(d));
    PROBE_CUDA(cudaHostAlloc(&side[d].host, bytes, cudaHostAllocPortable));
    std::memset(side[d].host, 0x5a + d, bytes);
    PROBE_CUDA(cudaMalloc(&side[d].dev, bytes));
    PROBE_CUDA(cudaStreamCreateWithFlags(&side[d].stream, cudaStreamNonBlocking));
    PROBE_CUDA(cudaEventCreate(&side[d].e0));
    PROBE_CUDA(cudaEventCreate(&side[d].e1));
  }
  // One copy on side d, from this thread: device seconds; the host's end time by `end`.
  auto copy = [&](int d, double* end) {
    PROBE_CUDA(cudaSetDevice(d));
    PROBE_CUDA(cudaEventRecord(side[d].e0, side[d].stream));
    PROBE_CUDA(
        cudaMemcpyAsync(side[d].dev, side[d].host, bytes, cudaMemcpyHostToDevice, side[d].stream));
    PROBE_CUDA(cudaEventRecord(side[d].e1, side[d].stream));
    PROBE_CUDA(cudaEventSynchronize(side[d].e1));
    if (end) *end = host_now();
    float ms = 0;
    PROBE_CUDA(cudaEventElapsedTime(&ms, side[d].e0, side[d].e1));
    return ms * 1e-3;
  };
  Json summary;
  std::vector<double> alone[2], together[2], span;
  for (int d = 0; d < 2; ++d) {
    (void)copy(d, nullptr);  // warm-up
    for (int r = 0; r < reps; ++r) alone[d].push_back(copy(d, nullptr));
  }
  for (int r = -1; r < reps; ++r) {  // one warm-up pair
    std::latch go(3);
    double end[2] = {0, 0}, dev_s[2] = {0, 0}, start = 0;
    std::exception_ptr err[2];
    std::vector<std::thread> ts;
    for (int d = 0; d < 2; ++d)
      ts.emplace_back([&, d] {
        try {
          PROBE_CUDA(cudaSetDevice(d));
          go.arrive_and_wait();
          dev_s[d] = copy(d, &end[d]);
        } catch (...) {
          err[d] = std::current_exception();
        }
      });
    start = host_now();
    go.arrive_and_wait();
    for (auto& t : ts) t.join();
    for (auto& e : err)
      if (e) std::rethrow_exception(e);
    if (r < 0) continue;
    for (int d = 0; d < 2; ++d) together[d].push_back(dev_s[d]);
    span.push_back(std::max(end[0], end[1]) - start);
  }
  const double gb = static_cast<double>(bytes);
  const double alone_sum = gb / median(alone[0]) + gb / median(alone[1]);
  const double together_sum = 2 * gb / median(span);
  summary = {{"devices", count},
             {"bytes", bytes},
             {"alone_bandwidth", {gb / median(alone[0]), gb / median(alone[1])}},
             {"together_bandwidth", {gb / median(together[0]), gb / median(together[1])}},
             {"together_aggregate", together_sum},
             {"aggregate_over_alone_sum", together_sum / alone_sum}};
  return Json{{"method", method},
              {"alone_s", {alone[0], alone[1]}},
              {"together_s", {together[0], together[1]}},
              {"together_span_s", span},
              {"summary", summary}};
}

}  // namespace prestage::probe
