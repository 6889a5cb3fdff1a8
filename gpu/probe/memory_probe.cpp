// Device-memory questions of the probe (docs/story.md): the synchronous allocator and the default
// stream-ordered pool. See probes.hpp for each function's contract.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "gpu/probe/cuda_util.hpp"
#include "gpu/probe/kernels.hpp"
#include "gpu/probe/probes.hpp"
#include "gpu/probe/stats.hpp"

namespace prestage::probe {
namespace {

constexpr std::uint64_t kKeepAll = std::numeric_limits<std::uint64_t>::max();

void set_threshold(cudaMemPool_t pool, std::uint64_t t) {
  PROBE_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &t));
}

// Quiesces the device and empties the default pool, then sets its release threshold.
void pool_reset(ProbeContext& c, std::uint64_t threshold) {
  PROBE_CUDA(cudaDeviceSynchronize());
  PROBE_CUDA(cudaMemPoolTrimTo(c.pool, 0));
  set_threshold(c.pool, threshold);
}

void* malloc_async(std::size_t bytes, cudaStream_t s) {
  void* p = nullptr;
  PROBE_CUDA(cudaMallocAsync(&p, bytes, s));
  return p;
}

// Result of a stream/event query: true = complete, false = not ready; any other code throws.
bool query_done(cudaError_t r, const char* call) {
  if (r == cudaSuccess) return true;
  if (r == cudaErrorNotReady) return false;
  throw CudaError(r, call, __FILE__, __LINE__);
}

// Seconds until `e` completes, polled with cudaEventQuery from `t0` (host clock).
double wait_event_poll(const Event& e, double t0) {
  for (;;) {
    if (query_done(cudaEventQuery(e.get()), "cudaEventQuery")) return host_now() - t0;
  }
}

Json pool_json(const PoolState& p) {
  return Json{{"reserved", p.reserved}, {"used", p.used}};
}
Json meminfo_json(const gpu::MemInfo& m) {
  return Json{{"free", m.free_bytes}, {"total", m.total_bytes}};
}

std::uint64_t round_down(std::uint64_t v, std::uint64_t unit) {
  return v / unit * unit;
}

Json fit_json(const std::vector<double>& gib, const std::vector<double>& seconds) {
  const CostFit f = fit_cost(gib, seconds, true);
  return Json{{"fixed_s", f.fixed},
              {"fixed_clamped_to_zero", f.clamped},
              {"per_gib_s", f.slope},
              {"points", f.points},
              {"rms_rel_residual", f.rms_rel_residual},
              {"max_rel_residual", f.max_rel_residual},
              {"fit", "least squares of relative residuals over the per-size medians"}};
}

// Fills (nearly) the whole card through the default pool on `s`: chunks of `chunk` bytes, then a
// remainder, leaving about `margin` bytes free. Every byte is written (cudaMemsetAsync 0x5a).
struct PoolFill {
  std::vector<void*> ptrs;
  std::uint64_t bytes = 0;
  gpu::MemInfo before, after;
  PoolState pool_after;
  double seconds = 0;
  std::string stopped_by;  // error that ended the fill early, empty if none
};
PoolFill fill_pool(ProbeContext& c, cudaStream_t s, std::uint64_t chunk, std::uint64_t margin) {
  PoolFill f;
  f.before = gpu::mem_info();
  const double t0 = host_now();
  std::uint64_t left = f.before.free_bytes > margin ? f.before.free_bytes - margin : 0;
  while (left >= 2 * MiB) {
    const std::uint64_t n = std::min(chunk, round_down(left, 2 * MiB));
    void* p = nullptr;
    const cudaError_t e = probe_try(cudaMallocAsync(&p, n, s));
    if (e != cudaSuccess) {  // the pool's own overhead may leave less than cudaMemGetInfo said
      f.stopped_by = cuda_error_name(e);
      break;
    }
    PROBE_CUDA(cudaMemsetAsync(p, 0x5a, n, s));
    f.ptrs.push_back(p);
    f.bytes += n;
    left -= n;
  }
  PROBE_CUDA(cudaStreamSynchronize(s));
  f.seconds = host_now() - t0;
  f.after = gpu::mem_info();
  f.pool_after = read_pool(c.pool);
  return f;
}
Json fill_json(const PoolFill& f) {
  return Json{{"allocations", f.ptrs.size()},
              {"bytes", f.bytes},
              {"meminfo_before", meminfo_json(f.before)},
              {"meminfo_after", meminfo_json(f.after)},
              {"pool_after", pool_json(f.pool_after)},
              {"seconds", f.seconds},
              {"stopped_by", f.stopped_by}};
}
void free_all_async(std::vector<void*>& ptrs, cudaStream_t s) {
  for (void* p : ptrs) PROBE_CUDA(cudaFreeAsync(p, s));
  ptrs.clear();
}

// cudaMalloc attempt whose failure is a result: {ok, error, host seconds}; frees on success
// only when `keep` is null.
Json try_cudamalloc(std::size_t bytes, void** keep = nullptr) {
  void* p = nullptr;
  const double t0 = host_now();
  const cudaError_t e = probe_try(cudaMalloc(&p, bytes));
  const double dt = host_now() - t0;
  Json j{{"bytes", bytes}, {"ok", e == cudaSuccess}, {"error", cuda_error_name(e)}, {"call_s", dt}};
  if (e == cudaSuccess) {
    if (keep)
      *keep = p;
    else
      PROBE_CUDA(cudaFree(p));
  }
  return j;
}

// Whether the context still works: a small cudaMalloc, a kernel launch and a device sync.
Json context_alive() {
  Json j;
  void* p = nullptr;
  const cudaError_t a = cudaMalloc(&p, 64 * MiB);
  j["malloc_64MiB"] = cuda_error_name(a);
  cudaError_t k = cudaSuccess;
  if (a == cudaSuccess) {
    try {
      launch_fill(p, 64 * MiB, 7, nullptr);
    } catch (const CudaError& e) {
      k = e.code();
    }
  }
  j["kernel_launch"] = cuda_error_name(k);
  const cudaError_t s = cudaDeviceSynchronize();
  j["device_sync"] = cuda_error_name(s);
  if (a == cudaSuccess) (void)cudaFree(p);
  j["alive"] = a == cudaSuccess && k == cudaSuccess && s == cudaSuccess;
  return j;
}

}  // namespace

Json probe_pool_defaults(ProbeContext& c) {
  Json out;
  std::uint64_t thr = 0;
  PROBE_CUDA(cudaMemPoolGetAttribute(c.pool, cudaMemPoolAttrReleaseThreshold, &thr));
  int follow = 0, opportunistic = 0, internal = 0;
  PROBE_CUDA(cudaMemPoolGetAttribute(c.pool, cudaMemPoolReuseFollowEventDependencies, &follow));
  PROBE_CUDA(cudaMemPoolGetAttribute(c.pool, cudaMemPoolReuseAllowOpportunistic, &opportunistic));
  PROBE_CUDA(cudaMemPoolGetAttribute(c.pool, cudaMemPoolReuseAllowInternalDependencies, &internal));
  out["method"] = "cudaMemPoolGetAttribute on the default pool before the probe changed anything";
  out["summary"] = {{"release_threshold", thr},
                    {"reuse_follow_event_dependencies", follow != 0},
                    {"reuse_allow_opportunistic", opportunistic != 0},
                    {"reuse_allow_internal_dependencies", internal != 0},
                    {"reserved_at_start", read_pool(c.pool).reserved}};
  return out;
}

Json probe_pool_reuse(ProbeContext& c) {
  const std::size_t sz = c.quick ? 64 * MiB : 256 * MiB;
  const double spin = c.quick ? 0.05 : 0.1;
  Stream s1, s2;
  Json out;
  out["method"] = fmt::format(
      "block {} B from the default pool (threshold 0) on stream 1, filled, freed with "
      "cudaFreeAsync behind a {} s kernel (pending) or after completion; then cudaMallocAsync of "
      "the same size; reuse = the new block overlaps the freed one; waited = the new "
      "allocation's stream completed an event only after the kernel (>= half its time)",
      sz, spin);
  Json trials = Json::array();

  auto common = [&](Json& t, void* p1, void* p2, const PoolState& before, const PoolState& after) {
    t["same_address"] = p1 == p2;
    t["pool_before_second"] = pool_json(before);
    t["pool_after_second"] = pool_json(after);
    // Reuse = the new block overlaps the freed one (reserved growth is recorded beside it).
    const auto a1 = reinterpret_cast<std::uintptr_t>(p1), a2 = reinterpret_cast<std::uintptr_t>(p2);
    t["reused"] = a2 < a1 + sz && a1 < a2 + sz;
    t["reserved_grew"] = after.reserved > before.reserved;
  };

  // Same stream, free still pending behind the kernel.
  {
    pool_reset(c, 0);
    Json t{{"name", "same_stream_pending"}};
    void* p1 = malloc_async(sz, s1);
    launch_fill(p1, sz, 11, s1);
    launch_spin(s1, spin);
    PROBE_CUDA(cudaFreeAsync(p1, s1));
    const PoolState b = read_pool(c.pool);
    void* p2 = malloc_async(sz, s1);
    const PoolState a = read_pool(c.pool);
    common(t, p1, p2, b, a);
    PROBE_CUDA(cudaFreeAsync(p2, s1));
    trials.push_back(t);
  }
  // Other stream, no event, free pending; optionally with internal dependencies disabled.
  for (int internal_off = 0; internal_off < 2; ++internal_off) {
    pool_reset(c, 0);
    int saved = 1;
    PROBE_CUDA(cudaMemPoolGetAttribute(c.pool, cudaMemPoolReuseAllowInternalDependencies, &saved));
    if (internal_off) {
      int zero = 0;
      PROBE_CUDA(cudaMemPoolSetAttribute(c.pool, cudaMemPoolReuseAllowInternalDependencies, &zero));
    }
    Json t{{"name", internal_off ? "other_stream_pending_no_event_internal_deps_off"
                                 : "other_stream_pending_no_event"}};
    void* p1 = malloc_async(sz, s1);
    launch_fill(p1, sz, 12, s1);
    PROBE_CUDA(cudaStreamSynchronize(s1));
    launch_spin(s1, spin);
    PROBE_CUDA(cudaFreeAsync(p1, s1));
    const double t0 = host_now();
    const PoolState b = read_pool(c.pool);
    void* p2 = malloc_async(sz, s2);
    Event e2;
    e2.record(s2);
    const PoolState a = read_pool(c.pool);
    const double waited_s = wait_event_poll(e2, t0);
    common(t, p1, p2, b, a);
    t["second_stream_done_after_s"] = waited_s;
    t["second_stream_waited"] = waited_s >= 0.5 * spin;
    PROBE_CUDA(cudaFreeAsync(p2, s2));
    PROBE_CUDA(cudaDeviceSynchronize());
    PROBE_CUDA(cudaMemPoolSetAttribute(c.pool, cudaMemPoolReuseAllowInternalDependencies, &saved));
    trials.push_back(t);
  }
  // Other stream, free completed on the GPU, no host synchronisation, no event.
  {
    pool_reset(c, 0);
    Json t{{"name", "other_stream_completed_no_sync"}};
    void* p1 = malloc_async(sz, s1);
    launch_fill(p1, sz, 13, s1);
    PROBE_CUDA(cudaFreeAsync(p1, s1));
    host_sleep(0.05);  // the fill (< 1 ms) and the free have run by now; no CUDA call meanwhile
    const PoolState b = read_pool(c.pool);
    void* p2 = malloc_async(sz, s2);
    const PoolState a = read_pool(c.pool);
    common(t, p1, p2, b, a);
    t["reserved_before_second_shows_release"] = b.reserved < sz;
    PROBE_CUDA(cudaFreeAsync(p2, s2));
    trials.push_back(t);
  }
  // Other stream after an event dependency on the free.
  {
    pool_reset(c, 0);
    Json t{{"name", "other_stream_event_dependency"}};
    void* p1 = malloc_async(sz, s1);
    launch_fill(p1, sz, 14, s1);
    launch_spin(s1, spin);
    PROBE_CUDA(cudaFreeAsync(p1, s1));
    Event ev;
    ev.record(s1);
    PROBE_CUDA(cudaStreamWaitEvent(s2, ev, 0));
    const double t0 = host_now();
    const PoolState b = read_pool(c.pool);
    void* p2 = malloc_async(sz, s2);
    Event e2;
    e2.record(s2);
    const PoolState a = read_pool(c.pool);
    const double waited_s = wait_event_poll(e2, t0);
    common(t, p1, p2, b, a);
    t["second_stream_done_after_s"] = waited_s;
    PROBE_CUDA(cudaFreeAsync(p2, s2));
    trials.push_back(t);
  }
  pool_reset(c, 0);
  out["trials"] = trials;

  auto find = [&](const char* n) -> const Json& {
    for (const Json& t : trials)
      if (t["name"] == n) return t;
    throw std::logic_error(n);
  };
  const Json& same = find("same_stream_pending");
  const Json& pend = find("other_stream_pending_no_event");
  const Json& comp = find("other_stream_completed_no_sync");
  const Json& evt = find("other_stream_event_dependency");
  std::string other;
  if (pend["reused"].get<bool>())
    other = pend["second_stream_waited"].get<bool>() ? "immediate_with_inserted_dependency"
                                                     : "immediate";
  else if (comp["reused"].get<bool>())
    other = "after_free_completes";
  else if (evt["reused"].get<bool>())
    other = "after_event";
  else
    other = "never_without_sync";
  out["summary"] = {
      {"reuse_same_stream", same["reused"].get<bool>() ? "immediate" : "never_without_sync"},
      {"reuse_other_stream", other},
      {"other_stream_pending_reused", pend["reused"]},
      {"other_stream_pending_waited", pend["second_stream_waited"]},
      {"other_stream_completed_reused", comp["reused"]},
      {"other_stream_event_reused", evt["reused"]},
      {"internal_deps_off_reused",
       find("other_stream_pending_no_event_internal_deps_off")["reused"]}};
  return out;
}

Json probe_pool_release_calls(ProbeContext& c) {
  const std::uint64_t chunk = c.quick ? 256 * MiB : 2 * GiB;
  const int nchunks = 4;
  Stream s1, s2;
  Event ev;
  void* small = nullptr;
  struct Call {
    std::string id;
    std::uint64_t threshold;
    std::function<void()> fn;
  };
  const std::uint64_t half = 2 * chunk;
  std::vector<Call> calls = {
      {"nothing", 0, [] { host_sleep(0.2); }},
      {"stream_query", 0, [&] { (void)query_done(cudaStreamQuery(s1), "cudaStreamQuery"); }},
      {"event_query", 0, [&] { (void)query_done(cudaEventQuery(ev), "cudaEventQuery"); }},
      {"event_sync", 0, [&] { PROBE_CUDA(cudaEventSynchronize(ev)); }},
      {"stream_sync", 0, [&] { PROBE_CUDA(cudaStreamSynchronize(s1)); }},
      {"stream_sync_other_stream", 0, [&] { PROBE_CUDA(cudaStreamSynchronize(s2)); }},
      {"device_sync", 0, [&] { PROBE_CUDA(cudaDeviceSynchronize()); }},
      {"mem_get_info", 0, [&] { (void)gpu::mem_info(); }},
      {"cuda_malloc", 0, [&] { PROBE_CUDA(cudaMalloc(&small, 2 * MiB)); }},
      {"malloc_async_other_stream", 0, [&] { small = malloc_async(2 * MiB, s2); }},
      {"trim_to_zero", 0, [&] { PROBE_CUDA(cudaMemPoolTrimTo(c.pool, 0)); }},
      {"stream_sync", half, [&] { PROBE_CUDA(cudaStreamSynchronize(s1)); }},
      {"stream_sync", kKeepAll, [&] { PROBE_CUDA(cudaStreamSynchronize(s1)); }},
      {"device_sync", kKeepAll, [&] { PROBE_CUDA(cudaDeviceSynchronize()); }},
  };
  Json trials = Json::array();
  for (const Call& call : calls) {
    pool_reset(c, call.threshold);
    std::vector<void*> ps;
    for (int i = 0; i < nchunks; ++i) {
      void* p = malloc_async(chunk, s1);
      PROBE_CUDA(cudaMemsetAsync(p, 0xa5, chunk, s1));
      ps.push_back(p);
    }
    free_all_async(ps, s1);
    ev.record(s1);
    host_sleep(0.05);  // the memsets and frees have run on the GPU; no CUDA call meanwhile
    const PoolState r0 = read_pool(c.pool);
    const double t0 = host_now();
    call.fn();
    const double dt = host_now() - t0;
    const PoolState r1 = read_pool(c.pool);
    const gpu::MemInfo m = gpu::mem_info();
    Json t{{"call", call.id},
           {"threshold", call.threshold},
           {"freed_bytes", nchunks * chunk},
           {"pool_before_call", pool_json(r0)},
           {"pool_after_call", pool_json(r1)},
           {"meminfo_after_call", meminfo_json(m)},
           {"call_s", dt},
           {"released_bytes", r0.reserved > r1.reserved ? r0.reserved - r1.reserved : 0}};
    t["released"] = r1.reserved + chunk / 2 < r0.reserved;
    t["valid"] = r0.reserved >= nchunks * chunk;  // nothing released before the call
    trials.push_back(t);
    PROBE_CUDA(cudaDeviceSynchronize());
    if (small) {
      if (call.id == "cuda_malloc")
        PROBE_CUDA(cudaFree(small));
      else
        PROBE_CUDA(cudaFreeAsync(small, s2));
      small = nullptr;
    }
  }
  pool_reset(c, 0);
  Json out;
  out["method"] = fmt::format(
      "{} x {} B cudaMallocAsync + cudaMemsetAsync + cudaFreeAsync on stream 1, 50 ms host "
      "sleep (GPU done, no CUDA call), pool reserved read, then the call; released = reserved "
      "dropped by more than half a block; one trial per call",
      nchunks, chunk);
  out["trials"] = trials;
  Json by = Json::array();
  bool keeps_threshold = false, max_keeps = true;
  for (const Json& t : trials) {
    const std::uint64_t thr = t["threshold"];
    if (thr == 0 && t["released"].get<bool>() && t["call"] != "trim_to_zero")
      by.push_back(t["call"]);
    if (thr == half)
      keeps_threshold = t["pool_after_call"]["reserved"].get<std::uint64_t>() <= half &&
                        t["pool_after_call"]["reserved"].get<std::uint64_t>() + chunk / 2 >= half;
    if (thr == kKeepAll && t["released"].get<bool>()) max_keeps = false;
  }
  out["summary"] = {{"released_to_os_by", by},
                    {"threshold_between_keeps_threshold", keeps_threshold},
                    {"threshold_tested_bytes", half},
                    {"threshold_max_keeps_all", max_keeps}};
  return out;
}

Json probe_pool_vs_cudamalloc(ProbeContext& c) {
  const std::uint64_t chunk = c.quick ? 8 * GiB : 4 * GiB;
  const std::uint64_t margin = 1 * GiB;
  const std::size_t big = round_down(c.total_memory / 2, 2 * MiB);
  const double spin = c.quick ? 0.1 : 0.3;
  Stream s1, s2;
  Json trials = Json::array();

  // A: threshold 0, frees pending behind a kernel, no host sync.
  {
    pool_reset(c, 0);
    PoolFill f = fill_pool(c, s1, chunk, margin);
    Json t{{"name", "threshold0_frees_pending"}, {"fill", fill_json(f)}};
    launch_spin(s1, spin);
    free_all_async(f.ptrs, s1);
    t["pool_before_malloc"] = pool_json(read_pool(c.pool));
    t["cuda_malloc"] = try_cudamalloc(big);
    t["cuda_malloc_waited_for_kernel"] = t["cuda_malloc"]["call_s"].get<double>() >= 0.5 * spin;
    t["pool_after_malloc"] = pool_json(read_pool(c.pool));
    t["meminfo_after_malloc"] = meminfo_json(gpu::mem_info());
    PROBE_CUDA(cudaStreamSynchronize(s1));
    trials.push_back(t);
  }
  // B: threshold 0, frees completed on the GPU, no host synchronisation.
  {
    pool_reset(c, 0);
    PoolFill f = fill_pool(c, s1, chunk, margin);
    Json t{{"name", "threshold0_frees_completed_no_sync"}, {"fill", fill_json(f)}};
    free_all_async(f.ptrs, s1);
    host_sleep(0.1);
    t["pool_before_malloc"] = pool_json(read_pool(c.pool));
    t["cuda_malloc"] = try_cudamalloc(big);
    t["pool_after_malloc"] = pool_json(read_pool(c.pool));
    t["meminfo_after_malloc"] = meminfo_json(gpu::mem_info());
    trials.push_back(t);
  }
  // C: threshold 0, after cudaStreamSynchronize of the freeing stream.
  {
    pool_reset(c, 0);
    PoolFill f = fill_pool(c, s1, chunk, margin);
    Json t{{"name", "threshold0_after_stream_sync"}, {"fill", fill_json(f)}};
    free_all_async(f.ptrs, s1);
    PROBE_CUDA(cudaStreamSynchronize(s1));
    t["pool_before_malloc"] = pool_json(read_pool(c.pool));
    t["meminfo_before_malloc"] = meminfo_json(gpu::mem_info());
    t["cuda_malloc"] = try_cudamalloc(big);
    trials.push_back(t);
  }
  // D: threshold UINT64_MAX: an idle pool holding (nearly) the whole card.
  {
    pool_reset(c, kKeepAll);
    PoolFill f = fill_pool(c, s1, chunk, margin);
    Json t{{"name", "idle_pool_threshold_max"}, {"fill", fill_json(f)}};
    free_all_async(f.ptrs, s1);
    PROBE_CUDA(cudaStreamSynchronize(s1));
    const PoolState held = read_pool(c.pool);
    const gpu::MemInfo mi = gpu::mem_info();
    t["pool_idle"] = pool_json(held);
    t["meminfo_idle"] = meminfo_json(mi);
    t["cuda_malloc"] = try_cudamalloc(big);
    t["context_after_cuda_malloc"] = context_alive();
    // The pool itself reuses what it holds, from another stream.
    void* p = nullptr;
    const cudaError_t e = probe_try(cudaMallocAsync(&p, big, s2));
    t["malloc_async_other_stream_ok"] = e == cudaSuccess;
    t["pool_after_malloc_async"] = pool_json(read_pool(c.pool));
    if (e == cudaSuccess) PROBE_CUDA(cudaFreeAsync(p, s2));
    PROBE_CUDA(cudaDeviceSynchronize());
    const double t0 = host_now();
    PROBE_CUDA(cudaMemPoolTrimTo(c.pool, 0));
    t["trim_s"] = host_now() - t0;
    t["trimmed_bytes"] = held.reserved - read_pool(c.pool).reserved;
    t["meminfo_after_trim"] = meminfo_json(gpu::mem_info());
    t["cuda_malloc_after_trim"] = try_cudamalloc(big);
    t["meminfo_counts_pool_reserved_as_used"] =
        f.before.free_bytes > mi.free_bytes &&
        f.before.free_bytes - mi.free_bytes + margin >= held.reserved;
    trials.push_back(t);
  }
  pool_reset(c, 0);
  Json out;
  out["method"] = fmt::format(
      "fill the card through the default pool ({} B chunks, cudaMemsetAsync'd, leaving {} B "
      "free), cudaFreeAsync all, then cudaMalloc({} B = half the card); one trial per condition",
      chunk, margin, big);
  out["trials"] = trials;
  out["summary"] = {
      {"cudamalloc_reclaims_pending_frees", trials[0]["cuda_malloc"]["ok"]},
      {"cudamalloc_waits_for_pending_frees", trials[0]["cuda_malloc_waited_for_kernel"]},
      {"cudamalloc_reclaims_completed_frees_before_sync", trials[1]["cuda_malloc"]["ok"]},
      {"cudamalloc_after_stream_sync_ok", trials[2]["cuda_malloc"]["ok"]},
      {"cudamalloc_reclaims_idle_pool", trials[3]["cuda_malloc"]["ok"]},
      {"cudamalloc_after_trim_ok", trials[3]["cuda_malloc_after_trim"]["ok"]},
      {"idle_pool_reused_by_malloc_async", trials[3]["malloc_async_other_stream_ok"]},
      {"meminfo_counts_pool_reserved_as_used", trials[3]["meminfo_counts_pool_reserved_as_used"]},
      {"idle_pool_reserved", trials[3]["pool_idle"]["reserved"]},
      {"meminfo_free_while_idle_pool", trials[3]["meminfo_idle"]["free"]},
      {"meminfo_free_before_fill", trials[3]["fill"]["meminfo_before"]["free"]}};
  return out;
}

Json probe_pool_costs(ProbeContext& c) {
  std::vector<std::uint64_t> sizes =
      c.quick ? std::vector<std::uint64_t>{64 * MiB, 256 * MiB, 1 * GiB}
              : std::vector<std::uint64_t>{256 * MiB, 1 * GiB, 4 * GiB, 16 * GiB, 64 * GiB};
  const int reps = c.quick ? 2 : 3;
  Stream s1;
  Json rows = Json::array();
  std::vector<double> gib, cold, free_call, warm, trim, release;
  for (std::uint64_t sz : sizes) {
    std::vector<double> v_cold, v_cold_call, v_free, v_warm, v_trim, v_rel, v_held, v_left;
    for (int r = 0; r < reps; ++r) {
      // Threshold UINT64_MAX: cold allocation, free, warm reuse, trim.
      pool_reset(c, kKeepAll);
      double t0 = host_now();
      void* p = malloc_async(sz, s1);
      v_cold_call.push_back(host_now() - t0);
      PROBE_CUDA(cudaStreamSynchronize(s1));
      v_cold.push_back(host_now() - t0);
      launch_fill(p, sz, 21, s1);
      PROBE_CUDA(cudaStreamSynchronize(s1));
      t0 = host_now();
      PROBE_CUDA(cudaFreeAsync(p, s1));
      v_free.push_back(host_now() - t0);
      PROBE_CUDA(cudaStreamSynchronize(s1));
      t0 = host_now();
      p = malloc_async(sz, s1);
      PROBE_CUDA(cudaStreamSynchronize(s1));
      v_warm.push_back(host_now() - t0);
      PROBE_CUDA(cudaFreeAsync(p, s1));
      PROBE_CUDA(cudaStreamSynchronize(s1));
      const std::uint64_t held = read_pool(c.pool).reserved;
      t0 = host_now();
      PROBE_CUDA(cudaMemPoolTrimTo(c.pool, 0));
      v_trim.push_back(host_now() - t0);
      v_held.push_back(static_cast<double>(held));
      v_left.push_back(static_cast<double>(read_pool(c.pool).reserved));
      // Threshold 0: the stream sync after the free releases the memory.
      pool_reset(c, 0);
      p = malloc_async(sz, s1);
      launch_fill(p, sz, 22, s1);
      PROBE_CUDA(cudaStreamSynchronize(s1));
      PROBE_CUDA(cudaFreeAsync(p, s1));
      t0 = host_now();
      PROBE_CUDA(cudaStreamSynchronize(s1));
      v_rel.push_back(host_now() - t0);
    }
    Json row{{"bytes", sz},
             {"malloc_async_cold_call_s", v_cold_call},
             {"malloc_async_cold_s", v_cold},
             {"free_async_call_s", v_free},
             {"malloc_async_warm_s", v_warm},
             {"trim_s", v_trim},
             {"reserved_before_trim", v_held},
             {"reserved_after_trim", v_left},
             {"release_at_stream_sync_s", v_rel}};
    row["median"] = {{"malloc_async_cold_s", median(v_cold)},
                     {"free_async_call_s", median(v_free)},
                     {"malloc_async_warm_s", median(v_warm)},
                     {"trim_s", median(v_trim)},
                     {"release_at_stream_sync_s", median(v_rel)}};
    rows.push_back(row);
    gib.push_back(static_cast<double>(sz) / GiB);
    cold.push_back(median(v_cold));
    free_call.push_back(median(v_free));
    warm.push_back(median(v_warm));
    trim.push_back(median(v_trim));
    release.push_back(median(v_rel));
  }
  pool_reset(c, 0);
  Json out;
  out["method"] = fmt::format(
      "one cudaMallocAsync of each size on a fresh (trimmed) pool, host clock around call + "
      "cudaStreamSynchronize (cold: maps memory); cudaFreeAsync call; warm = same size again "
      "from the idle pool (threshold UINT64_MAX); cudaMemPoolTrimTo(pool, 0) of the idle block; "
      "release = cudaStreamSynchronize after the free with threshold 0; {} repetitions, medians, "
      "fitted fixed + per GiB",
      reps);
  out["rows"] = rows;
  out["summary"] = {{"malloc_async", fit_json(gib, cold)},
                    {"free_async", fit_json(gib, free_call)},
                    {"malloc_async_warm", fit_json(gib, warm)},
                    {"trim", fit_json(gib, trim)},
                    {"release_at_stream_sync", fit_json(gib, release)}};
  return out;
}

Json probe_trim_pending(ProbeContext& c) {
  const std::uint64_t sz = c.quick ? 1 * GiB : 8 * GiB;
  const double spin = c.quick ? 0.05 : 0.2;
  Stream s1;
  pool_reset(c, kKeepAll);
  void* p = malloc_async(sz, s1);
  launch_fill(p, sz, 31, s1);
  PROBE_CUDA(cudaStreamSynchronize(s1));
  launch_spin(s1, spin);
  PROBE_CUDA(cudaFreeAsync(p, s1));
  const PoolState r0 = read_pool(c.pool);
  double t0 = host_now();
  PROBE_CUDA(cudaMemPoolTrimTo(c.pool, 0));
  const double dt = host_now() - t0;
  const PoolState r1 = read_pool(c.pool);
  const bool kernel_still_running = !query_done(cudaStreamQuery(s1), "cudaStreamQuery");
  PROBE_CUDA(cudaStreamSynchronize(s1));
  const PoolState r2 = read_pool(c.pool);
  t0 = host_now();
  PROBE_CUDA(cudaMemPoolTrimTo(c.pool, 0));
  const double dt2 = host_now() - t0;
  const PoolState r3 = read_pool(c.pool);
  pool_reset(c, 0);
  const bool waited = dt >= 0.5 * spin;
  const bool released = r1.reserved + sz / 2 < r0.reserved;
  std::string verdict = waited ? (released ? "waits_then_releases" : "waits_without_release")
                               : (released ? "releases_immediately" : "skips_pending");
  Json out;
  out["method"] = fmt::format(
      "threshold UINT64_MAX; {} B block freed with cudaFreeAsync behind a {} s kernel; "
      "cudaMemPoolTrimTo(pool, 0) timed on the host at once, then again after the stream sync",
      sz, spin);
  out["pool_before_trim"] = pool_json(r0);
  out["pool_after_trim"] = pool_json(r1);
  out["trim_call_s"] = dt;
  out["kernel_still_running_after_trim"] = kernel_still_running;
  out["pool_after_stream_sync"] = pool_json(r2);
  out["second_trim_call_s"] = dt2;
  out["pool_after_second_trim"] = pool_json(r3);
  out["summary"] = {{"trim_with_pending_frees", verdict},
                    {"trim_waited_for_kernel", waited},
                    {"trim_released_pending_block", released}};
  return out;
}

Json probe_granularity(ProbeContext& c) {
  Stream s1;
  const std::vector<std::uint64_t> sizes = {1,        512,          4096,         64 * KiB,
                                            1 * MiB,  2 * MiB,      2 * MiB + 1,  4 * MiB + 1,
                                            32 * MiB, 32 * MiB + 1, 64 * MiB + 1, 1 * GiB + 1};
  Json pool_rows = Json::array();
  std::vector<std::uint64_t> pool_reservations;
  for (std::uint64_t sz : sizes) {
    pool_reset(c, 0);
    void* p1 = malloc_async(sz, s1);
    const PoolState a = read_pool(c.pool);
    void* p2 = malloc_async(sz, s1);
    const PoolState b = read_pool(c.pool);
    PROBE_CUDA(cudaFreeAsync(p1, s1));
    PROBE_CUDA(cudaFreeAsync(p2, s1));
    PROBE_CUDA(cudaStreamSynchronize(s1));
    const auto delta = static_cast<long long>(reinterpret_cast<std::uintptr_t>(p2) -
                                              reinterpret_cast<std::uintptr_t>(p1));
    pool_rows.push_back(Json{{"bytes", sz},
                             {"after_one", pool_json(a)},
                             {"after_two", pool_json(b)},
                             {"address_delta", delta}});
    pool_reservations.push_back(a.reserved);
  }
  pool_reset(c, 0);

  const std::vector<std::uint64_t> sync_sizes = {
      1,           512,         4096,        64 * KiB,     1 * MiB,    2 * MiB,
      2 * MiB + 1, 4 * MiB + 1, 6 * MiB + 1, 64 * MiB + 1, 1 * GiB + 1};
  Json sync_rows = Json::array();
  std::vector<std::uint64_t> large_drops;
  bool consistent = true;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> per_alloc;  // size, drop per allocation
  for (std::uint64_t sz : sync_sizes) {
    const int k = sz < 2 * MiB ? 32 : 4;
    PROBE_CUDA(cudaDeviceSynchronize());
    const gpu::MemInfo m0 = gpu::mem_info();
    std::vector<void*> ps(k, nullptr);
    for (auto& p : ps) PROBE_CUDA(cudaMalloc(&p, sz));
    const gpu::MemInfo m1 = gpu::mem_info();
    std::vector<std::uintptr_t> addr;
    for (void* p : ps) addr.push_back(reinterpret_cast<std::uintptr_t>(p));
    for (void* p : ps) PROBE_CUDA(cudaFree(p));
    std::sort(addr.begin(), addr.end());
    std::uintptr_t min_gap = std::numeric_limits<std::uintptr_t>::max();
    for (std::size_t i = 1; i < addr.size(); ++i)
      min_gap = std::min(min_gap, addr[i] - addr[i - 1]);
    const std::uint64_t drop = m0.free_bytes > m1.free_bytes ? m0.free_bytes - m1.free_bytes : 0;
    sync_rows.push_back(Json{{"bytes", sz},
                             {"allocations", k},
                             {"meminfo_free_drop", drop},
                             {"drop_per_allocation", static_cast<double>(drop) / k},
                             {"min_address_gap", min_gap}});
    if (sz > 2 * MiB) {
      large_drops.push_back(drop / k);
      per_alloc.emplace_back(sz, drop / k);
    }
  }
  const std::uint64_t g = gcd_bytes(large_drops);
  for (auto [sz, d] : per_alloc)
    if (g == 0 || (sz + g - 1) / g * g != d) consistent = false;
  Json out;
  out["method"] =
      "pool: threshold 0, trimmed, cudaMallocAsync of each size, reserved growth for one and two "
      "allocations; cudaMalloc: k allocations of each size (32 below 2 MiB, else 4), "
      "cudaMemGetInfo free drop and smallest address gap; sync granularity = gcd of the "
      "per-allocation drops of sizes > 2 MiB, checked to reproduce each drop by rounding up";
  out["pool"] = pool_rows;
  out["sync"] = sync_rows;
  out["summary"] = {{"pool_minimum_reservation", pool_reservations.front()},
                    {"pool_granularity", gcd_bytes(pool_reservations)},
                    {"sync_granularity", g},
                    {"sync_granularity_consistent", consistent}};
  return out;
}

Json probe_sync_allocator_costs(ProbeContext& c) {
  std::vector<std::uint64_t> sizes =
      c.quick ? std::vector<std::uint64_t>{1 * MiB, 64 * MiB, 1 * GiB}
              : std::vector<std::uint64_t>{1 * MiB, 64 * MiB, 1 * GiB, 4 * GiB, 16 * GiB, 64 * GiB};
  const int reps = c.quick ? 2 : 5;
  Json rows = Json::array();
  std::vector<double> gib, mal, fre;
  PROBE_CUDA(cudaDeviceSynchronize());
  {  // warm-up: first cudaMalloc of the process may set up allocator state
    void* p = nullptr;
    PROBE_CUDA(cudaMalloc(&p, 64 * MiB));
    PROBE_CUDA(cudaFree(p));
  }
  for (std::uint64_t sz : sizes) {
    std::vector<double> vm, vf;
    for (int r = 0; r < reps; ++r) {
      void* p = nullptr;
      double t0 = host_now();
      PROBE_CUDA(cudaMalloc(&p, sz));
      vm.push_back(host_now() - t0);
      launch_fill(p, sz, 41, nullptr);
      PROBE_CUDA(cudaDeviceSynchronize());
      t0 = host_now();
      PROBE_CUDA(cudaFree(p));
      vf.push_back(host_now() - t0);
    }
    rows.push_back(Json{{"bytes", sz},
                        {"malloc_s", vm},
                        {"free_s", vf},
                        {"median_malloc_s", median(vm)},
                        {"median_free_s", median(vf)}});
    gib.push_back(static_cast<double>(sz) / GiB);
    mal.push_back(median(vm));
    fre.push_back(median(vf));
  }
  Json out;
  out["method"] = fmt::format(
      "cudaMalloc and cudaFree (device idle, buffer written in between) timed with the host "
      "clock, {} repetitions per size, medians, fitted fixed + per GiB",
      reps);
  out["rows"] = rows;
  out["summary"] = {{"malloc", fit_json(gib, mal)}, {"free", fit_json(gib, fre)}};
  return out;
}

Json probe_largest_allocation(ProbeContext& c) {
  Stream s1;
  auto try_sync = [&](std::uint64_t n) {
    void* p = nullptr;
    const cudaError_t e = probe_try(cudaMalloc(&p, n));
    if (e == cudaSuccess) PROBE_CUDA(cudaFree(p));
    return e == cudaSuccess;
  };
  auto try_pool = [&](std::uint64_t n) {
    void* p = nullptr;
    const cudaError_t e = probe_try(cudaMallocAsync(&p, n, s1));
    if (e == cudaSuccess) PROBE_CUDA(cudaFreeAsync(p, s1));
    PROBE_CUDA(cudaStreamSynchronize(s1));
    PROBE_CUDA(cudaMemPoolTrimTo(c.pool, 0));
    return e == cudaSuccess;
  };
  auto search = [&](const std::function<bool(std::uint64_t)>& ok, Json& log) {
    PROBE_CUDA(cudaDeviceSynchronize());
    const gpu::MemInfo m = gpu::mem_info();
    std::uint64_t hi = round_down(m.free_bytes, 2 * MiB) + 2 * MiB;  // first size assumed to fail
    std::uint64_t lo = hi > 4 * GiB ? hi - 4 * GiB : 0;
    log["meminfo_free"] = m.free_bytes;
    Json steps = Json::array();
    if (ok(round_down(m.free_bytes, 2 * MiB))) {
      steps.push_back({round_down(m.free_bytes, 2 * MiB), true});
      const bool beyond = ok(hi);
      steps.push_back({hi, beyond});
      log["steps"] = steps;
      return beyond ? hi : round_down(m.free_bytes, 2 * MiB);
    }
    steps.push_back({round_down(m.free_bytes, 2 * MiB), false});
    hi = round_down(m.free_bytes, 2 * MiB);
    if (!ok(lo)) {
      steps.push_back({lo, false});
      hi = lo;
      lo = 0;
    }
    int guard = 0;
    while (hi - lo > 2 * MiB && guard++ < 24) {
      const std::uint64_t mid = round_down(lo + (hi - lo) / 2, 2 * MiB);
      if (mid == lo) break;
      const bool r = ok(mid);
      steps.push_back({mid, r});
      (r ? lo : hi) = mid;
    }
    log["steps"] = steps;
    return lo;
  };
  Json out, sync_log, pool_log;
  pool_reset(c, 0);
  const std::uint64_t sync_largest = search(try_sync, sync_log);
  const std::uint64_t pool_largest = search(try_pool, pool_log);
  pool_reset(c, 0);
  out["method"] =
      "bisection to 2 MiB over single allocations below cudaMemGetInfo free (cudaMalloc; "
      "cudaMallocAsync on a trimmed pool, threshold 0); each success freed at once";
  out["sync"] = sync_log;
  out["pool"] = pool_log;
  out["summary"] = {{"sync_largest", sync_largest}, {"pool_largest", pool_largest}};
  return out;
}

Json probe_oom_sticky(ProbeContext& c) {
  Stream s1;
  Json out;
  pool_reset(c, 0);
  const std::uint64_t impossible = round_down(c.total_memory * 4, 2 * MiB);
  // a) impossible cudaMalloc
  {
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, impossible);
    Json t{{"name", "cuda_malloc_impossible"}, {"error", cuda_error_name(e)}};
    t["last_error_first_read"] = cuda_error_name(cudaGetLastError());
    t["last_error_second_read"] = cuda_error_name(cudaGetLastError());
    t["after"] = context_alive();
    out["trials"].push_back(t);
  }
  // b) real OOM: the card filled with cudaMalloc
  {
    std::vector<void*> ps;
    cudaError_t e = cudaSuccess;
    for (std::uint64_t chunk : {4 * GiB, 256 * MiB, 2 * MiB}) {
      for (int guard = 0; guard < 100000; ++guard) {
        void* p = nullptr;
        e = probe_try(cudaMalloc(&p, chunk));
        if (e != cudaSuccess) break;
        ps.push_back(p);
      }
    }
    Json t{{"name", "cuda_malloc_card_full"}, {"error", cuda_error_name(e)}};
    t["allocations"] = ps.size();
    t["meminfo_full"] = meminfo_json(gpu::mem_info());
    // Still usable with the card full: launch on memory we hold, then free one and allocate.
    cudaError_t k = cudaSuccess;
    try {
      launch_fill(ps.front(), 64 * MiB, 51, nullptr);
    } catch (const CudaError& x) {
      k = x.code();
    }
    t["kernel_launch_while_full"] = cuda_error_name(k);
    t["sync_while_full"] = cuda_error_name(cudaDeviceSynchronize());
    for (void* p : ps) PROBE_CUDA(cudaFree(p));
    t["after"] = context_alive();
    out["trials"].push_back(t);
  }
  // c) impossible cudaMallocAsync
  {
    void* p = nullptr;
    const cudaError_t e = probe_try(cudaMallocAsync(&p, impossible, s1));
    Json t{{"name", "malloc_async_impossible"}, {"error", cuda_error_name(e)}};
    void* q = nullptr;
    const cudaError_t e2 = cudaMallocAsync(&q, 64 * MiB, s1);
    t["malloc_async_after"] = cuda_error_name(e2);
    if (e2 == cudaSuccess) {
      launch_fill(q, 64 * MiB, 52, s1);
      PROBE_CUDA(cudaFreeAsync(q, s1));
    }
    t["stream_sync_after"] = cuda_error_name(cudaStreamSynchronize(s1));
    t["after"] = context_alive();
    out["trials"].push_back(t);
  }
  // d) real OOM through the pool
  {
    std::vector<void*> ps;
    cudaError_t e = cudaSuccess;
    for (std::uint64_t chunk : {4 * GiB, 256 * MiB, 2 * MiB}) {
      for (int guard = 0; guard < 100000; ++guard) {
        void* p = nullptr;
        e = probe_try(cudaMallocAsync(&p, chunk, s1));
        if (e != cudaSuccess) break;
        ps.push_back(p);
      }
    }
    Json t{{"name", "malloc_async_card_full"}, {"error", cuda_error_name(e)}};
    t["allocations"] = ps.size();
    t["pool_full"] = pool_json(read_pool(c.pool));
    t["stream_sync_while_full"] = cuda_error_name(cudaStreamSynchronize(s1));
    for (void* p : ps) PROBE_CUDA(cudaFreeAsync(p, s1));
    PROBE_CUDA(cudaStreamSynchronize(s1));
    t["after"] = context_alive();
    out["trials"].push_back(t);
  }
  pool_reset(c, 0);
  bool sticky = false;
  for (const Json& t : out["trials"]) sticky = sticky || !t["after"]["alive"].get<bool>();
  out["method"] =
      "out of memory from an impossible size (4 x total) and from a card filled by each "
      "allocator; then cudaMalloc 64 MiB + kernel launch + device sync";
  out["summary"] = {{"oom_sticky", sticky},
                    {"oom_error", out["trials"][1]["error"]},
                    {"pool_oom_error", out["trials"][3]["error"]}};
  return out;
}

Json probe_device_sync_calls(ProbeContext& c) {
  const double spin = c.quick ? 0.03 : 0.1;
  const int reps = c.quick ? 1 : 3;
  Stream a, b;
  PageableBuffer pageable(64 * MiB);
  gpu::PinnedHostBuffer<std::uint8_t> pinned(1 * MiB);
  fill_host_pattern(pinned.data(), pinned.size(), 61);
  gpu::DeviceBuffer<std::uint8_t> dst = device_bytes(64 * MiB);
  void* p = nullptr;
  void* hp = nullptr;
  Event eb;
  struct Call {
    std::string name;
    std::function<void()> prepare, call, cleanup;
  };
  auto none = [] {};
  const std::uint64_t big = c.quick ? 1 * GiB : 4 * GiB;
  std::vector<Call> calls = {
      {"cudaFree", [&] { PROBE_CUDA(cudaMalloc(&p, 64 * MiB)); }, [&] { PROBE_CUDA(cudaFree(p)); },
       none},
      {"cudaMalloc_64MiB", none, [&] { PROBE_CUDA(cudaMalloc(&p, 64 * MiB)); },
       [&] { PROBE_CUDA(cudaFree(p)); }},
      {fmt::format("cudaMalloc_{}GiB", big / GiB), none, [&] { PROBE_CUDA(cudaMalloc(&p, big)); },
       [&] { PROBE_CUDA(cudaFree(p)); }},
      {"cudaMallocAsync_other_stream", none, [&] { p = malloc_async(64 * MiB, b); },
       [&] { PROBE_CUDA(cudaFreeAsync(p, b)); }},
      {"cudaFreeAsync_other_stream",
       [&] {
         p = malloc_async(64 * MiB, b);
         PROBE_CUDA(cudaStreamSynchronize(b));
       },
       [&] { PROBE_CUDA(cudaFreeAsync(p, b)); }, none},
      {"cudaMemPoolTrimTo",
       [&] {
         set_threshold(c.pool, kKeepAll);
         p = malloc_async(1 * GiB, b);
         PROBE_CUDA(cudaFreeAsync(p, b));
         PROBE_CUDA(cudaStreamSynchronize(b));
       },
       [&] { PROBE_CUDA(cudaMemPoolTrimTo(c.pool, 0)); }, [&] { set_threshold(c.pool, 0); }},
      {"cudaMemGetInfo", none, [&] { (void)gpu::mem_info(); }, none},
      {"cudaHostRegister_64MiB", none,
       [&] { PROBE_CUDA(cudaHostRegister(pageable.get(), 64 * MiB, cudaHostRegisterDefault)); },
       [&] { PROBE_CUDA(cudaHostUnregister(pageable.get())); }},
      {"cudaHostUnregister_64MiB",
       [&] { PROBE_CUDA(cudaHostRegister(pageable.get(), 64 * MiB, cudaHostRegisterDefault)); },
       [&] { PROBE_CUDA(cudaHostUnregister(pageable.get())); }, none},
      {"cudaMallocHost_64MiB", none, [&] { PROBE_CUDA(cudaMallocHost(&hp, 64 * MiB)); },
       [&] { PROBE_CUDA(cudaFreeHost(hp)); }},
      {"cudaFreeHost_64MiB", [&] { PROBE_CUDA(cudaMallocHost(&hp, 64 * MiB)); },
       [&] { PROBE_CUDA(cudaFreeHost(hp)); }, none},
      {"cudaMemcpyAsync_pinned_h2d_1MiB_other_stream", none,
       [&] {
         PROBE_CUDA(cudaMemcpyAsync(dst.data(), pinned.data(), 1 * MiB, cudaMemcpyHostToDevice, b));
       },
       none},
      {"cudaMemcpyAsync_pageable_h2d_1MiB_other_stream", none,
       [&] {
         PROBE_CUDA(
             cudaMemcpyAsync(dst.data(), pageable.get(), 1 * MiB, cudaMemcpyHostToDevice, b));
       },
       none},
      {"cudaMemset_legacy_stream", none, [&] { PROBE_CUDA(cudaMemset(dst.data(), 0x3c, 1 * MiB)); },
       none},
      {"cudaStreamSynchronize_other_stream", none, [&] { PROBE_CUDA(cudaStreamSynchronize(b)); },
       none},
      {"cudaEventSynchronize_other_stream", [&] { eb.record(b); },
       [&] { PROBE_CUDA(cudaEventSynchronize(eb)); }, none},
      {"cudaDeviceSynchronize", none, [&] { PROBE_CUDA(cudaDeviceSynchronize()); }, none},
  };
  Json rows = Json::array();
  Json waits = Json::array();
  for (const Call& call : calls) {
    std::vector<double> v, idle;
    bool still_running = true;
    for (int r = 0; r < reps; ++r) {
      // Baseline: the same call on an idle device, so a call that is slow on its own (e.g.
      // cudaMallocHost, ~22 ms for 64 MiB) is not mistaken for one that waits.
      PROBE_CUDA(cudaDeviceSynchronize());
      call.prepare();
      PROBE_CUDA(cudaDeviceSynchronize());
      const double i0 = host_now();
      call.call();
      idle.push_back(host_now() - i0);
      PROBE_CUDA(cudaDeviceSynchronize());
      call.cleanup();
      PROBE_CUDA(cudaDeviceSynchronize());
      call.prepare();
      PROBE_CUDA(cudaDeviceSynchronize());
      launch_spin(a, spin);
      host_sleep(0.002);  // the kernel is resident
      const double t0 = host_now();
      call.call();
      v.push_back(host_now() - t0);
      still_running = still_running && !query_done(cudaStreamQuery(a), "cudaStreamQuery");
      PROBE_CUDA(cudaDeviceSynchronize());
      call.cleanup();
      PROBE_CUDA(cudaDeviceSynchronize());
    }
    const bool waited = median(v) - median(idle) >= 0.5 * (spin - 0.002);
    rows.push_back(Json{{"call", call.name},
                        {"call_s", v},
                        {"median_call_s", median(v)},
                        {"idle_call_s", idle},
                        {"median_idle_call_s", median(idle)},
                        {"waited_for_other_stream", waited},
                        {"kernel_running_after_call", still_running}});
    if (waited) waits.push_back(call.name);
  }
  pool_reset(c, 0);
  Json out;
  out["method"] = fmt::format(
      "a {} s one-thread kernel on non-blocking stream A, 2 ms later the call from the host "
      "(other non-blocking stream B where it takes one), host clock around the call; waited = "
      "median of {} minus the median of the same call on an idle device >= half the kernel's "
      "remaining time",
      spin, reps);
  out["rows"] = rows;
  bool dev_sync_waits = false;
  for (const Json& r : rows)
    if (r["call"] == "cudaDeviceSynchronize") dev_sync_waits = r["waited_for_other_stream"];
  bool free_waits = false;
  for (const Json& r : rows)
    if (r["call"] == "cudaFree") free_waits = r["waited_for_other_stream"];
  out["summary"] = {{"calls_that_synchronize_device", waits},
                    {"device_synchronize_waits_all_streams", dev_sync_waits},
                    {"free_synchronizes_device", free_waits},
                    {"kernel_s", spin}};
  return out;
}

Json probe_sync_costs(ProbeContext& c) {
  const int reps = c.quick ? 21 : 101;
  Stream s;
  Event e;
  auto time_it = [&](const std::function<void()>& f) {
    std::vector<double> v;
    for (int i = 0; i < 5; ++i) f();  // warm-up
    for (int i = 0; i < reps; ++i) {
      const double t0 = host_now();
      f();
      v.push_back(host_now() - t0);
    }
    return v;
  };
  Json out;
  const auto ss = time_it([&] { PROBE_CUDA(cudaStreamSynchronize(s)); });
  const auto es = time_it([&] {
    e.record(s);
    PROBE_CUDA(cudaEventSynchronize(e));
  });
  const auto ds = time_it([&] { PROBE_CUDA(cudaDeviceSynchronize()); });
  const auto ks = time_it([&] {
    launch_empty(s);
    PROBE_CUDA(cudaStreamSynchronize(s));
  });
  e.record(s);
  e.synchronize();
  const auto eq = time_it([&] { PROBE_CUDA(cudaEventQuery(e)); });
  const auto mi = time_it([&] { (void)gpu::mem_info(); });
  // The spin kernel that every "waited?" verdict relies on: does it last what it is asked to?
  Event k0, k1;
  std::vector<double> spin_s;
  for (int i = 0; i < 3; ++i) {
    k0.record(s);
    launch_spin(s, 0.05);
    k1.record(s);
    k1.synchronize();
    spin_s.push_back(seconds_between(k0, k1));
  }
  out["spin_kernel_requested_s"] = 0.05;
  out["spin_kernel_measured_s"] = spin_s;
  out["method"] = fmt::format(
      "host clock around each call on an idle non-blocking stream, 5 warm-ups, median of {}", reps);
  out["samples"] = {{"stream_synchronize_s", ss}, {"event_record_sync_s", es},
                    {"device_synchronize_s", ds}, {"empty_kernel_roundtrip_s", ks},
                    {"event_query_s", eq},        {"mem_get_info_s", mi}};
  out["summary"] = {{"stream_synchronize_s", median(ss)},
                    {"event_record_sync_s", median(es)},
                    {"device_synchronize_s", median(ds)},
                    {"empty_kernel_roundtrip_s", median(ks)},
                    {"event_query_s", median(eq)},
                    {"mem_get_info_s", median(mi)},
                    {"repetitions", reps}};
  return out;
}

}  // namespace prestage::probe
