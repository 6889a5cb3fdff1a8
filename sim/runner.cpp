#include "sim/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "sim/device.hpp"
#include "sim/engine.hpp"
#include "sim/link.hpp"

namespace prestage::sim {
using model::Allocator;
using model::EventKind;
using model::OomEvent;
using model::PhaseStat;
using model::StepOp;
using model::SyncKind;
using model::WorkerStat;

namespace {

struct Part {
  std::int64_t id = 0;  // proof * partitions + index
  int proof = 0;
  int attempts = 0;
};

struct Gpu;
struct Worker;

// A partition handed from a worker's stager to its executor.
struct Staged {
  Part part;
  int groups = 0;                             // stage groups pre-staged
  std::vector<std::uint64_t> held;            // per buffer: granted bytes (0: not held)
  std::vector<std::unique_ptr<Gate>> upload;  // per staged group: uploads done
  bool pinned = false;                        // cudaHostRegister'd
  bool valid = false;
};

// A policy call's blocking view actions, recorded for replay.
struct Action {
  enum Kind { sync, trim, meminfo_sync, meminfo_gate } kind;
  SyncKind sync_kind = SyncKind::none;
  std::uint64_t keep = 0;
};
struct Suspend {};

class Sim;

// The simulator's MemoryView: reads are immediate; a blocking call (sync, trim, a cudaMemGetInfo
// that synchronises the device) not yet performed in this decision suspends it (throws Suspend);
// the driver performs the action in simulated time and replays the decision.
class SimView final : public model::MemoryView {
 public:
  SimView(Sim& s, Worker& w) : s_(s), w_(w) {}
  std::uint64_t free_bytes() override;
  std::uint64_t total_bytes() override;
  std::uint64_t pool_reserved() override;
  std::uint64_t pool_used() override;
  void trim(std::uint64_t keep) override { blocking({Action::trim, SyncKind::none, keep}); }
  void synchronize(SyncKind k) override {
    if (k != SyncKind::none) blocking({Action::sync, k, 0});
  }
  model::LockHolder lock_holder() override;
  void begin_replay() { cursor_ = 0; }
  Action pending;
  std::vector<Action> done;

 private:
  void blocking(const Action& a) {
    if (cursor_ < done.size()) {
      ++cursor_;
      return;
    }
    pending = a;
    throw Suspend{};
  }
  Sim& s_;
  Worker& w_;
  std::size_t cursor_ = 0;
};

struct Gpu {
  Gpu(Engine& e, const Scenario& s, int gpu_id, std::uint64_t threshold)
      : id(gpu_id),
        mem(s.cal, s.vram, 2 * s.workers_per_gpu, threshold, s.resident_bytes),
        link(e, s.cal.h2d.sharing, s.cal.h2d.aggregate, s.cal.d2h.sharing, s.cal.d2h.aggregate,
             s.cal.bidirectional_aggregate),
        lock(e),
        compute(e),
        work(e),
        unpaced_work(e) {}
  int id;
  DeviceMemory mem;
  Link link;
  Mutex lock;                // the prover's per-GPU lock
  Worker* holder = nullptr;  // the worker whose executor holds `lock` (null: free)
  Mutex compute;             // the SMs: one kernel at a time
  WorkTracker work;
  // The same work less host-paced kernel steps (paced_idle_for): what a sync waits for when
  // those have nothing on the device.
  WorkTracker unpaced_work;
  std::unique_ptr<model::Policy> policy;
  double busy = 0;  // s of kernels
  bool dead = false;
  std::vector<int> all_streams;
  std::uint32_t track_compute = 0, track_h2d = 0, track_d2h = 0, track_mem = 0;
};

struct Worker {
  Worker(Engine& e, Gpu& g, int w)
      : gpu(g), index(w), slot_full(e), slot_empty(e), own(e), own_unpaced(e) {
    streams = {2 * w, 2 * w + 1};
    compute_stream = {2 * w};
    stream_work.push_back(std::make_unique<WorkTracker>(e));
    stream_work.push_back(std::make_unique<WorkTracker>(e));
  }
  Gpu& gpu;
  int index;
  std::vector<int> streams;         // [compute stream, copy stream]
  std::vector<int> compute_stream;  // {streams[0]}
  Staged slot;                      // one staged partition between stager and executor
  const Staged* exec_st = nullptr;  // the partition the executor runs (lock_holder())
  std::size_t exec_step = 0;        // the pipeline step it runs
  Queue<int> slot_full;             // tokens: a staged partition is in the slot (-1: stop)
  Queue<int> slot_empty;            // tokens: the slot may be refilled
  WorkTracker own;                  // this worker's GPU work (stream synchronisation)
  WorkTracker own_unpaced;          // the same less host-paced kernel steps (paced_idle_for)
  double driver_released_at = -1;   // s: when a driver-holding call of this worker last returned
  std::vector<std::unique_ptr<WorkTracker>> stream_work;  // per stream: [compute, copy]
  WorkerStat stat;
  std::uint32_t track_host = 0, track_stager = 0, track_copy = 0;
};

class Sim {
 public:
  Sim(const Scenario& s, bool record)
      : s_(s),
        record_(record),
        procs_(e_),
        ready_(e_),
        cpus_(e_, s.cpu_workers),
        slots_(e_, s.host_slots),
        driver_(e_) {
    rng_ = s.seed ^ 0x9E3779B97F4A7C15ull;
    std::uint64_t threshold = s.params.has_release_threshold
                                  ? s.params.release_threshold
                                  : static_cast<std::uint64_t>(s.cal.release_threshold_default);
    for (int g = 0; g < s.gpus; ++g) {
      gpus_.push_back(std::make_unique<Gpu>(e_, s, g, threshold));
      Gpu& G = *gpus_.back();
      G.policy = model::make_policy(s.policy, s.params);
      for (int i = 0; i < 2 * s.workers_per_gpu; ++i) G.all_streams.push_back(i);
      if (record_) {
        G.track_compute = trace_.track_id(fmt::format("gpu{}/compute", g));
        G.track_h2d = trace_.track_id(fmt::format("gpu{}/h2d", g));
        G.track_d2h = trace_.track_id(fmt::format("gpu{}/d2h", g));
      }
      for (int w = 0; w < s.workers_per_gpu; ++w) {
        workers_.push_back(std::make_unique<Worker>(e_, G, w));
        Worker& W = *workers_.back();
        W.stat.gpu = g;
        W.stat.worker = w;
        // Interned whether or not the run is recorded: the host and stager track ids also name
        // the worker's two threads (the driver's hand-off window, open_handoff).
        W.track_host = trace_.track_id(fmt::format("gpu{}/w{}/host", g, w));
        W.track_stager = trace_.track_id(fmt::format("gpu{}/w{}/stager", g, w));
        W.track_copy = trace_.track_id(fmt::format("gpu{}/w{}/copy_stream", g, w));
      }
    }
    total_ = static_cast<std::int64_t>(s.proofs) * s.partitions;
    outstanding_ = total_;
    proof_left_.assign(static_cast<std::size_t>(s.proofs), s.partitions);
    proof_lost_.assign(static_cast<std::size_t>(s.proofs), false);
    for (const auto& st : s.pipe.steps) {
      step_names_.push_back(record_ ? trace_.name_id(st.name) : 0);
      wait_staged_nm_.push_back(record_ ? trace_.name_id("wait_staged_" + st.name) : 0);
      step_scale_.push_back(time_scale(st.name));
      step_is_msm_.push_back(st.op == StepOp::kernel && st.kernel.starts_with("msm_"));
      step_is_h_.push_back(st.op == StepOp::kernel &&
                           (st.kernel == "h_input" || st.kernel == "coset_intt"));
    }
    for (const auto& b : s.pipe.buffers) {
      alloc_nm_.push_back(record_ ? trace_.name_id("alloc_" + b.name) : 0);
      free_nm_.push_back(record_ ? trace_.name_id("free_" + b.name) : 0);
      alloc_scale_.push_back(time_scale("alloc_" + b.name));
      free_scale_.push_back(time_scale("free_" + b.name));
    }
    for (const auto& in : s.pipe.inputs) {
      stage_upload_nm_.push_back(record_ ? trace_.name_id("stage_upload_" + in.name) : 0);
      stage_upload_scale_.push_back(time_scale("stage_upload_" + in.name));
    }
    register_scale_ = time_scale("host_register");
    unregister_scale_ = time_scale("host_unregister");
    for (const auto& g : s.pipe.groups)
      staged_uploads_nm_.push_back(record_ ? trace_.name_id("staged_uploads_" + g.name) : 0);
    step_phase_.assign(s.pipe.steps.size(), PhaseStat{});
    wait_phase_.assign(s.pipe.steps.size(), PhaseStat{});
    // Request template: the sizes each policy decision places.
    for (const auto& g : s.pipe.groups)
      req_.group_bytes.push_back(
          static_cast<std::uint64_t>(s.buffer_bytes[static_cast<std::size_t>(g.buffer)]));
    req_.locked_sync_bytes = s.locked_sync_peak;
    req_.pool_bytes = s.pool_peak;
    req_.workers_on_gpu = s.workers_per_gpu;
    input_total_ = 0;
    for (double b : s.input_bytes) input_total_ += b;
  }

  RunResult run() {
    for (int k = 0; k < s_.synthesis_workers; ++k) procs_.spawn(synthesis(k));
    for (auto& w : workers_) {
      procs_.spawn(stager(*w));
      procs_.spawn(executor(*w));
    }
    e_.run();
    return finish();
  }

  // --- helpers used by SimView ---
  const Scenario& s() const { return s_; }

 private:
  friend class SimView;

  double jittered(double d) {
    if (s_.jitter <= 0 || d <= 0) return d;
    rng_ += 0x9E3779B97F4A7C15ull;  // splitmix64
    std::uint64_t z = rng_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    double u = static_cast<double>(z >> 11) * 0x1.0p-53;
    return d * (1 + s_.jitter * (2 * u - 1));
  }

  std::uint32_t name(const char* n) { return record_ ? trace_.name_id(n) : 0; }
  // Replay (sim/replay.hpp): the factor on the model's time of the event named `n`; 1 without.
  double time_scale(const std::string& n) const {
    auto it = s_.step_time_scale.find(n);
    return it == s_.step_time_scale.end() ? 1.0 : it->second;
  }
  void ev(double t0, std::uint32_t track, std::uint32_t nm, EventKind k, const Worker* w,
          std::int64_t part, std::uint64_t bytes) {
    if (!record_) return;
    model::TraceEvent e;
    e.t_start = t0;
    e.t_end = e_.now();
    e.track = track;
    e.name = nm;
    e.kind = k;
    e.partition = part;
    e.bytes = bytes;
    if (w) {
      e.gpu = static_cast<std::int16_t>(w->gpu.id);
      e.worker = static_cast<std::int16_t>(w->index);
    }
    trace_.add(e);
  }
  void mem_sample(Gpu& g) {
    if (!record_) return;
    trace_.add(
        model::MemorySample{e_.now(), g.id, g.mem.used(), g.mem.reserved(), g.mem.meminfo_free()});
  }
  static void phase(PhaseStat& p, double dt) {
    p.total_s += dt;
    ++p.count;
  }

  // Whether a sync that worker w issues now finds the host-paced kernel steps (a streamed MSM:
  // a launch and a stream sync per chunk; any MSM or H step the calibration says stalls) with
  // nothing on the device: w's own driver-holding call (a pinning call) has just returned, and
  // its caller goes first (probe driver_waits.*.holder_goes_first); while it held the driver,
  // a paced step launched nothing (probe driver_waits.paced_sequence: no progress during the
  // call) and the chunk in flight when it started has finished. Session h's staging run (e03
  // 24 GiB tiers, B_G2 on the GPU) shows it: the stager's cudaDeviceSynchronize right after its
  // registration returned in 0.1 ms while the executor's streamed H MSM had 1 s left.
  bool paced_idle_for(const Worker& w) const {
    if (!s_.cal.pinning_stalls_paced_steps || w.driver_released_at < 0) return false;
    return e_.now() - w.driver_released_at <= std::max(s_.cal.pinning_handoff_s, 0.0);
  }

  // A device-wide synchronisation by worker w (waits for every worker's GPU work on its GPU;
  // after w's own pinning call, not for the paced steps: paced_idle_for).
  // `call` names it in the calibration's released_to_os_by vocabulary: "device_sync" for
  // cudaDeviceSynchronize; the implicit waits of other calls (cuda_free, host_unregister, ...)
  // observe and release pool frees only when the calibration lists them.
  Task<void> device_sync(Worker& w, std::int64_t part, const char* why, std::uint32_t track,
                         const char* call) {
    double t0 = e_.now();
    const bool paced_idle = paced_idle_for(w);
    if (s_.cal.device_sync_waits_all)
      co_await (paced_idle ? w.gpu.unpaced_work.drain() : w.gpu.work.drain());
    else
      co_await (paced_idle ? w.own_unpaced.drain() : w.own.drain());
    co_await e_.delay(s_.cal.device_synchronize.at(0));
    std::uint64_t released = call ? w.gpu.mem.host_call(call, nullptr) : 0;
    if (released) co_await e_.delay(s_.cal.pool_release_at_sync.at(static_cast<double>(released)));
    w.stat.device_wait_s += e_.now() - t0;
    ev(t0, track, name(why), EventKind::sync, &w, part, 0);
    mem_sample(w.gpu);
  }

  // A stream (or event) synchronisation by worker w, a policy's (stager track) or a pipeline
  // `sync` step's (host track): waits for w's own GPU work (an event recorded after it on w's
  // streams covers the same work) and releases its streams' observed pool frees (probe
  // pool_release_calls).
  Task<void> stream_sync(Worker& w, std::int64_t part, SyncKind kind, std::uint32_t track) {
    double t0 = e_.now();
    co_await (paced_idle_for(w) ? w.own_unpaced.drain() : w.own.drain());
    co_await e_.delay(kind == SyncKind::event ? s_.cal.event_record_sync.at(0)
                                              : s_.cal.stream_synchronize.at(0));
    std::uint64_t released = w.gpu.mem.synchronized(kind, w.streams);
    if (released) co_await e_.delay(s_.cal.pool_release_at_sync.at(static_cast<double>(released)));
    ev(t0, track, name(kind == SyncKind::event ? "sync_event" : "sync_stream"), EventKind::sync, &w,
       part, 0);
    mem_sample(w.gpu);
  }

  Task<void> perform(Worker& w, const Action& a, std::int64_t part) {
    if (a.kind == Action::sync) {
      if (a.sync_kind == SyncKind::device)
        co_await device_sync(w, part, "sync_device", w.track_stager, "device_sync");
      else
        co_await stream_sync(w, part, a.sync_kind, w.track_stager);
    } else if (a.kind == Action::meminfo_sync) {
      co_await device_sync(w, part, "meminfo_sync_device", w.track_stager, "mem_get_info");
    } else if (a.kind == Action::meminfo_gate) {
      co_await driver_gate(w, w.track_stager);  // the cudaMemGetInfo call (pinning_delays_meminfo)
    } else {
      if (s_.cal.synchronizes_device("cudaMemPoolTrimTo"))
        co_await device_sync(w, part, "trim_sync_device", w.track_stager, nullptr);
      double t0 = e_.now();
      // Pending frees: per trim_with_pending_frees (probe trim_pending).
      const auto mode = s_.cal.trim_with_pending_frees;
      bool waits = mode == model::TrimPending::waits_then_releases ||
                   mode == model::TrimPending::waits_without_release;
      if (waits) co_await w.gpu.work.drain();
      std::uint64_t released =
          w.gpu.mem.trim(a.keep, mode == model::TrimPending::waits_then_releases ||
                                     mode == model::TrimPending::releases_immediately);
      co_await e_.delay(s_.cal.pool_trim.at(static_cast<double>(released)));
      ev(t0, w.track_stager, name("trim"), EventKind::trim, &w, part, released);
      mem_sample(w.gpu);
    }
  }

  enum class Call { place, failure, after };
  // Runs a policy call with replay across blocking view actions.
  Task<int> decide(Worker& w, Call call, std::int64_t part, int failed) {
    SimView view(*this, w);
    model::StagingRequest req = req_;
    req.gpu = w.gpu.id;
    req.worker = w.index;
    req.partition = part;
    double t0 = e_.now();
    for (int guard = 0; guard < 1000; ++guard) {
      view.begin_replay();
      bool suspended = false;
      int r = 0;
      try {
        switch (call) {
          case Call::place:
            r = w.gpu.policy->place(view, req);
            break;
          case Call::failure:
            r = w.gpu.policy->on_failure(view, req, failed);
            break;
          case Call::after:
            w.gpu.policy->after_partition(view, req);
            break;
        }
      } catch (const Suspend&) {
        suspended = true;
      }
      if (!suspended) {
        ev(t0, w.track_stager,
           name(call == Call::place     ? "policy_place"
                : call == Call::failure ? "policy_on_failure"
                                        : "policy_after_partition"),
           EventKind::policy, &w, part, 0);
        co_return r;
      }
      Action a = view.pending;
      co_await perform(w, a, part);
      view.done.push_back(a);
    }
    throw std::logic_error("policy made more than 1000 blocking calls in one decision");
  }

  // cudaMalloc / cudaMallocAsync of buffer b for worker w; false on out-of-memory.
  Task<bool> alloc(Worker& w, Staged& st, int b, int stream, std::uint32_t track,
                   const std::string& where) {
    const auto& spec = s_.pipe.buffers[static_cast<std::size_t>(b)];
    auto bytes = static_cast<std::uint64_t>(s_.buffer_bytes[static_cast<std::size_t>(b)]);
    double t0 = e_.now();
    bool ok;
    if (spec.allocator == Allocator::sync) {
      if (s_.cal.synchronizes_device("cudaMalloc"))
        co_await device_sync(w, st.part.id, "malloc_sync_device", track, "cuda_malloc");
      t0 = e_.now();
      co_await driver_gate(w, track);
      const double cost = s_.cal.sync_malloc.at(static_cast<double>(bytes)) *
                          alloc_scale_[static_cast<std::size_t>(b)];
      extend_handoff(track, t0, e_.now() + cost);
      co_await e_.delay(cost);
      std::uint64_t granted = 0, reclaimed = 0;
      ok = w.gpu.mem.malloc(bytes, &granted, &reclaimed);
      if (ok) st.held[static_cast<std::size_t>(b)] = granted;
      // Taking memory an idle pool holds costs the driver a trim of it (probe
      // pool_vs_cudamalloc: 0.26 s for ~138 GiB, about the trim cost of the whole pool).
      if (reclaimed) co_await e_.delay(s_.cal.pool_trim.at(static_cast<double>(reclaimed)));
    } else {
      if (s_.cal.synchronizes_device("cudaMallocAsync"))
        co_await device_sync(w, st.part.id, "malloc_async_sync_device", track, nullptr);
      t0 = e_.now();
      co_await pool_alloc_gate(w, track);
      auto r = w.gpu.mem.malloc_async(w.streams[static_cast<std::size_t>(stream)], bytes);
      ok = r != DeviceMemory::PoolAlloc::failed;
      const model::CostFn& c = r == DeviceMemory::PoolAlloc::warm && s_.cal.has_pool_malloc_warm
                                   ? s_.cal.pool_malloc_warm
                                   : s_.cal.pool_malloc;
      co_await e_.delay(c.at(static_cast<double>(bytes)) *
                        alloc_scale_[static_cast<std::size_t>(b)]);
      if (ok) st.held[static_cast<std::size_t>(b)] = bytes;
    }
    ev(t0, track, alloc_nm_[static_cast<std::size_t>(b)], EventKind::alloc, &w, st.part.id, bytes);
    co_await runtime_meminfo(w, track);
    mem_sample(w.gpu);
    if (!ok) {
      co_await record_oom(w, st.part.id, where, bytes, track);
      if (s_.cal.oom_sticky) w.gpu.dead = true;
    }
    co_return ok;
  }

  // The runtime's out-of-memory record of `bytes` requested at `where` (a step, "stage_<group>",
  // "msm_workspace"), with the free memory its own cudaMemGetInfo reads.
  Task<void> record_oom(Worker& w, std::int64_t part, const std::string& where, std::uint64_t bytes,
                        std::uint32_t track) {
    co_await runtime_meminfo(w, track);
    ooms_.push_back({e_.now(), w.gpu.id, w.index, part, where, bytes, w.gpu.mem.meminfo_free()});
    ev(e_.now(), track, name("oom"), EventKind::oom, &w, part, bytes);
  }

  // A launched kernel's pending work, from its launch to its end: the device's, the worker's and
  // its compute stream's, and, for a step that is neither paced nor chunked, the unpaced
  // trackers' too (paced_idle_for). A device or stream sync waits for it meanwhile.
  struct Launched {
    std::uint64_t gpu = 0, own = 0, stream = 0, gpu_unpaced = 0, own_unpaced = 0;
    bool unpaced = false;
  };
  Launched launch_work(Worker& w, bool unpaced) {
    Launched l{w.gpu.work.begin(), w.own.begin(), w.stream_work[0]->begin(), 0, 0, unpaced};
    if (unpaced) {
      l.gpu_unpaced = w.gpu.unpaced_work.begin();
      l.own_unpaced = w.own_unpaced.begin();
    }
    return l;
  }
  void end_work(Worker& w, const Launched& l) {
    w.gpu.work.end(l.gpu);
    w.own.end(l.own);
    w.stream_work[0]->end(l.stream);
    if (l.unpaced) {
      w.gpu.unpaced_work.end(l.gpu_unpaced);
      w.own_unpaced.end(l.own_unpaced);
    }
  }

  Task<void> release(Worker& w, Staged& st, int b, int stream, std::uint32_t track) {
    const auto& spec = s_.pipe.buffers[static_cast<std::size_t>(b)];
    std::uint64_t held = st.held[static_cast<std::size_t>(b)];
    if (!held) co_return;
    if (spec.allocator == Allocator::sync) {
      const bool waits = s_.cal.free_synchronizes_device || s_.cal.synchronizes_device("cudaFree");
      // The call takes the driver first and keeps it while it waits for the device
      // (free_holds_driver_while_waiting, probe free_holds_driver): another thread's cudaMalloc,
      // cudaFree and cudaMemGetInfo wait through both, and this thread's next call goes first.
      const bool hold_wait = waits && s_.cal.free_holds_driver_while_waiting;
      if (hold_wait) co_await take_driver_to_hold(w, track);
      // ... and another thread's kernel launches wait from the call's start to its return where
      // the probe saw them wait (free_blocks_launches, free_holds_driver's launch row).
      std::shared_ptr<Gate> launches_free;
      if (waits && s_.cal.free_blocks_launches) {
        launches_free = std::make_shared<Gate>(e_);
        launch_blocks_.push_back({&w, launches_free});
      }
      const double t_call = e_.now();  // the call's start (its device wait first)
      if (waits) co_await device_sync(w, st.part.id, "free_sync_device", track, "cuda_free");
      double t0 = e_.now();
      if (!hold_wait) co_await driver_gate(w, track);
      // The memory is another thread's to allocate from the call's start where the probe saw
      // it so (free_release: free_releases_before_return), else from its return.
      const bool early = s_.cal.free_releases_before_return;
      if (early) {
        w.gpu.mem.free(held);
        mem_sample(w.gpu);
      }
      const double cost =
          s_.cal.sync_free.at(static_cast<double>(held)) * free_scale_[static_cast<std::size_t>(b)];
      if (!hold_wait) extend_handoff(track, t_call, e_.now() + cost);
      co_await e_.delay(cost);
      if (hold_wait) release_driver_hold(w, track);
      if (launches_free) {
        std::erase_if(launch_blocks_, [&](const auto& b) { return b.second == launches_free; });
        launches_free->set();
      }
      if (waits) w.stat.device_wait_s += e_.now() - t0;  // the whole call (WorkerStat)
      if (!early) w.gpu.mem.free(held);
      ev(t0, track, free_nm_[static_cast<std::size_t>(b)], EventKind::free, &w, st.part.id, held);
      co_await runtime_meminfo(w, track);
    } else {
      if (s_.cal.synchronizes_device("cudaFreeAsync"))
        co_await device_sync(w, st.part.id, "free_async_sync_device", track, nullptr);
      double t0 = e_.now();
      co_await e_.delay(s_.cal.pool_free.at(static_cast<double>(held)) *
                        free_scale_[static_cast<std::size_t>(b)]);
      // The free is stream-ordered: pending while earlier work on its stream still runs.
      WorkTracker& sw = *w.stream_work[static_cast<std::size_t>(stream)];
      int sid = w.streams[static_cast<std::size_t>(stream)];
      bool pending = !sw.idle();
      w.gpu.mem.free_async(sid, held, pending);
      if (pending) procs_.spawn(free_when_reached(w.gpu, sw, sid, held));
      ev(t0, track, free_nm_[static_cast<std::size_t>(b)], EventKind::free, &w, st.part.id, held);
      co_await runtime_meminfo(w, track);
    }
    st.held[static_cast<std::size_t>(b)] = 0;
    mem_sample(w.gpu);
  }

  bool pinned_mode() const { return gpus_.front()->policy->pinning() != model::PinMode::pageable; }

  // One copy of `bytes` on worker w's GPU link (dir 0: host to device, 1: device to host);
  // `scale` stretches its modelled time (latency and transfer; replay), 1 without.
  Task<void> copy(Worker& w, int dir, double bytes, bool pinned, std::int64_t part,
                  std::uint32_t nm, int stream, double scale) {
    double t0 = e_.now();
    std::uint64_t id = w.gpu.work.begin();
    std::uint64_t id_unpaced = w.gpu.unpaced_work.begin();
    std::uint64_t own = w.own.begin();
    std::uint64_t own_unpaced = w.own_unpaced.begin();
    WorkTracker& sw = *w.stream_work[static_cast<std::size_t>(stream)];
    std::uint64_t sid = sw.begin();
    co_await e_.delay(s_.cal.pcie_latency(dir == 0, pinned) * scale);
    const double moving = e_.now();
    co_await w.gpu.link.transfer(dir, bytes,
                                 s_.cal.pcie_bandwidth(dir == 0, pinned, bytes) / scale);
    // A pageable copy is staged through the driver on the host: it stops while a pinning call
    // holds the driver (pinning_stalls_pageable_copies), by the held time within it.
    if (!pinned && s_.cal.pinning_stalls_pageable_copies)
      if (double held = driver_held_between(moving, e_.now()); held > 0) co_await paced(held);
    w.gpu.work.end(id);
    w.gpu.unpaced_work.end(id_unpaced);
    w.own.end(own);
    w.own_unpaced.end(own_unpaced);
    sw.end(sid);
    ev(t0, dir == 0 ? w.gpu.track_h2d : w.gpu.track_d2h, nm, EventKind::copy, &w, part,
       static_cast<std::uint64_t>(bytes));
  }

  // The key points one MSM step streams (workload.key_points: streamed): `bytes` over the H2D
  // direction from pinned host memory, sharing the link with the uploads; opens `done` at the
  // end. No event of its own: the GPU runtime's streamed MSM copies inside its kernel step.
  Task<void> stream_key_points(Worker& w, double bytes, Gate* done) {
    co_await e_.delay(s_.cal.pcie_latency(true, true));
    co_await w.gpu.link.transfer(0, bytes, s_.cal.pcie_bandwidth(true, true, bytes));
    done->set();
  }

  // Uploads of one pre-staged group on the worker's copy stream; opens `done` at the end.
  Task<void> staged_uploads(Worker& w, int group, std::int64_t part, Gate* done, bool pinned) {
    double t0 = e_.now();
    co_await copy_issue_gate(w, w.track_stager);  // the group's cudaMemcpyAsync calls, at once
    double bytes = 0;
    for (int in : s_.pipe.groups[static_cast<std::size_t>(group)].uploads) {
      double b = s_.input_bytes[static_cast<std::size_t>(in)];
      co_await copy(w, 0, b, pinned, part, stage_upload_nm_[static_cast<std::size_t>(in)], 1,
                    stage_upload_scale_[static_cast<std::size_t>(in)]);
      bytes += b;
    }
    ev(t0, w.track_copy, staged_uploads_nm_[static_cast<std::size_t>(group)], EventKind::copy, &w,
       part, static_cast<std::uint64_t>(bytes));
    done->set();
  }

  // A pending cudaFreeAsync executes when its stream's earlier work is done.
  Task<void> free_when_reached(Gpu& g, WorkTracker& sw, int stream, std::uint64_t bytes) {
    co_await sw.drain();
    g.mem.free_completed(stream, bytes);
    mem_sample(g);
  }

  Task<void> synthesis(int k) {
    (void)k;
    for (;;) {
      if (next_synth_ >= total_) co_return;
      std::int64_t id = next_synth_++;
      co_await slots_.acquire();  // host memory for a/b/c
      double t0 = e_.now();
      co_await e_.delay(jittered(s_.synthesis_seconds));
      phase(synth_phase_, e_.now() - t0);
      if (record_)
        ev(t0, trace_.track_id(fmt::format("host/synthesis{}", k)), name("synthesis"),
           EventKind::cpu, nullptr, id, static_cast<std::uint64_t>(input_total_));
      ready_.push(Part{id, static_cast<int>(id / s_.partitions), 0});
    }
  }

  // A partition leaves the system (done or lost): host slot back, proof accounting.
  void retire(const Part& p, bool ok) {
    slots_.release();
    if (!ok) {
      ++lost_;
      proof_lost_[static_cast<std::size_t>(p.proof)] = true;
    }
    partition_finished(p.proof);
  }
  void partition_finished(int proof) {
    if (--proof_left_[static_cast<std::size_t>(proof)] == 0 &&
        !proof_lost_[static_cast<std::size_t>(proof)]) {
      ++proofs_done_;
      last_proof_ = e_.now();
    }
    if (--outstanding_ == 0) ready_.close();
  }

  // Failure of partition st on worker w: free what it holds; retry or drop it.
  Task<void> fail(Worker& w, Staged& st, std::uint32_t track) {
    for (std::size_t b = 0; b < st.held.size(); ++b)
      if (st.held[b]) co_await release(w, st, static_cast<int>(b), 0, track);
    // Wait for any staged uploads still in flight before the host buffers are reused.
    for (auto& g : st.upload)
      if (g) co_await g->wait();
    if (st.pinned) co_await unpin(w, st, track);
    w.gpu.policy->released(req_for(w, st.part.id), st.groups);
    if (st.part.attempts < s_.max_retries && !w.gpu.dead) {
      ++retried_;
      Part p = st.part;
      ++p.attempts;
      ready_.push_front(p);
    } else if (st.part.attempts < s_.max_retries) {
      ready_.push_front(st.part);  // this GPU's context is gone; another may take it
    } else {
      retire(st.part, false);
    }
    st.valid = false;
  }

  model::StagingRequest req_for(Worker& w, std::int64_t part) {
    model::StagingRequest r = req_;
    r.gpu = w.gpu.id;
    r.worker = w.index;
    r.partition = part;
    return r;
  }

  // A call of worker w that the driver serialises behind a running pinning call: waits until it
  // returns, and then lets the pinning thread's own calls go first (the hand-off window below).
  // A waiter that finds the driver taken again when its window ends (the owner's next pinning
  // call, issued inside the window) waits again (session g's e02 r1: worker 1's cudaFree waited
  // through worker 0's cudaHostUnregister and the cudaHostRegister right after it).
  Task<void> driver_gate(const Worker& w, std::uint32_t thread) {
    co_await yield_to_handoff_waiter(thread);
    if (!driver_.held()) co_return;  // only a call that holds the driver over time takes it
    do {
      co_await driver_.lock();
      driver_.unlock();
      co_await after_handoff(thread);
    } while (driver_holders_ > 0);  // only a holding call holds it over time (no livelock)
  }

  // The GPU runtime reads cudaMemGetInfo after each allocation and free (its memory samples) and
  // for each out-of-memory record: a driver call, which waits for another thread's pinning call
  // where the probe saw cudaMemGetInfo wait (pinning_delays_meminfo), and which, made by the
  // hand-off window's owner inside it, keeps the window open. A runtime that samples the pool's
  // attributes instead (run.memory_samples: pool) makes no such call.
  Task<void> runtime_meminfo(Worker& w, std::uint32_t thread) {
    if (!s_.cal.pinning_delays_meminfo || s_.memory_samples == model::MemorySamples::pool)
      co_return;
    const double t = e_.now();
    co_await driver_gate(w, thread);
    extend_handoff(thread, t, e_.now());
  }

  // The hand-off window: when a pinning call of thread `handoff_owner_` returns (a thread: a
  // worker's stager or executor, named by its track id; the host track for the executor's calls,
  // whichever track an event is drawn on), a call that waited for it resumes when the window
  // ends, pinning_handoff_s later. The owner's calls that start inside the window go first; one
  // still running at its end holds the driver's lock to its own end, and the waiter goes next.
  // The owner's calls that start after that go behind the waiter. The window is fixed: the
  // owner's calls do not renew it. Measured: probe driver_waits.*.handoff_malloc (the holder's
  // next call first, the waiter 0.26-0.30 ms after) and handoff_sequence (three 64 MiB
  // cudaMallocs, ~0.05 ms each, all inside the window); the staging runs' hand-offs (sim/
  // DECISIONS.md, 2026-12-07): after a stager's 12 GiB registration with another thread's call
  // waiting, the stager made 1 more call before the waiter in most cases (its 4 GiB d_a), not
  // its whole sequence of placement, allocations and next registration; probe handoff_runtime
  // (session j): the stager's own placement sequence, 1 call (0.03 ms) before the waiter, 3 of 3.
  void open_handoff(std::uint32_t thread) {
    if (s_.cal.pinning_handoff_s <= 0) return;
    handoff_owner_ = thread;
    handoff_until_ = e_.now() + s_.cal.pinning_handoff_s;
  }
  void extend_handoff(std::uint32_t thread, double call_start, double call_end) {
    if (thread == handoff_owner_ && call_start < handoff_until_)
      handoff_until_ = std::max(handoff_until_, call_end);
  }
  Task<void> after_handoff(std::uint32_t thread) {
    ++handoff_waiters_;
    while (thread != handoff_owner_ && e_.now() < handoff_until_)
      co_await e_.delay(handoff_until_ - e_.now());
    --handoff_waiters_;
  }
  // The owner's call that starts when its window has ended while a waiter is about to resume
  // (same instant) lets the waiter take the driver first: the engine runs simultaneous events in
  // the order they were scheduled, and the waiter's wake-up was scheduled first.
  Task<void> yield_to_handoff_waiter(std::uint32_t thread) {
    if (thread == handoff_owner_ && handoff_waiters_ > 0 && e_.now() >= handoff_until_)
      co_await e_.yield_now();
  }

  // A cudaMemcpyAsync / cudaMallocAsync call: waits for the driver only where the probe saw
  // these calls wait (driver_waits: copy_pinned_issued_inside, pool_alloc_waits).
  Task<void> copy_issue_gate(const Worker& w, std::uint32_t thread) {
    if (s_.cal.pinning_delays_copy_issue) co_await driver_gate(w, thread);
  }
  Task<void> pool_alloc_gate(const Worker& w, std::uint32_t thread) {
    if (s_.cal.pinning_delays_pool_alloc) co_await driver_gate(w, thread);
  }

  // A kernel launch of worker w waits while another worker's cudaFree that waits for the device
  // is under way (free_blocks_launches; launch_blocks_ holds one gate per such free, set when it
  // returns).
  Task<void> launch_gate(const Worker& w) {
    for (;;) {
      std::shared_ptr<Gate> g;
      for (const auto& [who, gate] : launch_blocks_)
        if (who != &w) g = gate;
      if (!g) co_return;
      co_await g->wait();
    }
  }

  // A call of worker w that holds the driver over time (a pinning call; a cudaFree waiting for
  // the device where free_holds_driver_while_waiting) takes it. One that had to wait for another
  // holder lets the releasing thread's calls go first, as every waiter does (driver_gate): it
  // releases the driver again and takes it when the hand-off window ends (probe
  // driver_waits.*.handoff_malloc measured the hand-off for a cudaMalloc waiter; the driver's
  // lock does not know what the waiter will do, so a waiting holder takes the same hand-off).
  // Ends with the driver held for the call (driver_holders_); release_driver_hold gives
  // it back and opens the hand-off window.
  Task<void> take_driver_to_hold(const Worker& w, std::uint32_t thread) {
    co_await yield_to_handoff_waiter(thread);
    const bool waits = driver_.held();
    co_await driver_.lock();
    if (waits && s_.cal.pinning_handoff_s > 0) {
      driver_.unlock();
      co_await after_handoff(thread);
      co_await driver_.lock();
    }
    ++driver_holders_;
  }
  void release_driver_hold(Worker& w, std::uint32_t thread) {
    --driver_holders_;
    w.driver_released_at = e_.now();
    open_handoff(thread);
    driver_.unlock();
  }

  // A pinning call that took the driver holds it from now for `seconds`.
  void record_hold(double seconds) { driver_holds_.push_back({e_.now(), e_.now() + seconds}); }

  // Seconds of [from, to] during which a pinning call held the driver. The holds are disjoint
  // and recorded in start order (one driver lock), so the scan stops at the first that ended
  // before `from`.
  double driver_held_between(double from, double to) const {
    double held = 0;
    for (auto it = driver_holds_.rbegin(); it != driver_holds_.rend(); ++it) {
      if (it->second <= from) break;
      held += std::max(0.0, std::min(to, it->second) - std::max(from, it->first));
    }
    return held;
  }

  // `seconds` of work that makes no progress while another thread's pinning call holds the
  // driver (pinning_stalls_paced_steps: the probe's driver_waits.paced_sequence): ends at the
  // first T with T - start - held([start, T]) = seconds. A hold that starts during the
  // extension extends it again.
  Task<void> paced(double seconds) {
    double from = e_.now();
    co_await e_.delay(seconds);
    for (;;) {
      const double held = driver_held_between(from, e_.now());
      from = e_.now();
      if (held <= 0) break;
      co_await e_.delay(held);
    }
  }

  Task<void> pin_inputs(Worker& w, Staged& st, std::uint32_t track) {
    if (s_.cal.synchronizes_device("cudaHostRegister"))
      co_await device_sync(w, st.part.id, "register_sync_device", track, nullptr);
    double t0 = e_.now();
    const bool hold = s_.cal.pinning_serialises_driver;
    if (hold) co_await take_driver_to_hold(w, track);
    const double cost = s_.cal.host_register.at(input_total_) * register_scale_;
    if (hold) record_hold(cost);
    co_await e_.delay(cost);
    if (hold) release_driver_hold(w, track);
    st.pinned = true;
    ev(t0, track, name("host_register"), EventKind::pin, &w, st.part.id,
       static_cast<std::uint64_t>(input_total_));
  }

  Task<void> unpin(Worker& w, Staged& st, std::uint32_t thread) {
    double t0 = e_.now();
    const bool waits = s_.cal.synchronizes_device("cudaHostUnregister");
    const bool hold = s_.cal.pinning_serialises_driver;
    // The call takes the driver first and keeps it while it waits for the device
    // (unregister_holds_driver_while_waiting, probe driver_waits.launch_while_device_busy):
    // another thread's launches, copies and pool allocations wait through both.
    const bool hold_wait = hold && waits && s_.cal.unregister_holds_driver_while_waiting;
    if (hold_wait) co_await take_driver_to_hold(w, thread);
    const double d0 = e_.now();  // device_sync counts [d0, d1] in device_wait_s itself
    if (waits)
      co_await device_sync(w, st.part.id, "unregister_sync_device", w.track_host,
                           "host_unregister");
    const double d1 = e_.now();
    if (hold && !hold_wait) co_await take_driver_to_hold(w, thread);
    const double cost = s_.cal.host_unregister.at(input_total_) * unregister_scale_;
    if (hold) record_hold(cost);
    co_await e_.delay(cost);
    if (hold) release_driver_hold(w, thread);
    // The whole call (WorkerStat): added, not assigned, as the worker's stager may count its own
    // device waits meanwhile.
    if (waits) w.stat.device_wait_s += (d0 - t0) + (e_.now() - d1);
    st.pinned = false;
    ev(t0, w.track_host, name("host_unregister"), EventKind::unpin, &w, st.part.id,
       static_cast<std::uint64_t>(input_total_));
  }

  // The stager: takes synthesized partitions, pins them and pre-stages what the policy places,
  // one partition ahead of its executor.
  Task<void> stager(Worker& w) {
    if (double d = s_.start_delay(w.index); d > 0) co_await e_.delay(d);
    model::Policy& pol = *w.gpu.policy;
    const bool prestage = pol.prestages();
    const model::PinMode pin = pol.pinning();
    // pinned_pool: the host slots themselves are pinned (allocated before the run, finish()):
    // nothing to pin per partition, every upload is pinned.
    const bool pinned = pin != model::PinMode::pageable;
    int token = 0;
    for (;;) {
      if (w.gpu.dead) break;
      Part p;
      if (!co_await ready_.pop(p)) break;
      if (w.gpu.dead) {
        ready_.push_front(p);
        break;
      }
      Staged& st = w.slot;
      st = Staged{};
      st.part = p;
      st.valid = true;
      st.held.assign(s_.pipe.buffers.size(), 0);
      st.upload.resize(s_.pipe.groups.size());
      // Pin here unless the pipeline pins in its steps and nothing is pre-staged (async copies
      // need pinned memory, so a pre-staging policy pins before staging regardless).
      if (pin == model::PinMode::register_per_partition && (prestage || !s_.pipe.has_pin_step))
        co_await pin_inputs(w, st, w.track_stager);
      bool failed = false;
      if (prestage) {
        int groups = co_await decide(w, Call::place, p.id, 0);
        groups = std::clamp(groups, 0, static_cast<int>(s_.pipe.groups.size()));
        int placed = 0;
        while (placed < groups) {
          int b = s_.pipe.groups[static_cast<std::size_t>(placed)].buffer;
          bool ok =
              co_await alloc(w, st, b, 1, w.track_stager,
                             "stage_" + s_.pipe.groups[static_cast<std::size_t>(placed)].name);
          if (ok) {
            ++placed;
            continue;
          }
          int keep = co_await decide(w, Call::failure, p.id, groups);
          if (keep < 0) {
            failed = true;
            break;
          }
          keep = std::min(keep, placed);
          for (int g = keep; g < placed; ++g)
            co_await release(w, st, s_.pipe.groups[static_cast<std::size_t>(g)].buffer, 1,
                             w.track_stager);
          placed = groups = keep;
        }
        st.groups = failed ? placed : groups;
        if (!failed) {
          for (int g = 0; g < st.groups; ++g) {
            st.upload[static_cast<std::size_t>(g)] = std::make_unique<Gate>(e_);
            Gate* gate = st.upload[static_cast<std::size_t>(g)].get();
            if (!pinned && s_.cal.h2d.pageable_blocks_host)
              co_await staged_uploads(w, g, p.id, gate, pinned);  // the host thread waits
            else
              procs_.spawn(staged_uploads(w, g, p.id, gate, pinned));
          }
        }
      }
      if (failed) {
        st.groups = 0;
        co_await fail(w, st, w.track_stager);
        continue;
      }
      // Hand over, then wait until the executor has taken it.
      w.slot_full.push(token++);
      int dummy;
      if (!co_await w.slot_empty.pop(dummy)) break;
    }
    w.slot_full.close();
  }

  // The executor: runs the pipeline steps of each staged partition.
  Task<void> executor(Worker& w) {
    if (double d = s_.start_delay(w.index); d > 0) co_await e_.delay(d);
    const bool pool_pinned = w.gpu.policy->pinning() == model::PinMode::pinned_pool;
    int token;
    while (co_await w.slot_full.pop(token)) {
      Staged st = std::move(w.slot);
      w.slot = Staged{};
      w.slot_empty.push(0);  // the stager may stage the next partition now
      bool locked = false;
      bool ok = true;
      double t_part = e_.now();
      std::string where;
      for (std::size_t i = 0; i < s_.pipe.steps.size() && ok; ++i) {
        const model::Step& step = s_.pipe.steps[i];
        const std::uint32_t nm = step_names_[i];
        double t0 = e_.now();
        w.exec_st = &st;
        w.exec_step = i;
        switch (step.op) {
          case StepOp::lock: {
            co_await w.gpu.lock.lock();
            locked = true;
            w.gpu.holder = &w;
            w.stat.lock_wait_s += e_.now() - t0;
            ev(t0, w.track_host, nm, EventKind::lock_wait, &w, st.part.id, 0);
            break;
          }
          case StepOp::unlock:
            w.gpu.holder = nullptr;
            w.gpu.lock.unlock();
            locked = false;
            break;
          case StepOp::alloc: {
            int grp = s_.buffer_group[static_cast<std::size_t>(step.buffer)];
            if (grp >= 0 && grp < st.groups) break;  // pre-staged
            ok = co_await alloc(w, st, step.buffer, 0, w.track_host, step.name);
            if (!ok) where = step.name;
            break;
          }
          case StepOp::free:
            co_await release(w, st, step.buffer, 0, w.track_host);
            break;
          case StepOp::upload: {
            int grp = s_.buffer_group[static_cast<std::size_t>(step.buffer)];
            if (grp >= 0 && grp < st.groups) {
              co_await st.upload[static_cast<std::size_t>(grp)]->wait();
              ev(t0, w.track_host, wait_staged_nm_[i], EventKind::copy, &w, st.part.id, 0);
              phase(wait_phase_[i], e_.now() - t0);
            } else {
              co_await copy_issue_gate(w, w.track_host);  // the cudaMemcpyAsync call
              co_await copy(w, 0, s_.input_bytes[static_cast<std::size_t>(step.input)],
                            pool_pinned || st.pinned, st.part.id, nm, 0, step_scale_[i]);
              ev(t0, w.track_host, nm, EventKind::copy, &w, st.part.id,
                 static_cast<std::uint64_t>(s_.input_bytes[static_cast<std::size_t>(step.input)]));
              phase(step_phase_[i], e_.now() - t0);
            }
            break;
          }
          case StepOp::download: {
            co_await copy_issue_gate(w, w.track_host);  // the cudaMemcpyAsync call
            co_await copy(w, 1, s_.step_seconds[i], pool_pinned || st.pinned, st.part.id, nm, 0,
                          step_scale_[i]);
            // The host waits for the download with a stream sync, which releases the stream's
            // observed pool frees (e.g. the MSM scratch freed just before) as a kernel step's
            // sync does: measured in the staging runs as the download's 7.5 ms at 2^27.
            if (std::uint64_t rel = w.gpu.mem.host_call("stream_sync", &w.compute_stream))
              co_await e_.delay(s_.cal.pool_release_at_sync.at(static_cast<double>(rel)));
            phase(step_phase_[i], e_.now() - t0);
            break;
          }
          case StepOp::kernel: {
            if (s_.step_msm_pieces[i] == 0 || s_.step_stream_chunks[i] == 0) {
              // Its MSM fits the workspace in no split or chunk (Scenario::step_msm_pieces,
              // step_stream_chunks): the GPU runtime's out-of-memory, before anything is launched.
              co_await record_oom(w, st.part.id, "msm_workspace",
                                  static_cast<std::uint64_t>(s_.step_msm_need[i]), w.track_host);
              ok = false;
              where = "msm_workspace";
              break;
            }
            co_await driver_gate(w, w.track_host);
            co_await launch_gate(w);
            // A streamed MSM is host-paced (a launch and a stream sync per chunk of points): it
            // stops while another thread's pinning call holds the driver; so does any MSM where
            // the calibration says so (pinning_stalls_msm: resident points too).
            const bool streamed = s_.step_stream_bytes[i] > 0;
            // A streamed MSM whose chunks are known (Scenario::step_stream_chunks): chunk by chunk,
            // each launch waiting for the driver, each chunk then the device's work without a
            // stall, so a sync issued during the step waits for the chunk in flight only.
            const int chunks = s_.step_stream_chunks[i];
            const bool chunked = streamed && chunks > 1 && s_.cal.pinning_stalls_paced_steps;
            const bool paced_step = (streamed && s_.cal.pinning_stalls_paced_steps && !chunked) ||
                                    (step_is_msm_[i] && s_.cal.pinning_stalls_msm && !chunked) ||
                                    (step_is_h_[i] && s_.cal.pinning_stalls_h);
            // Launched: the kernel is pending work from here, also while it waits for the SMs
            // behind another stream's kernel.
            Launched work = launch_work(w, !paced_step && !chunked);
            co_await w.gpu.compute.lock();
            double k0 = e_.now();
            double d = jittered(s_.step_seconds[i] * step_scale_[i]);
            // Streamed key points: the MSM moves them over H2D while it computes; it ends when
            // both are done (on an idle link the streamed curve already covers the transfer).
            std::unique_ptr<Gate> points_in;
            if (streamed) {
              points_in = std::make_unique<Gate>(e_);
              procs_.spawn(stream_key_points(w, s_.step_stream_bytes[i], points_in.get()));
            }
            if (chunked) {
              for (int c = 0; c < chunks; ++c) {
                if (c > 0) {
                  co_await driver_gate(w, w.track_host);
                  co_await launch_gate(w);
                  work = launch_work(w, false);
                }
                co_await e_.delay(d / chunks);
                if (c + 1 < chunks) end_work(w, work);
              }
            } else if (paced_step) {
              co_await paced(d);
            } else {
              co_await e_.delay(d);
            }
            if (points_in) co_await points_in->wait();
            end_work(w, work);
            w.gpu.compute.unlock();
            w.gpu.busy += d;
            // The host waited for the kernel: a cudaStreamSynchronize of the compute stream
            // (sppark's NTT and MSM calls end with one), which observes the stream's frees and
            // releases them when the calibration says a stream sync does.
            if (std::uint64_t rel = w.gpu.mem.host_call("stream_sync", &w.compute_stream))
              co_await e_.delay(s_.cal.pool_release_at_sync.at(static_cast<double>(rel)));
            ev(k0, w.gpu.track_compute, nm, EventKind::compute, &w, st.part.id, 0);
            ev(t0, w.track_host, nm, EventKind::compute, &w, st.part.id, 0);
            phase(step_phase_[i], e_.now() - t0);
            break;
          }
          case StepOp::pin:
            if (w.gpu.policy->pinning() == model::PinMode::register_per_partition && !st.pinned)
              co_await pin_inputs(w, st, w.track_host);
            break;
          case StepOp::sync: {
            // A pipeline's explicit host synchronisation, as the runtime performs it.
            if (step.scope == model::SyncScope::device)
              co_await device_sync(w, st.part.id, "sync_device", w.track_host, "device_sync");
            else
              co_await stream_sync(
                  w, st.part.id,
                  step.scope == model::SyncScope::event ? SyncKind::event : SyncKind::stream,
                  w.track_host);
            phase(step_phase_[i], e_.now() - t0);
            break;
          }
          case StepOp::unpin:
            if (st.pinned) co_await unpin(w, st, w.track_host);
            break;
          case StepOp::cpu: {
            double d = jittered(s_.step_seconds[i] * step_scale_[i]);
            if (step.detach) {
              ++proof_left_[static_cast<std::size_t>(st.part.proof)];
              ++outstanding_;
              procs_.spawn(detached_cpu(w, st.part, nm, d, i));
            } else {
              co_await e_.delay(d);
              ev(t0, w.track_host, nm, EventKind::cpu, &w, st.part.id, 0);
              phase(step_phase_[i], d);
            }
            break;
          }
        }
      }
      if (!ok) {
        if (locked) {
          w.gpu.holder = nullptr;
          w.gpu.lock.unlock();
        }
        co_await fail(w, st, w.track_host);
        if (w.gpu.dead) break;
        continue;
      }
      // The policy's after-partition hook runs as soon as the partition's GPU steps are done,
      // before the host unregisters its inputs (cudaHostUnregister waits for the whole device).
      if (w.gpu.policy->prestages()) co_await decide(w, Call::after, st.part.id, 0);
      if (st.pinned) co_await unpin(w, st, w.track_host);
      w.gpu.policy->released(req_for(w, st.part.id), st.groups);
      ++w.stat.partitions_done;
      ++done_;
      ev(t_part, w.track_host, name("partition"), EventKind::partition, &w, st.part.id, 0);
      retire(st.part, true);
    }
    // Drain: a dead GPU's stager may have left a partition in the slot.
    if (w.slot.valid) {
      Staged st = std::move(w.slot);
      co_await fail(w, st, w.track_host);
    }
    w.slot_empty.close();
  }

  Task<void> detached_cpu(Worker& w, Part p, std::uint32_t nm, double d, std::size_t step) {
    co_await cpus_.acquire();
    double t0 = e_.now();
    co_await e_.delay(d);
    cpus_.release();
    phase(step_phase_[step], d);
    if (record_) ev(t0, trace_.track_id("host/cpu"), nm, EventKind::cpu, &w, p.id, 0);
    partition_finished(p.proof);
  }

  RunResult finish() {
    RunResult r;
    Summary& m = r.summary;
    model::fill_common(m, s_, proofs_done_, e_.now(), step_phase_, wait_phase_, synth_phase_);
    for (auto& g : gpus_) {
      double T = m.makespan_s > 0 ? m.makespan_s : 1;
      m.gpu_busy_share.push_back(g->busy / T);
      m.h2d_utilisation.push_back(g->link.bytes_moved(0) / (T * s_.cal.h2d.aggregate));
      m.d2h_utilisation.push_back(g->link.bytes_moved(1) / (T * s_.cal.d2h.aggregate));
      m.peak_used.push_back(g->mem.peak_used());
      m.peak_reserved.push_back(g->mem.peak_reserved());
    }
    m.ooms = ooms_;
    m.partitions_total = total_;
    m.partitions_done = done_;
    m.partitions_lost = total_ - done_;
    m.partitions_retried = retried_;
    for (auto& w : workers_) m.workers.push_back(w->stat);
    m.engine_events = e_.events_processed();
    if (!gpus_.empty() && gpus_.front()->policy->pinning() == model::PinMode::pinned_pool) {
      m.pinned_pool_bytes = input_total_ * s_.host_slots;
      m.pinned_pool_setup_s = s_.cal.malloc_host.at(m.pinned_pool_bytes);
    }
    r.trace = std::move(trace_);
    return r;
  }

  const Scenario& s_;
  bool record_;
  Engine e_;
  Processes procs_;
  Queue<Part> ready_;
  Counted cpus_;
  Counted slots_;
  // The driver, per process: cudaHostRegister / cudaHostUnregister hold it for their duration
  // when the calibration says so (pinning_serialises_driver), a cudaFree that waits for the device
  // where free_holds_driver_while_waiting; kernel launches, cudaMalloc and
  // cudaFree wait for it (probe driver_serialisation).
  Mutex driver_;
  // cudaFree calls waiting for the device that block other workers' launches
  // (free_blocks_launches): the freeing worker and the gate set when its call returns.
  std::vector<std::pair<const Worker*, std::shared_ptr<Gate>>> launch_blocks_;
  int driver_holders_ = 0;  // calls holding driver_ over time now (0 or 1): pinning, a waiting free
  static constexpr std::uint32_t kNoThread = ~std::uint32_t{0};
  std::uint32_t handoff_owner_ = kNoThread;  // the hand-off window (open_handoff)
  double handoff_until_ = -1;                // s
  int handoff_waiters_ = 0;                  // calls waiting in after_handoff for the window to end
  std::vector<std::pair<double, double>> driver_holds_;  // s: [start, end) of each pinning hold
  std::vector<std::unique_ptr<Gpu>> gpus_;
  std::vector<std::unique_ptr<Worker>> workers_;
  model::Trace trace_;
  model::StagingRequest req_;
  std::vector<std::uint32_t> step_names_;
  // Replay factors on the model's times (Scenario::step_time_scale), 1 without: per pipeline
  // step (kernel, cpu, upload, download), per buffer (alloc, free), per input (staged upload).
  std::vector<double> step_scale_, alloc_scale_, free_scale_, stage_upload_scale_;
  std::vector<bool> step_is_msm_;  // per pipeline step: a kernel step whose kernel is an MSM
  std::vector<bool> step_is_h_;    // ... whose kernel is an H step (h_input, coset_intt)
  double register_scale_ = 1, unregister_scale_ = 1;
  std::vector<PhaseStat> step_phase_, wait_phase_;  // per pipeline step
  PhaseStat synth_phase_;
  std::vector<std::uint32_t> wait_staged_nm_, alloc_nm_, free_nm_, stage_upload_nm_,
      staged_uploads_nm_;  // trace name ids
  std::vector<OomEvent> ooms_;
  std::vector<int> proof_left_;
  std::vector<bool> proof_lost_;
  std::int64_t total_ = 0, outstanding_ = 0, next_synth_ = 0, done_ = 0, lost_ = 0, retried_ = 0;
  int proofs_done_ = 0;
  double last_proof_ = 0;
  double input_total_ = 0;  // B of all inputs of one partition
  std::uint64_t rng_ = 0;
};

std::uint64_t SimView::free_bytes() {
  const auto blocking = [&](Action a) {
    if (cursor_ < done.size()) {
      ++cursor_;
    } else {
      pending = a;
      throw Suspend{};
    }
  };
  if (s_.s().cal.synchronizes_device("cudaMemGetInfo"))
    blocking(Action{Action::meminfo_sync, SyncKind::device, 0});
  if (s_.s().cal.pinning_delays_meminfo)
    blocking(Action{Action::meminfo_gate, SyncKind::device, 0});
  return w_.gpu.mem.meminfo_call();
}
model::LockHolder SimView::lock_holder() {
  model::LockHolder h;
  const Worker* holder = w_.gpu.holder;
  if (!holder || !holder->exec_st) {
    h.known = true;
    return h;
  }
  const Staged& st = *holder->exec_st;
  h = model::locked_remaining(s_.s(), holder->exec_step, st.held, st.groups);
  h.worker = holder->index;
  h.partition = st.part.id;
  return h;
}
std::uint64_t SimView::total_bytes() {
  return w_.gpu.mem.total();
}
std::uint64_t SimView::pool_reserved() {
  return w_.gpu.mem.pool_reserved();
}
std::uint64_t SimView::pool_used() {
  return w_.gpu.mem.pool_used();
}

}  // namespace

RunResult run_scenario(const Scenario& s, bool record_trace) {
  Sim sim(s, record_trace);
  return sim.run();
}

}  // namespace prestage::sim
