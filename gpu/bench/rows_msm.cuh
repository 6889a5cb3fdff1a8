// gpu_bench's MSM inputs shared by rows_msm.cu and rows_fixed_base.cu.
#pragma once

#include <vector>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"

namespace prestage::bench {

// The MSM rows' distinct points: 2^18 G1 and 2^16 G2 points (a random walk over random multiples
// of the generator, on the host), repeated to n on the device. Made on first use (its time
// printed), so runs without MSM rows skip it.
struct MsmBases {
  std::vector<ec::G1Affine> g1;
  std::vector<ec::G2Affine> g2;
};
const MsmBases& msm_bases();

}  // namespace prestage::bench
