#pragma once
// GMP as a test oracle for the field code: conversions between limb arrays and mpz_class.
#include <gmpxx.h>

#include <array>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

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

// Integers below p to feed field kernels: the edge values (0, 1, 2, p-1, p-2, (p+-1)/2, 2^64-1,
// 2^64, the largest all-ones value below p and p minus it), then random_count uniform values
// from a seeded generator.
template <class F>
std::vector<mpz_class> edge_and_random_operands(int random_count, uint64_t seed) {
  const mpz_class p = modulus_mpz<F>();
  std::vector<mpz_class> v = {0,
                              1,
                              2,
                              p - 1,
                              p - 2,
                              (p - 1) / 2,
                              (p + 1) / 2,
                              mpz_class("18446744073709551615"),
                              mpz_class("18446744073709551616")};
  mpz_class ones = 1;  // 2^k - 1 for the largest k with 2^k - 1 < p: every limb all ones
  while ((ones << 1) + 1 < p) ones = (ones << 1) + 1;
  v.push_back(ones);
  v.push_back(p - ones);
  std::mt19937_64 rng(seed);
  for (int i = 0; i < random_count; ++i) v.push_back(to_mpz(F::random(rng).to_canonical()));
  return v;
}

}  // namespace prestage::test
