#include "sim/engine.hpp"

#include <algorithm>

namespace prestage::sim {

namespace detail {
namespace {
constexpr std::size_t kClass = 64, kClasses = 64;  // size classes of 64 B up to 4 KiB
struct FreeLists {
  void* head[kClasses] = {};
  ~FreeLists() {
    for (void*& h : head)
      while (h) {
        void* next = *static_cast<void**>(h);
        ::operator delete(h);
        h = next;
      }
  }
};
thread_local FreeLists lists;
}  // namespace

void* frame_alloc(std::size_t n) {
  std::size_t c = (n + kClass - 1) / kClass;
  if (c == 0 || c > kClasses) return ::operator new(n);
  void*& h = lists.head[c - 1];
  if (h) {
    void* p = h;
    h = *static_cast<void**>(p);
    return p;
  }
  return ::operator new(c* kClass);
}

void frame_free(void* p, std::size_t n) noexcept {
  std::size_t c = (n + kClass - 1) / kClass;
  if (c == 0 || c > kClasses) {
    ::operator delete(p);
    return;
  }
  *static_cast<void**>(p) = lists.head[c - 1];
  lists.head[c - 1] = p;
}
}  // namespace detail

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
