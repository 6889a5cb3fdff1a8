#pragma once
// Host-side statistics for the probe (pure C++, no CUDA): medians of repeated timings and the
// affine cost fit "time = fixed + slope * x" used for latency + bandwidth and per-GiB costs.
#include <cstdint>
#include <vector>

#include "model/stats.hpp"

namespace prestage::probe {

// Median of the samples (model/stats.hpp: mean of the two middle ones for an even count; throws
// std::invalid_argument on an empty vector).
using model::median;

// Smallest and largest sample. Throws std::invalid_argument on an empty vector.
double min_of(const std::vector<double>& samples);
double max_of(const std::vector<double>& samples);

// Result of fit_affine: y ~= fixed + slope * x.
struct AffineFit {
  double fixed = 0;             // intercept, unit of y
  double slope = 0;             // unit of y per unit of x
  double rms_rel_residual = 0;  // sqrt(mean(((y - fit) / y)^2)) over the points, unitless
  double max_rel_residual = 0;  // max |(y - fit) / y| over the points, unitless
  int points = 0;               // number of (x, y) pairs used
};

// Least-squares fit of y = fixed + slope * x over the pairs (x[i], y[i]).
// relative = true minimises the sum of squared *relative* residuals ((y - f) / y)^2, so a fit over
// sizes spanning 4 KiB .. 4 GiB is not decided by the largest points alone (the fixed term is set
// by the small sizes, the slope by the large ones). Needs >= 2 points with distinct x and, when
// relative, every y > 0; throws std::invalid_argument otherwise.
AffineFit fit_affine(const std::vector<double>& x, const std::vector<double>& y, bool relative);

// As fit_affine, but a cost cannot have a negative fixed part: when the unconstrained intercept
// is negative, the fit is redone through the origin (fixed = 0, same weights) and `clamped` is set.
struct CostFit : AffineFit {
  bool clamped = false;
};
CostFit fit_cost(const std::vector<double>& x, const std::vector<double>& y, bool relative);

// Two equal-size copies submitted on two streams and released together (times in seconds from
// the common gate). The CUDA event before a copy completes when the stream reaches the copy, not
// when the copy engine starts moving its bytes, so sharing vs queueing is read from the END times:
// shared links finish both copies together (first_end_ratio ~ 1), a queue finishes the first at
// solo speed and the second after it (first_end_ratio ~ 0.5).
struct PairTiming {
  double a_start, a_end, b_start, b_end;
};
struct PairVerdict {
  double first_end_ratio;  // (first end - first start) / (last end - first start), unitless
  bool a_finished_first;   // the copy submitted first (stream a) ended first
  const char* verdict;     // "shared" (ratio >= 0.85), "queued" (<= 0.6) or "partial"
};
PairVerdict classify_pair(const PairTiming& t);

// Greatest common divisor of byte counts (0 entries ignored; 0 if all are 0).
std::uint64_t gcd_bytes(const std::vector<std::uint64_t>& values);

}  // namespace prestage::probe
