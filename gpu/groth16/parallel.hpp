#pragma once
// A minimal fork-join helper for the provers (and their phase clock, below): splits [0, n) into
// `threads` contiguous chunks (0 = hardware concurrency) and runs fn(begin, end) on each, the first
// on the caller.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace prestage::groth16 {

inline unsigned resolve_threads(unsigned threads) {
  if (threads) return threads;
  unsigned h = std::thread::hardware_concurrency();
  return h ? h : 1;
}

template <class F>
void parallel_for(uint64_t n, unsigned threads, F&& fn) {
  const uint64_t T = std::max<uint64_t>(1, std::min<uint64_t>(resolve_threads(threads), n));
  if (T == 1) {
    if (n) fn(uint64_t(0), n);
    return;
  }
  std::vector<std::thread> pool;
  for (uint64_t t = 1; t < T; ++t) pool.emplace_back([&, t] { fn(n * t / T, n * (t + 1) / T); });
  fn(uint64_t(0), n / T);
  for (auto& th : pool) th.join();
}

// Phase timing of the provers: lap(into) adds the wall-clock seconds since the previous lap (or
// construction) to `into`.
class LapClock {
 public:
  void lap(double& into) {
    const auto now = std::chrono::steady_clock::now();
    into += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace prestage::groth16
