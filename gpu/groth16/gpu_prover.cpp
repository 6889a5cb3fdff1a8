// Groth16 prover with the arithmetic on the GPU (see gpu/groth16/gpu_prover.hpp).
#include "gpu/groth16/gpu_prover.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "gpu/groth16/gpu_h.hpp"
#include "gpu/groth16/parallel.hpp"
#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/gpu_ntt.hpp"

namespace prestage::groth16 {
namespace {

namespace g = prestage::gpu;

// Forwards to `inner` and keeps the live and peak bytes of what it handed out (the prover's own
// buffers: GpuProveTimings::buffers_peak_bytes).
class CountingAllocator final : public g::DeviceAllocator {
 public:
  explicit CountingAllocator(g::DeviceAllocator& inner) : inner_(inner) {}
  void* allocate(std::size_t bytes, cudaStream_t stream) override {
    void* p = inner_.allocate(bytes, stream);
    live_ += bytes;
    peak_ = std::max(peak_, live_);
    return p;
  }
  void deallocate(void* p, std::size_t bytes, cudaStream_t stream) noexcept override {
    inner_.deallocate(p, bytes, stream);
    live_ -= bytes;
  }
  g::AllocatorKind kind() const override { return inner_.kind(); }
  const char* name() const override { return inner_.name(); }
  std::size_t peak() const { return peak_; }

 private:
  g::DeviceAllocator& inner_;
  std::size_t live_ = 0, peak_ = 0;
};

template <class T>
void upload(g::DeviceBuffer<T>& d, const T* host, cudaStream_t stream) {
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(d.data(), host, d.bytes(), cudaMemcpyHostToDevice, stream));
}

// The points of an in-place key (the .zkey's 96 / 192 B x, y words: Fq's Montgomery limbs, all
// zero for the identity; checked when the key was loaded) in the Affine layout gpu_msm reads.
template <class Affine>
std::vector<Affine> decode_raw(const msm::RawPoints& raw, unsigned threads) {
  constexpr std::size_t kBytes = 2 * sizeof(typename Affine::Field);
  static_assert(offsetof(Affine, y) == sizeof(typename Affine::Field), "x, y contiguous");
  std::vector<Affine> out(raw.count);
  parallel_for(raw.count, threads, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) {
      const uint8_t* at = raw.data + i * raw.stride;
      std::memcpy(static_cast<void*>(&out[i]), at, kBytes);
      out[i].infinity = std::all_of(at, at + kBytes, [](uint8_t x) { return x == 0; });
    }
  });
  return out;
}

// One MSM: the points uploaded into a buffer of their own (freed on return), the scalars already
// on the device.
// `what` names the key's vector, whose size must be `expected` (std::invalid_argument otherwise).
template <class Curve, class Affine>
typename Curve::Jacobian run_msm(const char* what, std::span<const Affine> points,
                                 std::size_t expected, const Fr* d_scalars,
                                 g::DeviceAllocator& point_alloc, g::DeviceAllocator& msm_alloc,
                                 cudaStream_t stream, const g::GpuMsmOptions& options,
                                 std::size_t& points_bytes) {
  if (points.size() != expected)
    throw std::invalid_argument(fmt::format("proving key has {} {} points, the prover expects {}",
                                            points.size(), what, expected));
  if (points.empty()) return typename Curve::Jacobian{};
  g::DeviceBuffer<Affine> d_points(point_alloc, points.size(), stream);
  upload(d_points, points.data(), stream);
  points_bytes += d_points.bytes();
  return g::gpu_msm<Curve>(d_points.data(), d_scalars, points.size(), msm_alloc, stream, options);
}

// The key's points of one vector: the ProvingKey's own, or decoded from the mapped .zkey.
template <class Affine>
struct KeyPoints {
  std::vector<Affine> decoded;
  std::span<const Affine> view;
};
template <class Affine>
KeyPoints<Affine> key_points(const std::vector<Affine>& owned, const msm::RawPoints* raw,
                             unsigned threads) {
  KeyPoints<Affine> k;
  if (raw != nullptr) {
    k.decoded = decode_raw<Affine>(*raw, threads);
    k.view = k.decoded;
  } else {
    k.view = owned;
  }
  return k;
}

}  // namespace

Proof prove_gpu(const ProvingKey& pk, const std::vector<Fr>& w, const Circuit* circuit,
                g::DeviceAllocator& ntt_alloc, g::DeviceAllocator& msm_alloc,
                const GpuProveOptions& opt) {
  check_prove_inputs(pk, w, circuit);
  const unsigned T = opt.threads;
  const std::size_t n = pk.domain_size();
  const bool circom = pk.reduction == Reduction::circom;
  const std::size_t h_count = pk.in_place ? pk.in_place->h.count : pk.h.size();
  if (h_count != (circom ? n : n - 1))
    throw std::invalid_argument("proving key's H points do not match the reduction");

  LapClock clock;
  GpuProveTimings tm;
  CountingAllocator alloc(ntt_alloc);
  g::Stream stream;
  const cudaStream_t s = stream.get();

  // 1. a, b, c on the host (n x 32 B each, Montgomery), then on the device.
  Evaluations ev = circuit ? evaluate_qap(*circuit, w, T) : evaluate_qap(pk, w, T);
  clock.lap(tm.qap);
  g::DeviceBuffer<Fr> d_a(alloc, n, s);
  std::optional<g::DeviceBuffer<Fr>> d_b(std::in_place, alloc, n, s);
  std::optional<g::DeviceBuffer<Fr>> d_c(std::in_place, alloc, n, s);
  upload(d_a, ev.a.data(), s);
  upload(*d_b, ev.b.data(), s);
  upload(*d_c, ev.c.data(), s);
  {
    // The domain and the coset tables live only for step 2.
    const g::DeviceNttDomain domain(pk.log_n, ntt::root_of_unity(pk.log_n), alloc, s);
    const g::DeviceCosetShift shift(
        domain, circom ? ntt::circom_coset_shift(pk.log_n) : ntt::fr_roots().shift, alloc, s);
    stream.synchronize();
    ev = Evaluations{};  // the host copies are no longer needed
    clock.lap(tm.upload_abc);

    // 2. H: d_a holds h (circom: n evaluations; textbook: n coefficients, the last 0).
    g::compute_h(domain, shift, circom ? g::HReduction::Circom : g::HReduction::Textbook,
                 d_a.data(), d_b->data(), d_c->data(), s);
    if (!circom) {
      Fr last;
      PRESTAGE_CUDA_CHECK(
          cudaMemcpyAsync(&last, d_a.data() + (n - 1), sizeof(Fr), cudaMemcpyDeviceToHost, s));
      stream.synchronize();
      if (!last.is_zero())
        throw std::domain_error("witness does not satisfy the circuit (p not divisible by Z)");
    }
    stream.synchronize();
  }
  d_b.reset();
  d_c.reset();
  clock.lap(tm.h);

  // 3. The witness (n_vars x 32 B), then the MSMs one at a time.
  g::DeviceBuffer<Fr> d_w(alloc, w.size(), s);
  upload(d_w, w.data(), s);
  const ProvingKey::InPlace* ip = pk.in_place ? &*pk.in_place : nullptr;
  MsmSums sums;
  const std::size_t nv = pk.n_vars, nc = pk.n_vars - pk.n_public - 1;
  std::size_t& pb = tm.points_bytes;
  {
    const auto a = key_points(pk.a, ip ? &ip->a : nullptr, T);
    sums.a = run_msm<g::GpuG1>("A", a.view, nv, d_w.data(), alloc, msm_alloc, s, opt.msm, pb);
  }
  {
    const auto b1 = key_points(pk.b1, ip ? &ip->b1 : nullptr, T);
    sums.b1 = run_msm<g::GpuG1>("B1", b1.view, nv, d_w.data(), alloc, msm_alloc, s, opt.msm, pb);
  }
  {
    const auto c = key_points(pk.c, ip ? &ip->c : nullptr, T);
    sums.c = run_msm<g::GpuG1>("C", c.view, nc, d_w.data() + pk.n_public + 1, alloc, msm_alloc, s,
                               opt.msm, pb);
  }
  {
    const auto h = key_points(pk.h, ip ? &ip->h : nullptr, T);
    sums.h = run_msm<g::GpuG1>("H", h.view, h_count, d_a.data(), alloc, msm_alloc, s, opt.msm, pb);
  }
  clock.lap(tm.msm_g1);
  {
    const auto b2 = key_points(pk.b2, ip ? &ip->b2 : nullptr, T);
    sums.b2 = run_msm<g::GpuG2>("B2", b2.view, nv, d_w.data(), alloc, msm_alloc, s, opt.msm, pb);
  }
  clock.lap(tm.msm_g2);

  // 4. Blinding and the final additions, as the host prover does them.
  const Proof proof = assemble_proof(pk, sums, opt.seed);
  clock.lap(tm.assemble);
  tm.buffers_peak_bytes = alloc.peak();
  if (opt.timings) *opt.timings = tm;
  return proof;
}

}  // namespace prestage::groth16
