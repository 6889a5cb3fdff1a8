#pragma once
// The provers' fork-join helper (and their phase clock, below): parallel_for splits [0, n) into
// `threads` contiguous chunks (0 = hardware concurrency) and runs fn(begin, end) on each, the first
// on the caller -- gpu/common/parallel.hpp's host::parallel_for, the one implementation.
#include <chrono>
#include <cstdint>
#include <utility>

#include "gpu/common/parallel.hpp"

namespace prestage::groth16 {

using host::resolve_threads;

template <class F>
void parallel_for(uint64_t n, unsigned threads, F&& fn) {
  host::parallel_for(n, resolve_threads(threads), 1, std::forward<F>(fn));
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
