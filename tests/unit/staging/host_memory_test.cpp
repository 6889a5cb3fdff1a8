// System: the staging runtime's host-memory need (gpu/staging/host_memory.hpp), the check its
// setup makes before allocating anything.
// Expectations: real proofs hold the key and witness, n x 680 B, and nothing more for streamed
// points (the key's own vectors are registered where they are); at 2^27 on the lent machine's
// 128 GiB, 2 host slots of a, b, c fit under the 90% share and 3 do not; stand-ins with streamed
// points pin n G1 points, plus n G2 points when B_G2 runs on the GPU; resident stand-ins hold
// the slots only. Tolerance: exact (byte counts).
#include <boost/test/unit_test.hpp>

#include "gpu/staging/host_memory.hpp"

using namespace prestage::staging;

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kLentMachine = 128 * kGiB;
double slot_2_27() {
  return 3.0 * (1u << 27) * 32;
}  // a, b, c: 3 x n x 32 B = 12 GiB
}  // namespace

BOOST_AUTO_TEST_CASE(real_proofs_at_2_27_fit_the_lent_machine_with_two_slots_not_three) {
  BOOST_TEST(real_proof_key_bytes(27) == 680.0 * (1u << 27));  // 85 GiB
  for (bool streamed : {false, true}) {
    const auto two = host_memory_need(27, slot_2_27(), 2, true, streamed, true);
    const auto three = host_memory_need(27, slot_2_27(), 3, true, streamed, true);
    BOOST_TEST(two.points == 0.0);  // the streamed points are the key's own vectors
    BOOST_TEST(two.total() / kGiB == 109.0);
    BOOST_TEST(three.total() / kGiB == 121.0);
    BOOST_TEST(two.total() <= kHostMemoryShare * kLentMachine);
    BOOST_TEST(three.total() > kHostMemoryShare * kLentMachine);
  }
}

BOOST_AUTO_TEST_CASE(stand_ins_pin_the_streamed_points_they_stand_in_for) {
  const double n = 1u << 27;
  const auto g1_only = host_memory_need(27, slot_2_27(), 3, false, true, false);
  const auto with_g2 = host_memory_need(27, slot_2_27(), 3, false, true, true);
  const auto resident = host_memory_need(27, slot_2_27(), 3, false, false, true);
  BOOST_TEST(g1_only.points == n * 104);
  BOOST_TEST(with_g2.points == n * (104 + 200));  // 13 + 25 GiB
  BOOST_TEST(with_g2.key == 0.0);
  BOOST_TEST(resident.total() == 3 * slot_2_27());
}
