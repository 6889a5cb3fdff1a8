#pragma once
// Simulated CUDA device state of one GPU: memory (synchronous allocator + default stream-ordered
// pool, with every semantic taken from the calibration) and the tracker of in-flight GPU work that
// device-wide synchronisation waits for.
#include <coroutine>
#include <cstdint>
#include <deque>
#include <vector>

#include "model/calibration.hpp"
#include "sim/engine.hpp"

namespace prestage::sim {

// Device memory of one GPU. Sizes in bytes. Every rule is a calibration flag (probe findings:
// data/measurements/h200-probe-findings.md). A byte freed with cudaFreeAsync on stream s moves
// through three states before it leaves the pool:
//   pending  - the free is queued behind earlier work on s (the GPU has not reached it);
//   unseen   - the free has executed on the GPU, no host sync has observed it yet;
//   seen     - a host sync that covers the free observed it (it stays reserved only if the
//              release threshold keeps it, or the sync is not a releasing call).
// Reuse by cudaMallocAsync on stream t: s == t per reuse_same_stream, s != t per
// reuse_other_stream (immediate: all three states; after_free_completes: unseen and seen;
// after_event / after_sync: seen; never: none). A host call listed in released_to_os_by
// observes the frees it covers (stream/event sync: the caller's streams; device sync,
// mem_get_info, cuda_malloc, stream_sync_other_stream and the implicit device-wide waits when
// listed: all streams) and releases seen bytes above the release threshold ("nothing": at the
// free's completion). cudaMalloc takes, when physical memory is short, seen bytes
// (cudamalloc_reclaims_idle_pool), unseen (..._completed_frees_before_sync) and pending
// (..._pending_frees), and reports how much it reclaimed (the driver's release costs like a
// trim). TrimTo per trim_with_pending_frees. cudaMemGetInfo free = capacity - cudaMalloc'd -
// (pool reserved or pool used, per the flag). Capacity = VRAM - (calibrated total - free at
// context start) - the prover's resident bytes (Scenario::resident_bytes: NTT tables, resident
// key points). Fragmentation is not modelled: idle pool bytes are fungible.
class DeviceMemory {
 public:
  DeviceMemory(const model::Calibration& c, double vram_bytes, int streams,
               std::uint64_t release_threshold, double resident_bytes = 0);

  // cudaMalloc; false: out of memory, no change. *reclaimed: idle pool bytes it took over.
  bool malloc(std::uint64_t bytes, std::uint64_t* granted, std::uint64_t* reclaimed = nullptr);
  void free(std::uint64_t granted);
  enum class PoolAlloc { failed, warm, cold };              // warm: served from idle pool memory
  PoolAlloc malloc_async(int stream, std::uint64_t bytes);  // failed: out of memory, no change
  // cudaFreeAsync on `stream`; `pending`: earlier work on the stream is still running, so the
  // free executes later (call free_completed then).
  void free_async(int stream, std::uint64_t bytes, bool pending = false);
  void free_completed(int stream, std::uint64_t bytes);  // the GPU reached a pending free
  // A host call named `call` (released_to_os_by vocabulary) completed, covering `streams`
  // (nullptr: all). Observes and releases only when the calibration lists the call. Returns the
  // pool bytes released to the device.
  std::uint64_t host_call(const char* call, const std::vector<int>* streams);
  // A host synchronisation of `kind` completed, covering `streams` (all for a device sync).
  std::uint64_t synchronized(model::SyncKind kind, const std::vector<int>& streams);
  // cudaMemGetInfo as a call: releases idle pool memory first when the calibration says so.
  std::uint64_t meminfo_call();
  // cudaMemPoolTrimTo(keep): releases seen idle bytes down to `keep` reserved; with
  // `unobserved` (trim_with_pending_frees releases_immediately, or waits_then_releases after
  // the driver waited for the GPU) pending and unseen bytes too. Returns bytes released.
  std::uint64_t trim(std::uint64_t keep, bool unobserved = false);

  std::uint64_t meminfo_free() const;
  std::uint64_t total() const { return vram_; }
  std::uint64_t used() const { return sync_used_ + pool_used_; }
  std::uint64_t reserved() const { return sync_used_ + pool_reserved_; }
  std::uint64_t pool_reserved() const { return pool_reserved_; }
  std::uint64_t pool_used() const { return pool_used_; }
  std::uint64_t pool_pending() const { return sum(pending_); }
  std::uint64_t pool_unseen() const { return sum(unseen_); }
  std::uint64_t pool_seen() const { return sum(seen_); }
  std::uint64_t peak_used() const { return peak_used_; }
  std::uint64_t peak_reserved() const { return peak_reserved_; }

 private:
  static std::uint64_t sum(const std::vector<std::uint64_t>& v) {
    std::uint64_t t = 0;
    for (auto x : v) t += x;
    return t;
  }
  std::uint64_t physical_free() const { return capacity_ - sync_used_ - pool_reserved_; }
  void observe(const std::vector<int>* streams);
  std::uint64_t release_seen(std::uint64_t keep);  // seen bytes, down to `keep` reserved
  std::uint64_t release_above_threshold();
  void completed(std::size_t s, std::uint64_t bytes);
  void note_peaks();

  const model::Calibration& c_;
  std::uint64_t vram_, capacity_;
  std::uint64_t sync_used_ = 0, pool_reserved_ = 0, pool_used_ = 0;
  std::vector<std::uint64_t> pending_, unseen_, seen_;  // per stream, B
  std::uint64_t threshold_;
  std::uint64_t peak_used_ = 0, peak_reserved_ = 0;
};

// GPU work in flight (kernels and copies), in issue order. drain() waits for everything issued
// before the call: the semantics of a device-wide synchronisation.
class WorkTracker {
 public:
  explicit WorkTracker(Engine& e) : e_(e) {}
  std::uint64_t begin() {
    done_.push_back(0);
    return base_ + done_.size() - 1;
  }
  void end(std::uint64_t id);
  struct Drain {
    WorkTracker& w;
    std::uint64_t target;  // ids < target must be done
    bool await_ready() const noexcept { return w.base_ >= target; }
    void await_suspend(std::coroutine_handle<> h) { w.waiters_.push_back({target, h}); }
    void await_resume() const noexcept {}
  };
  Drain drain() { return Drain{*this, base_ + done_.size()}; }
  bool idle() const { return done_.empty(); }

 private:
  Engine& e_;
  std::uint64_t base_ = 0;  // id of done_.front()
  std::deque<char> done_;
  struct Waiter {
    std::uint64_t target;
    std::coroutine_handle<> h;
  };
  std::deque<Waiter> waiters_;
};

}  // namespace prestage::sim
