#pragma once
// GMP as a test oracle for the field code: conversions between limb arrays and mpz_class.
#include <gmpxx.h>

#include <array>
#include <cstdint>
#include <ostream>
#include <random>

#include "gpu/ff/fp.hpp"

// Boost.Test prints failing values: field elements as canonical decimal.
namespace prestage::ff {
template <class C>
std::ostream& operator<<(std::ostream& os, const Fp<C>& a) {
  return os << a.to_decimal();
}
}  // namespace prestage::ff

namespace prestage::test {

template <std::size_t N>
mpz_class to_mpz(const std::array<uint64_t, N>& v) {
  mpz_class z;
  mpz_import(z.get_mpz_t(), N, -1, sizeof(uint64_t), 0, 0, v.data());
  return z;
}

// Requires 0 <= z < 2^(64N).
template <std::size_t N>
std::array<uint64_t, N> from_mpz(const mpz_class& z) {
  std::array<uint64_t, N> v{};
  std::size_t count = 0;
  mpz_export(v.data(), &count, -1, sizeof(uint64_t), 0, 0, z.get_mpz_t());
  return v;
}

// Canonical value of a field element as an mpz_class.
template <class F>
mpz_class value(const F& a) {
  return to_mpz(a.to_canonical());
}

template <class F>
F from_value(const mpz_class& z) {
  return F::from_canonical(from_mpz<F::N>(z));
}

template <class F>
mpz_class modulus_mpz() {
  return to_mpz(F::modulus);
}

}  // namespace prestage::test
