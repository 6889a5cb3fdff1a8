#include "gpu/groth16/key_check.hpp"

#include <fmt/format.h>

#include <unordered_map>
#include <vector>

#include "gpu/groth16/groth16.hpp"
#include "model/errors.hpp"

namespace prestage::groth16 {

namespace {

constexpr const char* kSection = "section 4 (coefficients)";

// (matrix, row, signal) as one key: row < 2^31 (domainSize <= 2^31), matrix 0 or 1.
uint64_t term_key(uint32_t matrix, uint32_t row, uint32_t signal) {
  return uint64_t(matrix) << 63 | uint64_t(row) << 32 | signal;
}

struct Sums {
  Fr want = Fr::zero();  // the circuit's coefficient
  Fr have = Fr::zero();  // the key's records summed
  bool in_circuit = false;
};

const char* matrix_name(uint32_t m) {
  return m == 0 ? "A" : "B";
}

}  // namespace

std::optional<CoefDisagreement> compare_coefficients(const io::MappedZkey& m,
                                                     const Circuit& circuit) {
  const uint64_t nc = circuit.n_constraints();
  const uint32_t n_public = circuit.n_public();
  std::unordered_map<uint64_t, Sums> sums;
  Row row;
  for (uint64_t k = 0; k < nc; ++k) {
    circuit.row(k, row);
    for (const Term& t : row.a) {
      Sums& s = sums[term_key(0, uint32_t(k), t.wire)];
      s.want += t.coeff;
      s.in_circuit = true;
    }
    for (const Term& t : row.b) {
      Sums& s = sums[term_key(1, uint32_t(k), t.wire)];
      s.want += t.coeff;
      s.in_circuit = true;
    }
  }
  for (uint32_t s = 0; s <= n_public; ++s) {
    Sums& e = sums[term_key(0, uint32_t(nc + s), s)];
    e.want += Fr::one();
    e.in_circuit = true;
  }
  auto offset = [&](uint64_t i) { return m.coefs_offset + 44 * i; };
  auto where = [&](uint32_t matrix, uint32_t r, uint32_t signal) {
    return r < nc ? fmt::format("{}, constraint {}, signal {}", matrix_name(matrix), r, signal)
                  : fmt::format("{}, row {} = public-input row {}, signal {}", matrix_name(matrix),
                                r, r - nc, signal);
  };
  std::vector<QapCoef> coefs;
  coefs.reserve(m.coefs_count);
  for (uint64_t i = 0; i < m.coefs_count; ++i) {
    coefs.push_back(qap_coef(m.coef(i)));
    sums[term_key(coefs[i].matrix, coefs[i].row, coefs[i].signal)].have += coefs[i].value;
  }
  // 1. A record of a term the circuit does not have.
  for (uint64_t i = 0; i < coefs.size(); ++i) {
    const QapCoef& k = coefs[i];
    if (sums.at(term_key(k.matrix, k.row, k.signal)).in_circuit) continue;
    std::string why =
        k.row >= nc + n_public + 1
            ? fmt::format("row {} is past the circuit's {} constraints and {} public-input rows",
                          k.row, nc, n_public + 1)
        : k.row >= nc && k.matrix == 1 ? std::string("the public-input rows have no B terms")
                                       : fmt::format("that row of {} has no term in signal {}",
                                                     matrix_name(k.matrix), k.signal);
    return CoefDisagreement{
        offset(i), fmt::format("coefficient {} ({}, value {}) is not in the circuit: {}", i,
                               where(k.matrix, k.row, k.signal), k.value.to_decimal(), why)};
  }
  // 2. A term whose records sum to another value than the circuit's.
  for (uint64_t i = 0; i < coefs.size(); ++i) {
    const QapCoef& k = coefs[i];
    const uint64_t key = term_key(k.matrix, k.row, k.signal);
    const Sums& s = sums.at(key);
    if (s.have == s.want) continue;
    std::string records;
    int listed = 0;
    for (uint64_t j = i; j < coefs.size(); ++j) {
      if (term_key(coefs[j].matrix, coefs[j].row, coefs[j].signal) != key) continue;
      if (listed++ == 4) {
        records += ", ...";
        break;
      }
      records += fmt::format("{}{} (byte {})", records.empty() ? "" : ", ", j, offset(j));
    }
    return CoefDisagreement{
        offset(i),
        fmt::format("coefficient {} ({}): the key's value {} (records {}), the circuit's {}", i,
                    where(k.matrix, k.row, k.signal), s.have.to_decimal(), records,
                    s.want.to_decimal())};
  }
  // 3. A term of the circuit no record carries (every record matched, so have == 0 here).
  auto missing = [&](uint32_t matrix, uint32_t r,
                     uint32_t signal) -> std::optional<CoefDisagreement> {
    const Sums& s = sums.at(term_key(matrix, r, signal));
    if (s.have == s.want) return std::nullopt;
    return CoefDisagreement{
        m.coefs_offset, fmt::format("no coefficient of {} (the circuit's value {}) among the {} "
                                    "records",
                                    where(matrix, r, signal), s.want.to_decimal(), coefs.size())};
  };
  for (uint64_t k = 0; k < nc; ++k) {
    circuit.row(k, row);
    for (const Term& t : row.a)
      if (auto d = missing(0, uint32_t(k), t.wire)) return d;
    for (const Term& t : row.b)
      if (auto d = missing(1, uint32_t(k), t.wire)) return d;
  }
  for (uint32_t s = 0; s <= n_public; ++s)
    if (auto d = missing(0, uint32_t(nc + s), s)) return d;
  return std::nullopt;
}

void throw_failed_verification(const std::string& zkey, const std::string& wtns,
                               const Circuit* circuit, const std::string& r1cs) {
  if (!circuit)
    throw InputError(
        wtns, 0, "",
        fmt::format("the proof fails verification against the proving key {}: either this "
                    "witness does not satisfy the key's circuit, or the key is corrupt (its "
                    "coefficients, section 4, or its points); give the circuit with --r1cs to "
                    "tell which",
                    zkey));
  const io::MappedZkey m = io::map_zkey(zkey);
  if (auto d = compare_coefficients(m, *circuit))
    throw InputError(
        zkey, int(d->offset > 0x7fffffff ? 0 : d->offset), kSection,
        fmt::format("at byte {}: {}. The witness {} satisfies every constraint of {}, but the "
                    "proof from this key fails verification: the key's coefficients disagree "
                    "with the circuit (a corrupt key, or one made for another circuit)",
                    d->offset, d->what, wtns, r1cs));
  throw InputError(zkey, 0, "",
                   fmt::format("the witness {} satisfies every constraint of {} and the key's "
                               "coefficients (section 4) match the circuit, but the proof from "
                               "this key fails verification against its own verifying key: the "
                               "key's points (sections 2, 3, 5-9) are inconsistent (a corrupt "
                               "key, or points from another setup)",
                               wtns, r1cs));
}

}  // namespace prestage::groth16
