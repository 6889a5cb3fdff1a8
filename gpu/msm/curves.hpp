#pragma once
// Curve descriptors of the MSMs, host (host_msm.hpp) and device (gpu_msm.hpp) alike: the
// coordinate types a Pippenger run uses (affine bases, XYZZ buckets, Jacobian result).
#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"

namespace prestage::msm {

struct G1Curve {
  using Affine = ec::G1Affine;
  using Xyzz = ec::G1XYZZ;
  using Jacobian = ec::G1Jacobian;
};
struct G2Curve {
  using Affine = ec::G2Affine;
  using Xyzz = ec::G2XYZZ;
  using Jacobian = ec::G2Jacobian;
};

}  // namespace prestage::msm
