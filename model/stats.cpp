#include "model/stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace prestage::model {

double median(std::vector<double> s) {
  if (s.empty()) throw std::invalid_argument("median of no samples");
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

}  // namespace prestage::model
