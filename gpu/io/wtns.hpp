#pragma once
// Reader of snarkjs/circom witness files (.wtns, version 2):
//   section 1 header: n8 u32, prime (n8 bytes LE), nWitness u32
//   section 2 values: nWitness x n8 bytes LE, standard form (not Montgomery)
#include <string>
#include <vector>

#include "gpu/io/limbs.hpp"

namespace prestage::io {

// Witness values, standard form, each < r; values[0] is the constant 1.
struct Witness {
  std::vector<FrLimbs> values;  // nWitness x 32 B
};

// Reads and validates `path`: container (version 1..2), prime == BLS12-381 r, section 2 exactly
// nWitness x 32 bytes, every value < r, value 0 == 1. Throws prestage::InputError.
Witness read_wtns(const std::string& path);
// The same on bytes in memory (`name` is used in errors; fuzzing).
Witness parse_wtns(const std::string& name, std::vector<uint8_t> bytes);

// Writes `w` as a version-2 .wtns atomically.
void write_wtns(const std::string& path, const Witness& w);

}  // namespace prestage::io
