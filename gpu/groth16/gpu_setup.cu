// Generator multiples on the GPU (gpu/groth16/gpu_setup.hpp for the contract).
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "gpu/groth16/fixed_base.hpp"
#include "gpu/groth16/gpu_setup.hpp"
#include "gpu/runtime/cuda_check.hpp"
#include "gpu/runtime/memory.hpp"

namespace prestage::groth16 {

namespace {

constexpr unsigned kThreads = 128;
constexpr unsigned kAffineChunk = 32;                 // products made affine with one inversion
constexpr std::size_t kChunk = std::size_t{1} << 22;  // products a pass (scalars, XYZZ, out)

// One out-of-line mixed addition per curve: the window loop calls it instead of inlining its ~12
// field multiplications 32 times (ptxas time and code size).
template <class Xyzz, class Affine>
__device__ __noinline__ Xyzz add_table_entry(Xyzz acc, Affine p) {
  return acc.add_mixed(p);
}

// tmp[i] = scalars[i] * G (XYZZ), i < n: digit w of the canonical scalar (8 bits, w = 0..31)
// picks entry w * 255 + d - 1 = d * 2^(8w) * G of `table` (FixedBase's layout).
template <class FB, class Affine, class Xyzz>
__global__ void __launch_bounds__(kThreads)
    multiples_kernel(const ff::Fr* scalars, std::size_t n, const Affine* table, Xyzz* tmp) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const auto c = scalars[i].to_canonical();
  Xyzz acc = Xyzz::identity();
  for (int w = 0; w < FB::kWindows; ++w) {
    const unsigned d = unsigned(c[w / 8] >> (8 * (w % 8))) & 0xffu;
    if (d != 0) acc = add_table_entry(acc, table[std::size_t(w) * FB::kDigits + d - 1]);
  }
  tmp[i] = acc;
}

// out[p] = tmp[p] in affine form, p < n: thread t converts [32 t, 32 t + 32) with one inversion
// of the product of their ZZZ (Montgomery's trick; prefix: n x Field of running products).
template <class Affine, class Xyzz>
__global__ void __launch_bounds__(kThreads)
    to_affine_kernel(const Xyzz* tmp, std::size_t n, typename Affine::Field* prefix, Affine* out) {
  using Field = typename Affine::Field;
  const std::size_t first = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) * kAffineChunk;
  if (first >= n) return;
  const std::size_t last = std::min(first + kAffineChunk, n);
  Field acc = Field::one();
  for (std::size_t p = first; p < last; ++p) {
    prefix[p] = acc;
    const Xyzz q = tmp[p];
    if (!q.is_identity()) acc = acc * q.ZZZ;
  }
  Field inv = acc.inverse();
  for (std::size_t p = last; p-- > first;) {
    const Xyzz q = tmp[p];
    if (q.is_identity()) {
      out[p] = Affine::identity();
      continue;
    }
    const Field izzz = inv * prefix[p];
    inv = inv * q.ZZZ;
    const Field izz = (q.ZZ * izzz).sqr();
    out[p] = Affine{q.X * izz, q.Y * izzz, false};
  }
}

unsigned grid(std::size_t threads) {
  return static_cast<unsigned>((threads + kThreads - 1) / kThreads);
}

template <class Affine, class Jacobian, class Xyzz>
void multiples(std::span<const ff::Fr> scalars, std::span<Affine> out) {
  if (out.size() != scalars.size())
    throw std::invalid_argument("gpu_generator_multiples: out and scalars differ in length");
  if (scalars.empty()) return;
  using Field = typename Affine::Field;
  // The table: 32 x 255 affine multiples of G (G1 0.8 MiB, G2 1.6 MiB), built on the host.
  using FB = FixedBase<Affine, Jacobian>;
  const FB fb(Affine::generator());
  const auto table = fb.table();
  gpu::SyncAllocator alloc;
  gpu::Stream stream;
  const std::size_t chunk = std::min(kChunk, scalars.size());
  gpu::DeviceBuffer<Affine> d_table(alloc, table.size());
  gpu::DeviceBuffer<ff::Fr> d_scalars(alloc, chunk);  // chunk x 32 B
  gpu::DeviceBuffer<Xyzz> d_tmp(alloc, chunk);        // chunk x (G1 192, G2 384) B
  gpu::DeviceBuffer<Field> d_prefix(alloc, chunk);    // chunk x (G1 48, G2 96) B
  gpu::DeviceBuffer<Affine> d_out(alloc, chunk);      // chunk x (G1 104, G2 200) B
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(d_table.data(), table.data(), table.size_bytes(),
                                      cudaMemcpyHostToDevice, stream.get()));
  for (std::size_t at = 0; at < scalars.size(); at += chunk) {
    const std::size_t m = std::min(chunk, scalars.size() - at);
    PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(d_scalars.data(), scalars.data() + at, m * sizeof(ff::Fr),
                                        cudaMemcpyHostToDevice, stream.get()));
    multiples_kernel<FB, Affine, Xyzz>
        <<<grid(m), kThreads, 0, stream.get()>>>(d_scalars.data(), m, d_table.data(), d_tmp.data());
    PRESTAGE_CUDA_CHECK(cudaGetLastError());
    to_affine_kernel<Affine, Xyzz>
        <<<grid((m + kAffineChunk - 1) / kAffineChunk), kThreads, 0, stream.get()>>>(
            d_tmp.data(), m, d_prefix.data(), d_out.data());
    PRESTAGE_CUDA_CHECK(cudaGetLastError());
    PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(out.data() + at, d_out.data(), m * sizeof(Affine),
                                        cudaMemcpyDeviceToHost, stream.get()));
  }
  stream.synchronize();
}

}  // namespace

void gpu_generator_multiples(std::span<const ff::Fr> scalars, std::span<ec::G1Affine> out) {
  multiples<ec::G1Affine, ec::G1Jacobian, ec::G1XYZZ>(scalars, out);
}
void gpu_generator_multiples(std::span<const ff::Fr> scalars, std::span<ec::G2Affine> out) {
  multiples<ec::G2Affine, ec::G2Jacobian, ec::G2XYZZ>(scalars, out);
}

}  // namespace prestage::groth16
