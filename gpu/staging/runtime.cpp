#include "gpu/staging/runtime.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <semaphore>
#include <thread>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ec/sample_points.hpp"
#include "gpu/msm/gpu_msm.hpp"
#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/gpu_ntt.hpp"
#include "gpu/runtime/cuda_check.hpp"
#include "gpu/runtime/memory.hpp"
#include "gpu/staging/host_memory.hpp"
#include "gpu/staging/proofs.hpp"
#include "gpu/staging/staging_kernels.hpp"
#include "model/errors.hpp"
#include "model/msm_split.hpp"
#include "model/policy/policy.hpp"
#include "model/stats.hpp"

namespace prestage::staging {
namespace {

using model::Allocator;
using model::EventKind;
using model::StepOp;
using model::SyncKind;
using Clock = std::chrono::steady_clock;
using ff::Fr;
using G1 = msm::G1Curve;
using G2 = msm::G2Curve;
static_assert(sizeof(ec::G1Affine) == model::kKeyPointBytes);
static_assert(sizeof(ec::G2Affine) == model::kG2KeyPointBytes);

constexpr std::size_t kBasePoints = std::size_t{1} << 18;  // distinct key points (gpu_bench's)

// The largest streamed-MSM chunk (points, a power of two from n down to 1024) whose two chunk
// buffers and workspace fit in `pool_bytes` (the pipeline's largest pool buffer); 0 if none.
template <class Curve>
std::size_t streamed_chunk(std::size_t n, std::size_t pool_bytes) {
  msm::DeviceOptions opt;
  for (std::size_t c = n; c >= 1024; c /= 2) {
    const std::size_t chunks = 2 * c * sizeof(typename Curve::Affine);
    opt.max_workspace_bytes = pool_bytes > chunks ? pool_bytes - chunks : 1;
    if (msm::device_streamed_workspace_bytes<Curve>(n, c, opt) + 4096 <= pool_bytes) return c;
  }
  return 0;
}

// n stand-in key points in pinned host memory (cudaMallocHost; the caller frees it), as
// fill_stand_in_points below lays them out on the device.
template <class Affine, class Jacobian>
Affine* pinned_stand_in_points(std::size_t n, std::uint64_t seed) {
  void* p = nullptr;
  PRESTAGE_CUDA_CHECK(cudaMallocHost(&p, n * sizeof(Affine)));
  auto* out = static_cast<Affine*>(p);
  std::mt19937_64 rng(seed);
  auto base = ec::random_walk_points<Affine, Jacobian>(std::min(n, kBasePoints), rng);
  for (std::size_t at = 0; at < n; at += base.size())
    std::memcpy(out + at, base.data(), std::min(base.size(), n - at) * sizeof(Affine));
  return out;
}

// `bytes` of device memory the run holds from setup to the end; an allocation failure is the
// scenario's (InputError at `key`, naming `what` and the card).
void* resident_alloc(std::size_t bytes, const std::string& file, const char* key,
                     const std::string& what, const std::string& card) {
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw InputError(file, 0, key,
                     fmt::format("{}: {:.2f} GiB, more than {} has free", what,
                                 static_cast<double>(bytes) / model::kGiB, card));
  }
  PRESTAGE_CUDA_CHECK(e);
  return p;
}

// n stand-in key points on the device at d_points: kBasePoints distinct random points (as
// gpu_bench measures the calibration's curves), repeated by device-to-device copies.
template <class Affine, class Jacobian>
void fill_stand_in_points(Affine* d_points, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto base = ec::random_walk_points<Affine, Jacobian>(std::min(n, kBasePoints), rng);
  PRESTAGE_CUDA_CHECK(
      cudaMemcpy(d_points, base.data(), base.size() * sizeof(Affine), cudaMemcpyHostToDevice));
  for (std::size_t have = base.size(); have < n;) {
    const std::size_t c = std::min(have, n - have);
    PRESTAGE_CUDA_CHECK(
        cudaMemcpy(d_points + have, d_points, c * sizeof(Affine), cudaMemcpyDeviceToDevice));
    have += c;
  }
}
// Bytes a download step may move (the pipeline's proof download is 1 KiB): a per-worker device
// buffer that outlives the partition's buffers, as the proof's few points do in the prover.
constexpr std::size_t kDownloadBytes = 1 << 20;

// ---------------------------------------------------------------------------------------------
// Thread-safe pieces.

// A FIFO with push_front (retries go first) that consumers block on; pop() is false once the
// queue is closed and empty.
template <class T>
class BlockingQueue {
 public:
  void push(T v) {
    {
      std::lock_guard<std::mutex> g(mu_);
      items_.push_back(std::move(v));
    }
    cv_.notify_one();
  }
  void push_front(T v) {
    {
      std::lock_guard<std::mutex> g(mu_);
      items_.push_front(std::move(v));
    }
    cv_.notify_one();
  }
  void close() {
    {
      std::lock_guard<std::mutex> g(mu_);
      closed_ = true;
    }
    cv_.notify_all();
  }
  bool pop(T& out) {
    std::unique_lock<std::mutex> g(mu_);
    cv_.wait(g, [&] { return !items_.empty() || closed_; });
    if (items_.empty()) return false;
    out = std::move(items_.front());
    items_.pop_front();
    return true;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<T> items_;
  bool closed_ = false;
};

// The run's trace, shared by every thread (model::Trace itself is single-threaded).
class TraceSink {
 public:
  std::uint32_t track(const std::string& n) {
    std::lock_guard<std::mutex> g(mu_);
    return trace_.track_id(n);
  }
  std::uint32_t name(const std::string& n) {
    std::lock_guard<std::mutex> g(mu_);
    return trace_.name_id(n);
  }
  void add(const model::TraceEvent& e) {
    std::lock_guard<std::mutex> g(mu_);
    trace_.add(e);
  }
  void add(const model::MemorySample& m) {
    std::lock_guard<std::mutex> g(mu_);
    trace_.add(m);
  }
  model::Trace take() { return std::move(trace_); }

 private:
  std::mutex mu_;
  model::Trace trace_;
};

// Counts allocation attempts per site and fails the ones --inject-oom names.
class OomInjector {
 public:
  explicit OomInjector(const std::vector<OomInjection>& v) {
    for (const auto& i : v) targets_[i.site].push_back(i.nth);
  }
  bool should_fail(const std::string& site) {
    std::lock_guard<std::mutex> g(mu_);
    int n = ++count_[site];
    auto it = targets_.find(site);
    if (it == targets_.end()) return false;
    return std::find(it->second.begin(), it->second.end(), n) != it->second.end();
  }
  std::map<std::string, int> counts() {
    std::lock_guard<std::mutex> g(mu_);
    return count_;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::vector<int>> targets_;
  std::map<std::string, int> count_;
};

// A bump allocator over one device buffer (the pipeline's pool buffer that the MSM works in):
// msm::on_device_streamed takes its chunks and workspace from it. Out of space -> out-of-memory.
class ArenaAllocator final : public gpu::DeviceAllocator {
 public:
  ArenaAllocator(void* base, std::size_t bytes) : base_(static_cast<char*>(base)), bytes_(bytes) {}
  void* allocate(std::size_t bytes, cudaStream_t) override {
    std::size_t at = (used_ + 255) & ~std::size_t{255};
    if (at + bytes > bytes_)
      throw gpu::CudaError(cudaErrorMemoryAllocation, "arena allocate", __FILE__, __LINE__);
    used_ = at + bytes;
    return base_ + at;
  }
  void deallocate(void*, std::size_t, cudaStream_t) noexcept override {}
  gpu::AllocatorKind kind() const override { return gpu::AllocatorKind::StreamOrdered; }
  const char* name() const override { return "arena(pipeline pool buffer)"; }

 private:
  char* base_;
  std::size_t bytes_, used_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Run state.

struct Part {
  std::int64_t id = 0;  // proof * partitions + index
  int proof = 0;
  int attempts = 0;
  int slot = -1;  // host slot holding its inputs
};

struct HostSlot {
  std::vector<char*> inputs;  // per pipeline input: host bytes (page aligned)
};

// A device-side interval to resolve into host time at the end of the run.
struct DeviceSpan {
  cudaEvent_t start = nullptr, end = nullptr;
  std::uint32_t track = 0, name = 0;
  EventKind kind = EventKind::compute;
  int gpu = 0, worker = -1;
  std::int64_t partition = -1;
  std::uint64_t bytes = 0;
  bool compute = false;  // counts towards the GPU's busy time
};

struct Gpu;

struct Staged {
  Part part;
  bool valid = false;
  int groups = 0;                     // stage groups pre-staged
  std::vector<void*> ptr;             // per buffer: device pointer (null: not held)
  std::vector<std::uint64_t> held;    // per buffer: bytes held
  std::vector<cudaStream_t> on;       // per buffer: stream it was allocated on
  std::vector<std::size_t> cursor;    // per buffer: next upload offset (B)
  std::vector<cudaEvent_t> uploaded;  // per staged group: its uploads are done
  bool pinned = false;                // cudaHostRegister'd
  bool porep_filled = false;          // the first buffer holds PoRep-shaped scalars
  std::vector<void*> input_ptr;       // per input: where its last upload landed (device)
  int current_input = -1;             // the input of the latest upload step (kernel operand)
  // Real proofs: the G1 MSMs' results so far, and whether the witness is in the first buffer.
  groth16::MsmSums sums;
  bool have_sum[kKeyVectors] = {};
  bool have_b2 = false;  // B_G2 ran on the GPU (kernel msm_g2_porep): sums.b2 holds it
  bool witness_uploaded = false;
};

struct Worker {
  Gpu* gpu = nullptr;
  int index = 0;
  cudaStream_t compute = nullptr, copy = nullptr;
  void* d_download = nullptr;  // device, kDownloadBytes: the source of download steps
  void* h_download = nullptr;  // pinned host, kDownloadBytes
  std::mutex hand_mu;
  std::condition_variable hand_cv;
  bool slot_full = false, slot_closed = false, taken_closed = false;
  Staged slot;
  model::WorkerStat stat;
  std::uint32_t track_host = 0, track_stager = 0, track_copy = 0;
};

struct Gpu {
  int id = 0;
  std::string name;
  std::mutex lock;  // the prover's per-GPU lock
  // The lock holder as its executor last published it (GpuView::lock_holder()), under holder_mu.
  std::mutex holder_mu;
  int holder_worker = -1;  // -1: the lock is free
  std::int64_t holder_part = -1;
  std::size_t holder_step = 0;             // the pipeline step it runs
  std::vector<std::uint64_t> holder_held;  // per buffer: B its partition holds
  int holder_groups = 0;                   // stage groups it pre-staged
  std::mutex policy_mu;  // one policy call at a time (released during blocking view calls)
  std::unique_ptr<model::Policy> policy;
  cudaMemPool_t pool = nullptr;
  cudaEvent_t ref = nullptr;                // device clock reference
  double ref_host = 0;                      // host time (s since t0) of `ref`
  std::atomic<std::uint64_t> sync_used{0};  // B of pipeline buffers from cudaMalloc
  std::uint64_t peak_used = 0, peak_reserved = 0;
  std::mutex peak_mu;
  std::atomic<double> h2d_bytes{0}, d2h_bytes{0};
  std::vector<std::unique_ptr<Worker>> workers;
  std::unique_ptr<ntt::DeviceDomain> domain;
  std::unique_ptr<ntt::DeviceCosetShift> shift;
  ec::G1Affine* d_points = nullptr;  // resident stand-in key points (n), or null
  // Real proofs, resident key: the key's H, C (L), A, B1 vectors (KeyVector order), n x 104 B each.
  ec::G1Affine* d_key[kKeyVectors] = {};
  // B_G2 on the GPU, resident points: the key's B2 vector (real proofs) or stand-in points,
  // n x 200 B; null when no step runs msm_g2_porep or the points are streamed.
  ec::G2Affine* d_g2 = nullptr;
  // --kernels spin: one allocation of the scenario's resident bytes (NTT tables and resident key
  // points, which the real kernels' setup allocates), so the card means the same in both modes.
  void* resident_stand_in = nullptr;
  std::unique_ptr<gpu::VramBallast> ballast;
  std::size_t resident_bytes = 0;  // NTT tables + resident points
  // B free once setup is done (resident memory, ballast, workers' buffers allocated): the base
  // of run.memory_samples: pool.
  std::uint64_t free_after_setup = 0;
  std::uint32_t track_compute = 0, track_h2d = 0, track_d2h = 0;
  std::mutex spans_mu;
  std::vector<DeviceSpan> spans;
  std::vector<cudaEvent_t> event_pool;
};

class Runtime;

// The policies' view of one GPU, for one worker's decision.
class GpuView final : public model::MemoryView {
 public:
  GpuView(Runtime& rt, Worker& w, std::int64_t part, std::unique_lock<std::mutex>& policy_lock)
      : rt_(rt), w_(w), part_(part), policy_lock_(policy_lock) {}
  std::uint64_t free_bytes() override;
  std::uint64_t total_bytes() override;
  std::uint64_t pool_reserved() override;
  std::uint64_t pool_used() override;
  void trim(std::uint64_t keep) override;
  void synchronize(SyncKind k) override;
  model::LockHolder lock_holder() override;

 private:
  Runtime& rt_;
  Worker& w_;
  std::int64_t part_;
  std::unique_lock<std::mutex>& policy_lock_;
};

std::uint64_t pool_attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  std::uint64_t v = 0;
  PRESTAGE_CUDA_CHECK(cudaMemPoolGetAttribute(pool, a, &v));
  return v;
}

// An NVTX range named like the trace event of the same call; an empty name opens none (a step
// that records no event, such as `unlock`, gets no range a capture could not match).
struct NvtxRange {
  explicit NvtxRange(const std::string& n) : open(!n.empty()) {
    if (open) nvtxRangePushA(n.c_str());
  }
  ~NvtxRange() {
    if (open) nvtxRangePop();
  }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
  bool open;
};

class Runtime {
 public:
  Runtime(const model::Scenario& s, const GpuRunOptions& o) : s_(s), o_(o), inject_(o.inject) {}
  // A run that ended in an exception (bad input found in setup, a CUDA error) still gives back
  // what setup allocated: device memory, events, streams, pinned and registered host memory.
  // Not the buffers of partitions in flight when a thread failed mid-run (they belong to that
  // thread's unwound state); the process's exit returns those.
  ~Runtime() { release_resources(false); }
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  model::RunResult run(nlohmann::json* manifest);

  // --- used by GpuView ---
  double now() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }
  void ev(double t0, std::uint32_t track, const std::string& nm, EventKind k, const Worker* w,
          std::int64_t part, std::uint64_t bytes) {
    ev_id(t0, now(), track, trace_.name(nm), k, w, part, bytes);
  }
  void ev_id(double t0, double t1, std::uint32_t track, std::uint32_t nm, EventKind k,
             const Worker* w, std::int64_t part, std::uint64_t bytes) {
    model::TraceEvent e;
    e.t_start = t0;
    e.t_end = t1;
    e.track = track;
    e.name = nm;
    e.kind = k;
    e.partition = part;
    e.bytes = bytes;
    if (w) {
      e.gpu = static_cast<std::int16_t>(w->gpu->id);
      e.worker = static_cast<std::int16_t>(w->index);
    }
    trace_.add(e);
  }
  // Free device memory (B) for a memory sample or an out-of-memory record: cudaMemGetInfo, or
  // under run.memory_samples: pool the free memory after setup less the pipeline's sync
  // allocations and the pool's reservation (no driver call; `su`, `pr` as the caller read them).
  std::uint64_t free_for_record(const Gpu& g, std::uint64_t su, std::uint64_t pr) const {
    if (s_.memory_samples == model::MemorySamples::pool)
      return g.free_after_setup > su + pr ? g.free_after_setup - su - pr : 0;
    std::size_t free = 0, total = 0;
    PRESTAGE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
  }
  void mem_sample(Gpu& g) {
    std::uint64_t pu = pool_attr(g.pool, cudaMemPoolAttrUsedMemCurrent);
    std::uint64_t pr = pool_attr(g.pool, cudaMemPoolAttrReservedMemCurrent);
    std::uint64_t su = g.sync_used.load();
    const std::uint64_t free = free_for_record(g, su, pr);
    {
      std::lock_guard<std::mutex> lk(g.peak_mu);
      g.peak_used = std::max(g.peak_used, su + pu);
      g.peak_reserved = std::max(g.peak_reserved, su + pr);
    }
    trace_.add(model::MemorySample{now(), g.id, su + pu, su + pr, free});
  }
  void device_sync(Worker& w, std::int64_t part, const char* why, std::uint32_t track) {
    double t0 = now();
    {
      NvtxRange r(why);
      PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
    }
    w.stat.device_wait_s += now() - t0;
    ev(t0, track, why, EventKind::sync, &w, part, 0);
    mem_sample(*w.gpu);
  }
  // The worker's stream or event sync: a policy's (stager track) or a pipeline `sync` step's
  // (host track).
  void stream_sync(Worker& w, std::int64_t part, SyncKind kind, std::uint32_t track) {
    double t0 = now();
    const char* nm = kind == SyncKind::event ? "sync_event" : "sync_stream";
    NvtxRange r(nm);
    if (kind == SyncKind::event) {
      cudaEvent_t e[2];
      for (int i = 0; i < 2; ++i) {
        PRESTAGE_CUDA_CHECK(cudaEventCreateWithFlags(&e[i], cudaEventDisableTiming));
        PRESTAGE_CUDA_CHECK(cudaEventRecord(e[i], i == 0 ? w.compute : w.copy));
      }
      for (auto x : e) {
        PRESTAGE_CUDA_CHECK(cudaEventSynchronize(x));
        PRESTAGE_CUDA_CHECK(cudaEventDestroy(x));
      }
    } else {
      PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(w.compute));
      PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(w.copy));
    }
    ev(t0, track, nm, EventKind::sync, &w, part, 0);
    mem_sample(*w.gpu);
  }
  void trim(Worker& w, std::int64_t part, std::uint64_t keep) {
    double t0 = now();
    NvtxRange r("trim");
    std::uint64_t before = pool_attr(w.gpu->pool, cudaMemPoolAttrReservedMemCurrent);
    PRESTAGE_CUDA_CHECK(cudaMemPoolTrimTo(w.gpu->pool, keep));
    std::uint64_t after = pool_attr(w.gpu->pool, cudaMemPoolAttrReservedMemCurrent);
    ev(t0, w.track_stager, "trim", EventKind::trim, &w, part, before > after ? before - after : 0);
    mem_sample(*w.gpu);
  }
  const model::Scenario& s() const { return s_; }

 private:
  // --- setup ---
  void check_runnable();
  void check_provable();
  void setup_host();
  void setup_gpu(Gpu& g);
  // --- threads ---
  void synthesis(int k);
  void stager(Worker& w);
  void executor(Worker& w);
  void detached_cpu(Worker& w, Part p, std::uint32_t nm, double d, std::size_t step);
  // --- steps ---
  enum class Call { place, failure, after };
  int decide(Worker& w, Call call, std::int64_t part, int failed);
  bool alloc(Worker& w, Staged& st, int b, cudaStream_t stream, std::uint32_t track,
             const std::string& where);
  void release(Worker& w, Staged& st, int b, std::uint32_t track);
  void pin_inputs(Worker& w, Staged& st, std::uint32_t track, bool* ok);
  void unpin(Worker& w, Staged& st);
  void copy_h2d(Worker& w, Staged& st, int input, int buffer, cudaStream_t stream, std::uint32_t nm,
                std::uint32_t track);
  bool run_kernel(Worker& w, Staged& st, std::size_t step_index, std::uint32_t nm);
  // One MSM step's MSM inside the pipeline's largest live pool buffer (its workspace), points
  // resident (`d_pts`) or streamed from pinned host memory (`h_pts`, `chunk` points at a time);
  // false (and the OOM reported) when the workspace cannot hold it.
  template <class Curve>
  bool run_msm(Worker& w, Staged& st, const model::Step& step, cudaStream_t stream,
               const typename Curve::Affine* d_pts, const typename Curve::Affine* h_pts,
               std::size_t chunk, const Fr* scalars, std::size_t count,
               typename Curve::Jacobian* sum);
  // Real proofs with B_G2 on the GPU: the partition's proof assembled and checked on a host
  // thread of its own (counted like a detached step), so the worker goes on.
  void detached_check(Part p, groth16::MsmSums sums);
  // Real proofs: the witness into the first buffer (n x 32 B), once per partition, before the
  // first MSM that reads it; the H MSM must have read H's scalars there first.
  void upload_witness(Worker& w, Staged& st, const model::Step& step, Fr* first,
                      cudaStream_t stream);
  void phase(model::PhaseStat& p, double dt) {
    std::lock_guard<std::mutex> lk(acct_mu_);
    p.total_s += dt;
    ++p.count;
  }
  void fail(Worker& w, Staged& st, std::uint32_t track);
  void retire(const Part& p, bool ok);
  void partition_finished(int proof);
  model::StagingRequest req_for(Worker& w, std::int64_t part) const;
  cudaEvent_t take_event(Gpu& g);
  // A device interval of worker w: two events, the start recorded on `stream` now; record
  // `end` after the work, then add_span().
  DeviceSpan begin_span(Worker& w, std::int64_t part, std::uint32_t track, std::uint32_t nm,
                        EventKind kind, cudaStream_t stream, std::uint64_t bytes = 0);
  static void add_bytes(std::atomic<double>& counter, double bytes);
  void add_span(Gpu& g, DeviceSpan sp) {
    std::lock_guard<std::mutex> lk(g.spans_mu);
    g.spans.push_back(sp);
  }
  void oom(Worker& w, const Staged& st, const std::string& where, std::uint64_t bytes,
           std::uint32_t track) {
    const std::uint64_t free = free_for_record(
        *w.gpu, w.gpu->sync_used.load(), pool_attr(w.gpu->pool, cudaMemPoolAttrReservedMemCurrent));
    {
      std::lock_guard<std::mutex> lk(acct_mu_);
      ooms_.push_back({now(), w.gpu->id, w.index, st.part.id, where, bytes, free});
    }
    ev(now(), track, "oom", EventKind::oom, &w, st.part.id, bytes);
  }
  model::RunResult finish(double makespan);
  // Frees what setup allocated; safe after a partial setup and a second time. check: a CUDA
  // error throws (the run's normal end) or is dropped (the destructor, after another error).
  void release_resources(bool check);

  const model::Scenario& s_;
  const GpuRunOptions& o_;
  OomInjector inject_;
  TraceSink trace_;
  Clock::time_point t0_;
  std::size_t n_ = 0;  // domain size
  std::vector<HostSlot> slots_;
  // pinning: pinned_pool: the slots are cudaMallocHost memory, allocated in setup_host (before
  // the run's clock starts) in pinned_pool_s_ seconds; no per-partition registration.
  bool pinned_pool_ = false;
  double pinned_pool_s_ = 0;
  std::mutex slots_mu_;
  std::condition_variable slots_cv_;
  std::vector<int> free_slots_;
  BlockingQueue<Part> ready_;
  std::vector<std::unique_ptr<Gpu>> gpus_;
  ec::G1Affine* h_points_ = nullptr;     // streamed stand-in key points (n), pinned host memory
  ec::G2Affine* h_points_g2_ = nullptr;  // ... for B_G2 on the GPU (n), when a step runs it
  bool b2_on_gpu_ = false;               // a kernel step runs msm_g2_porep (B_G2 on the GPU)
  // Real proofs (gpu/staging/proofs.hpp): the circuit, witness and key; the G1 sums of each
  // partition between its MSMs and its B_G2 step (acct_mu_); the checks' counts; the host work
  // that synthesis and B_G2 really took (s, per partition).
  bool prove_ = false;
  std::unique_ptr<PartitionProofs> proofs_;
  bool key_registered_ = false;  // streamed: the key's G1 vectors are cudaHostRegister'd
  ff::Fr zinv_;
  std::map<std::int64_t, groth16::MsmSums> pending_sums_;
  std::int64_t verified_ = 0, check_failed_ = 0;
  std::vector<double> synth_work_s_, b2_work_s_, check_work_s_;
  std::size_t chunk_points_ = 0;     // streamed MSM chunk, chosen for the pool buffer
  std::size_t chunk_points_g2_ = 0;  // ... for the G2 MSM
  std::atomic<std::int64_t> next_synth_{0};
  // Accounting (acct_mu_).
  std::mutex acct_mu_;
  std::vector<model::OomEvent> ooms_;
  std::vector<int> proof_left_;
  std::vector<bool> proof_lost_;
  std::int64_t total_ = 0, outstanding_ = 0, done_ = 0, retried_ = 0;
  int proofs_done_ = 0;
  std::vector<model::PhaseStat> step_phase_, wait_phase_;
  model::PhaseStat synth_phase_;
  double input_total_ = 0;
  std::counting_semaphore<1024>* cpus_ = nullptr;
  std::mutex cpu_threads_mu_;
  std::vector<std::thread> cpu_threads_;
  std::vector<std::string> notes_;
  std::map<std::string, std::size_t> msm_pieces_;  // MSM step -> pieces of its resident MSM (> 1)
  std::size_t pool_buffer_max_ = 0;                // B, largest pool buffer of the pipeline
  std::atomic<bool> abort_{false};                 // a thread failed: every thread stops
  std::vector<std::uint32_t> step_names_, wait_staged_nm_, stage_upload_nm_, staged_uploads_nm_;
  std::uint32_t cpu_track_ = 0, upload_witness_nm_ = 0;
};

// ---------------------------------------------------------------------------------------------

std::uint64_t GpuView::free_bytes() {
  std::size_t free = 0, total = 0;
  PRESTAGE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}
std::uint64_t GpuView::total_bytes() {
  return static_cast<std::uint64_t>(rt_.s().vram);
}
std::uint64_t GpuView::pool_reserved() {
  return pool_attr(w_.gpu->pool, cudaMemPoolAttrReservedMemCurrent);
}
std::uint64_t GpuView::pool_used() {
  return pool_attr(w_.gpu->pool, cudaMemPoolAttrUsedMemCurrent);
}
void GpuView::trim(std::uint64_t keep) {
  policy_lock_.unlock();
  rt_.trim(w_, part_, keep);
  policy_lock_.lock();
}
model::LockHolder GpuView::lock_holder() {
  Gpu& g = *w_.gpu;
  std::lock_guard<std::mutex> lk(g.holder_mu);
  model::LockHolder h;
  if (g.holder_worker < 0) {
    h.known = true;
    return h;
  }
  h = model::locked_remaining(rt_.s(), g.holder_step, g.holder_held, g.holder_groups);
  h.worker = g.holder_worker;
  h.partition = g.holder_part;
  return h;
}
void GpuView::synchronize(SyncKind k) {
  if (k == SyncKind::none) return;
  policy_lock_.unlock();
  if (k == SyncKind::device)
    rt_.device_sync(w_, part_, "sync_device", w_.track_stager);
  else
    rt_.stream_sync(w_, part_, k, w_.track_stager);
  policy_lock_.lock();
}

// ---------------------------------------------------------------------------------------------

void Runtime::check_runnable() {
  const auto& p = s_.pipe;
  if (o_.kernels == KernelMode::real) {
    if (s_.element_bytes != 32)
      throw InputError(s_.file, 0, "workload.element_bytes",
                       "the GPU runtime's kernels take 32-B Fr elements (got " +
                           fmt::format("{}", s_.element_bytes) + "); use --kernels spin");
    for (std::size_t i = 0; i < p.steps.size(); ++i) {
      const auto& st = p.steps[i];
      if (st.op != StepOp::kernel || st.kernel.empty()) continue;
      static const char* known[] = {"h_input", "coset_intt", "msm_g1", "msm_g1_porep",
                                    "msm_g2_porep"};
      if (std::find_if(std::begin(known), std::end(known),
                       [&](const char* k) { return st.kernel == k; }) == std::end(known))
        throw InputError(p.file, st.line, "kernel",
                         "the GPU runtime has no kernel for '" + st.kernel +
                             "' (known: h_input, coset_intt, msm_g1, msm_g1_porep, "
                             "msm_g2_porep; a step "
                             "with `seconds` spins); or run with --kernels spin");
    }
  }
  for (const auto& st : p.steps)
    if (o_.kernels == KernelMode::real && st.op == StepOp::kernel && st.kernel == "msm_g2_porep")
      b2_on_gpu_ = true;
  if (auto pol = model::make_policy(s_.policy, s_.params))
    pinned_pool_ = pol->pinning() == model::PinMode::pinned_pool;
  for (const auto& in : s_.input_bytes)
    if (in <= 0) throw InputError(s_.file, 0, "workload", "an input of 0 bytes");
  if (prove_) check_provable();
}

// What real proofs need of the pipeline (gpu/staging/proofs.hpp's mapping).
void Runtime::check_provable() {
  const auto& p = s_.pipe;
  auto need = [&](const std::string& key, const std::string& what) {
    throw InputError(p.file, 0, key, "real proofs (--proofs verified) need " + what);
  };
  if (p.inputs.size() != 3) need("inputs", "three inputs (a, b, c of the QAP), in that order");
  for (double b : s_.input_bytes)
    if (static_cast<std::size_t>(b) != n_ * 32) need("inputs", "inputs of n x 32 B each");
  if (!s_.lot_of_memory)
    need("buffers", "b and c on the card at once (lot_of_memory: 3 n x 32 B within gpus.vram)");
  bool h = false;
  int porep = 0, b2 = 0;
  for (const auto& st : p.steps) {
    if (st.op == StepOp::kernel && st.kernel == "msm_g1") h = true;
    if (st.op == StepOp::kernel && st.kernel == "msm_g1_porep") {
      const auto v = PartitionProofs::porep_vector(st.name);
      if (!v)
        throw InputError(p.file, st.line, "name",
                         "real proofs map a msm_g1_porep step by its name: msm_l, msm_a or "
                         "msm_b_g1 (got '" +
                             st.name + "')");
      porep |= 1 << static_cast<int>(*v);
    }
    if ((st.op == StepOp::cpu && st.kernel == "msm_g2_cpu" && st.detach) ||
        (st.op == StepOp::kernel && st.kernel == "msm_g2_porep"))
      if (++b2 > 1)
        throw InputError(p.file, st.line, "kernel",
                         "real proofs: B_G2 once per partition (this is its second step)");
  }
  if (!h) need("steps", "an H MSM (a kernel step with kernel: msm_g1)");
  const int all = (1 << int(KeyVector::l)) | (1 << int(KeyVector::a)) | (1 << int(KeyVector::b1));
  if (porep != all) need("steps", "the msm_l, msm_a and msm_b_g1 steps (kernel: msm_g1_porep)");
  if (!b2)
    need("steps",
         "B_G2: on the host, a detached cpu step with kernel: msm_g2_cpu; or on the GPU, a "
         "kernel step with kernel: msm_g2_porep");
}

void Runtime::setup_host() {
  // Host memory: every slot's inputs, and the key (real proofs) or the streamed stand-in points.
  const HostMemoryNeed need = host_memory_need(
      static_cast<unsigned>(s_.log2_n), input_total_, s_.host_slots, prove_,
      o_.kernels == KernelMode::real && s_.key_points == model::KeyPoints::streamed, b2_on_gpu_);
  // The machine's memory: MemTotal, or PRESTAGE_HOST_MEMORY_BYTES where the VM's MemTotal starts
  // small and grows as memory is used (the lent GPU machines: Firecracker, 128 GiB limit).
  double avail =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (const char* e = std::getenv("PRESTAGE_HOST_MEMORY_BYTES"))
    avail = std::max(avail, std::atof(e));
  if (need.total() > kHostMemoryShare * avail)
    throw InputError(
        s_.file, 0, "host.host_slots",
        fmt::format("host memory: {} slots x {:.2f} GiB of inputs + {:.2f} GiB of "
                    "streamed stand-in key points + {:.2f} GiB of proving key and witness (real "
                    "proofs) = {:.2f} GiB, more than {:.0f}% of this machine's {:.2f} GiB "
                    "(MemTotal or PRESTAGE_HOST_MEMORY_BYTES); lower host.host_slots or n{}",
                    s_.host_slots, input_total_ / model::kGiB, need.points / model::kGiB,
                    need.key / model::kGiB, need.total() / model::kGiB, 100 * kHostMemoryShare,
                    avail / model::kGiB, prove_ ? ", or run with --proofs stand-in" : ""));
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  slots_.resize(static_cast<std::size_t>(s_.host_slots));
  for (std::size_t k = 0; k < slots_.size(); ++k) {
    for (std::size_t i = 0; i < s_.input_bytes.size(); ++i) {
      std::size_t bytes = static_cast<std::size_t>(s_.input_bytes[i]);
      std::size_t rounded = (bytes + 4095) / 4096 * 4096;
      char* p = nullptr;
      if (pinned_pool_) {
        const double t0 = now();
        const cudaError_t e = cudaMallocHost(&p, rounded);
        pinned_pool_s_ += now() - t0;
        if (e != cudaSuccess)
          throw std::runtime_error(fmt::format(
              "pinned_pool: cudaMallocHost of host slot {} input {} ({:.2f} GiB) failed: {}", k, i,
              static_cast<double>(rounded) / model::kGiB, cudaGetErrorString(e)));
      } else {
        p = static_cast<char*>(std::aligned_alloc(4096, rounded));
      }
      if (!p) throw std::runtime_error("host slot allocation failed");
      slots_[k].inputs.push_back(p);
      if (prove_) continue;  // synthesis writes every partition's inputs
      // Random Fr elements (limbs below r's top limb), written by every core.
      std::size_t elems = bytes / 32;
      std::vector<std::thread> ts;
      for (unsigned t = 0; t < threads; ++t)
        ts.emplace_back([=] {
          std::size_t lo = elems * t / threads, hi = elems * (t + 1) / threads;
          std::uint64_t z = (k * 131 + i * 7 + 1) * 0x9E3779B97F4A7C15ull + lo;
          auto* w = reinterpret_cast<std::uint64_t*>(p);
          for (std::size_t e = lo; e < hi; ++e) {
            for (int l = 0; l < 4; ++l) {
              z += 0x9E3779B97F4A7C15ull;
              std::uint64_t x = z;
              x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
              x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
              w[4 * e + l] = x ^ (x >> 31);
            }
            w[4 * e + 3] %= Fr::modulus[3];
          }
        });
      for (auto& t : ts) t.join();
      if (bytes % 32) std::memset(p + elems * 32, 0, rounded - elems * 32);
    }
    free_slots_.push_back(static_cast<int>(k));
  }
}

void Runtime::setup_gpu(Gpu& g) {
  PRESTAGE_CUDA_CHECK(cudaSetDevice(g.id));
  PRESTAGE_CUDA_CHECK(cudaFree(nullptr));  // the context
  cudaDeviceProp prop{};
  PRESTAGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, g.id));
  g.name = prop.name;
  PRESTAGE_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&g.pool, g.id));
  std::uint64_t threshold = s_.params.has_release_threshold
                                ? s_.params.release_threshold
                                : static_cast<std::uint64_t>(s_.cal.release_threshold_default);
  PRESTAGE_CUDA_CHECK(cudaMemPoolSetAttribute(g.pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  PRESTAGE_CUDA_CHECK(cudaMemPoolTrimTo(g.pool, 0));
  std::size_t free0 = 0, total = 0;
  PRESTAGE_CUDA_CHECK(cudaMemGetInfo(&free0, &total));
  // The card the scenario names: its free memory at context start is vram - (this context's
  // own memory), as the simulator takes it (vram - calibrated context overhead).
  const double context = static_cast<double>(total - free0);
  const double target_free = s_.vram - context;
  static gpu::SyncAllocator sync_alloc;
  if (o_.kernels == KernelMode::real) {
    const unsigned log_n = static_cast<unsigned>(s_.log2_n);
    g.domain =
        std::make_unique<ntt::DeviceDomain>(log_n, ntt::root_of_unity(log_n), sync_alloc, nullptr);
    g.shift = std::make_unique<ntt::DeviceCosetShift>(*g.domain, ntt::fr_roots().shift, sync_alloc,
                                                      nullptr);
    if (prove_ && s_.key_points == model::KeyPoints::resident) {
      // The key's four G1 vectors, uploaded once for the run.
      for (int v = 0; v < kKeyVectors; ++v) {
        const auto pts = proofs_->points(static_cast<KeyVector>(v));
        void* p = resident_alloc(pts.size_bytes(), s_.file, "workload.key_points",
                                 "one of the resident proving key's four G1 vectors", g.name);
        g.d_key[v] = static_cast<ec::G1Affine*>(p);
        PRESTAGE_CUDA_CHECK(cudaMemcpy(p, pts.data(), pts.size_bytes(), cudaMemcpyHostToDevice));
      }
    } else if (s_.key_points == model::KeyPoints::resident) {
      g.d_points = static_cast<ec::G1Affine*>(resident_alloc(n_ * sizeof(ec::G1Affine), s_.file,
                                                             "workload.key_points",
                                                             "resident key points", g.name));
      fill_stand_in_points<ec::G1Affine, ec::G1Jacobian>(g.d_points, n_, 0x5eed + g.id);
    }
    if (b2_on_gpu_ && s_.key_points == model::KeyPoints::resident) {
      // B_G2's points: the key's B2 vector, or stand-in points.
      const std::size_t count = prove_ ? proofs_->points_b2().size() : n_;
      g.d_g2 = static_cast<ec::G2Affine*>(
          resident_alloc(count * sizeof(ec::G2Affine), s_.file, "workload.key_points",
                         "resident G2 key points for B_G2", g.name));
      if (prove_)
        PRESTAGE_CUDA_CHECK(cudaMemcpy(g.d_g2, proofs_->points_b2().data(),
                                       count * sizeof(ec::G2Affine), cudaMemcpyHostToDevice));
      else
        fill_stand_in_points<ec::G2Affine, ec::G2Jacobian>(g.d_g2, n_, 0x5eed2 + g.id);
    }
  }
  if (o_.kernels == KernelMode::spin && s_.resident_bytes > 0)
    g.resident_stand_in = resident_alloc(static_cast<std::size_t>(s_.resident_bytes), s_.file,
                                         "gpus.vram", "the prover's resident memory", g.name);
  PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
  std::size_t free1 = 0;
  PRESTAGE_CUDA_CHECK(cudaMemGetInfo(&free1, &total));
  g.resident_bytes = free0 - free1;
  // The simulator takes the pipeline's declared resident bytes: say so when the real setup
  // differs by more than 64 MiB (the expression is exact at one size; rounding adds the rest).
  if (std::abs(static_cast<double>(g.resident_bytes) - s_.resident_bytes) > 64.0 * (1 << 20))
    notes_.push_back(fmt::format(
        "gpu{}: the runtime's resident memory is {:.3f} GiB, the scenario's (the pipeline's "
        "`resident` and resident key points) {:.3f} GiB: the simulated card differs by that much",
        g.id, g.resident_bytes / model::kGiB, s_.resident_bytes / model::kGiB));
  if (static_cast<double>(g.resident_bytes) >= target_free)
    throw InputError(s_.file, 0, "gpus.vram",
                     fmt::format("the runtime's resident memory (NTT tables and resident key "
                                 "points: {:.2f} GiB) leaves nothing of the scenario's {:.2f} GiB",
                                 g.resident_bytes / model::kGiB, s_.vram / model::kGiB));
  const double usable = target_free - static_cast<double>(g.resident_bytes);
  if (usable < static_cast<double>(free1))
    g.ballast = std::make_unique<gpu::VramBallast>(static_cast<std::size_t>(usable));
  for (int w = 0; w < s_.workers_per_gpu; ++w) {
    auto W = std::make_unique<Worker>();
    W->gpu = &g;
    W->index = w;
    PRESTAGE_CUDA_CHECK(cudaStreamCreateWithFlags(&W->compute, cudaStreamNonBlocking));
    PRESTAGE_CUDA_CHECK(cudaStreamCreateWithFlags(&W->copy, cudaStreamNonBlocking));
    PRESTAGE_CUDA_CHECK(cudaMalloc(&W->d_download, kDownloadBytes));
    PRESTAGE_CUDA_CHECK(cudaMallocHost(&W->h_download, kDownloadBytes));
    W->stat.gpu = g.id;
    W->stat.worker = w;
    W->track_host = trace_.track(fmt::format("gpu{}/w{}/host", g.id, w));
    W->track_stager = trace_.track(fmt::format("gpu{}/w{}/stager", g.id, w));
    W->track_copy = trace_.track(fmt::format("gpu{}/w{}/copy_stream", g.id, w));
    g.workers.push_back(std::move(W));
  }
  g.track_compute = trace_.track(fmt::format("gpu{}/compute", g.id));
  g.track_h2d = trace_.track(fmt::format("gpu{}/h2d", g.id));
  g.track_d2h = trace_.track(fmt::format("gpu{}/d2h", g.id));
  g.policy = model::make_policy(s_.policy, s_.params);
  if (!g.policy) throw InputError(s_.file, 0, "policy.name", "unknown policy " + s_.policy);
  std::size_t free2 = 0;
  PRESTAGE_CUDA_CHECK(cudaMemGetInfo(&free2, &total));
  g.free_after_setup = free2;
}

DeviceSpan Runtime::begin_span(Worker& w, std::int64_t part, std::uint32_t track, std::uint32_t nm,
                               EventKind kind, cudaStream_t stream, std::uint64_t bytes) {
  Gpu& g = *w.gpu;
  DeviceSpan sp;
  sp.start = take_event(g);
  sp.end = take_event(g);
  sp.track = track;
  sp.name = nm;
  sp.kind = kind;
  sp.gpu = g.id;
  sp.worker = w.index;
  sp.partition = part;
  sp.bytes = bytes;
  PRESTAGE_CUDA_CHECK(cudaEventRecord(sp.start, stream));
  return sp;
}

void Runtime::add_bytes(std::atomic<double>& counter, double bytes) {
  double cur = counter.load();
  while (!counter.compare_exchange_weak(cur, cur + bytes)) {
  }
}

cudaEvent_t Runtime::take_event(Gpu& g) {
  cudaEvent_t e = nullptr;
  PRESTAGE_CUDA_CHECK(cudaEventCreate(&e));
  std::lock_guard<std::mutex> lk(g.spans_mu);
  g.event_pool.push_back(e);
  return e;
}

model::StagingRequest Runtime::req_for(Worker& w, std::int64_t part) const {
  model::StagingRequest r;
  for (const auto& grp : s_.pipe.groups)
    r.group_bytes.push_back(
        static_cast<std::uint64_t>(s_.buffer_bytes[static_cast<std::size_t>(grp.buffer)]));
  r.locked_sync_bytes = s_.locked_sync_peak;
  r.pool_bytes = s_.pool_peak;
  r.workers_on_gpu = s_.workers_per_gpu;
  r.gpu = w.gpu->id;
  r.worker = w.index;
  r.partition = part;
  return r;
}

int Runtime::decide(Worker& w, Call call, std::int64_t part, int failed) {
  std::unique_lock<std::mutex> lk(w.gpu->policy_mu);
  GpuView view(*this, w, part, lk);
  model::StagingRequest req = req_for(w, part);
  double t0 = now();
  int r = 0;
  const char* nm = call == Call::place     ? "policy_place"
                   : call == Call::failure ? "policy_on_failure"
                                           : "policy_after_partition";
  NvtxRange range(nm);
  switch (call) {
    case Call::place:
      r = w.gpu->policy->place(view, req);
      break;
    case Call::failure:
      r = w.gpu->policy->on_failure(view, req, failed);
      break;
    case Call::after:
      w.gpu->policy->after_partition(view, req);
      break;
  }
  ev(t0, w.track_stager, nm, EventKind::policy, &w, part, 0);
  return r;
}

bool Runtime::alloc(Worker& w, Staged& st, int b, cudaStream_t stream, std::uint32_t track,
                    const std::string& where) {
  const auto& spec = s_.pipe.buffers[static_cast<std::size_t>(b)];
  const auto bytes = static_cast<std::uint64_t>(s_.buffer_bytes[static_cast<std::size_t>(b)]);
  const std::string nm = "alloc_" + spec.name;
  NvtxRange range(nm);
  double t0 = now();
  void* p = nullptr;
  bool ok = false;
  if (!inject_.should_fail(nm)) {
    cudaError_t e = spec.allocator == Allocator::sync
                        ? cudaMalloc(&p, bytes)
                        : cudaMallocFromPoolAsync(&p, bytes, w.gpu->pool, stream);
    if (e == cudaErrorMemoryAllocation)
      (void)cudaGetLastError();
    else
      PRESTAGE_CUDA_CHECK(e);
    ok = e == cudaSuccess;
  }
  const auto i = static_cast<std::size_t>(b);
  if (ok) {
    st.ptr[i] = p;
    st.held[i] = bytes;
    st.on[i] = stream;
    st.cursor[i] = 0;
    if (spec.allocator == Allocator::sync) w.gpu->sync_used += bytes;
  }
  ev(t0, track, nm, EventKind::alloc, &w, st.part.id, bytes);
  mem_sample(*w.gpu);
  if (!ok) oom(w, st, where, bytes, track);
  return ok;
}

void Runtime::release(Worker& w, Staged& st, int b, std::uint32_t track) {
  const auto i = static_cast<std::size_t>(b);
  if (!st.held[i]) return;
  const auto& spec = s_.pipe.buffers[i];
  const std::string nm = "free_" + spec.name;
  NvtxRange range(nm);
  double t0 = now();
  if (spec.allocator == Allocator::sync) {
    PRESTAGE_CUDA_CHECK(cudaFree(st.ptr[i]));
    w.gpu->sync_used -= st.held[i];
    if (s_.cal.free_synchronizes_device || s_.cal.synchronizes_device("cudaFree"))
      w.stat.device_wait_s += now() - t0;  // cudaFree waits for the whole device
  } else {
    PRESTAGE_CUDA_CHECK(cudaFreeAsync(st.ptr[i], st.on[i]));
  }
  ev(t0, track, nm, EventKind::free, &w, st.part.id, st.held[i]);
  st.ptr[i] = nullptr;
  st.held[i] = 0;
  mem_sample(*w.gpu);
}

void Runtime::pin_inputs(Worker& w, Staged& st, std::uint32_t track, bool* ok) {
  NvtxRange range("host_register");
  double t0 = now();
  *ok = !inject_.should_fail("register");
  const HostSlot& slot = slots_[static_cast<std::size_t>(st.part.slot)];
  std::size_t done = 0;
  for (std::size_t i = 0; *ok && i < slot.inputs.size(); ++i) {
    cudaError_t e = cudaHostRegister(slot.inputs[i], static_cast<std::size_t>(s_.input_bytes[i]),
                                     cudaHostRegisterDefault);
    if (e == cudaErrorMemoryAllocation || e == cudaErrorHostMemoryAlreadyRegistered) {
      (void)cudaGetLastError();
      *ok = false;
    } else {
      PRESTAGE_CUDA_CHECK(e);
      ++done;
    }
  }
  if (!*ok) {
    for (std::size_t i = 0; i < done; ++i) PRESTAGE_CUDA_CHECK(cudaHostUnregister(slot.inputs[i]));
    oom(w, st, "register", static_cast<std::uint64_t>(input_total_), track);
    return;
  }
  st.pinned = true;
  ev(t0, track, "host_register", EventKind::pin, &w, st.part.id,
     static_cast<std::uint64_t>(input_total_));
}

void Runtime::unpin(Worker& w, Staged& st) {
  NvtxRange range("host_unregister");
  double t0 = now();
  const HostSlot& slot = slots_[static_cast<std::size_t>(st.part.slot)];
  for (char* p : slot.inputs) PRESTAGE_CUDA_CHECK(cudaHostUnregister(p));
  if (s_.cal.synchronizes_device("cudaHostUnregister"))
    w.stat.device_wait_s += now() - t0;  // cudaHostUnregister waits for the whole device
  st.pinned = false;
  ev(t0, w.track_host, "host_unregister", EventKind::unpin, &w, st.part.id,
     static_cast<std::uint64_t>(input_total_));
}

void Runtime::copy_h2d(Worker& w, Staged& st, int input, int buffer, cudaStream_t stream,
                       std::uint32_t nm, std::uint32_t) {
  const auto b = static_cast<std::size_t>(buffer);
  const auto bytes = static_cast<std::size_t>(s_.input_bytes[static_cast<std::size_t>(input)]);
  if (st.cursor[b] + bytes > st.held[b]) st.cursor[b] = 0;  // the buffer holds one at a time
  char* dst = static_cast<char*>(st.ptr[b]) + st.cursor[b];
  st.cursor[b] += bytes;
  st.input_ptr[static_cast<std::size_t>(input)] = dst;
  const HostSlot& slot = slots_[static_cast<std::size_t>(st.part.slot)];
  Gpu& g = *w.gpu;
  DeviceSpan sp = begin_span(w, st.part.id, g.track_h2d, nm, EventKind::copy, stream, bytes);
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(dst, slot.inputs[static_cast<std::size_t>(input)], bytes,
                                      cudaMemcpyHostToDevice, stream));
  PRESTAGE_CUDA_CHECK(cudaEventRecord(sp.end, stream));
  add_span(g, sp);
  add_bytes(g.h2d_bytes, static_cast<double>(bytes));
}

bool Runtime::run_kernel(Worker& w, Staged& st, std::size_t i, std::uint32_t nm) {
  const model::Step& step = s_.pipe.steps[i];
  Gpu& g = *w.gpu;
  const cudaStream_t stream = w.compute;
  DeviceSpan sp = begin_span(w, st.part.id, g.track_compute, nm, EventKind::compute, stream);
  sp.compute = true;
  bool ok = true;
  const std::string& k = step.kernel;
  if (o_.kernels == KernelMode::spin || k.empty()) {
    spin(s_.step_seconds[i], stream);
  } else {
    // The first pipeline buffer holds the first input's region (d_a: a, then H's scalars).
    Fr* first = static_cast<Fr*>(st.input_ptr.empty() ? nullptr : st.input_ptr[0]);
    Fr* current = static_cast<Fr*>(
        st.current_input >= 0 ? st.input_ptr[static_cast<std::size_t>(st.current_input)] : nullptr);
    if (!first || !current)
      throw InputError(s_.pipe.file, step.line, "kernel",
                       "kernel step '" + step.name + "' runs before any upload");
    for (int rep = 0; rep < step.count && ok; ++rep) {
      if (k == "h_input" && prove_ && st.current_input == 2) {
        // c's chain: its last pass stores (a * b - c) / Z into a's buffer (gpu_h.cu's fusion).
        Fr* a = static_cast<Fr*>(st.input_ptr[0]);
        Fr* b = static_cast<Fr*>(st.input_ptr[1]);
        if (!a || !b || a == current || b == current)
          throw InputError(s_.pipe.file, step.line, "kernel",
                           "real proofs: c's h_input step needs a and b transformed before it, "
                           "in buffers of their own");
        ntt::detail::interpolate_to_coset(*g.domain, *g.shift, current, a, b, zinv_, true, stream);
      } else if (k == "h_input") {
        ntt::detail::interpolate_to_coset(*g.domain, *g.shift, current, nullptr, nullptr, Fr::one(),
                                          false, stream);
      } else if (k == "coset_intt") {
        // Scratch: another live buffer of n x 32 B (the pipeline's d_bc), when one is held.
        Fr* scratch = nullptr;
        const char* lo = reinterpret_cast<const char*>(first);
        const char* hi = lo + n_ * 32;
        for (std::size_t b = 0; b < st.ptr.size() && !scratch; ++b) {
          const char* p = static_cast<const char*>(st.ptr[b]);
          if (p && st.held[b] >= n_ * 32 && (p + st.held[b] <= lo || hi <= p))
            scratch = static_cast<Fr*>(st.ptr[b]);
        }
        ntt::coset_inverse(*g.domain, *g.shift, first, stream, scratch);
      } else if (k == "msm_g2_porep") {
        // B_G2: the B vector's scalars (the witness in real proofs, PoRep-shaped otherwise) over
        // the key's G2 points.
        const Fr* scalars = first;
        std::size_t count = n_;
        if (prove_) {
          upload_witness(w, st, step, first, stream);
          count = proofs_->points_b2().size();
          scalars = first + proofs_->witness_offset(KeyVector::b1);
        } else if (!st.porep_filled) {
          fill_scalars(first, n_, 0x9e3779b9ull ^ static_cast<std::uint64_t>(st.part.id),
                       ScalarShape::porep, stream);
          st.porep_filled = true;
        }
        const ec::G2Affine* h_pts = prove_ ? proofs_->points_b2().data() : h_points_g2_;
        ok = run_msm<G2>(w, st, step, stream, g.d_g2, h_pts, chunk_points_g2_, scalars, count,
                         &st.sums.b2);
        if (ok) st.have_b2 = true;
      } else {  // msm_g1, msm_g1_porep
        // Real proofs: the key vector this MSM reads, its points and its scalars.
        int vec = -1;
        const Fr* scalars = first;
        std::size_t count = n_;
        if (prove_) {
          const KeyVector v =
              k == "msm_g1" ? KeyVector::h : *PartitionProofs::porep_vector(step.name);
          vec = static_cast<int>(v);
          if (v != KeyVector::h) upload_witness(w, st, step, first, stream);
          count = proofs_->points(v).size();
          scalars = first + proofs_->witness_offset(v);
        } else if (k == "msm_g1_porep" && !st.porep_filled) {
          fill_scalars(first, n_, 0x9e3779b9ull ^ static_cast<std::uint64_t>(st.part.id),
                       ScalarShape::porep, stream);
          st.porep_filled = true;
        }
        const ec::G1Affine* d_pts = vec >= 0 ? g.d_key[vec] : g.d_points;
        const ec::G1Affine* h_pts =
            vec >= 0 ? proofs_->points(static_cast<KeyVector>(vec)).data() : h_points_;
        ec::G1Jacobian sum;
        ok = run_msm<G1>(w, st, step, stream, d_pts, h_pts, chunk_points_, scalars, count, &sum);
        if (ok && vec >= 0) {
          switch (static_cast<KeyVector>(vec)) {
            case KeyVector::h:
              st.sums.h = sum;
              break;
            case KeyVector::l:
              st.sums.c = sum;
              break;
            case KeyVector::a:
              st.sums.a = sum;
              break;
            case KeyVector::b1:
              st.sums.b1 = sum;
              break;
          }
          st.have_sum[vec] = true;
        }
      }
    }
  }
  PRESTAGE_CUDA_CHECK(cudaEventRecord(sp.end, stream));
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  add_span(g, sp);
  return ok;
}

void Runtime::upload_witness(Worker& w, Staged& st, const model::Step& step, Fr* first,
                             cudaStream_t stream) {
  if (st.witness_uploaded) return;
  if (!st.have_sum[static_cast<int>(KeyVector::h)])
    throw InputError(s_.pipe.file, step.line, "kernel",
                     "real proofs: the H MSM (msm_g1) must run before '" + step.name +
                         "' (the witness overwrites H's scalars in the first buffer)");
  // Not a pipeline step: the simulator does not model this n x 32 B copy.
  Gpu& g = *w.gpu;
  DeviceSpan ws = begin_span(w, st.part.id, g.track_h2d, upload_witness_nm_, EventKind::copy,
                             stream, n_ * sizeof(Fr));
  PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(first, proofs_->witness_pinned(), n_ * sizeof(Fr),
                                      cudaMemcpyHostToDevice, stream));
  PRESTAGE_CUDA_CHECK(cudaEventRecord(ws.end, stream));
  add_span(g, ws);
  add_bytes(g.h2d_bytes, static_cast<double>(n_ * sizeof(Fr)));
  st.witness_uploaded = true;
}

template <class Curve>
bool Runtime::run_msm(Worker& w, Staged& st, const model::Step& step, cudaStream_t stream,
                      const typename Curve::Affine* d_pts, const typename Curve::Affine* h_pts,
                      std::size_t chunk, const Fr* scalars, std::size_t count,
                      typename Curve::Jacobian* sum) {
  Gpu& g = *w.gpu;
  // The MSM works inside the pipeline's largest live pool buffer (msm_scratch).
  int pb = -1;
  for (std::size_t b = 0; b < st.ptr.size(); ++b)
    if (st.held[b] && s_.pipe.buffers[b].allocator == Allocator::pool &&
        (pb < 0 || st.held[b] > st.held[static_cast<std::size_t>(pb)]))
      pb = static_cast<int>(b);
  if (inject_.should_fail("msm_workspace")) {
    oom(w, st, "msm_workspace", pb >= 0 ? st.held[static_cast<std::size_t>(pb)] : 0, w.track_host);
    return false;
  }
  if (pb < 0)
    throw InputError(s_.pipe.file, step.line, "kernel",
                     "MSM step '" + step.name +
                         "' has no pool buffer allocated before it (the MSM's workspace)");
  void* ws = st.ptr[static_cast<std::size_t>(pb)];
  const std::size_t ws_bytes = st.held[static_cast<std::size_t>(pb)];
  msm::DeviceOptions opt;
  opt.max_workspace_bytes = ws_bytes;
  std::size_t need = ws_bytes;  // B the MSM needs (the OOM event's request)
  bool ok = true;
  if (s_.key_points == model::KeyPoints::resident) {
    if (msm::device_workspace_bytes<Curve>(count, opt) > ws_bytes)
      opt = msm::least_workspace_options(opt);
    // A workspace smaller than the whole MSM needs: the MSM in the fewest pieces (a power of two,
    // at most kMaxResidentMsmPieces) whose workspace fits, their sums added on the host. Measured
    // need: the resident G2 MSM at 2^27 asks 6.94 GB, the B_G2 pipeline's msm_scratch holds 5.43
    // GB (H100, 2026-12-07, experiment 05's grid row 28).
    const model::MsmSplit split = model::split_to_fit(
        count, ws_bytes, model::kMaxResidentMsmPieces,
        [&](std::size_t points) { return msm::device_workspace_bytes<Curve>(points, opt); });
    need = split.need;
    const std::size_t pieces = split.pieces, piece = split.piece;
    if (pieces == 0) {
      ok = false;
    } else {
      auto total = Curve::Xyzz::identity().to_jacobian();
      for (std::size_t first = 0; first < count; first += piece)
        total = total.add(msm::on_device<Curve>(d_pts + first, scalars + first,
                                                std::min(piece, count - first),
                                                msm::DeviceWorkspace{ws, ws_bytes}, stream, opt));
      *sum = total;
      if (pieces > 1) {
        std::lock_guard<std::mutex> lk(acct_mu_);
        msm_pieces_[step.name] = pieces;
      }
    }
  } else {
    ArenaAllocator arena(ws, ws_bytes);
    if (chunk == 0) {
      ok = false;
    } else {
      try {
        *sum = msm::on_device_streamed<Curve>(h_pts, scalars, count, chunk, arena, stream, opt);
        add_bytes(g.h2d_bytes, static_cast<double>(count * sizeof(typename Curve::Affine)));
      } catch (const gpu::CudaError& e) {
        if (!e.out_of_memory()) throw;
        ok = false;
      }
    }
  }
  if (!ok) oom(w, st, "msm_workspace", need, w.track_host);
  return ok;
}

void Runtime::detached_check(Part p, groth16::MsmSums sums) {
  NvtxRange range("proof_check");
  const double t0 = now();
  bool good = false;
  try {
    good = proofs_->check(sums, s_.seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(p.id));
  } catch (const std::exception& e) {
    fmt::print(stderr, "run --gpu: partition {}'s proof check failed: {}\n", p.id, e.what());
  }
  {
    std::lock_guard<std::mutex> lk(acct_mu_);
    check_work_s_.push_back(now() - t0);
    ++(good ? verified_ : check_failed_);
  }
  if (!good) fmt::print(stderr, "run --gpu: partition {}'s proof FAILED the pairing check\n", p.id);
  partition_finished(p.proof);
}

void Runtime::retire(const Part& p, bool ok) {
  {
    std::lock_guard<std::mutex> lk(slots_mu_);
    free_slots_.push_back(p.slot);
  }
  slots_cv_.notify_one();
  {
    std::lock_guard<std::mutex> lk(acct_mu_);
    if (!ok) proof_lost_[static_cast<std::size_t>(p.proof)] = true;
  }
  partition_finished(p.proof);
}

void Runtime::partition_finished(int proof) {
  bool close = false;
  {
    std::lock_guard<std::mutex> lk(acct_mu_);
    if (--proof_left_[static_cast<std::size_t>(proof)] == 0 &&
        !proof_lost_[static_cast<std::size_t>(proof)])
      ++proofs_done_;
    close = --outstanding_ == 0;
  }
  if (close) ready_.close();
}

void Runtime::fail(Worker& w, Staged& st, std::uint32_t track) {
  for (std::size_t b = 0; b < st.held.size(); ++b)
    if (st.held[b]) release(w, st, static_cast<int>(b), track);
  for (auto e : st.uploaded)
    if (e) PRESTAGE_CUDA_CHECK(cudaEventSynchronize(e));
  if (st.pinned) unpin(w, st);
  {
    std::lock_guard<std::mutex> lk(w.gpu->policy_mu);
    w.gpu->policy->released(req_for(w, st.part.id), st.groups);
  }
  if (st.part.attempts < s_.max_retries) {
    {
      std::lock_guard<std::mutex> lk(acct_mu_);
      ++retried_;
    }
    Part p = st.part;
    ++p.attempts;
    ready_.push_front(p);
  } else {
    retire(st.part, false);
  }
  st.valid = false;
}

void Runtime::synthesis(int k) {
  const std::uint32_t track = trace_.track(fmt::format("host/synthesis{}", k));
  const std::uint32_t nm = trace_.name("synthesis");
  for (;;) {
    std::int64_t id = next_synth_++;
    if (id >= total_ || abort_) return;
    int slot = -1;
    {
      std::unique_lock<std::mutex> lk(slots_mu_);
      slots_cv_.wait(lk, [&] { return !free_slots_.empty() || abort_; });
      if (abort_) return;
      slot = free_slots_.back();
      free_slots_.pop_back();
    }
    double t0 = now();
    {
      NvtxRange r("synthesis");
      if (prove_) {
        // The real synthesis (the QAP evaluations), then the rest of the scenario's duration.
        const HostSlot& sl = slots_[static_cast<std::size_t>(slot)];
        const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
        proofs_->synthesize(reinterpret_cast<Fr*>(sl.inputs[0]),
                            reinterpret_cast<Fr*>(sl.inputs[1]),
                            reinterpret_cast<Fr*>(sl.inputs[2]),
                            std::max(1u, hw / static_cast<unsigned>(s_.synthesis_workers)));
        const double work = now() - t0;
        {
          std::lock_guard<std::mutex> lk(acct_mu_);
          synth_work_s_.push_back(work);
        }
        if (work < s_.synthesis_seconds)
          std::this_thread::sleep_for(std::chrono::duration<double>(s_.synthesis_seconds - work));
      } else {
        std::this_thread::sleep_for(std::chrono::duration<double>(s_.synthesis_seconds));
      }
    }
    double t1 = now();
    {
      std::lock_guard<std::mutex> lk(acct_mu_);
      synth_phase_.total_s += t1 - t0;
      ++synth_phase_.count;
    }
    ev_id(t0, t1, track, nm, EventKind::cpu, nullptr, id, static_cast<std::uint64_t>(input_total_));
    ready_.push(Part{id, static_cast<int>(id / s_.partitions), 0, slot});
  }
}

void Runtime::stager(Worker& w) {
  PRESTAGE_CUDA_CHECK(cudaSetDevice(w.gpu->id));
  if (double d = s_.start_delay(w.index); d > 0)
    std::this_thread::sleep_for(std::chrono::duration<double>(d));
  model::Policy& pol = *w.gpu->policy;
  const bool prestage = pol.prestages();
  const model::PinMode pin = pol.pinning();
  const std::size_t nb = s_.pipe.buffers.size();
  for (;;) {
    Part p;
    if (abort_ || !ready_.pop(p)) break;
    Staged st;
    st.part = p;
    st.valid = true;
    st.ptr.assign(nb, nullptr);
    st.held.assign(nb, 0);
    st.on.assign(nb, nullptr);
    st.cursor.assign(nb, 0);
    st.input_ptr.assign(s_.pipe.inputs.size(), nullptr);
    st.uploaded.assign(s_.pipe.groups.size(), nullptr);
    bool failed = false;
    if (pin == model::PinMode::register_per_partition && (prestage || !s_.pipe.has_pin_step)) {
      bool ok = true;
      pin_inputs(w, st, w.track_stager, &ok);
      failed = !ok;
    }
    if (prestage && !failed) {
      int groups = decide(w, Call::place, p.id, 0);
      groups = std::clamp(groups, 0, static_cast<int>(s_.pipe.groups.size()));
      int placed = 0;
      while (placed < groups) {
        const auto& grp = s_.pipe.groups[static_cast<std::size_t>(placed)];
        if (alloc(w, st, grp.buffer, w.copy, w.track_stager, "stage_" + grp.name)) {
          ++placed;
          continue;
        }
        int keep = decide(w, Call::failure, p.id, groups);
        if (keep < 0) {
          failed = true;
          break;
        }
        keep = std::min(keep, placed);
        for (int g = keep; g < placed; ++g)
          release(w, st, s_.pipe.groups[static_cast<std::size_t>(g)].buffer, w.track_stager);
        placed = groups = keep;
      }
      st.groups = failed ? placed : groups;
      if (!failed) {
        for (int g = 0; g < st.groups; ++g) {
          const auto& grp = s_.pipe.groups[static_cast<std::size_t>(g)];
          NvtxRange r("staged_uploads_" + grp.name);
          DeviceSpan sp;
          sp.start = take_event(*w.gpu);
          PRESTAGE_CUDA_CHECK(cudaEventRecord(sp.start, w.copy));
          std::uint64_t bytes = 0;
          for (int in : grp.uploads) {
            copy_h2d(w, st, in, grp.buffer, w.copy, stage_upload_nm_[static_cast<std::size_t>(in)],
                     w.track_copy);
            bytes += static_cast<std::uint64_t>(s_.input_bytes[static_cast<std::size_t>(in)]);
          }
          sp.end = take_event(*w.gpu);
          PRESTAGE_CUDA_CHECK(cudaEventRecord(sp.end, w.copy));
          st.uploaded[static_cast<std::size_t>(g)] = sp.end;
          sp.track = w.track_copy;
          sp.name = staged_uploads_nm_[static_cast<std::size_t>(g)];
          sp.kind = EventKind::copy;
          sp.gpu = w.gpu->id;
          sp.worker = w.index;
          sp.partition = p.id;
          sp.bytes = bytes;
          add_span(*w.gpu, sp);
        }
      }
    }
    if (failed) {
      st.groups = 0;
      fail(w, st, w.track_stager);
      continue;
    }
    std::unique_lock<std::mutex> lk(w.hand_mu);
    w.slot = std::move(st);
    w.slot_full = true;
    w.hand_cv.notify_all();
    w.hand_cv.wait(lk, [&] { return !w.slot_full || w.taken_closed; });
    if (w.taken_closed) break;
  }
  std::lock_guard<std::mutex> lk(w.hand_mu);
  w.slot_closed = true;
  w.hand_cv.notify_all();
}

void Runtime::executor(Worker& w) {
  PRESTAGE_CUDA_CHECK(cudaSetDevice(w.gpu->id));
  if (double d = s_.start_delay(w.index); d > 0)
    std::this_thread::sleep_for(std::chrono::duration<double>(d));
  Gpu& g = *w.gpu;
  for (;;) {
    Staged st;
    {
      std::unique_lock<std::mutex> lk(w.hand_mu);
      w.hand_cv.wait(lk, [&] { return w.slot_full || w.slot_closed; });
      if (!w.slot_full) break;
      st = std::move(w.slot);
      w.slot = Staged{};
      w.slot_full = false;
      w.hand_cv.notify_all();
    }
    bool locked = false, ok = true;
    double t_part = now();
    NvtxRange part_range("partition");  // the partition's steps nest inside it
    // What the other workers' policies see of this lock holder (GpuView::lock_holder()).
    auto publish = [&](std::size_t step) {
      std::lock_guard<std::mutex> lk(g.holder_mu);
      g.holder_worker = w.index;
      g.holder_part = st.part.id;
      g.holder_step = step;
      g.holder_held = st.held;
      g.holder_groups = st.groups;
    };
    auto unpublish = [&] {
      std::lock_guard<std::mutex> lk(g.holder_mu);
      g.holder_worker = -1;
    };
    for (std::size_t i = 0; i < s_.pipe.steps.size() && ok && !abort_; ++i) {
      const model::Step& step = s_.pipe.steps[i];
      const std::uint32_t nm = step_names_[i];
      // Named as the step's event: an upload of a pre-staged group is its wait.
      const bool staged_upload = step.op == StepOp::upload &&
                                 s_.buffer_group[static_cast<std::size_t>(step.buffer)] >= 0 &&
                                 s_.buffer_group[static_cast<std::size_t>(step.buffer)] < st.groups;
      NvtxRange range(step.op == StepOp::alloc
                          ? "alloc_" + s_.pipe.buffers[static_cast<std::size_t>(step.buffer)].name
                      : step.op == StepOp::free
                          ? "free_" + s_.pipe.buffers[static_cast<std::size_t>(step.buffer)].name
                      : step.op == StepOp::lock   ? std::string("lock")
                      : step.op == StepOp::unlock ? std::string()  // no event, no range
                      : staged_upload             ? "wait_staged_" + step.name
                                                  : step.name);
      double t0 = now();
      if (locked) publish(i);
      switch (step.op) {
        case StepOp::lock:
          g.lock.lock();
          locked = true;
          publish(i);
          w.stat.lock_wait_s += now() - t0;
          ev_id(t0, now(), w.track_host, nm, EventKind::lock_wait, &w, st.part.id, 0);
          break;
        case StepOp::unlock:
          unpublish();
          g.lock.unlock();
          locked = false;
          break;
        case StepOp::alloc: {
          int grp = s_.buffer_group[static_cast<std::size_t>(step.buffer)];
          if (grp >= 0 && grp < st.groups) break;  // pre-staged
          ok = alloc(w, st, step.buffer, w.compute, w.track_host, step.name);
          break;
        }
        case StepOp::free:
          release(w, st, step.buffer, w.track_host);
          break;
        case StepOp::upload: {
          int grp = s_.buffer_group[static_cast<std::size_t>(step.buffer)];
          st.current_input = step.input;
          if (grp >= 0 && grp < st.groups) {
            PRESTAGE_CUDA_CHECK(cudaEventSynchronize(st.uploaded[static_cast<std::size_t>(grp)]));
            ev_id(t0, now(), w.track_host, wait_staged_nm_[i], EventKind::copy, &w, st.part.id, 0);
            phase(wait_phase_[i], now() - t0);
          } else {
            copy_h2d(w, st, step.input, step.buffer, w.compute, nm, w.track_host);
            PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(w.compute));
            ev_id(t0, now(), w.track_host, nm, EventKind::copy, &w, st.part.id,
                  static_cast<std::uint64_t>(s_.input_bytes[static_cast<std::size_t>(step.input)]));
            phase(step_phase_[i], now() - t0);
          }
          break;
        }
        case StepOp::download: {
          const auto bytes = static_cast<std::size_t>(s_.step_seconds[i]);
          if (bytes > kDownloadBytes)
            throw InputError(
                s_.pipe.file, step.line, "bytes",
                fmt::format("the GPU runtime downloads at most {} B a step", kDownloadBytes));
          if (bytes) {
            DeviceSpan sp =
                begin_span(w, st.part.id, g.track_d2h, nm, EventKind::copy, w.compute, bytes);
            PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(w.h_download, w.d_download, bytes,
                                                cudaMemcpyDeviceToHost, w.compute));
            PRESTAGE_CUDA_CHECK(cudaEventRecord(sp.end, w.compute));
            PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(w.compute));
            add_span(g, sp);
            add_bytes(g.d2h_bytes, static_cast<double>(bytes));
          }
          phase(step_phase_[i], now() - t0);
          break;
        }
        case StepOp::kernel:
          ok = run_kernel(w, st, i, nm);
          ev_id(t0, now(), w.track_host, nm, EventKind::compute, &w, st.part.id, 0);
          phase(step_phase_[i], now() - t0);
          break;
        case StepOp::pin:
          if (g.policy->pinning() == model::PinMode::register_per_partition && !st.pinned) {
            pin_inputs(w, st, w.track_host, &ok);
          }
          break;
        case StepOp::unpin:
          if (st.pinned) unpin(w, st);
          break;
        case StepOp::sync:
          // A pipeline's explicit host synchronisation, as the simulator models it.
          if (step.scope == model::SyncScope::device)
            device_sync(w, st.part.id, "sync_device", w.track_host);
          else
            stream_sync(w, st.part.id,
                        step.scope == model::SyncScope::event ? SyncKind::event : SyncKind::stream,
                        w.track_host);
          phase(step_phase_[i], now() - t0);
          break;
        case StepOp::cpu: {
          double d = s_.step_seconds[i];
          if (step.detach) {
            {
              std::lock_guard<std::mutex> lk(acct_mu_);
              ++proof_left_[static_cast<std::size_t>(st.part.proof)];
              ++outstanding_;
              if (prove_ && step.kernel == "msm_g2_cpu") pending_sums_[st.part.id] = st.sums;
            }
            std::lock_guard<std::mutex> lk(cpu_threads_mu_);
            cpu_threads_.emplace_back(
                [this, &w, p = st.part, nm, d, i] { detached_cpu(w, p, nm, d, i); });
          } else {
            std::this_thread::sleep_for(std::chrono::duration<double>(d));
            ev_id(t0, now(), w.track_host, nm, EventKind::cpu, &w, st.part.id, 0);
            phase(step_phase_[i], d);
          }
          break;
        }
      }
    }
    if (locked) unpublish();
    if (!ok) {
      if (locked) g.lock.unlock();
      fail(w, st, w.track_host);
      continue;
    }
    if (locked) g.lock.unlock();  // a pipeline without unlock: released at its end
    if (g.policy->prestages()) decide(w, Call::after, st.part.id, 0);
    if (st.pinned) unpin(w, st);
    {
      std::lock_guard<std::mutex> lk(g.policy_mu);
      g.policy->released(req_for(w, st.part.id), st.groups);
    }
    ++w.stat.partitions_done;
    {
      std::lock_guard<std::mutex> lk(acct_mu_);
      ++done_;
    }
    ev(t_part, w.track_host, "partition", EventKind::partition, &w, st.part.id, 0);
    if (prove_ && st.have_b2) {
      {
        std::lock_guard<std::mutex> lk(acct_mu_);
        ++proof_left_[static_cast<std::size_t>(st.part.proof)];
        ++outstanding_;
      }
      std::lock_guard<std::mutex> lk(cpu_threads_mu_);
      cpu_threads_.emplace_back([this, p = st.part, sums = st.sums] { detached_check(p, sums); });
    }
    if (o_.progress)
      fmt::print(stderr, "gpu{} w{}: partition {} done at {:.3f} s\n", g.id, w.index, st.part.id,
                 now());
    retire(st.part, true);
  }
  std::lock_guard<std::mutex> lk(w.hand_mu);
  w.taken_closed = true;
  w.hand_cv.notify_all();
}

void Runtime::detached_cpu(Worker& w, Part p, std::uint32_t nm, double d, std::size_t step) {
  cpus_->acquire();
  NvtxRange range(s_.pipe.steps[step].name);  // the step's event; B_G2 and the check nest in it
  double t0 = now();
  if (prove_ && s_.pipe.steps[step].kernel == "msm_g2_cpu") {
    // B_G2 on the host, then the proof assembled and checked; then the rest of the duration.
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    // The executor stored the partition's G1 sums before it launched this step; none (a
    // pipeline whose later steps failed and retried the partition) is a failed check, not a
    // crash of this unguarded thread.
    groth16::MsmSums sums;
    bool have = false;
    {
      std::lock_guard<std::mutex> lk(acct_mu_);
      if (auto it = pending_sums_.find(p.id); it != pending_sums_.end()) {
        sums = it->second;
        pending_sums_.erase(it);
        have = true;
      }
    }
    double t_b2 = t0;
    bool good = false;
    try {
      {
        NvtxRange r("msm_b_g2_host");
        sums.b2 = proofs_->msm_b2(std::max(1u, hw / static_cast<unsigned>(s_.cpu_workers)));
      }
      t_b2 = now();
      if (have) {
        NvtxRange r("proof_check");
        good = proofs_->check(sums,
                              s_.seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(p.id));
      }
    } catch (const std::exception& e) {
      fmt::print(stderr, "run --gpu: partition {}'s B_G2 or proof check failed: {}\n", p.id,
                 e.what());
    }
    const double t_check = now();
    {
      std::lock_guard<std::mutex> lk(acct_mu_);
      b2_work_s_.push_back(t_b2 - t0);
      check_work_s_.push_back(t_check - t_b2);
      ++(good ? verified_ : check_failed_);
    }
    if (!good)
      fmt::print(stderr, "run --gpu: partition {}'s proof FAILED the pairing check\n", p.id);
    if (t_check - t0 < d)
      std::this_thread::sleep_for(std::chrono::duration<double>(d - (t_check - t0)));
  } else {
    std::this_thread::sleep_for(std::chrono::duration<double>(d));
  }
  cpus_->release();
  phase(step_phase_[step], now() - t0);
  ev_id(t0, now(), cpu_track_, nm, EventKind::cpu, &w, p.id, 0);
  partition_finished(p.proof);
}

model::RunResult Runtime::finish(double makespan) {
  model::RunResult r;
  // Device spans -> host time, through each GPU's reference event.
  std::vector<double> busy(gpus_.size(), 0.0);
  for (std::size_t gi = 0; gi < gpus_.size(); ++gi) {
    Gpu& g = *gpus_[gi];
    PRESTAGE_CUDA_CHECK(cudaSetDevice(g.id));
    PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
    for (const auto& sp : g.spans) {
      float a = 0, b = 0;
      PRESTAGE_CUDA_CHECK(cudaEventElapsedTime(&a, g.ref, sp.start));
      PRESTAGE_CUDA_CHECK(cudaEventElapsedTime(&b, g.ref, sp.end));
      double t0 = g.ref_host + a / 1e3, t1 = g.ref_host + b / 1e3;
      model::TraceEvent e;
      e.t_start = t0;
      e.t_end = t1;
      e.track = sp.track;
      e.name = sp.name;
      e.kind = sp.kind;
      e.partition = sp.partition;
      e.bytes = sp.bytes;
      e.gpu = static_cast<std::int16_t>(sp.gpu);
      e.worker = static_cast<std::int16_t>(sp.worker);
      trace_.add(e);
      if (sp.compute) busy[gi] += t1 - t0;
    }
  }
  model::Summary& m = r.summary;
  model::fill_common(m, s_, proofs_done_, makespan, step_phase_, wait_phase_, synth_phase_);
  for (std::size_t gi = 0; gi < gpus_.size(); ++gi) {
    Gpu& g = *gpus_[gi];
    double T = makespan > 0 ? makespan : 1;
    m.gpu_busy_share.push_back(busy[gi] / T);
    m.h2d_utilisation.push_back(g.h2d_bytes.load() / (T * s_.cal.h2d.aggregate));
    m.d2h_utilisation.push_back(g.d2h_bytes.load() / (T * s_.cal.d2h.aggregate));
    m.peak_used.push_back(g.peak_used);
    m.peak_reserved.push_back(g.peak_reserved);
  }
  m.ooms = ooms_;
  std::sort(m.ooms.begin(), m.ooms.end(),
            [](const model::OomEvent& a, const model::OomEvent& b) { return a.t < b.t; });
  m.partitions_total = total_;
  m.partitions_done = done_;
  m.partitions_lost = total_ - done_;
  m.partitions_retried = retried_;
  if (prove_) {
    m.partitions_verified = verified_;
    m.partitions_check_failed = check_failed_;
  }
  for (auto& g : gpus_)
    for (auto& w : g->workers) m.workers.push_back(w->stat);
  if (pinned_pool_) {
    m.pinned_pool_bytes = input_total_ * s_.host_slots;
    m.pinned_pool_setup_s = pinned_pool_s_;
  }
  r.trace = trace_.take();
  m.engine_events = r.trace.events().size();
  return r;
}

model::RunResult Runtime::run(nlohmann::json* manifest) {
  n_ = std::size_t{1} << s_.log2_n;
  input_total_ = 0;
  for (double b : s_.input_bytes) input_total_ += b;
  if (o_.proofs == ProofMode::verified && o_.kernels != KernelMode::real)
    throw InputError("--proofs", 0, "verified", "real proofs need --kernels real");
  prove_ = o_.kernels == KernelMode::real &&
           (o_.proofs == ProofMode::verified ||
            (o_.proofs == ProofMode::automatic && s_.log2_n <= kAutoVerifiedMaxLog2));
  if (!prove_ && o_.kernels == KernelMode::real && o_.proofs == ProofMode::automatic)
    fmt::print(stderr,
               "run --gpu: proofs are stand-ins at 2^{} (real proofs are automatic up to 2^{}: "
               "above, the key takes n x 680 B of host memory and the real synthesis is the "
               "host's work, not the scenario's timed wait); --proofs verified makes them real\n",
               s_.log2_n, kAutoVerifiedMaxLog2);
  check_runnable();
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  (void)cudaGetLastError();
  if (count < s_.gpus)
    throw UnavailableError(
        fmt::format("run --gpu: the scenario needs {} CUDA device(s), this "
                    "machine has {}",
                    s_.gpus, count));
  for (std::size_t b = 0; b < s_.pipe.buffers.size(); ++b)
    if (s_.pipe.buffers[b].allocator == Allocator::pool)
      pool_buffer_max_ = std::max(pool_buffer_max_, static_cast<std::size_t>(s_.buffer_bytes[b]));
  setup_host();
  if (prove_) {
    proofs_ = std::make_unique<PartitionProofs>(static_cast<unsigned>(s_.log2_n), s_.seed, 0);
    zinv_ = proofs_->z_inverse(ntt::fr_roots().shift);
    fmt::print(stderr,
               "run --gpu: real proofs at 2^{}: circuit, witness and key setup took {:.1f} s "
               "(the witness {:.1f} s, the key's scalars on the host and points on the GPU "
               "{:.1f} s)\n",
               s_.log2_n, proofs_->setup_seconds(), proofs_->witness_seconds(),
               proofs_->setup_seconds() - proofs_->witness_seconds());
  }
  for (const auto& st : s_.pipe.steps) {
    step_names_.push_back(trace_.name(st.name));
    wait_staged_nm_.push_back(trace_.name("wait_staged_" + st.name));
  }
  for (const auto& in : s_.pipe.inputs)
    stage_upload_nm_.push_back(trace_.name("stage_upload_" + in.name));
  for (const auto& g : s_.pipe.groups)
    staged_uploads_nm_.push_back(trace_.name("staged_uploads_" + g.name));
  cpu_track_ = trace_.track("host/cpu");
  upload_witness_nm_ = trace_.name("upload_witness");
  step_phase_.assign(s_.pipe.steps.size(), model::PhaseStat{});
  wait_phase_.assign(s_.pipe.steps.size(), model::PhaseStat{});
  for (int g = 0; g < s_.gpus; ++g) {
    gpus_.push_back(std::make_unique<Gpu>());
    gpus_.back()->id = g;
    setup_gpu(*gpus_.back());
  }
  // The key points streamed from pinned host memory, and the chunk the pool buffer can hold.
  if (o_.kernels == KernelMode::real && s_.key_points == model::KeyPoints::streamed) {
    PRESTAGE_CUDA_CHECK(cudaSetDevice(0));
    if (prove_) {
      // The key's own G1 vectors, pinned where they are (portable: every GPU streams them).
      for (int v = 0; v < kKeyVectors; ++v) {
        const auto pts = proofs_->points(static_cast<KeyVector>(v));
        PRESTAGE_CUDA_CHECK(cudaHostRegister(const_cast<ec::G1Affine*>(pts.data()),
                                             pts.size_bytes(), cudaHostRegisterPortable));
      }
      key_registered_ = true;
    } else {
      h_points_ = pinned_stand_in_points<ec::G1Affine, ec::G1Jacobian>(n_, 0x5eed);
    }
    if (b2_on_gpu_) {
      if (prove_) {
        const auto pts = proofs_->points_b2();
        PRESTAGE_CUDA_CHECK(cudaHostRegister(const_cast<ec::G2Affine*>(pts.data()),
                                             pts.size_bytes(), cudaHostRegisterPortable));
      } else {
        h_points_g2_ = pinned_stand_in_points<ec::G2Affine, ec::G2Jacobian>(n_, 0x5eed2);
      }
    }
    chunk_points_ = streamed_chunk<G1>(n_, pool_buffer_max_);
    if (chunk_points_ == 0)
      notes_.push_back("no streamed MSM chunk fits the pipeline's pool buffer: every MSM fails");
    if (b2_on_gpu_) {
      chunk_points_g2_ = streamed_chunk<G2>(n_, pool_buffer_max_);
      if (chunk_points_g2_ == 0)
        notes_.push_back(
            "no streamed G2 MSM chunk fits the pipeline's pool buffer: every B_G2 MSM fails");
    }
  }
  std::counting_semaphore<1024> cpus(std::clamp(s_.cpu_workers, 1, 1024));
  cpus_ = &cpus;
  total_ = static_cast<std::int64_t>(s_.proofs) * s_.partitions;
  outstanding_ = total_;
  proof_left_.assign(static_cast<std::size_t>(s_.proofs), s_.partitions);
  proof_lost_.assign(static_cast<std::size_t>(s_.proofs), false);
  // t = 0: every GPU's clock reference, then the threads.
  t0_ = Clock::now();
  for (auto& g : gpus_) {
    PRESTAGE_CUDA_CHECK(cudaSetDevice(g->id));
    PRESTAGE_CUDA_CHECK(cudaEventCreate(&g->ref));
    PRESTAGE_CUDA_CHECK(cudaEventRecord(g->ref, nullptr));
    PRESTAGE_CUDA_CHECK(cudaEventSynchronize(g->ref));
    g->ref_host = now();
    PRESTAGE_CUDA_CHECK(cudaMemPoolTrimTo(g->pool, 0));
    mem_sample(*g);
  }
  std::vector<std::thread> threads;
  std::mutex err_mu;
  std::exception_ptr err;
  auto guarded = [&](auto fn) {
    return [&, fn] {
      try {
        fn();
      } catch (...) {
        {
          std::lock_guard<std::mutex> lk(err_mu);
          if (!err) err = std::current_exception();
        }
        abort_ = true;
        ready_.close();
        slots_cv_.notify_all();
        for (auto& g : gpus_)
          for (auto& w : g->workers) {
            std::lock_guard<std::mutex> lk(w->hand_mu);
            w->slot_closed = w->taken_closed = true;
            w->hand_cv.notify_all();
          }
      }
    };
  };
  for (int k = 0; k < s_.synthesis_workers; ++k)
    threads.emplace_back(guarded([this, k] { synthesis(k); }));
  for (auto& g : gpus_)
    for (auto& w : g->workers) {
      Worker* wp = w.get();
      threads.emplace_back(guarded([this, wp] { stager(*wp); }));
      threads.emplace_back(guarded([this, wp] { executor(*wp); }));
    }
  for (auto& t : threads) t.join();
  for (;;) {
    std::vector<std::thread> ts;
    {
      std::lock_guard<std::mutex> lk(cpu_threads_mu_);
      ts.swap(cpu_threads_);
    }
    if (ts.empty()) break;
    for (auto& t : ts) t.join();
  }
  const double makespan = now();
  if (err) std::rethrow_exception(err);
  model::RunResult r = finish(makespan);
  if (manifest) {
    nlohmann::json gj = nlohmann::json::array();
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    for (auto& g : gpus_)
      gj.push_back({{"id", g->id},
                    {"name", g->name},
                    {"ballast_B", g->ballast ? g->ballast->held_bytes() : 0},
                    {"resident_B", g->resident_bytes}});
    auto median = [](const std::vector<double>& v) { return v.empty() ? 0.0 : model::median(v); };
    auto maxof = [](const std::vector<double>& v) {
      return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
    };
    double b2_bound = 0;
    for (std::size_t i = 0; i < s_.pipe.steps.size(); ++i)
      if (s_.pipe.steps[i].kernel == "msm_g2_cpu") b2_bound = s_.step_seconds[i];
    if (prove_) {
      notes_.insert(
          notes_.begin(),
          {fmt::format("partitions: Groth16 proofs of the PoRep-shaped synthetic circuit at 2^{} "
                       "(n wires, 1 public input), key from a seeded setup (textbook reduction; "
                       "scalars on the host, points on the GPU) that took {:.1f} s with the "
                       "witness; every partition proves the same witness, "
                       "blinded per partition",
                       s_.log2_n, proofs_->setup_seconds()),
           fmt::format("proofs checked on the host (pairing check): {} passed, {} failed, of {} "
                       "partitions done",
                       verified_, check_failed_, done_),
           fmt::format("synthesis: the QAP evaluations per partition (median {:.3f} s, max {:.3f} "
                       "s of host work), then a wait up to host.synthesis_seconds ({:.3f} s){}",
                       median(synth_work_s_), maxof(synth_work_s_), s_.synthesis_seconds,
                       maxof(synth_work_s_) > s_.synthesis_seconds
                           ? ": the work took longer than the scenario says"
                           : ""),
           fmt::format("B_G2: the host MSM over n G2 points per partition (median {:.3f} s, max "
                       "{:.3f} s) and the proof check (median {:.4f} s), then a wait up to the "
                       "step's bound duration ({:.3f} s){}",
                       median(b2_work_s_), maxof(b2_work_s_), median(check_work_s_), b2_bound,
                       maxof(b2_work_s_) + maxof(check_work_s_) > b2_bound
                           ? ": the work took longer than the scenario says"
                           : ""),
           "the witness upload (upload_witness, n x 32 B before the first PoRep MSM) is not a "
           "pipeline step: the simulator does not model it",
           fmt::format("key: the proving key's own H, C (L), A, B1 vectors, {}",
                       s_.key_points == model::KeyPoints::resident
                           ? "resident on the device"
                           : "cudaHostRegister'd where they are and streamed")});
    } else {
      notes_.insert(notes_.begin(),
                    {"synthesis: a timed wait of host.synthesis_seconds over host slots filled "
                     "once with random field elements",
                     "detached cpu steps (B_G2 on the CPU): timed waits of their bound duration",
                     "L, A, B_G1 MSMs: PoRep-shaped scalars written into the first buffer by a "
                     "fill kernel (the pipeline uploads no witness)",
                     "key: one set of n G1 points (2^18 random points repeated) for the four G1 "
                     "MSMs",
                     "no proof is assembled or verified (--proofs stand-in, or automatic above "
                     "2^" +
                         std::to_string(kAutoVerifiedMaxLog2) + ")"});
    }
    (*manifest)["runtime"] = {
        {"driver", "gpu"},
        {"kernels", o_.kernels == KernelMode::real ? "real" : "spin"},
        {"proofs", prove_ ? "verified" : "stand-in"},
        {"key_setup_s", prove_ ? nlohmann::json(proofs_->setup_seconds()) : nlohmann::json()},
        {"key_points", s_.key_points == model::KeyPoints::resident ? "resident" : "streamed"},
        {"memory_samples", s_.memory_samples == model::MemorySamples::pool ? "pool" : "driver"},
        {"msm_stream_chunk_points", chunk_points_},
        {"host_slots_B", input_total_ * s_.host_slots},
        {"cuda_driver_version", driver},
        {"cuda_runtime_version", runtime},
        {"gpus", gj},
        {"oom_injections",
         [&] {
           nlohmann::json a = nlohmann::json::array();
           for (const auto& i : o_.inject) a.push_back(fmt::format("{}:{}", i.site, i.nth));
           return a;
         }()},
        {"allocation_attempts", inject_.counts()},
        {"resident_msm_pieces", msm_pieces_},
        {"notes", notes_}};
  }
  release_resources(true);
  return r;
}

void Runtime::release_resources(bool check) {
  const auto ok = [check](cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    if (check) throw gpu::CudaError(e, what, __FILE__, __LINE__);
    (void)cudaGetLastError();  // on the way out of another error: keep that one
  };
  for (auto& g : gpus_) {
    ok(cudaSetDevice(g->id), "cudaSetDevice");
    for (auto e : g->event_pool) ok(cudaEventDestroy(e), "cudaEventDestroy");
    g->event_pool.clear();
    if (g->ref) ok(cudaEventDestroy(g->ref), "cudaEventDestroy");
    g->ref = nullptr;
    for (auto& w : g->workers) {
      ok(cudaFree(w->d_download), "cudaFree");
      ok(cudaFreeHost(w->h_download), "cudaFreeHost");
      if (w->compute) ok(cudaStreamDestroy(w->compute), "cudaStreamDestroy");
      if (w->copy) ok(cudaStreamDestroy(w->copy), "cudaStreamDestroy");
    }
    g->workers.clear();
    ok(cudaFree(g->d_points), "cudaFree");
    g->d_points = nullptr;
    for (auto*& k : g->d_key) {
      ok(cudaFree(k), "cudaFree");
      k = nullptr;
    }
    ok(cudaFree(g->d_g2), "cudaFree");
    g->d_g2 = nullptr;
    ok(cudaFree(g->resident_stand_in), "cudaFree");
    g->resident_stand_in = nullptr;
    g->ballast.reset();
    g->shift.reset();
    g->domain.reset();
    if (g->pool) ok(cudaMemPoolTrimTo(g->pool, 0), "cudaMemPoolTrimTo");
  }
  ok(cudaFreeHost(h_points_), "cudaFreeHost");
  h_points_ = nullptr;
  ok(cudaFreeHost(h_points_g2_), "cudaFreeHost");
  h_points_g2_ = nullptr;
  if (key_registered_) {
    for (int v = 0; v < kKeyVectors; ++v)
      ok(cudaHostUnregister(
             const_cast<ec::G1Affine*>(proofs_->points(static_cast<KeyVector>(v)).data())),
         "cudaHostUnregister");
    if (b2_on_gpu_)
      ok(cudaHostUnregister(const_cast<ec::G2Affine*>(proofs_->points_b2().data())),
         "cudaHostUnregister");
    key_registered_ = false;
  }
  for (auto& sl : slots_)
    for (char*& p : sl.inputs) {
      if (pinned_pool_)
        ok(cudaFreeHost(p), "cudaFreeHost");
      else
        std::free(p);
      p = nullptr;
    }
}

}  // namespace

OomInjection parse_oom_injection(const std::string& text) {
  auto c = text.rfind(':');
  OomInjection o;
  if (c == std::string::npos || c == 0 || c + 1 == text.size())
    throw InputError("--inject-oom", 0, text, "expected SITE:NTH (e.g. alloc_d_a:2)");
  o.site = text.substr(0, c);
  try {
    std::size_t used = 0;
    o.nth = std::stoi(text.substr(c + 1), &used);
    if (used != text.size() - c - 1 || o.nth < 1) throw std::invalid_argument("nth");
  } catch (const std::exception&) {
    throw InputError("--inject-oom", 0, text, "NTH must be an integer >= 1");
  }
  return o;
}

std::vector<std::string> oom_sites(const model::Scenario& s) {
  std::vector<std::string> v;
  for (const auto& b : s.pipe.buffers) v.push_back("alloc_" + b.name);
  v.push_back("register");
  v.push_back("msm_workspace");
  return v;
}

bool cuda_devices_available(int count, std::string* why) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    if (why) *why = cudaGetErrorString(e);
    return false;
  }
  if (n < count) {
    if (why) *why = fmt::format("{} CUDA device(s), {} needed", n, count);
    return false;
  }
  return true;
}

model::RunResult run_on_gpu(const model::Scenario& s, const GpuRunOptions& options,
                            nlohmann::json* manifest) {
  const auto sites = oom_sites(s);
  for (const auto& i : options.inject)
    if (std::find(sites.begin(), sites.end(), i.site) == sites.end()) {
      std::string list;
      for (const auto& x : sites) list += (list.empty() ? "" : ", ") + x;
      throw InputError("--inject-oom", 0, i.site, "unknown site (sites: " + list + ")");
    }
  Runtime rt(s, options);
  return rt.run(manifest);
}

}  // namespace prestage::staging
