#pragma once
// Step 2 of on_device (gpu/msm/gpu_msm.hpp): the pairs sorted by bucket, and each bucket's range.
// Internal to gpu_msm_impl.cuh: included only from there (after msm_digits.cuh), once per curve TU
// (gpu_msm_g1.cu, gpu_msm_g2.cu); everything here is in the anonymous namespace (internal linkage,
// one copy per TU), so never include it anywhere else.
//
// The sort itself is cub::DeviceRadixSort::SortPairs in the driver (msm_run's `prepare`): step 1's
// keys / vals (m x 4 B each) as a CUB double buffer, key bits [0, end_bit) with 2^end_bit >= nb,
// the result in either half. ranges_kernel takes the sorted keys (m x 4 B) and produces the
// buckets' ranges: start / end (nb x unsigned each, zeroed before), bucket b's pairs at sorted
// positions [start[b], end[b]) (a bucket with no pair keeps 0, 0).

namespace prestage::msm {

namespace {

// start[b], end[b]: the range of sorted positions with key b (buckets never seen keep 0, 0).
__global__ void ranges_kernel(const uint32_t* keys, std::size_t m, unsigned* start, unsigned* end) {
  const std::size_t p = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (p >= m) return;
  const uint32_t k = keys[p];
  if (p == 0 || keys[p - 1] != k) start[k] = static_cast<unsigned>(p);
  if (p + 1 == m || keys[p + 1] != k) end[k] = static_cast<unsigned>(p + 1);
}

}  // namespace

}  // namespace prestage::msm
