#pragma once
// Reader of snarkjs Groth16 proving keys (.zkey, version 1) on BLS12-381 (zkey_utils.js):
//   1 header: protocol u32 (1 = Groth16)
//   2 Groth header: n8q, q, n8r, r, nVars, nPublic, domainSize, alpha1, beta1, beta2, gamma2,
//     delta1, delta2
//   3 IC: (nPublic + 1) G1        4 coefficients: nCoef u32, nCoef x (matrix u32 (0 = A, 1 = B),
//   5 A: nVars G1                    constraint u32, signal u32, value 32 B = v * R^2 mod r LE)
//   6 B1: nVars G1                7 B2: nVars G2
//   8 C: nVars - nPublic - 1 G1   9 H: domainSize G1 (odd 2n-domain Lagrange basis / delta,
//  10 contributions (not used)       for the circom reduction)
// Points: affine, coordinates as Montgomery Fq (x * 2^384 mod q), 48 B LE each; G2 as
// (x.c0, x.c1, y.c0, y.c1); the point at infinity as all zero bytes.
#include <string>
#include <vector>

#include "gpu/io/binfile.hpp"
#include "gpu/io/limbs.hpp"

namespace prestage::io {

struct G1Raw {
  FqLimbs x{}, y{};  // Montgomery form (x * 2^384 mod q), each < q
  bool infinity = false;
};
struct G2Raw {
  FqLimbs x0{}, x1{}, y0{}, y1{};  // Montgomery form; x = x0 + x1 * u
  bool infinity = false;
};

struct ZkeyCoef {
  uint32_t matrix;      // 0 = A, 1 = B
  uint32_t constraint;  // row of the QAP domain, < domainSize
  uint32_t signal;      // witness index, < nVars
  FrLimbs value;        // v * R^2 mod r (R = 2^256), i.e. Montgomery form of v * R
};

struct Zkey {
  uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  G1Raw alpha1, beta1, delta1;
  G2Raw beta2, gamma2, delta2;
  std::vector<G1Raw> ic;  // nPublic + 1
  std::vector<ZkeyCoef> coefs;
  std::vector<G1Raw> a, b1;  // nVars each
  std::vector<G2Raw> b2;     // nVars
  std::vector<G1Raw> c;      // nVars - nPublic - 1 (private signals only)
  std::vector<G1Raw> h;      // domainSize
};

// A point section of a mapped .zkey, located and size-checked but not yet read: `count` points
// of `point_bytes` each (96 B G1, 192 B G2: coordinates as Montgomery Fq, 48 B LE) from absolute
// file offset `offset`.
struct ZkeyPoints {
  uint32_t type = 0;      // section type (5 A, 6 B1, 7 B2, 8 C, 9 H)
  const char* what = "";  // section name used in errors ("A points")
  uint64_t offset = 0;    // absolute file offset of the first point
  uint64_t count = 0;     // points
  uint64_t point_bytes = 0;
};

// A .zkey checked like read_zkey, except that the coordinates of the five big point sections
// (A, B1, B2, C, H) stay in the read-only mapping, unread: the consumer reads each coordinate
// once, and must check it (< q) itself (gpu/groth16 from_zkey converts, range-checks and
// curve-checks them in one pass). The coefficients are checked in place (indices in range,
// values < r) but not copied: coef(i) reads one. `z` holds the header and IC; its coefs, a, b1,
// b2, c and h are empty.
struct MappedZkey {
  BinFile file;  // keeps the mapping alive
  Zkey z;
  ZkeyPoints a, b1, b2, c, h;
  uint64_t coefs_offset = 0;  // absolute file offset of coefficient 0 (44 B records)
  uint64_t coefs_count = 0;
  // First byte of section s's points (valid while this object lives).
  const uint8_t* points(const ZkeyPoints& s) const { return file.data.get() + s.offset; }
  // Coefficient i < coefs_count (checked at map time).
  ZkeyCoef coef(uint64_t i) const {
    const uint8_t* at = file.data.get() + coefs_offset + 44 * i;
    auto u32 = [](const uint8_t* b) {
      return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
    };
    return {u32(at), u32(at + 4), u32(at + 8), load_le<4>(at + 12)};
  }
};

// Maps and checks `path` as above (InputError naming the file, offset and section).
MappedZkey map_zkey(const std::string& path);
// The same on bytes in memory.
MappedZkey map_zkey_bytes(const std::string& name, std::vector<uint8_t> bytes);

// Reads and validates `path`: container, protocol Groth16, q and r of BLS12-381 (with n8q = 48,
// n8r = 32), nPublic < nVars, domainSize a power of two <= 2^31 (circom reduction needs 2n <=
// 2^32), every section's size equal to what the header implies, coordinates < q, coefficient
// indices in range and values < r. Points are not checked to lie on the curve here (gpu/groth16
// does that on load). Throws prestage::InputError naming the file, offset and section.
Zkey read_zkey(const std::string& path);
// The same on bytes in memory (`name` is used in errors; fuzzing).
Zkey parse_zkey(const std::string& name, std::vector<uint8_t> bytes);

// Writes `z` as a version-1 Groth16 .zkey atomically (sections 1-10; section 10 carries a zero
// 64-byte circuit hash and no contributions: snarkjs proves with it, `zkey verify` would not).
void write_zkey(const std::string& path, const Zkey& z);

}  // namespace prestage::io
