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

// Device memory of one GPU. Sizes in bytes. Model (each rule a calibration flag):
//  - capacity for allocations = VRAM - (calibrated total - free at context start);
//  - cudaMalloc rounds to the sync granularity, fails above the largest allocation or when
//    physical free is short; it first takes idle pool memory made shared by a sync when
//    cudamalloc_reclaims_idle_pool, and per-stream idle memory when
//    cudamalloc_reclaims_completed_frees_before_sync;
//  - the pool keeps, per stream, idle bytes freed on it (reusable by that stream when
//    reuse_same_stream is immediate, by others when reuse_other_stream is immediate), and shared
//    idle bytes (after a covering sync, for after_sync / after_event rules); it grows in steps of
//    the pool granularity (an empty pool reserves at least minimum_reservation); a call listed in
//    released_to_os_by releases covered idle bytes down to the release threshold ("nothing":
//    at the free itself); TrimTo(keep) releases idle bytes down to keep;
//  - cudaMemGetInfo free = capacity - cudaMalloc'd - (pool reserved or pool used, per the flag).
// Fragmentation is not modelled: idle pool bytes are fungible.
class DeviceMemory {
 public:
  DeviceMemory(const model::Calibration& c, double vram_bytes, int streams,
               std::uint64_t release_threshold);

  bool malloc(std::uint64_t bytes, std::uint64_t* granted);  // false: out of memory, no change
  void free(std::uint64_t granted);
  enum class PoolAlloc { failed, warm, cold };              // warm: served from idle pool memory
  PoolAlloc malloc_async(int stream, std::uint64_t bytes);  // failed: out of memory, no change
  void free_async(int stream, std::uint64_t bytes);
  // A host synchronisation of `kind` completed, covering `streams` (all for a device sync).
  // Returns the pool bytes it released to the device.
  std::uint64_t synchronized(model::SyncKind kind, const std::vector<int>& streams);
  // cudaMemGetInfo as a call: releases idle pool memory first when the calibration says so.
  std::uint64_t meminfo_call();
  std::uint64_t trim(std::uint64_t keep);  // returns bytes released

  std::uint64_t meminfo_free() const;
  std::uint64_t total() const { return vram_; }
  std::uint64_t used() const { return sync_used_ + pool_used_; }
  std::uint64_t reserved() const { return sync_used_ + pool_reserved_; }
  std::uint64_t pool_reserved() const { return pool_reserved_; }
  std::uint64_t pool_used() const { return pool_used_; }
  std::uint64_t peak_used() const { return peak_used_; }
  std::uint64_t peak_reserved() const { return peak_reserved_; }

 private:
  std::uint64_t physical_free() const { return capacity_ - sync_used_ - pool_reserved_; }
  std::uint64_t idle_all() const;
  std::uint64_t release_idle(std::uint64_t want, const std::vector<int>* streams);
  std::uint64_t release_above_threshold(const std::vector<int>* streams);
  std::vector<int> all_streams_;
  void note_peaks();

  const model::Calibration& c_;
  std::uint64_t vram_, capacity_;
  std::uint64_t sync_used_ = 0, pool_reserved_ = 0, pool_used_ = 0;
  std::vector<std::uint64_t> idle_;  // per stream
  std::uint64_t shared_idle_ = 0;
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
