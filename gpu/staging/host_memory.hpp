#pragma once
// The host memory a GPU run holds, as the staging runtime's setup checks it before allocating
// anything (gpu/staging/runtime.cpp, setup_host): a host-testable function.
#include <cstdint>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ff/fr.hpp"

namespace prestage::staging {

// A run refuses to start when its need is more than this share of the machine's memory.
constexpr double kHostMemoryShare = 0.9;

// Bytes (B) of host memory a run holds for its whole length.
struct HostMemoryNeed {
  double slots = 0;   // host_slots x one partition's inputs
  double key = 0;     // real proofs: the key and the witness (real_proof_key_bytes)
  double points = 0;  // stand-ins: pinned stand-in key points the MSMs stream
  double total() const { return slots + key + points; }
};

// Real proofs at 2^log2_n: the key's 4 G1 vectors (A, B1, C, H: n x 104 B each), B2 (n x 200 B),
// the witness and its pinned copy (2 x n x 32 B): n x 680 B, 85 GiB at 2^27.
inline double real_proof_key_bytes(unsigned log2_n) {
  const double n = static_cast<double>(std::uint64_t{1} << log2_n);
  return n * (4.0 * sizeof(ec::G1Affine) + sizeof(ec::G2Affine) + 2.0 * sizeof(ff::Fr));
}

// The need of a run at 2^log2_n with `host_slots` slots of `slot_input_bytes` each. Real proofs
// stream (when `streamed_points`) the key's own vectors, registered where they are: nothing
// more. Stand-ins with `streamed_points` pin n G1 points, and n G2 points when `b2_on_gpu`.
inline HostMemoryNeed host_memory_need(unsigned log2_n, double slot_input_bytes, int host_slots,
                                       bool real_proofs, bool streamed_points, bool b2_on_gpu) {
  const double n = static_cast<double>(std::uint64_t{1} << log2_n);
  HostMemoryNeed need;
  need.slots = slot_input_bytes * host_slots;
  if (real_proofs)
    need.key = real_proof_key_bytes(log2_n);
  else if (streamed_points)
    need.points = n * (sizeof(ec::G1Affine) + (b2_on_gpu ? sizeof(ec::G2Affine) : 0.0));
  return need;
}

}  // namespace prestage::staging
