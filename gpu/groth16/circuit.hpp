#pragma once
// Constraint systems as the prover sees them: rows visited one at a time, so a circuit never
// has to be held as dense (or even sparse) matrices. Two sources:
//   R1csCircuit      - a circom .r1cs loaded in memory (gpu/io/r1cs.hpp);
//   SyntheticCircuit - generated on the fly from (profile, size, seed), any size up to 2^27
//                      rows and beyond, with a satisfying witness (see synthetic_witness()).
// Wire layout (circom's): 0 = the constant 1, 1..n_public = public values, then private wires.
// The QAP domain follows snarkjs: rows 0..n_constraints-1 are the constraints, rows
// n_constraints + s (s = 0..n_public) hold A = wire s (the public-input binding rows), and the
// domain is the smallest power of two > n_constraints + n_public.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/ff/fr.hpp"
#include "gpu/io/r1cs.hpp"

namespace prestage::groth16 {

using ff::Fr;

struct Term {
  uint32_t wire;
  Fr coeff;  // Montgomery form
};

// The three linear combinations of one constraint <A, w> * <B, w> = <C, w>.
struct Row {
  std::vector<Term> a, b, c;
  void clear() {
    a.clear();
    b.clear();
    c.clear();
  }
};

class Circuit {
 public:
  virtual ~Circuit() = default;
  virtual uint32_t n_wires() const = 0;
  virtual uint32_t n_public() const = 0;  // public outputs + public inputs (excludes wire 0)
  virtual uint64_t n_constraints() const = 0;
  // Fills `out` with constraint k (k < n_constraints()); thread-safe (const, no shared state).
  virtual void row(uint64_t k, Row& out) const = 0;

  // log2 of the QAP domain: smallest 2^p > n_constraints + n_public (snarkjs's rule).
  uint32_t domain_log2() const;
  uint64_t domain_size() const { return uint64_t(1) << domain_log2(); }
};

// <lc, w> for a linear combination and a witness (Montgomery).
Fr dot(const std::vector<Term>& lc, const std::vector<Fr>& w);

// Checks w against every constraint (multithreaded). Returns the index of the first
// unsatisfied constraint, or -1 when all hold. Requires w.size() == n_wires().
int64_t first_unsatisfied(const Circuit& c, const std::vector<Fr>& w, unsigned threads = 0);

class R1csCircuit final : public Circuit {
 public:
  explicit R1csCircuit(const io::R1cs& r);  // copies coefficients into Montgomery form
  uint32_t n_wires() const override { return n_wires_; }
  uint32_t n_public() const override { return n_public_; }
  uint64_t n_constraints() const override { return lc_begin_.size() / 3; }
  void row(uint64_t k, Row& out) const override;

 private:
  uint32_t n_wires_, n_public_;
  std::vector<uint64_t> lc_begin_;  // 3 * n_constraints + 1
  std::vector<Term> terms_;
};

// Synthetic circuits. Profiles:
//   "porep" - Filecoin-PoRep-like (SHA-256-style bit logic): ~95% boolean gates (AND, OR, XOR,
//             squaring of a bit) on 0/1 wires, ~5% field multiply-adds; AND and OR in equal
//             shares keep the bits balanced, so the witness is ~47% zeros, ~47% ones and ~5%
//             field elements at any size (measured: see tests); 3-5 nonzeros per row.
//   "dense" - every row a field multiply-add of random field wires with random coefficients
//             (random witness, the MSM worst case).
// Row k defines private wire first_gate_wire() + k; its inputs are earlier wires picked by a
// counter-based hash of (seed, k), so row(k) costs O(1) and needs no stored matrix.
class SyntheticCircuit final : public Circuit {
 public:
  enum class Profile { porep, dense };
  // n_constraints >= 1, n_public >= 0. Throws std::invalid_argument on a bad size.
  SyntheticCircuit(Profile profile, uint64_t n_constraints, uint32_t n_public, uint64_t seed);
  static Profile parse_profile(const std::string& name);  // throws std::invalid_argument

  uint32_t n_wires() const override;
  uint32_t n_public() const override { return n_public_; }
  uint64_t n_constraints() const override { return n_constraints_; }
  void row(uint64_t k, Row& out) const override;
  uint32_t n_private_inputs() const { return n_inputs_; }

  // The satisfying witness (n_wires() values, Montgomery): inputs from the seed, gate outputs in
  // row order. Sequential in k (each gate reads earlier wires): O(n) time, n_wires x 32 B.
  std::vector<Fr> witness() const;

  // Sizes that give exactly a 2^log2 domain under snarkjs's rule.
  static uint64_t constraints_for_domain(uint32_t log2, uint32_t n_public) {
    return (uint64_t(1) << log2) - n_public - 1;
  }

 private:
  enum class Gate : uint8_t { and_, xor_, or_, sqr_bit, field_mad };
  struct GateDesc {
    Gate gate;
    uint32_t in0, in1, in2;  // input wires (in2 only for field_mad)
    Fr k0, k1;               // coefficients (dense/field gates)
  };
  GateDesc describe(uint64_t k) const;
  Gate describe_gate_type(uint64_t k) const;
  bool is_bit_wire(uint64_t wire) const;
  uint64_t pick_wire(uint64_t k, uint32_t salt, bool bit) const;
  uint64_t first_gate_wire() const { return 1 + uint64_t(n_public_) + n_inputs_; }

  Profile profile_;
  uint64_t n_constraints_;
  uint32_t n_public_;
  uint64_t seed_;
  uint32_t n_inputs_;  // private input wires: the first half bits, the second half field values
};

}  // namespace prestage::groth16
