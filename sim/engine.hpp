#pragma once
// Deterministic discrete-event engine on C++20 coroutines.
//
// Time is a double in seconds. The agenda is a binary heap of 32-byte PODs ordered by
// (time, insertion sequence), so simultaneous events run in the order they were scheduled: the
// same processes spawned in the same order give the same run, bit for bit. A process is a
// Task<void> coroutine; Task<T> may also be awaited by another task (symmetric transfer).
// Awaitables: delay(dt), Mutex (FIFO), Counted (k units, FIFO), Gate (one-shot flag),
// Slot<T> (one-item rendezvous between two processes). Nothing here allocates per event except
// coroutine frames (one per task call) and waiter lists that grow to their high-water mark.
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <utility>
#include <vector>

namespace prestage::sim {

using Time = double;

// Something the engine can wake with a token (used for cancellable timers: stale tokens ignored).
struct Wakeable {
  virtual void wake(std::uint64_t token) = 0;

 protected:
  ~Wakeable() = default;
};

class Engine {
 public:
  Time now() const { return now_; }
  std::uint64_t events_processed() const { return processed_; }

  void schedule(Time t, std::coroutine_handle<> h) { push({t, seq_++, h.address(), kResume}); }
  void schedule(Time t, Wakeable* w, std::uint64_t token) { push({t, seq_++, w, token}); }

  // Runs until the agenda is empty (or `until` is passed). Exceptions from processes propagate.
  void run(Time until = 1e300);

  // Awaitable: resume after dt seconds; dt <= 0 continues at once (no event, no reordering).
  struct Delay {
    Engine& e;
    Time dt;
    bool await_ready() const noexcept { return dt <= 0; }
    void await_suspend(std::coroutine_handle<> h) { e.schedule(e.now_ + dt, h); }
    void await_resume() const noexcept {}
  };
  Delay delay(Time dt) { return Delay{*this, dt}; }
  // Resumes the caller at this instant, after the events already scheduled for it.
  struct Yield {
    Engine& e;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) { e.schedule(e.now_, h); }
    void await_resume() const noexcept {}
  };
  Yield yield_now() { return Yield{*this}; }

 private:
  static constexpr std::uint64_t kResume = ~0ull;
  struct Entry {
    Time t;
    std::uint64_t seq;
    void* ptr;
    std::uint64_t token;
  };
  static bool later(const Entry& a, const Entry& b) {
    return a.t > b.t || (a.t == b.t && a.seq > b.seq);
  }
  void push(const Entry& e);
  Entry pop();

  std::vector<Entry> heap_;
  Time now_ = 0;
  std::uint64_t seq_ = 0;
  std::uint64_t processed_ = 0;
};

// A lazily started coroutine. Awaiting it starts it and resumes the awaiter when it finishes;
// spawn() runs it as a root process owned by the Runner that keeps it.
template <class T = void>
class Task;

namespace detail {
// Coroutine frames come from per-thread free lists in 64-byte size classes (up to 4 KiB), so a
// task call in the steady state costs no malloc. Frames above 4 KiB use the global heap.
void* frame_alloc(std::size_t n);
void frame_free(void* p, std::size_t n) noexcept;

struct PromiseBase {
  static void* operator new(std::size_t n) { return frame_alloc(n); }
  static void operator delete(void* p, std::size_t n) noexcept { frame_free(p, n); }
  std::coroutine_handle<> continuation;
  std::suspend_always initial_suspend() noexcept { return {}; }
  struct Final {
    bool await_ready() const noexcept { return false; }
    template <class P>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
      auto c = h.promise().continuation;
      return c ? c : std::noop_coroutine();
    }
    void await_resume() const noexcept {}
  };
  Final final_suspend() noexcept { return {}; }
  void unhandled_exception() { throw; }  // a simulator bug: let it reach Engine::run's caller
};

// The coroutine a Task owns: move-only, destroyed with the Task; awaiting it starts the coroutine
// and resumes the awaiter when it finishes.
template <class Promise>
class OwnedCoroutine {
 public:
  OwnedCoroutine(OwnedCoroutine&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  OwnedCoroutine& operator=(OwnedCoroutine&& o) noexcept {
    if (h_) h_.destroy();
    h_ = std::exchange(o.h_, nullptr);
    return *this;
  }
  ~OwnedCoroutine() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h_.promise().continuation = c;
    return h_;
  }
  std::coroutine_handle<Promise> handle() const { return h_; }

 protected:
  explicit OwnedCoroutine(std::coroutine_handle<Promise> h) : h_(h) {}
  std::coroutine_handle<Promise> h_;
};

template <class T>
struct ValuePromise : PromiseBase {
  T value{};
  Task<T> get_return_object();
  void return_value(T v) { value = std::move(v); }
};

struct VoidPromise : PromiseBase {
  Task<void> get_return_object();
  void return_void() {}
};
}  // namespace detail

template <class T>
class Task : public detail::OwnedCoroutine<detail::ValuePromise<T>> {
 public:
  using promise_type = detail::ValuePromise<T>;
  // Made by the promise (a coroutine's return object), never by hand.
  explicit Task(std::coroutine_handle<promise_type> h) : detail::OwnedCoroutine<promise_type>(h) {}
  T await_resume() { return std::move(this->h_.promise().value); }
};

template <>
class Task<void> : public detail::OwnedCoroutine<detail::VoidPromise> {
 public:
  using promise_type = detail::VoidPromise;
  // Made by the promise (a coroutine's return object), never by hand.
  explicit Task(std::coroutine_handle<promise_type> h) : OwnedCoroutine(h) {}
  void await_resume() const noexcept {}
  bool done() const { return h_ && h_.done(); }
};

namespace detail {
template <class T>
Task<T> ValuePromise<T>::get_return_object() {
  return Task<T>(std::coroutine_handle<ValuePromise<T>>::from_promise(*this));
}
inline Task<void> VoidPromise::get_return_object() {
  return Task<void>(std::coroutine_handle<VoidPromise>::from_promise(*this));
}
}  // namespace detail

// Owns root processes; they start at the current time in spawn order.
class Processes {
 public:
  explicit Processes(Engine& e) : e_(e) {}
  void spawn(Task<void> t) {
    e_.schedule(e_.now(), t.handle());
    tasks_.push_back(std::move(t));
  }
  bool all_done() const {
    for (const auto& t : tasks_)
      if (!t.done()) return false;
    return true;
  }

 private:
  Engine& e_;
  std::deque<Task<void>> tasks_;
};

// k identical units, granted FIFO (e.g. CPU cores for detached CPU work).
class Counted {
 public:
  Counted(Engine& e, int units) : e_(e), free_(units) {}
  struct Acquire {
    Counted& c;
    bool await_ready() noexcept {
      if (c.free_ == 0 || !c.waiters_.empty()) return false;
      --c.free_;
      return true;
    }
    void await_suspend(std::coroutine_handle<> h) { c.waiters_.push_back(h); }
    void await_resume() const noexcept {}  // a waiter is resumed already holding its unit
  };
  Acquire acquire() { return Acquire{*this}; }
  void release();
  int available() const { return free_; }

 private:
  Engine& e_;
  int free_;
  std::deque<std::coroutine_handle<>> waiters_;
};

// FIFO mutual exclusion (the per-GPU lock): one unit of Counted, handed directly to the oldest
// waiter on unlock.
class Mutex {
 public:
  explicit Mutex(Engine& e) : unit_(e, 1) {}
  Counted::Acquire lock() { return unit_.acquire(); }
  // Hands the lock to the oldest waiter (resumed at the current time) or frees it.
  void unlock() { unit_.release(); }
  bool held() const { return unit_.available() == 0; }

 private:
  Counted unit_;
};

// One-shot flag: waiters resume (in arrival order) when set; later waits pass at once.
class Gate {
 public:
  explicit Gate(Engine& e) : e_(&e) {}
  struct Wait {
    Gate& g;
    bool await_ready() const noexcept { return g.set_; }
    void await_suspend(std::coroutine_handle<> h) { g.waiters_.push_back(h); }
    void await_resume() const noexcept {}
  };
  Wait wait() { return Wait{*this}; }
  void set();
  bool is_set() const { return set_; }

 private:
  Engine* e_;
  bool set_ = false;
  std::vector<std::coroutine_handle<>> waiters_;
};

// Unbounded FIFO queue of T with close(); pop() yields false once closed and drained.
// Condition-variable semantics: push() wakes the oldest waiter, but a consumer that comes to pop()
// before the woken one runs may take the item first (its await_ready sees it). The woken waiter
// then finds the queue empty and not closed and goes back to waiting, in its original place
// (waiters are kept in arrival order); only an empty *closed* queue makes pop() yield false.
template <class T>
class Queue {
 public:
  explicit Queue(Engine& e) : e_(e) {}
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;
  void push(T v) {
    items_.push_back(std::move(v));
    wake_one();
  }
  void push_front(T v) {
    items_.push_front(std::move(v));
    wake_one();
  }
  void close() {
    closed_ = true;
    while (!waiters_.empty()) wake_one();
  }
  bool closed() const { return closed_; }
  std::size_t size() const { return items_.size(); }
  std::size_t waiting() const { return waiters_.size(); }
  class Pop final : public Wakeable {
   public:
    Pop(Queue& q, T* out) : q_(q), out_(out) {}
    bool await_ready() const noexcept { return !q_.items_.empty() || q_.closed_; }
    void await_suspend(std::coroutine_handle<> h) {
      h_ = h;
      ticket_ = q_.tickets_++;
      q_.waiters_.push_back(this);
    }
    bool await_resume() {
      if (q_.items_.empty()) return false;  // closed and drained
      *out_ = std::move(q_.items_.front());
      q_.items_.pop_front();
      return true;
    }
    // Woken by push/close: resume unless another consumer took the item in the meantime.
    void wake(std::uint64_t) override {
      if (q_.items_.empty() && !q_.closed_) {
        q_.requeue(this);
        return;
      }
      h_.resume();
    }

   private:
    friend class Queue;
    Queue& q_;
    T* out_;
    std::coroutine_handle<> h_;
    std::uint64_t ticket_ = 0;
  };
  Pop pop(T& out) { return Pop(*this, &out); }

 private:
  void wake_one() {
    if (waiters_.empty()) return;
    e_.schedule(e_.now(), waiters_.front(), 0);
    waiters_.pop_front();
  }
  // Back into the waiting list at its arrival position.
  void requeue(Pop* p) {
    auto it = waiters_.begin();
    while (it != waiters_.end() && (*it)->ticket_ < p->ticket_) ++it;
    waiters_.insert(it, p);
  }
  Engine& e_;
  std::deque<T> items_;
  std::deque<Pop*> waiters_;
  std::uint64_t tickets_ = 0;
  bool closed_ = false;
};

}  // namespace prestage::sim
