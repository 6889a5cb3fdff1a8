#pragma once
// Steps 0 and 1 of on_device (gpu/msm/gpu_msm.hpp): classify the scalars, then their signed c-bit
// digits as (bucket key, point) pairs.
// Internal to gpu_msm_impl.cuh: included only from there (after msm_common.cuh), once per curve TU
// (gpu_msm_g1.cu, gpu_msm_g2.cu); everything here is in the anonymous namespace (internal linkage,
// one copy per TU), so never include it anywhere else.
//
// Takes: n scalars (device, n x 32 B Fr, Montgomery form); for step 1 the run's index list (idx:
// n_run x 4 B point indices, step 0's `others`; nullptr: scalar i is point i) or the run's scalars
// already canonical (canon: n_run x 32 B CanonScalar, canon_scalars_kernel's).
// Produces: step 0, counts = [zeros, ones, others] (3 x unsigned) and with lists the point
// indices of the 1-scalars (`ones`) and of the others (`others`), 4 B each, in no order; step 1,
// for the windows [w0, w0 + G) of width c, m compacted pairs (m = *counter, at most G n_run) in
// keys / vals (4 B each, in no order): key = (w - w0) << (c - 1) | (|d| - 1) (a bucket of the
// group's G 2^(c-1)), value = point index | (d < 0) << 31; zero digits make no pair.

namespace prestage::msm {

namespace {

__device__ __forceinline__ uint64_t limb_at(const uint64_t (&l)[4], unsigned i) {
  return i == 0 ? l[0] : i == 1 ? l[1] : i == 2 ? l[2] : i == 3 ? l[3] : 0;
}

// Bits [off, off + c) of the 256-bit canonical scalar (c <= 32).
__device__ __forceinline__ uint32_t scalar_bits(const uint64_t (&l)[4], unsigned off, unsigned c) {
  const unsigned idx = off >> 6, sh = off & 63;
  uint64_t v = limb_at(l, idx) >> sh;
  if (sh + c > 64) v |= limb_at(l, idx + 1) << (64 - sh);
  return static_cast<uint32_t>(v & ((uint64_t{1} << c) - 1));
}

// The signed c-bit digit of window value v (its c bits plus the previous window's carry; half =
// 2^(c-1)): in [-2^(c-1), 2^(c-1)], `carry` set for the next window.
__device__ __forceinline__ int32_t signed_digit(uint32_t v, uint32_t half, uint32_t& carry) {
  if (v > half) {
    carry = 1;
    return static_cast<int32_t>(v) - static_cast<int32_t>(half << 1);
  }
  carry = 0;
  return static_cast<int32_t>(v);
}

// l = the canonical value of s (Montgomery form: s * 1, the product's reduction), limbs
// little-endian.
__device__ __forceinline__ void canonical_limbs(const Fr& s, uint64_t (&l)[4]) {
  Fr one_raw{};
  one_raw.limb[0] = 1;
  const Fr v = s * one_raw;
#pragma unroll
  for (int k = 0; k < 4; ++k) l[k] = v.limb[k];
}

// Position of this thread's item in a list that `counter` counts, for the threads with `pred`:
// one atomic per block (blockDim.x == kThreads). Every thread of the block must call it (it
// synchronises the block).
__device__ __forceinline__ unsigned block_append(bool pred, unsigned* counter) {
  __shared__ unsigned warp_base[kThreads / 32];
  __shared__ unsigned block_base;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned mask = __ballot_sync(0xffffffffu, pred);
  if (lane == 0) warp_base[warp] = __popc(mask);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (unsigned k = 0; k < kThreads / 32; ++k) {
      const unsigned c = warp_base[k];
      warp_base[k] = sum;
      sum += c;
    }
    block_base = sum > 0 ? atomicAdd(counter, sum) : 0;
  }
  __syncthreads();
  const unsigned pos = block_base + warp_base[warp] + __popc(mask & ((1u << lane) - 1));
  __syncthreads();  // the next call reuses the shared words
  return pos;
}

// Step 0 on raw Montgomery limbs (0 -> all zero, 1 -> R mod r; values < r are unique).
// counts = [zeros, ones, others]. With lists (ones != nullptr): the indices of 1-scalars go to
// `ones` and those of the others (neither 0 nor 1) to `others`, in no particular order.
__global__ void __launch_bounds__(kThreads)
    classify_kernel(const Fr* scalars, std::size_t n, unsigned* counts, uint32_t* ones,
                    uint32_t* others) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  bool zero = false, one = false, other = false;
  if (i < n) {
    const Fr s = scalars[i];
    const Fr r1 = Fr::one();
    zero = (s.limb[0] | s.limb[1] | s.limb[2] | s.limb[3]) == 0;
    one = s.limb[0] == r1.limb[0] && s.limb[1] == r1.limb[1] && s.limb[2] == r1.limb[2] &&
          s.limb[3] == r1.limb[3];
    other = !zero && !one;
  }
  const unsigned pz = block_append(zero, counts);
  const unsigned po = block_append(one, counts + 1);
  const unsigned pg = block_append(other, counts + 2);
  (void)pz;
  if (ones != nullptr) {
    if (one) ones[po] = static_cast<uint32_t>(i);
    if (other) others[pg] = static_cast<uint32_t>(i);
  }
}

// A scalar out of Montgomery form: its canonical 256-bit value, limbs little-endian.
struct alignas(32) CanonScalar {
  uint64_t limb[4];
};

// canon[i] = scalar i of the run (scalars[idx[i]], idx == nullptr: scalars[i]) out of Montgomery
// form, for i < n: once per call (DeviceOptions::scalars_once), in the run's order.
__global__ void __launch_bounds__(kThreads)
    canon_scalars_kernel(const Fr* scalars, const uint32_t* idx, std::size_t n,
                         CanonScalar* canon) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  CanonScalar out;
  canonical_limbs(scalars[idx != nullptr ? idx[i] : i], out.limb);
  canon[i] = out;
}

// Signed digits of windows [w0, w0 + G) -> compacted (key, value) pairs; zero digits dropped.
// Scalar i of the run is scalars[idx[i]] with point idx[i] (idx == nullptr: the identity), or,
// with canon != nullptr, canon[i] (canon_scalars_kernel's, already canonical; scalars unread).
// key = (w - w0) << (c - 1) | (|d| - 1); value = point index | (d < 0) << 31.
__global__ void __launch_bounds__(kThreads)
    digits_kernel(const Fr* scalars, const CanonScalar* canon, const uint32_t* idx, std::size_t n,
                  unsigned c, unsigned w0, unsigned groups, uint32_t* keys, uint32_t* vals,
                  unsigned* counter) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  const bool active = i < n;
  uint64_t l[4] = {0, 0, 0, 0};
  uint32_t point = static_cast<uint32_t>(i);
  if (active) {
    if (idx != nullptr) point = idx[i];
    if (canon != nullptr) {
      const CanonScalar v = canon[i];
#pragma unroll
      for (int k = 0; k < 4; ++k) l[k] = v.limb[k];
    } else {
      canonical_limbs(scalars[point], l);
    }
  }
  const uint32_t half = 1u << (c - 1);
  uint32_t carry = 0;
  for (unsigned w = 0; w < w0 + groups; ++w) {
    const int32_t d = signed_digit(scalar_bits(l, w * c, c) + carry, half, carry);
    if (w < w0) continue;
    const bool nz = active && d != 0;
    // One atomic per block: per-warp atomics on this one counter cost ~10 ms of digits at 2^24
    // (1M atomics per window group) on the H200, against 6.9 (gpu/msm/DECISIONS.md #3).
    const unsigned pos = block_append(nz, counter);
    if (nz) {
      const uint32_t mag = static_cast<uint32_t>(d < 0 ? -d : d);
      keys[pos] = ((w - w0) << (c - 1)) | (mag - 1);
      vals[pos] = point | (d < 0 ? 0x80000000u : 0u);
    }
  }
}

}  // namespace

}  // namespace prestage::msm
