// The staging runtime's MSM split (model/msm_split.hpp), on the host with stand-in
// workspace functions.
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <set>

#include "model/msm_split.hpp"

using prestage::model::split_to_fit;

BOOST_AUTO_TEST_SUITE(msm_split)

BOOST_AUTO_TEST_CASE(a_workspace_that_holds_the_whole_msm_gives_one_piece) {
  // System: split_to_fit with need(n) = 40 B a point. Expectation: a workspace of 40 x count gives
  // one piece of count points and need 40 x count. Exact.
  const auto s = split_to_fit(1000, 40000, 16, [](std::size_t n) { return 40 * std::uint64_t{n}; });
  BOOST_TEST(s.pieces == 1u);
  BOOST_TEST(s.piece == 1000u);
  BOOST_TEST(s.need == 40000u);
}

BOOST_AUTO_TEST_CASE(the_fewest_power_of_two_split_that_fits_is_taken) {
  // System: split_to_fit, need(n) = 52 B a point (the resident G2 MSM at 2^27 asked 6.94 GB,
  // 51.7 B a point) and a workspace of 40.5 B a point at 2^27 (the B_G2 pipeline's msm_scratch).
  // Expectation: 2 pieces of 2^26 points, need 52 x 2^26 <= the workspace; with at most 1 piece,
  // nothing fits (pieces 0) and need reports the whole MSM's. Exact.
  const std::size_t n = std::size_t{1} << 27;
  const std::uint64_t ws = n * 81 / 2;
  const auto need = [](std::size_t k) { return 52 * std::uint64_t{k}; };
  const auto s = split_to_fit(n, ws, 16, need);
  BOOST_TEST(s.pieces == 2u);
  BOOST_TEST(s.piece == n / 2);
  BOOST_TEST(s.need == 52 * std::uint64_t{n / 2});
  const auto none = split_to_fit(n, ws, 1, need);
  BOOST_TEST(none.pieces == 0u);
  BOOST_TEST(none.need == 52 * std::uint64_t{n});
}

BOOST_AUTO_TEST_CASE(the_shorter_last_piece_is_checked_too) {
  // System: split_to_fit of 10 points in a 500 B workspace with a non-monotone need (the device
  // MSM's window size steps with n): 1 point 800 B, 2-3 points 400 B, more 1000 B. Expectation: a
  // split in 4 (pieces of 3, the last of 1) is refused because of its last piece; a split in 8
  // gives pieces of 2 and is taken: 5 pieces run, need 400 B. 9 points split in 4 run as 3 pieces
  // of 3 (the pieces reported are those the loop runs). Exact.
  std::set<std::size_t> asked;
  const auto need = [&](std::size_t k) -> std::uint64_t {
    asked.insert(k);
    return k == 1 ? 800 : (k <= 3 ? 400 : 1000);
  };
  const auto s = split_to_fit(10, 500, 16, need);
  BOOST_TEST(s.pieces == 5u);
  BOOST_TEST(s.piece == 2u);
  BOOST_TEST(s.need == 400u);
  BOOST_TEST(asked.count(1) == 1u);  // the split in 4's last piece was checked
  const auto nine = split_to_fit(9, 500, 16, need);
  BOOST_TEST(nine.pieces == 3u);
  BOOST_TEST(nine.piece == 3u);
}

BOOST_AUTO_TEST_SUITE_END()
