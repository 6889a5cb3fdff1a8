#pragma once
// Test and benchmark inputs: n affine points with random discrete logs, made fast. A random walk
// P_i = P_(i-1) + T_j over 16 random multiples T_j of the generator: one addition per point, then
// one batch inversion (host only). Deterministic for a given generator state.
#include <random>
#include <span>
#include <vector>

#include "gpu/ec/curve.hpp"
#include "gpu/ff/fr.hpp"

namespace prestage::ec {

template <class Affine, class Jacobian>
std::vector<Affine> random_walk_points(std::size_t n, std::mt19937_64& rng) {
  std::vector<Jacobian> steps;
  for (int j = 0; j < 16; ++j) steps.push_back(Jacobian::generator().mul(ff::Fr::random(rng)));
  std::vector<Jacobian> jac(n);
  Jacobian acc = Jacobian::generator().mul(ff::Fr::random(rng));
  for (std::size_t i = 0; i < n; ++i) {
    acc = acc.add(steps[rng() % 16]);
    jac[i] = acc;
  }
  std::vector<Affine> out(n);
  batch_to_affine(std::span<const Jacobian>(jac), std::span<Affine>(out));
  return out;
}

}  // namespace prestage::ec
