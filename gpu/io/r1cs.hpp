#pragma once
// Reader of circom's .r1cs (iden3 r1csfile, version 1) for BLS12-381:
//   section 1 header: n8, prime r, nWires, nPubOut, nPubIn, nPrvIn, nLabels u64, nConstraints
//   section 2 constraints: per constraint three linear combinations A, B, C, each
//             nTerms u32 then nTerms x (wire u32, coefficient n8 bytes LE, standard form)
//   section 3 wire->label map (nWires x u64), optional, not kept.
// Wire 0 is the constant 1; wires 1..nPubOut are outputs, then public inputs, then private.
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/io/limbs.hpp"

namespace prestage::io {

struct R1csTerm {
  uint32_t wire;
  FrLimbs coeff;  // standard form (not Montgomery), < r
};

struct R1cs {
  uint32_t n_wires = 0, n_pub_out = 0, n_pub_in = 0, n_prv_in = 0, n_constraints = 0;
  uint64_t n_labels = 0;
  // Linear combination m (0 = A, 1 = B, 2 = C) of constraint c holds
  // terms[lc_begin[3c + m] .. lc_begin[3c + m + 1]); lc_begin has 3 * n_constraints + 1 entries.
  std::vector<uint64_t> lc_begin;
  std::vector<R1csTerm> terms;

  uint32_t n_public() const { return n_pub_out + n_pub_in; }  // excluding the constant wire
};

// Reads and validates `path`: container, prime == BLS12-381 r, counts consistent (outputs +
// inputs < wires), every wire index < nWires, every coefficient < r, section sizes exact, no
// custom gates (PLONK-only). Throws prestage::InputError naming the file, offset and section.
R1cs read_r1cs(const std::string& path);
// The same on bytes in memory (`name` is used in errors; fuzzing).
R1cs parse_r1cs(const std::string& name, std::vector<uint8_t> bytes);

// Writes `r` as a version-1 .r1cs (sections 1 and 2; no label map) atomically.
void write_r1cs(const std::string& path, const R1cs& r);

}  // namespace prestage::io
