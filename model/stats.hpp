#pragma once
// Statistics every layer shares (pure C++): the median of repeated measurements.
#include <vector>

namespace prestage::model {

// Median of the samples (mean of the two middle ones for an even count). Throws
// std::invalid_argument on an empty vector.
double median(std::vector<double> samples);

}  // namespace prestage::model
