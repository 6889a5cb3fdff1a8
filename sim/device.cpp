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
                           std::uint64_t release_threshold, double resident_bytes)
    : c_(c),
      pending_(static_cast<std::size_t>(streams), 0),
      unseen_(static_cast<std::size_t>(streams), 0),
      seen_(static_cast<std::size_t>(streams), 0),
      threshold_(release_threshold) {
  vram_ = static_cast<std::uint64_t>(vram_bytes);
  double overhead = c.total_memory - c.free_at_context_start + resident_bytes;
  capacity_ = vram_bytes > overhead ? static_cast<std::uint64_t>(vram_bytes - overhead) : 0;
}

void DeviceMemory::note_peaks() {
  peak_used_ = std::max(peak_used_, used());
  peak_reserved_ = std::max(peak_reserved_, reserved());
}

void DeviceMemory::observe(const std::vector<int>* streams) {
  auto one = [&](std::size_t s) {
    // A sync that covers a stream has waited for its work, so its pending frees have executed.
    seen_[s] += unseen_[s] + pending_[s];
    unseen_[s] = pending_[s] = 0;
  };
  if (streams)
    for (int s : *streams) one(static_cast<std::size_t>(s));
  else
    for (std::size_t s = 0; s < seen_.size(); ++s) one(s);
}

std::uint64_t DeviceMemory::release_seen(std::uint64_t keep) {
  std::uint64_t floor = std::max(keep, pool_used_ + pool_pending() + pool_unseen());
  if (pool_reserved_ <= floor) return 0;
  std::uint64_t want = pool_reserved_ - floor, got = 0;
  for (std::size_t s = 0; s < seen_.size() && got < want; ++s) {
    std::uint64_t t = std::min(want - got, seen_[s]);
    seen_[s] -= t;
    got += t;
  }
  pool_reserved_ -= got;
  return got;
}

std::uint64_t DeviceMemory::release_above_threshold() {
  return release_seen(c_.release_keeps_threshold ? threshold_ : 0);
}

std::uint64_t DeviceMemory::host_call(const char* call, const std::vector<int>* streams) {
  if (!c_.releases_on(call)) return 0;
  observe(streams);
  return release_above_threshold();
}

bool DeviceMemory::malloc(std::uint64_t bytes, std::uint64_t* granted, std::uint64_t* reclaimed) {
  if (reclaimed) *reclaimed = 0;
  std::uint64_t g = round_up(bytes, static_cast<std::uint64_t>(c_.sync_granularity));
  if (static_cast<double>(g) > c_.largest_allocation) return false;
  if (physical_free() < g) host_call("cuda_malloc", nullptr);
  if (physical_free() < g) {
    // The driver releases idle pool memory on demand, as far as the calibration lets it.
    std::uint64_t short_by = g - physical_free();
    std::vector<std::uint64_t>* from[3] = {
        c_.cudamalloc_reclaims_idle_pool ? &seen_ : nullptr,
        c_.cudamalloc_reclaims_completed_frees_before_sync ? &unseen_ : nullptr,
        c_.cudamalloc_reclaims_pending_frees ? &pending_ : nullptr};
    std::uint64_t avail = 0;
    for (auto* v : from)
      if (v) avail += sum(*v);
    if (avail < short_by) return false;  // fails at once: it does not wait for frees
    std::uint64_t rest = short_by;
    for (auto* v : from)
      for (std::size_t s = 0; v && s < v->size() && rest; ++s) {
        std::uint64_t t = std::min(rest, (*v)[s]);
        (*v)[s] -= t;
        rest -= t;
      }
    pool_reserved_ -= short_by;
    if (reclaimed) *reclaimed = short_by;
  }
  sync_used_ += g;
  *granted = g;
  note_peaks();
  return true;
}

void DeviceMemory::free(std::uint64_t granted) {
  sync_used_ -= granted;
}

// Which freed states of stream `from` an allocation on stream `to` may reuse.
static void usable(ReuseRule r, bool* pending, bool* unseen, bool* seen) {
  *pending = r == ReuseRule::immediate;
  *unseen = *pending || r == ReuseRule::after_free_completes;
  *seen = r != ReuseRule::never;
}

DeviceMemory::PoolAlloc DeviceMemory::malloc_async(int stream, std::uint64_t bytes) {
  if (static_cast<double>(bytes) > c_.pool_largest_allocation) return PoolAlloc::failed;
  auto me = static_cast<std::size_t>(stream);
  if (c_.releases_on("malloc_async_other_stream")) {
    std::vector<int> others;
    for (std::size_t o = 0; o < seen_.size(); ++o)
      if (o != me) others.push_back(static_cast<int>(o));
    host_call("malloc_async_other_stream", &others);
  }
  bool own[3], other[3];
  usable(c_.reuse_same_stream, &own[0], &own[1], &own[2]);
  usable(c_.reuse_other_stream, &other[0], &other[1], &other[2]);
  // Candidate buckets in the order they are taken: this stream's freshest frees first (the
  // probe saw the same address come back), then other streams' observed, then unobserved.
  std::vector<std::uint64_t*> take_from;
  if (own[0]) take_from.push_back(&pending_[me]);
  if (own[1]) take_from.push_back(&unseen_[me]);
  if (own[2]) take_from.push_back(&seen_[me]);
  for (int k = 2; k >= 0; --k) {
    if (!other[k]) continue;
    auto& v = k == 2 ? seen_ : k == 1 ? unseen_ : pending_;
    for (std::size_t o = 0; o < v.size(); ++o)
      if (o != me) take_from.push_back(&v[o]);
  }
  std::uint64_t reusable = 0;
  for (auto* p : take_from) reusable += *p;
  std::uint64_t grow = 0;
  if (reusable < bytes) {
    grow = round_up(bytes - reusable, static_cast<std::uint64_t>(c_.pool_granularity));
    if (pool_reserved_ == 0)
      grow = std::max(grow, static_cast<std::uint64_t>(c_.pool_minimum_reservation));
    if (physical_free() < grow) return PoolAlloc::failed;
  }
  std::uint64_t need = bytes;
  for (auto* p : take_from) {
    std::uint64_t t = std::min(need, *p);
    *p -= t;
    need -= t;
  }
  PoolAlloc kind = PoolAlloc::warm;
  if (need) {
    pool_reserved_ += grow;
    // The rest of the growth step is idle pool memory of this stream; other streams and
    // cudaMalloc see it like a completed free of this stream (per the reuse rules).
    unseen_[me] += grow - need;
    kind = PoolAlloc::cold;
  }
  pool_used_ += bytes;
  note_peaks();
  return kind;
}

void DeviceMemory::completed(std::size_t s, std::uint64_t bytes) {
  unseen_[s] += bytes;
  if (c_.releases_on("nothing")) {
    seen_[s] += unseen_[s];
    unseen_[s] = 0;
    release_above_threshold();
  }
}

void DeviceMemory::free_async(int stream, std::uint64_t bytes, bool pending) {
  pool_used_ -= bytes;
  auto s = static_cast<std::size_t>(stream);
  if (pending)
    pending_[s] += bytes;
  else
    completed(s, bytes);
}

void DeviceMemory::free_completed(int stream, std::uint64_t bytes) {
  auto s = static_cast<std::size_t>(stream);
  // Part of it may already have been reused by the same stream or observed by a sync.
  std::uint64_t b = std::min(bytes, pending_[s]);
  pending_[s] -= b;
  if (b) completed(s, b);
}

std::uint64_t DeviceMemory::synchronized(SyncKind kind, const std::vector<int>& streams) {
  if (kind == SyncKind::device) return host_call("device_sync", nullptr);
  const char* call = kind == SyncKind::event ? "event_sync" : "stream_sync";
  if (kind == SyncKind::stream && c_.releases_on("stream_sync_other_stream"))
    return host_call(call, nullptr) + host_call("stream_sync_other_stream", nullptr);
  return host_call(call, &streams);
}

std::uint64_t DeviceMemory::meminfo_call() {
  host_call("mem_get_info", nullptr);
  return meminfo_free();
}

std::uint64_t DeviceMemory::trim(std::uint64_t keep, bool unobserved) {
  if (unobserved) observe(nullptr);
  return release_seen(keep);
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
