#pragma once
// Fixed-base scalar multiplication for setup: k * G for many scalars k and one base G, with a
// table of d * 2^(8w) * G (w = 0..31, d = 1..255, affine), so each product is at most 32 mixed
// additions instead of ~255 doublings and ~128 additions (double-and-add).
#include <span>
#include <vector>

#include "gpu/ff/fr.hpp"
#include "gpu/groth16/parallel.hpp"

namespace prestage::groth16 {

template <class Affine, class Jacobian>
class FixedBase {
 public:
  static constexpr int kWindowBits = 8;
  static constexpr int kWindows = 32;  // 256-bit scalars
  static constexpr int kDigits = (1 << kWindowBits) - 1;

  explicit FixedBase(const Affine& g) : table_(size_t(kWindows) * kDigits) {
    std::vector<Jacobian> jac(table_.size());
    Jacobian base = Jacobian::from_affine(g);
    for (int w = 0; w < kWindows; ++w) {
      Jacobian acc = base;
      for (int d = 1; d <= kDigits; ++d) {
        jac[size_t(w) * kDigits + d - 1] = acc;
        acc = acc + base;
      }
      base = acc;  // 256 * previous base
    }
    batch_to_affine(std::span<const Jacobian>(jac), std::span<Affine>(table_));
  }

  Jacobian mul(const ff::Fr& k) const {
    const auto c = k.to_canonical();
    Jacobian acc = Jacobian::identity();
    for (int w = 0; w < kWindows; ++w) {
      unsigned d = unsigned(c[w / 8] >> (8 * (w % 8))) & 0xff;
      if (d) acc = acc + table_[size_t(w) * kDigits + d - 1];
    }
    return acc;
  }

  // The table: entry w * kDigits + d - 1 = d * 2^(8w) * G (w < kWindows, 1 <= d <= kDigits).
  std::span<const Affine> table() const { return table_; }

  // out[i] = scalars[i] * G in affine form, multithreaded.
  std::vector<Affine> mul_all(std::span<const ff::Fr> scalars, unsigned threads) const {
    std::vector<Affine> out(scalars.size());
    parallel_for(scalars.size(), threads, [&](uint64_t b, uint64_t e) {
      std::vector<Jacobian> jac(e - b);
      for (uint64_t i = b; i < e; ++i) jac[i - b] = mul(scalars[i]);
      batch_to_affine(std::span<const Jacobian>(jac), std::span<Affine>(out.data() + b, e - b));
    });
    return out;
  }

 private:
  std::vector<Affine> table_;
};

}  // namespace prestage::groth16
