#include "sim/device.hpp"

#include <algorithm>
#include <cmath>

namespace prestage::sim {
using model::ReuseRule;
using model::SyncKind;

static std::uint64_t round_up(std::uint64_t v, std::uint64_t g) {
  return g ? (v + g - 1) / g * g : v;
}

DeviceMemory::DeviceMemory(const model::Calibration& c, double vram_bytes, int streams,
                           std::uint64_t release_threshold)
    : c_(c), idle_(static_cast<std::size_t>(streams), 0), threshold_(release_threshold) {
  for (int i = 0; i < streams; ++i) all_streams_.push_back(i);
  vram_ = static_cast<std::uint64_t>(vram_bytes);
  double overhead = c.total_memory - c.free_at_context_start;
  capacity_ = vram_bytes > overhead ? static_cast<std::uint64_t>(vram_bytes - overhead) : 0;
}

std::uint64_t DeviceMemory::idle_all() const {
  std::uint64_t s = shared_idle_;
  for (auto v : idle_) s += v;
  return s;
}

void DeviceMemory::note_peaks() {
  peak_used_ = std::max(peak_used_, used());
  peak_reserved_ = std::max(peak_reserved_, reserved());
}

// Releases up to `want` idle bytes (shared first, then the given streams' or all streams').
std::uint64_t DeviceMemory::release_idle(std::uint64_t want, const std::vector<int>* streams) {
  std::uint64_t got = std::min(want, shared_idle_);
  shared_idle_ -= got;
  auto take = [&](std::size_t s) {
    std::uint64_t t = std::min(want - got, idle_[s]);
    idle_[s] -= t;
    got += t;
  };
  if (streams) {
    for (int s : *streams) take(static_cast<std::size_t>(s));
  } else {
    for (std::size_t s = 0; s < idle_.size(); ++s) take(s);
  }
  pool_reserved_ -= got;
  return got;
}

std::uint64_t DeviceMemory::release_above_threshold(const std::vector<int>* streams) {
  std::uint64_t keep = c_.release_keeps_threshold ? threshold_ : 0;
  keep = std::max(keep, pool_used_);
  if (pool_reserved_ <= keep) return 0;
  return release_idle(pool_reserved_ - keep, streams);
}

bool DeviceMemory::malloc(std::uint64_t bytes, std::uint64_t* granted) {
  std::uint64_t g = round_up(bytes, static_cast<std::uint64_t>(c_.sync_granularity));
  if (static_cast<double>(g) > c_.largest_allocation) return false;
  if (physical_free() < g && c_.releases_on("cuda_malloc")) release_above_threshold(nullptr);
  if (physical_free() < g) {
    std::uint64_t short_by = g - physical_free();
    std::uint64_t per_stream = 0;
    for (auto v : idle_) per_stream += v;
    std::uint64_t avail = (c_.cudamalloc_reclaims_idle_pool ? shared_idle_ : 0) +
                          (c_.cudamalloc_reclaims_completed_frees_before_sync ? per_stream : 0);
    if (avail >= short_by) {
      // Shared (synced) idle bytes first, then per-stream ones.
      std::uint64_t from_shared =
          c_.cudamalloc_reclaims_idle_pool ? std::min(short_by, shared_idle_) : 0;
      shared_idle_ -= from_shared;
      pool_reserved_ -= from_shared;
      std::uint64_t rest = short_by - from_shared;
      for (std::size_t s = 0; s < idle_.size() && rest; ++s) {
        std::uint64_t t = std::min(rest, idle_[s]);
        idle_[s] -= t;
        pool_reserved_ -= t;
        rest -= t;
      }
    }
  }
  if (physical_free() < g) return false;
  sync_used_ += g;
  *granted = g;
  note_peaks();
  return true;
}

void DeviceMemory::free(std::uint64_t granted) {
  sync_used_ -= granted;
}

DeviceMemory::PoolAlloc DeviceMemory::malloc_async(int stream, std::uint64_t bytes) {
  if (static_cast<double>(bytes) > c_.pool_largest_allocation) return PoolAlloc::failed;
  auto s = static_cast<std::size_t>(stream);
  if (c_.releases_on("malloc_async_other_stream")) {
    std::vector<int> others;
    for (int o : all_streams_)
      if (o != stream) others.push_back(o);
    release_above_threshold(&others);
  }
  std::uint64_t same = c_.reuse_same_stream == ReuseRule::immediate ? idle_[s] : 0;
  std::uint64_t others = 0;
  if (c_.reuse_other_stream == ReuseRule::immediate)
    for (std::size_t o = 0; o < idle_.size(); ++o)
      if (o != s) others += idle_[o];
  std::uint64_t reusable = same + shared_idle_ + others;
  std::uint64_t grow = 0;
  if (reusable < bytes) {
    grow = round_up(bytes - reusable, static_cast<std::uint64_t>(c_.pool_granularity));
    if (pool_reserved_ == 0)
      grow = std::max(grow, static_cast<std::uint64_t>(c_.pool_minimum_reservation));
    if (physical_free() < grow) return PoolAlloc::failed;
  }
  // Take from this stream's idle bytes, then shared, then other streams', then growth.
  std::uint64_t need = bytes;
  auto take = [&](std::uint64_t& from) {
    std::uint64_t t = std::min(need, from);
    from -= t;
    need -= t;
  };
  if (c_.reuse_same_stream == ReuseRule::immediate) take(idle_[s]);
  take(shared_idle_);
  if (c_.reuse_other_stream == ReuseRule::immediate)
    for (std::size_t o = 0; o < idle_.size() && need; ++o)
      if (o != s) take(idle_[o]);
  PoolAlloc kind = PoolAlloc::warm;
  if (need) {
    pool_reserved_ += grow;
    idle_[s] += grow - need;  // the rest of the growth step stays idle in the pool
    kind = PoolAlloc::cold;
  }
  pool_used_ += bytes;
  note_peaks();
  return kind;
}

void DeviceMemory::free_async(int stream, std::uint64_t bytes) {
  pool_used_ -= bytes;
  idle_[static_cast<std::size_t>(stream)] += bytes;
  if (c_.releases_on("nothing")) release_above_threshold(nullptr);
}

std::uint64_t DeviceMemory::synchronized(SyncKind kind, const std::vector<int>& streams) {
  bool releases = (kind == SyncKind::stream && c_.releases_on("stream_sync")) ||
                  (kind == SyncKind::event && c_.releases_on("event_sync")) ||
                  (kind == SyncKind::device && c_.releases_on("device_sync"));
  bool all = kind == SyncKind::device ||
             (kind == SyncKind::stream && c_.releases_on("stream_sync_other_stream"));
  std::uint64_t released = releases ? release_above_threshold(all ? nullptr : &streams) : 0;
  bool cross = c_.reuse_other_stream == ReuseRule::after_sync ||
               c_.reuse_other_stream == ReuseRule::immediate ||
               (c_.reuse_other_stream == ReuseRule::after_event && kind == SyncKind::event);
  if (cross)
    for (int s : streams) {
      shared_idle_ += idle_[static_cast<std::size_t>(s)];
      idle_[static_cast<std::size_t>(s)] = 0;
    }
  return released;
}

std::uint64_t DeviceMemory::meminfo_call() {
  if (c_.releases_on("mem_get_info")) release_above_threshold(nullptr);
  return meminfo_free();
}

std::uint64_t DeviceMemory::trim(std::uint64_t keep) {
  if (pool_reserved_ <= keep) return 0;
  return release_idle(pool_reserved_ - std::max(keep, pool_used_), nullptr);
}

std::uint64_t DeviceMemory::meminfo_free() const {
  std::uint64_t taken =
      sync_used_ + (c_.meminfo_counts_pool_reserved ? pool_reserved_ : pool_used_);
  return capacity_ > taken ? capacity_ - taken : 0;
}

void WorkTracker::end(std::uint64_t id) {
  done_[id - base_] = 1;
  while (!done_.empty() && done_.front()) {
    done_.pop_front();
    ++base_;
  }
  while (!waiters_.empty() && waiters_.front().target <= base_) {
    e_.schedule(e_.now(), waiters_.front().h);
    waiters_.pop_front();
  }
}

}  // namespace prestage::sim
