#pragma once
// Which file is at fault when a proof fails verification against its own proving key.
// `prestage prove` proves from the .zkey's QAP coefficients (section 4: A and B over the domain)
// and checks the proof against the key's verifying key. The load checks (gpu/io/zkey.cpp) catch
// a coefficient whose matrix, row or signal is out of range or whose value is >= r, but a flipped
// bit that stays in range gives a key that loads and proves and whose proofs never verify: the
// same symptom as a witness that does not satisfy the circuit. With the circuit (.r1cs) at hand
// and a witness that satisfies every one of its constraints, the key is the one at fault, and its
// coefficients can be compared with the circuit's rows to say where.
#include <cstdint>
#include <optional>
#include <string>

#include "gpu/groth16/circuit.hpp"
#include "gpu/io/zkey.hpp"

namespace prestage::groth16 {

// Where a key's coefficients disagree with a circuit.
struct CoefDisagreement {
  uint64_t offset = 0;  // absolute byte offset in the .zkey: the first record concerned (or, for
                        // a term the key lacks, section 4's first record)
  std::string what;     // "coefficient 7 (A, row 1, signal 3): ..."
};

// Compares m's coefficients with the circuit's A and B rows plus snarkjs's public-input rows
// (A = signal s at row n_constraints + s, s = 0..n_public), values summed per (matrix, row,
// signal). Returns the first disagreement in key order: first a record whose (matrix, row,
// signal) the circuit does not have, then a (matrix, row, signal) whose records sum to another
// value than the circuit's (naming those records), then a term of the circuit that no record
// carries. nullopt when they agree. Requires m's counts to match the circuit's (n_vars, domain).
std::optional<CoefDisagreement> compare_coefficients(const io::MappedZkey& m,
                                                     const Circuit& circuit);

// Throws the InputError for a proof from `zkey` and `wtns` that failed verification against the
// key's own verifying key (prestage prove's self-check). With `circuit` (from `r1cs`), whose
// constraints the witness satisfies (the caller has checked), the key: at its first coefficient
// that disagrees with the circuit (section 4, byte offset), else its points; without one, the
// message names both files and the two possible causes. `zkey` is mapped and checked again here.
[[noreturn]] void throw_failed_verification(const std::string& zkey, const std::string& wtns,
                                            const Circuit* circuit, const std::string& r1cs);

}  // namespace prestage::groth16
