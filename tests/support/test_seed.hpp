#pragma once
// The seed of a randomized host test: PRESTAGE_SEED when set (replays a run), else a fresh one.
// Tests print it (BOOST_TEST_MESSAGE) so a failure can be replayed.
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace prestage::test {

inline uint64_t test_seed() {
  if (const char* v = std::getenv("PRESTAGE_SEED")) return std::stoull(v);
  std::random_device rd;
  return (uint64_t{rd()} << 32) ^ rd();
}

}  // namespace prestage::test
