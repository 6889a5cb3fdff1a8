#pragma once
// Host-side fork/join helpers for the reference NTT and MSM (host only; never include from .cu
// device code). A parallel region spawns threads - 1 std::jthreads and runs the first piece on
// the calling thread, so there is no global pool to configure or shut down. Spawning costs
// tens of microseconds per thread: callers use regions for work of at least ~100 us and fall
// back to one thread below that (see kMinItemsPerThread in the users).
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace prestage::host {

// Thread count to use: `requested`, or std::thread::hardware_concurrency() when 0 (at least 1).
inline unsigned resolve_threads(unsigned requested) {
  if (requested != 0) return requested;
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1u : hw;
}

// Splits [0, n) into at most `threads` contiguous pieces of at least `min_piece` items and calls
// fn(begin, end) for each piece, concurrently; returns when all pieces are done. fn must not
// throw (it runs on worker threads) and pieces must touch disjoint data.
template <class Fn>
void parallel_for(std::size_t n, unsigned threads, std::size_t min_piece, Fn&& fn) {
  if (n == 0) return;
  std::size_t max_pieces = std::max<std::size_t>(1, n / std::max<std::size_t>(1, min_piece));
  std::size_t pieces = std::min<std::size_t>(std::max(1u, threads), max_pieces);
  if (pieces == 1) {
    fn(std::size_t{0}, n);
    return;
  }
  std::vector<std::jthread> workers;
  workers.reserve(pieces - 1);
  auto bound = [&](std::size_t p) { return n * p / pieces; };
  for (std::size_t p = 1; p < pieces; ++p)
    workers.emplace_back([&fn, b = bound(p), e = bound(p + 1)] { fn(b, e); });
  fn(std::size_t{0}, bound(1));
  // jthread joins on destruction.
}

// Runs fn(thread_index) on `threads` threads (the caller is thread 0) and joins. For work that
// self-schedules (e.g. an atomic task counter).
template <class Fn>
void run_on_threads(unsigned threads, Fn&& fn) {
  threads = std::max(1u, threads);
  std::vector<std::jthread> workers;
  workers.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) workers.emplace_back([&fn, t] { fn(t); });
  fn(0u);
}

}  // namespace prestage::host
