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

// The agenda is a 4-ary min-heap on (t, seq): half the depth of a binary heap, and a node's
// children share a cache line or two. Measured with prestage_sim_bench (10 M events, 1000
// processes, 2026-11-30): 0.70 s thread CPU vs 0.83-0.86 s with std::push_heap/pop_heap.
void Engine::push(const Entry& e) {
  std::size_t i = heap_.size();
  heap_.push_back(e);
  while (i > 0) {
    std::size_t parent = (i - 1) / 4;
    if (!later(heap_[parent], e)) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

Engine::Entry Engine::pop() {
  Entry top = heap_.front();
  Entry last = heap_.back();
  heap_.pop_back();
  std::size_t n = heap_.size();
  if (n == 0) return top;
  std::size_t i = 0;
  for (;;) {
    std::size_t c = 4 * i + 1;
    if (c >= n) break;
    std::size_t best = c;
    std::size_t end = std::min(c + 4, n);
    for (std::size_t k = c + 1; k < end; ++k)
      if (later(heap_[best], heap_[k])) best = k;
    if (!later(last, heap_[best])) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = last;
  return top;
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
