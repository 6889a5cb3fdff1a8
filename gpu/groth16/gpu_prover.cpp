// Groth16 prover with the arithmetic on the GPU (see gpu/groth16/gpu_prover.hpp).
#include "gpu/groth16/gpu_prover.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <stdexcept>

#include "gpu/groth16/gpu_h.hpp"
#include "gpu/groth16/parallel.hpp"
#include "gpu/msm/host_msm.hpp"
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

// The points of an in-place key (checked when the key was loaded) in the Affine layout
// msm::on_device reads.
template <class Affine>
std::vector<Affine> decode_raw(const msm::RawPoints& raw, unsigned threads) {
  std::vector<Affine> out(raw.count);
  parallel_for(raw.count, threads, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) {
      out[i] = msm::raw_point<Affine>(raw, i);
      out[i].infinity = msm::raw_is_identity<Affine>(raw, i);
    }
  });
  return out;
}

// The key's points of one vector on the host: the ProvingKey's own, or decoded from the mapped
// .zkey.
template <class Affine>
struct HostPoints {
  std::vector<Affine> decoded;
  std::span<const Affine> view;
};
template <class Affine>
HostPoints<Affine> host_points(const std::vector<Affine>& owned, const msm::RawPoints* raw,
                               unsigned threads) {
  HostPoints<Affine> k;
  if (raw != nullptr) {
    k.decoded = decode_raw<Affine>(*raw, threads);
    k.view = k.decoded;
  } else {
    k.view = owned;
  }
  return k;
}

// What every MSM of one proof shares.
struct MsmContext {
  g::DeviceAllocator& point_alloc;  // the points uploaded for one MSM
  g::DeviceAllocator& msm_alloc;    // the MSM's workspace
  cudaStream_t stream;
  const msm::DeviceOptions& options;
  unsigned threads;
  std::size_t& points_bytes;
};

// One MSM of the key's vector `what` (expected points), scalars already on the device: the
// points from `resident` when given, else uploaded into a buffer of their own (freed on return).
// std::invalid_argument when the key's vector does not have `expected` points.
template <class Curve, class Affine>
typename Curve::Jacobian key_msm(const char* what, const std::vector<Affine>& owned,
                                 const msm::RawPoints* raw, const g::DeviceBuffer<Affine>* resident,
                                 std::size_t expected, const Fr* d_scalars, MsmContext& m) {
  auto check = [&](std::size_t count) {
    if (count != expected)
      throw std::invalid_argument(fmt::format("proving key has {} {} points, the prover expects {}",
                                              count, what, expected));
  };
  if (resident != nullptr) {
    check(resident->size());
    if (expected == 0) return typename Curve::Jacobian{};
    return msm::on_device<Curve>(resident->data(), d_scalars, expected, m.msm_alloc, m.stream,
                                 m.options);
  }
  const HostPoints<Affine> host = host_points(owned, raw, m.threads);
  check(host.view.size());
  if (expected == 0) return typename Curve::Jacobian{};
  g::DeviceBuffer<Affine> d_points(m.point_alloc, expected, m.stream);
  upload(d_points, host.view.data(), m.stream);
  m.points_bytes += d_points.bytes();
  return msm::on_device<Curve>(d_points.data(), d_scalars, expected, m.msm_alloc, m.stream,
                               m.options);
}

// One vector of the key uploaded for DeviceKeyPoints.
template <class Affine>
g::DeviceBuffer<Affine> resident_points(const std::vector<Affine>& owned, const msm::RawPoints* raw,
                                        g::DeviceAllocator& alloc, unsigned threads) {
  const HostPoints<Affine> host = host_points(owned, raw, threads);
  g::DeviceBuffer<Affine> d(alloc, host.view.size());
  if (!host.view.empty())
    PRESTAGE_CUDA_CHECK(cudaMemcpy(d.data(), host.view.data(), d.bytes(), cudaMemcpyHostToDevice));
  return d;
}

}  // namespace

DeviceKeyPoints::DeviceKeyPoints(const ProvingKey& pk, g::DeviceAllocator& alloc,
                                 unsigned threads) {
  const ProvingKey::InPlace* ip = pk.in_place ? &*pk.in_place : nullptr;
  a = resident_points(pk.a, ip ? &ip->a : nullptr, alloc, threads);
  b1 = resident_points(pk.b1, ip ? &ip->b1 : nullptr, alloc, threads);
  c = resident_points(pk.c, ip ? &ip->c : nullptr, alloc, threads);
  h = resident_points(pk.h, ip ? &ip->h : nullptr, alloc, threads);
  b2 = resident_points(pk.b2, ip ? &ip->b2 : nullptr, alloc, threads);
}

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
    const ntt::DeviceDomain domain(pk.log_n, ntt::root_of_unity(pk.log_n), alloc, s);
    const ntt::DeviceCosetShift shift(
        domain, circom ? ntt::circom_coset_shift(pk.log_n) : ntt::fr_roots().shift, alloc, s);
    stream.synchronize();
    ev = Evaluations{};  // the host copies are no longer needed
    clock.lap(tm.upload_abc);

    // 2. H: d_a holds h (circom: n evaluations; textbook: n coefficients, the last 0).
    compute_h_on_device(domain, shift, circom ? HReduction::Circom : HReduction::Textbook,
                        d_a.data(), d_b->data(), d_c->data(), s);
    Fr last = Fr::zero();  // textbook: h_{n-1}, which must be 0
    if (!circom)
      PRESTAGE_CUDA_CHECK(
          cudaMemcpyAsync(&last, d_a.data() + (n - 1), sizeof(Fr), cudaMemcpyDeviceToHost, s));
    stream.synchronize();
    if (!last.is_zero())
      throw std::domain_error("witness does not satisfy the circuit (p not divisible by Z)");
  }
  d_b.reset();
  d_c.reset();
  clock.lap(tm.h);

  // 3. The witness (n_vars x 32 B), then the MSMs one at a time.
  // B2 on the host: only the witness is needed, so it runs on the host's cores beside the GPU's
  // G1 MSMs; joined below (also on an exception: the future's destructor waits).
  std::future<G2Jacobian> b2_host;
  if (opt.b2_on_host)
    b2_host = std::async(std::launch::async, [&pk, &w, T, &tm] {
      const auto t0 = std::chrono::steady_clock::now();
      const std::span<const Fr> ws(w);
      G2Jacobian r =
          pk.in_place ? msm::msm<msm::G2Curve>(pk.in_place->b2, ws,
                                               msm::HostOptions{T, 0, msm::BucketMode::automatic})
                      : msm::msm_g2(pk.b2, ws, T);
      tm.b2_host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return r;
    });

  g::DeviceBuffer<Fr> d_w(alloc, w.size(), s);
  upload(d_w, w.data(), s);
  const ProvingKey::InPlace* ip = pk.in_place ? &*pk.in_place : nullptr;
  const DeviceKeyPoints* rk = opt.resident_key;
  MsmContext m{alloc, msm_alloc, s, opt.msm, T, tm.points_bytes};
  const std::size_t nv = pk.n_vars, nc = pk.n_vars - pk.n_public - 1;
  MsmSums sums;
  sums.a = key_msm<msm::G1Curve>("A", pk.a, ip ? &ip->a : nullptr, rk ? &rk->a : nullptr, nv,
                                 d_w.data(), m);
  sums.b1 = key_msm<msm::G1Curve>("B1", pk.b1, ip ? &ip->b1 : nullptr, rk ? &rk->b1 : nullptr, nv,
                                  d_w.data(), m);
  sums.c = key_msm<msm::G1Curve>("C", pk.c, ip ? &ip->c : nullptr, rk ? &rk->c : nullptr, nc,
                                 d_w.data() + pk.n_public + 1, m);
  sums.h = key_msm<msm::G1Curve>("H", pk.h, ip ? &ip->h : nullptr, rk ? &rk->h : nullptr, h_count,
                                 d_a.data(), m);
  clock.lap(tm.msm_g1);
  sums.b2 = opt.b2_on_host ? b2_host.get()
                           : key_msm<msm::G2Curve>("B2", pk.b2, ip ? &ip->b2 : nullptr,
                                                   rk ? &rk->b2 : nullptr, nv, d_w.data(), m);
  clock.lap(tm.msm_g2);

  // 4. Blinding and the final additions, as the host prover does them.
  const Proof proof = assemble_proof(pk, sums, opt.seed);
  clock.lap(tm.assemble);
  tm.buffers_peak_bytes = alloc.peak();
  if (opt.timings) *opt.timings = tm;
  return proof;
}

}  // namespace prestage::groth16
