// System: the tile map of the GPU NTT's in-place last pass (ntt::pass::mirror_order, mirror_tile;
// gpu_ntt.cu's mirror_pass_kernel), for the plans where it runs (log_n >= 2k for the last pass of
// k stages, at least two passes), with the default plan and sub-problem grouping.
// Expectation: (1) the tickets cover every tile exactly once; (2) a tile of set m reads only
// indices of S_m (middle bits m) and, through the bit reversal, writes only indices of S_rev(m);
// (3) each m is next to rev(m) in ticket order, so a block waits only for the set claimed just
// before or after its own. All tickets up to 2^22; at 2^24 and 2^27 every 61st ticket for (2).
// Tolerance: none.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "gpu/ntt/ntt_pass.hpp"

namespace {
namespace np = prestage::ntt::pass;
}  // namespace

BOOST_AUTO_TEST_CASE(mirror_tiles_cover_and_stay_in_their_sets) {
  unsigned checked = 0;
  for (unsigned log_n = 12; log_n <= 27; ++log_n) {
    auto passes = np::plan(log_n);
    const np::Pass last = np::fuse_reversal(passes.back(), false, np::kRevGroupLog);
    if (passes.size() < 2 || log_n < 2 * last.k) continue;
    ++checked;
    const unsigned mbits = np::mirror_bits(last);
    const std::vector<uint32_t> order = np::mirror_order(mbits);
    BOOST_TEST_REQUIRE(order.size() == (std::size_t{1} << mbits));
    // (3) pairs adjacent.
    for (std::size_t i = 0; i < order.size(); ++i) {
      const uint32_t r = np::rev_bits(order[i], mbits);
      const bool next = i + 1 < order.size() && order[i + 1] == r;
      const bool prev = i > 0 && order[i - 1] == r;
      BOOST_TEST((r == order[i] || next || prev), "2^" << log_n << " m = " << order[i]);
    }
    const uint32_t tiles = 1u << (log_n - last.tile_log());
    std::vector<char> seen(tiles, 0);
    std::size_t dup = 0, outside_read = 0, outside_write = 0;
    const uint64_t mmask = (uint64_t{1} << mbits) - 1;
    const uint32_t step = log_n <= 22 ? 1 : 61;
    for (uint32_t t = 0; t < tiles; ++t) {
      uint32_t m = 0;
      const uint64_t b = np::mirror_tile(last, order.data(), t, &m);
      if (b >= tiles || seen[b]) {
        ++dup;
        continue;
      }
      seen[b] = 1;
      if (t % step != 0) continue;
      const uint64_t mr = np::rev_bits(m, mbits);
      for (unsigned e = 0; e < last.tile_n(); ++e) {
        const uint64_t g = np::global_index(last, b, e);
        outside_read += ((g >> last.k) & mmask) != m;
        outside_write += ((np::rev_index(last, g) >> last.k) & mmask) != mr;
      }
    }
    std::size_t missing = 0;
    for (char c : seen) missing += c == 0;
    BOOST_TEST(dup == 0u, "2^" << log_n << ": " << dup << " tickets repeat a tile");
    BOOST_TEST(missing == 0u, "2^" << log_n << ": " << missing << " tiles never taken");
    BOOST_TEST(outside_read == 0u, "2^" << log_n << ": reads outside S_m");
    BOOST_TEST(outside_write == 0u, "2^" << log_n << ": writes outside S_rev(m)");
  }
  BOOST_TEST(checked >= 10u);  // 2^12-2^18 two passes (even), 2^21-2^27 three
}
