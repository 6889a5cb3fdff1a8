#include "sim/engine.hpp"

#include <algorithm>

namespace prestage::sim {

void Engine::push(const Entry& e) {
  heap_.push_back(e);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

Engine::Entry Engine::pop() {
  std::pop_heap(heap_.begin(), heap_.end(), later);
  Entry e = heap_.back();
  heap_.pop_back();
  return e;
}

void Engine::run(Time until) {
  while (!heap_.empty()) {
    if (heap_.front().t > until) break;
    Entry e = pop();
    now_ = e.t;
    ++processed_;
    if (e.token == kResume)
      std::coroutine_handle<>::from_address(e.ptr).resume();
    else
      static_cast<Wakeable*>(e.ptr)->wake(e.token);
  }
}

void Mutex::unlock() {
  if (waiters_.empty()) {
    held_ = false;
    return;
  }
  auto h = waiters_.front();  // ownership passes directly; held_ stays true
  waiters_.pop_front();
  e_.schedule(e_.now(), h);
}

void Counted::release() {
  if (waiters_.empty()) {
    ++free_;
    return;
  }
  auto h = waiters_.front();  // the unit passes directly to the oldest waiter
  waiters_.pop_front();
  e_.schedule(e_.now(), h);
}

void Gate::set() {
  if (set_) return;
  set_ = true;
  for (auto h : waiters_) e_->schedule(e_->now(), h);
  waiters_.clear();
}

}  // namespace prestage::sim
