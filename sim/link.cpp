#include "sim/link.hpp"

#include <algorithm>
#include <limits>

namespace prestage::sim {

void Link::start(int dir, double bytes, double cap, std::coroutine_handle<> h) {
  advance();
  int slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<int>(flows_.size());
    flows_.emplace_back();
  }
  Flow& f = flows_[slot];
  f = Flow{bytes, bytes, cap, 0, dir, false, true, h};
  if (mode_[dir] == model::LinkSharing::queued) {
    fifo_[dir].push_back(slot);
    if (fifo_[dir].size() == 1) f.active = true;
  } else {
    f.active = true;
  }
  if (f.active) ++active_[dir];
  recompute();
  reschedule();
}

void Link::advance() {
  Time now = e_.now();
  double dt = now - last_;
  last_ = now;
  if (dt <= 0) return;
  for (Flow& f : flows_)
    if (f.used && f.active) f.remaining -= f.rate * dt;
}

// Max-min fair rates by progressive filling: raise every unfrozen flow's rate together until a
// flow hits its own cap or a constraint (its direction, or the link) saturates; freeze; repeat.
void Link::recompute() {
  int n = static_cast<int>(flows_.size());
  std::vector<char>& frozen = frozen_;
  frozen.assign(n, 1);
  int unfrozen = 0;
  for (int i = 0; i < n; ++i)
    if (flows_[i].used && flows_[i].active) {
      flows_[i].rate = 0;
      frozen[i] = 0;
      ++unfrozen;
    }
  while (unfrozen > 0) {
    double used_dir[2] = {0, 0}, used_total = 0;
    int cnt_dir[2] = {0, 0}, cnt_total = 0;
    for (int i = 0; i < n; ++i) {
      const Flow& f = flows_[i];
      if (!f.used || !f.active) continue;
      used_dir[f.dir] += f.rate;
      used_total += f.rate;
      if (!frozen[i]) ++cnt_dir[f.dir], ++cnt_total;
    }
    double delta = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i)
      if (!frozen[i]) delta = std::min(delta, flows_[i].cap - flows_[i].rate);
    for (int d = 0; d < 2; ++d)
      if (cnt_dir[d]) delta = std::min(delta, (dir_cap_[d] - used_dir[d]) / cnt_dir[d]);
    if (cnt_total) delta = std::min(delta, (total_cap_ - used_total) / cnt_total);
    delta = std::max(delta, 0.0);
    for (int i = 0; i < n; ++i)
      if (!frozen[i]) flows_[i].rate += delta;
    used_dir[0] = used_dir[1] = used_total = 0;
    for (int i = 0; i < n; ++i) {
      const Flow& f = flows_[i];
      if (!f.used || !f.active) continue;
      used_dir[f.dir] += f.rate;
      used_total += f.rate;
    }
    const double eps = 1e-9;
    bool sat_total = used_total >= total_cap_ * (1 - eps);
    bool sat_dir[2] = {used_dir[0] >= dir_cap_[0] * (1 - eps),
                       used_dir[1] >= dir_cap_[1] * (1 - eps)};
    for (int i = 0; i < n; ++i) {
      if (frozen[i]) continue;
      const Flow& f = flows_[i];
      if (f.rate >= f.cap * (1 - eps) || sat_total || sat_dir[f.dir]) {
        frozen[i] = 1;
        --unfrozen;
      }
    }
  }
}

void Link::reschedule() {
  double dt = std::numeric_limits<double>::infinity();
  for (const Flow& f : flows_)
    if (f.used && f.active && f.rate > 0) dt = std::min(dt, std::max(f.remaining, 0.0) / f.rate);
  ++gen_;
  if (dt < std::numeric_limits<double>::infinity()) e_.schedule(e_.now() + dt, this, gen_);
}

void Link::wake(std::uint64_t token) {
  if (token != gen_) return;  // superseded by a later start/end
  advance();
  // Complete every flow that has (to rounding) no bytes left, in slot order.
  for (int i = 0; i < static_cast<int>(flows_.size()); ++i) {
    Flow& f = flows_[i];
    // done: what is left would take under a picosecond (absorbs rounding of rate * dt)
    if (!f.used || !f.active || f.remaining > std::max(1e-6, f.rate * 1e-12)) continue;
    moved_[f.dir] += f.bytes;
    --active_[f.dir];
    f.used = f.active = false;
    e_.schedule(e_.now(), f.h);
    free_slots_.push_back(i);
    if (mode_[f.dir] == model::LinkSharing::queued) {
      auto& q = fifo_[f.dir];
      q.pop_front();  // only the head is ever active
      if (!q.empty()) {
        flows_[q.front()].active = true;
        ++active_[f.dir];
      }
    }
  }
  recompute();
  reschedule();
}

double Link::current_rate(int dir) const {
  double r = 0;
  for (const Flow& f : flows_)
    if (f.used && f.active && f.dir == dir) r += f.rate;
  return r;
}

}  // namespace prestage::sim
