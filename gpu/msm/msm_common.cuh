#pragma once
// on_device's pieces every step uses: the launch shape (kThreads) and the window-group cap, the
// curve operations of the kernels, host helpers (grid size, a synchronous download, the per-phase
// clock), and the workspace carver.
// Internal to gpu_msm_impl.cuh: included only from there (after its includes), once per curve TU
// (gpu_msm_g1.cu, gpu_msm_g2.cu); everything here is in the anonymous namespace (internal linkage,
// one copy per TU), so never include it anywhere else.
//
// Takes / produces: nothing by itself. Units: kThreads threads a block; kMaxPairsPerGroup
// (bucket, point) pairs a window group (G windows of n scalars: G n <= it); WsCarver lays out
// pieces of count x T, each 256-B aligned (kWorkspaceAlign), in [base, base + capacity).

namespace prestage::msm {

namespace {

using ff::Fr;

constexpr std::size_t kMaxPairsPerGroup = std::size_t{1} << 25;  // windows per group: G n <= this
constexpr unsigned kThreads = 256;

// ---- curve operations used by the kernels (the ec API, in one place) ----
// Each operation is one out-of-line device function per curve: a kernel calls it instead of
// inlining its ~10-20 field multiplications at every call site, which keeps ptxas time and code
// size down (the call costs a few instructions against thousands in the body).
template <class Curve>
__device__ __noinline__ typename Curve::Xyzz dev_add_affine(typename Curve::Xyzz acc,
                                                            typename Curve::Affine p, bool negate) {
  if (p.infinity) return acc;
  if (negate) p.y = -p.y;
  return acc.add_mixed(p);
}
template <class Curve>
__device__ __noinline__ typename Curve::Xyzz dev_add(typename Curve::Xyzz a,
                                                     typename Curve::Xyzz b) {
  return a.add(b);
}
template <class Curve>
__device__ __noinline__ typename Curve::Xyzz dev_dbl(typename Curve::Xyzz a) {
  return a.dbl();
}

template <class Curve>
struct Ops {
  using Affine = typename Curve::Affine;
  using Xyzz = typename Curve::Xyzz;
  __device__ __forceinline__ static Xyzz zero() { return Xyzz::identity(); }
  // acc + (negate ? -p : p); p may be the point at infinity.
  __device__ __forceinline__ static Xyzz add_affine(const Xyzz& acc, const Affine& p, bool negate) {
    return dev_add_affine<Curve>(acc, p, negate);
  }
  __device__ __forceinline__ static Xyzz add(const Xyzz& a, const Xyzz& b) {
    return dev_add<Curve>(a, b);
  }
  __device__ __forceinline__ static Xyzz dbl(const Xyzz& a) { return dev_dbl<Curve>(a); }
};

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

template <class T>
void download(T* host, const T* dev, std::size_t count, cudaStream_t stream) {
  PRESTAGE_CUDA_CHECK(
      cudaMemcpyAsync(host, dev, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

// Device time per phase: mark(p) attributes the stream time since the previous mark to phase p
// (off when no stats are asked for). Read after the stream has been synchronised.
class PhaseClock {
 public:
  PhaseClock(DeviceStats* stats, cudaStream_t stream) : stats_(stats), stream_(stream) {
    if (stats_ != nullptr) push(nullptr);
  }
  void mark(double DeviceStats::*phase) {
    if (stats_ != nullptr) push(phase);
  }
  // Adds the spans to the stats (every recorded event must be complete).
  void finish() {
    if (stats_ == nullptr) return;
    for (std::size_t k = 1; k < events_.size(); ++k)
      stats_->*phases_[k] += gpu::Event::elapsed_ms(*events_[k - 1], *events_[k]);
  }

 private:
  void push(double DeviceStats::*phase) {
    events_.push_back(std::make_unique<gpu::Event>());
    events_.back()->record(stream_);
    phases_.push_back(phase);
  }
  DeviceStats* stats_;
  cudaStream_t stream_;
  std::vector<std::unique_ptr<gpu::Event>> events_;
  std::vector<double DeviceStats::*> phases_;
};

// ---- the workspace (DeviceWorkspace): one region, carved into the call's buffers ----
constexpr std::size_t kWorkspaceAlign = 256;  // every piece starts on a 256-B boundary

// A piece of the workspace: count elements of T at ptr (not owned); the DeviceBuffer accessors.
template <class T>
struct WsSpan {
  T* ptr = nullptr;
  std::size_t count = 0;
  T* data() const { return ptr; }
  std::size_t size() const { return count; }
  std::size_t bytes() const { return count * sizeof(T); }
};

// Lays pieces out one after another (each 256-B aligned) in [base, base + capacity). With a null
// base it only counts: device_workspace_bytes runs the same layout code as the call, so the
// query and the call cannot disagree. take() past the capacity is a logic_error (the call checks
// the workspace's size against the query first).
class WsCarver {
 public:
  WsCarver(void* base, std::size_t capacity)
      : base_(static_cast<unsigned char*>(base)), capacity_(capacity) {}
  template <class T>
  WsSpan<T> take(std::size_t count) {
    used_ = (used_ + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
    WsSpan<T> s{base_ != nullptr ? reinterpret_cast<T*>(base_ + used_) : nullptr, count};
    used_ += count * sizeof(T);
    if (base_ != nullptr && used_ > capacity_)
      throw std::logic_error("on_device: workspace layout past its capacity");
    return s;
  }
  std::size_t used() const { return used_; }

 private:
  unsigned char* base_;
  std::size_t capacity_;
  std::size_t used_ = 0;
};

}  // namespace

}  // namespace prestage::msm
