// Probe section msm_streaming: the G1 MSM with its points streamed from pinned host memory
// (msm::on_device_streamed, as supraseal-c2 streams the key and as the staging runtime runs a
// scenario with workload.key_points: streamed), beside the same MSM with its points resident.
// Per size and scalar shape: the streamed MSM's time, the H2D bytes it moves (n x 104 B), and the
// resident MSM's time in the same workspace. The workspace is the default pipeline's msm_scratch
// (40.5 B a point, data/pipelines/supraseal_c2.yaml), and the chunk is the largest power of two
// whose two point buffers and one chunk's MSM fit in it, as gpu/staging/runtime.cpp picks it.
// The staging runtime's first measured two-worker runs at 2^27 (data/validation, e03) spent
// 1.32 s in the streamed H MSM and 0.28 s in each PoRep MSM, against 0.85 s and 0.09 s resident.
#include <cuda_runtime.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/sample_points.hpp"
#include "gpu/msm/gpu_msm.hpp"
#ifdef PRESTAGE_PROBE_HAS_NTT
#include "gpu/ntt/domain.hpp"
#endif
#include "gpu/ntt/gpu_ntt.hpp"
#include "gpu/probe/cuda_util.hpp"
#include "gpu/probe/probes.hpp"
#include "gpu/probe/stats.hpp"
#include "gpu/runtime/memory.hpp"
#include "gpu/staging/staging_kernels.hpp"

namespace prestage::probe {
namespace {

using G1 = msm::G1Curve;
constexpr double kWorkspacePerPoint = 81.0 / 2.0;  // B, supraseal_c2.yaml's msm_scratch
constexpr double kWorkspacePerPointN24 = 68.0;     // B, supraseal_c2_n24.yaml's msm_scratch (2^24)
constexpr std::size_t kBasePoints = std::size_t{1} << 18;  // distinct points, repeated

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// The streamed MSM's options in a workspace of `ws` B with chunks of `chunk` points, as the
// staging runtime sets them: the two point buffers come out of the workspace, the MSM gets the
// rest.
template <class Curve = G1>
msm::DeviceOptions streamed_options(std::size_t ws, std::size_t chunk) {
  msm::DeviceOptions opt;
  const std::size_t points = 2 * chunk * sizeof(typename Curve::Affine);
  opt.max_workspace_bytes = ws > points ? ws - points : 1;
  return opt;
}

// The streamed MSM's chunk for a workspace of `ws` B (0 when none fits).
template <class Curve = G1>
std::size_t chunk_for(std::size_t n, std::size_t ws) {
  for (std::size_t c = n; c >= 1024; c /= 2)
    if (msm::device_streamed_workspace_bytes<Curve>(n, c, streamed_options<Curve>(ws, c)) + 4096 <=
        ws)
      return c;
  return 0;
}

// Median (s) of `reps` timed calls of fn on `stream` (CUDA events), after one untimed call.
template <class F>
double median_events(cudaStream_t stream, int reps, F fn, std::vector<double>* samples) {
  fn();
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "cudaEventCreate");
  check(cudaEventCreate(&b), "cudaEventCreate");
  for (int r = 0; r < reps; ++r) {
    check(cudaEventRecord(a, stream), "cudaEventRecord");
    fn();
    check(cudaEventRecord(b, stream), "cudaEventRecord");
    check(cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    samples->push_back(ms / 1e3);
  }
  check(cudaEventDestroy(a), "cudaEventDestroy");
  check(cudaEventDestroy(b), "cudaEventDestroy");
  return median(*samples);
}

// One size's MSM buffers, freed on scope exit: the key points pinned on the host (`base`
// repeated to n) and copied to the device, the device scalars (n x 32 B) and the MSM workspace.
template <class Affine>
struct MsmBuffers {
  Affine* h_points = nullptr;  // n x sizeof(Affine), pinned
  void *d_points = nullptr, *d_scalars = nullptr, *d_ws = nullptr;
  MsmBuffers(const std::vector<Affine>& base, std::size_t n, std::size_t ws_bytes) {
    try {
      check(cudaMallocHost(&h_points, n * sizeof(Affine)), "cudaMallocHost points");
      for (std::size_t at = 0; at < n; at += base.size())
        std::copy_n(base.data(), std::min(base.size(), n - at), h_points + at);
      check(cudaMalloc(&d_points, n * sizeof(Affine)), "cudaMalloc points");
      check(cudaMalloc(&d_scalars, n * sizeof(ff::Fr)), "cudaMalloc scalars");
      check(cudaMalloc(&d_ws, ws_bytes), "cudaMalloc workspace");
      check(cudaMemcpy(d_points, h_points, n * sizeof(Affine), cudaMemcpyHostToDevice),
            "cudaMemcpy points");
    } catch (...) {
      release();
      throw;
    }
  }
  ~MsmBuffers() { release(); }
  MsmBuffers(const MsmBuffers&) = delete;
  MsmBuffers& operator=(const MsmBuffers&) = delete;
  const Affine* device_points() const { return static_cast<const Affine*>(d_points); }
  ff::Fr* scalars() const { return static_cast<ff::Fr*>(d_scalars); }

 private:
  void release() {
    (void)cudaFree(d_ws);
    (void)cudaFree(d_scalars);
    (void)cudaFree(d_points);
    (void)cudaFreeHost(h_points);
  }
};

// One MSM of n points timed both ways in a workspace `ws` of `ws_bytes` B, with the runtime's
// options: streamed from the pinned `h_points` in chunks of `chunk` points, and resident from
// `d_points` (XYZZ with scalars read per window when the default does not fit, as the runtime
// falls back). CUDA events, medians of `reps`; resident_s -1: does not fit even so.
template <class Curve>
struct StreamedAndResident {
  msm::DeviceOptions streamed_opt, resident_opt;
  double streamed_s = 0, resident_s = -1;
  std::vector<double> streamed_samples_s, resident_samples_s;
};
template <class Curve>
StreamedAndResident<Curve> time_streamed_and_resident(
    const typename Curve::Affine* h_points, const typename Curve::Affine* d_points,
    const ff::Fr* sc, std::size_t n, std::size_t chunk, const msm::DeviceWorkspace& ws,
    std::size_t ws_bytes, cudaStream_t stream, int reps) {
  StreamedAndResident<Curve> t;
  t.streamed_opt = streamed_options<Curve>(ws_bytes, chunk);
  t.streamed_s = median_events(
      stream, reps,
      [&] {
        (void)msm::on_device_streamed<Curve>(h_points, sc, n, chunk, ws, stream, t.streamed_opt);
      },
      &t.streamed_samples_s);
  t.resident_opt.max_workspace_bytes = ws_bytes;
  if (msm::device_workspace_bytes<Curve>(n, t.resident_opt) > ws_bytes)
    t.resident_opt = msm::least_workspace_options(t.resident_opt);
  if (msm::device_workspace_bytes<Curve>(n, t.resident_opt) <= ws_bytes)
    t.resident_s = median_events(
        stream, reps,
        [&] { (void)msm::on_device<Curve>(d_points, sc, n, ws, stream, t.resident_opt); },
        &t.resident_samples_s);
  return t;
}

// The B_G2 MSM on the GPU (data/pipelines/supraseal_c2_b_g2_gpu.yaml, grid row 26): the G2 MSM
// on PoRep-shaped scalars in that pipeline's workspace (its msm_scratch, 40.5 B a point), with
// the points streamed from pinned host memory and resident (XYZZ with scalars read per window
// when the default does not fit; -1 when that does not fit either: the runtime then splits it
// in pieces). One row per size: the streamed G2 MSM is what row 26 runs, and no curve measured
// it (the model took the resident gpu_bench curve, extrapolated from 2^24, beside the transfer).
Json g2_porep_rows(const std::vector<int>& sizes, int reps, cudaStream_t stream) {
  using G2 = msm::G2Curve;
  std::mt19937_64 rng(0x5eed2);
  const auto base = ec::random_walk_points<ec::G2Affine, ec::G2Jacobian>(kBasePoints / 4, rng);
  Json rows = Json::array();
  for (int log_n : sizes) {
    const std::size_t n = std::size_t{1} << log_n;
    const auto ws_bytes = static_cast<std::size_t>(kWorkspacePerPoint * static_cast<double>(n));
    const std::size_t chunk = chunk_for<G2>(n, ws_bytes);
    if (chunk == 0)
      throw std::runtime_error(fmt::format("no streamed G2 chunk fits at 2^{}", log_n));
    const MsmBuffers<ec::G2Affine> b(base, n, ws_bytes);  // points n x 200 B
    staging::fill_scalars(b.scalars(), n, 177 + log_n, staging::ScalarShape::porep, stream);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    const auto t = time_streamed_and_resident<G2>(b.h_points, b.device_points(), b.scalars(), n,
                                                  chunk, msm::DeviceWorkspace{b.d_ws, ws_bytes},
                                                  ws_bytes, stream, reps);
    const double bytes = static_cast<double>(n * sizeof(ec::G2Affine));
    rows.push_back({{"log2_n", log_n},
                    {"scalars", "porep"},
                    {"workspace_B", ws_bytes},
                    {"chunk_points", chunk},
                    {"h2d_bytes", bytes},
                    {"streamed_s", t.streamed_s},
                    {"streamed_samples_s", t.streamed_samples_s},
                    {"resident_s", t.resident_s},
                    {"resident_samples_s", t.resident_samples_s}});
    fmt::print("msm_streaming G2 2^{} porep: streamed {:.4f} s (chunk 2^{}), resident {:.4f} s\n",
               log_n, t.streamed_s, static_cast<int>(std::log2(static_cast<double>(chunk))),
               t.resident_s);
  }
  return rows;
}

// An MSM step while another thread pins: host seconds of `fn` plus a stream sync alone, and again
// with one cudaHostRegister of `bytes` at `h` on another thread, started 20 ms into `fn` (then
// unregistered); medians of `reps`. The staging runs showed the real prover's steps stretched by
// about the other worker's pinning calls (sim/DECISIONS.md): is an MSM host-paced enough to
// make no progress while the driver is held? stretch = (during - alone) / registration: 1 = none.
// With `launched_inside`, `fn` starts 20 ms into the registration instead (its launches are
// issued while the driver is held, as the runtime's H steps were beside the next partition's
// registration); `during` is still timed from fn's start.
// Which starts first beside the other thread's cudaHostRegister: the registration 20 ms into
// fn's launches (registration_inside), fn's launches 20 ms into the registration
// (launched_inside), or both at once, released by one flag (together: the staging runtime's
// executor and stager, both woken by one cudaHostUnregister's return).
enum class Start { registration_inside, launched_inside, together };

template <class F>
Json during_registration(int device, cudaStream_t stream, char* h, std::size_t bytes, int reps,
                         F fn, Start start = Start::registration_inside) {
  std::vector<double> alone, during, reg;
  for (int r = 0; r < reps; ++r) {
    double t0 = host_now();
    fn();
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    alone.push_back(host_now() - t0);
    std::atomic<bool> go{false};
    double reg_s = 0;
    std::string err;  // an exception must not leave the thread (std::terminate)
    std::thread a([&] {
      try {
        check(cudaSetDevice(device), "cudaSetDevice");
        while (!go.load()) std::this_thread::yield();
        if (start == Start::registration_inside) host_sleep(0.02);
        const double s0 = host_now();
        check(cudaHostRegister(h, bytes, cudaHostRegisterDefault), "cudaHostRegister");
        reg_s = host_now() - s0;
      } catch (const std::exception& e) {
        err = e.what();
      }
    });
    go.store(true);
    if (start == Start::launched_inside) host_sleep(0.02);
    t0 = host_now();
    fn();
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    during.push_back(host_now() - t0);
    a.join();
    if (!err.empty()) throw std::runtime_error(err);
    reg.push_back(reg_s);
    check(cudaHostUnregister(h), "cudaHostUnregister");
  }
  const double a_s = median(alone), d_s = median(during), r_s = median(reg);
  return {{"alone_s", a_s},
          {"during_s", d_s},
          {"register_s", r_s},
          {"stretch_over_register", r_s > 0 ? (d_s - a_s) / r_s : 0.0}};
}

// A device-wide wait issued by another thread during an MSM: thread B calls cudaFree of 64 MiB
// (a call that waits for the whole device) `delay_s` into the MSM on `stream`. Does the free
// return when the MSM's work launched so far is done (a streamed MSM launches chunk by chunk,
// each behind the previous chunk's copy), or at the MSM's end? Host clock; medians of `reps`.
template <class F>
Json device_wait_during(int device, cudaStream_t stream, int reps, double delay_s, F fn) {
  std::vector<double> msm_s, wait_s, wait_end_before_msm_end;
  for (int r = 0; r < reps; ++r) {
    void* victim = nullptr;
    check(cudaMalloc(&victim, std::size_t{64} << 20), "cudaMalloc");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    std::atomic<bool> go{false};
    double w0 = 0, w1 = 0;
    std::string err;  // an exception must not leave the thread (std::terminate)
    std::thread b([&] {
      try {
        check(cudaSetDevice(device), "cudaSetDevice");
        while (!go.load()) std::this_thread::yield();
        host_sleep(delay_s);
        w0 = host_now();
        check(cudaFree(victim), "cudaFree");
        w1 = host_now();
      } catch (const std::exception& e) {
        err = e.what();
      }
    });
    const double t0 = host_now();
    go.store(true);
    fn();
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    const double t1 = host_now();
    b.join();
    if (!err.empty()) throw std::runtime_error(err);
    msm_s.push_back(t1 - t0);
    wait_s.push_back(w1 - w0);
    wait_end_before_msm_end.push_back(t1 - w1);
  }
  return {{"delay_s", delay_s},
          {"msm_s", median(msm_s)},
          {"free_s", median(wait_s)},
          {"free_s_samples", wait_s},
          {"free_return_before_msm_end_s", median(wait_end_before_msm_end)}};
}

}  // namespace

Json probe_msm_streaming(ProbeContext& c) {
  const std::vector<int> sizes = c.quick ? std::vector<int>{20} : std::vector<int>{24, 26, 27};
  const int reps = c.quick ? 2 : 3;
  Json points = Json::array();
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  std::mt19937_64 rng(0x5eed);
  const auto base = ec::random_walk_points<ec::G1Affine, ec::G1Jacobian>(kBasePoints, rng);
  // Another thread's pinning target for the largest size's `during_registration` rows: 12 GiB,
  // as one 2^27 partition's a, b and c (quick: 0.25 GiB), touched.
  const std::size_t reg_bytes = c.quick ? std::size_t{1} << 28 : std::size_t{12} << 30;
  char* reg_block = static_cast<char*>(std::aligned_alloc(4096, reg_bytes));
  if (!reg_block) throw std::runtime_error("msm_streaming: host allocation failed");
  std::memset(reg_block, 1, reg_bytes);
  Json during_pinning = Json::object();
  for (int log_n : sizes) {
    const std::size_t n = std::size_t{1} << log_n;
    const auto ws_bytes = static_cast<std::size_t>(kWorkspacePerPoint * static_cast<double>(n));
    const std::size_t chunk = chunk_for(n, ws_bytes);
    // At 2^24 also the workspace of the pipeline the 2^24 scenarios use (supraseal_c2_n24.yaml,
    // 68 B a point): the streamed time depends on it through the chunk (`at_n24_pipeline`).
    const std::size_t ws_n24 =
        log_n == 24 ? static_cast<std::size_t>(kWorkspacePerPointN24 * static_cast<double>(n)) : 0;
    const std::size_t chunk_n24 = ws_n24 > ws_bytes ? chunk_for(n, ws_n24) : 0;
    if (chunk == 0) throw std::runtime_error(fmt::format("no streamed chunk fits at 2^{}", log_n));
    const MsmBuffers<ec::G1Affine> b(base, n, std::max(ws_bytes, ws_n24));
    ec::G1Affine* const h_points = b.h_points;
    void* const d_points = b.d_points;
    void* const d_scalars = b.d_scalars;
    void* const d_ws = b.d_ws;
    for (const char* shape : {"uniform", "porep"}) {
      const bool porep = std::string(shape) == "porep";
      staging::fill_scalars(static_cast<ff::Fr*>(d_scalars), n, 77 + log_n,
                            porep ? staging::ScalarShape::porep : staging::ScalarShape::uniform,
                            stream);
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      const auto* sc = static_cast<const ff::Fr*>(d_scalars);
      const msm::DeviceWorkspace ws{d_ws, ws_bytes};
      // Streamed with the runtime's options, and resident in the same workspace.
      const auto timed =
          time_streamed_and_resident<G1>(h_points, static_cast<const ec::G1Affine*>(d_points), sc,
                                         n, chunk, ws, ws_bytes, stream, reps);
      const msm::DeviceOptions &sopt = timed.streamed_opt, &ropt = timed.resident_opt;
      const double streamed = timed.streamed_s, resident = timed.resident_s;
      // Never at the cost of the curves above: a failure is recorded in the row.
      if (log_n == sizes.back()) {
        try {
          Json row = {{"log2_n", log_n}};
          row["streamed"] = during_registration(c.device, stream, reg_block, reg_bytes, reps, [&] {
            (void)msm::on_device_streamed<G1>(h_points, sc, n, chunk, ws, stream, sopt);
          });
          if (resident > 0)
            row["resident"] =
                during_registration(c.device, stream, reg_block, reg_bytes, reps, [&] {
                  (void)msm::on_device<G1>(static_cast<const ec::G1Affine*>(d_points), sc, n, ws,
                                           stream, ropt);
                });
          // A device-wide wait 0.2 s into each (uniform scalars only: the mechanism, not the
          // shape, is in question).
          if (!porep) {
            row["device_wait_streamed"] = device_wait_during(c.device, stream, reps, 0.2, [&] {
              (void)msm::on_device_streamed<G1>(h_points, sc, n, chunk, ws, stream, sopt);
            });
            if (resident > 0)
              row["device_wait_resident"] = device_wait_during(c.device, stream, reps, 0.2, [&] {
                (void)msm::on_device<G1>(static_cast<const ec::G1Affine*>(d_points), sc, n, ws,
                                         stream, ropt);
              });
          }
          during_pinning[shape] = row;
        } catch (const std::exception& e) {
          (void)cudaGetLastError();
          during_pinning[shape] = {{"log2_n", log_n}, {"error", e.what()}};
        }
      }
      // The streamed MSM in the 2^24 pipeline's workspace.
      Json at_n24 = nullptr;
      if (chunk_n24 > 0) {
        const msm::DeviceWorkspace ws24{d_ws, ws_n24};
        const msm::DeviceOptions n24_opt = streamed_options(ws_n24, chunk_n24);
        std::vector<double> d_samples;
        const double t = median_events(
            stream, reps,
            [&] {
              (void)msm::on_device_streamed<G1>(h_points, sc, n, chunk_n24, ws24, stream, n24_opt);
            },
            &d_samples);
        at_n24 = {{"workspace_B", ws_n24},
                  {"chunk_points", chunk_n24},
                  {"streamed_s", t},
                  {"streamed_samples_s", d_samples}};
      }
      const double bytes = static_cast<double>(n * sizeof(ec::G1Affine));
      points.push_back({{"log2_n", log_n},
                        {"scalars", shape},
                        {"workspace_B", ws_bytes},
                        {"chunk_points", chunk},
                        {"h2d_bytes", bytes},
                        {"streamed_s", streamed},
                        {"streamed_samples_s", timed.streamed_samples_s},
                        {"resident_s", resident},
                        {"resident_samples_s", timed.resident_samples_s},
                        {"streamed_h2d_GBps", bytes / streamed / 1e9},
                        {"at_n24_pipeline", at_n24}});
      fmt::print("msm_streaming 2^{} {}: streamed {:.4f} s (chunk 2^{}), resident {:.4f} s\n",
                 log_n, shape, streamed, static_cast<int>(std::log2(static_cast<double>(chunk))),
                 resident);
    }
  }
  // The G2 rows last: a failure there is recorded beside the G1 curves, never instead of them.
  Json g2_rows;
  try {
    g2_rows =
        g2_porep_rows(c.quick ? std::vector<int>{20} : std::vector<int>{26, 27}, reps, stream);
  } catch (const std::exception& e) {
    (void)cudaGetLastError();
    g2_rows = {{"error", e.what()}};
  }
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  std::free(reg_block);
  Json r;
  r["method"] =
      "per size and scalar shape (uniform random; PoRep-shaped 50% 0, 45% 1, 5% uniform): "
      "msm::on_device_streamed from cudaMallocHost points (2^18 random points repeated) in a "
      "workspace of 40.5 B a point (supraseal_c2.yaml's msm_scratch) with the largest "
      "power-of-two chunk that fits, and msm::on_device with the points resident in the same "
      "workspace; CUDA events around each call, one untimed call first, median of the timed ones; "
      "at_n24_pipeline (2^24 only, else null): the streamed MSM again in the workspace of "
      "supraseal_c2_n24.yaml's msm_scratch (68 B a point), with the largest chunk that fits it; "
      "g2_porep: the G2 MSM on PoRep-shaped scalars (B_G2 on the GPU) at 2^26 and 2^27, streamed "
      "and resident alike in supraseal_c2_b_g2_gpu.yaml's msm_scratch (40.5 B a point; 2^16 "
      "random G2 points repeated; resident -1: does not fit)";
  r["summary"] = {
      {"points", points}, {"during_registration", during_pinning}, {"g2_porep", g2_rows}};
  r["during_registration_method"] =
      "largest size, each shape: host clock around the MSM call + stream sync, alone and with "
      "another thread's cudaHostRegister of 12 GiB (touched malloc'd block) started 20 ms in, "
      "then unregistered; medians; stretch_over_register = (during - alone) / registration; "
      "device_wait_* (uniform scalars): another thread's cudaFree of 64 MiB issued 0.2 s into "
      "the MSM, host clock: the free's time and its return before the MSM's end";
  return r;
}

// Probe section h_during_registration: the pipeline's H steps at 2^27 (one input's chain,
// ntt::detail::interpolate_to_coset, and the final coset inverse NTT with a scratch buffer), alone
// and with another thread's 12 GiB cudaHostRegister started 20 ms in, as msm_streaming's
// during_registration rows measure the MSMs. The staging runs measured h_input_a at 0.18 s beside
// a registration against 0.13 s alone (experiments/05_validation/README.md).
Json probe_h_during_registration(ProbeContext& c) {
#ifndef PRESTAGE_PROBE_HAS_NTT
  (void)c;
  return Json{{"method", "the H steps beside a registration"},
              {"skipped", "this build has no host prover (the NTT's root tables)"},
              {"summary", Json::object()}};
#else
  const unsigned log_n = c.quick ? 20 : 27;
  const int reps = c.quick ? 2 : 3;
  const std::size_t n = std::size_t{1} << log_n;
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const std::size_t reg_bytes = c.quick ? std::size_t{1} << 28 : std::size_t{12} << 30;
  char* reg_block = static_cast<char*>(std::aligned_alloc(4096, reg_bytes));
  if (!reg_block) throw std::runtime_error("h_during_registration: host allocation failed");
  std::memset(reg_block, 1, reg_bytes);
  Json rows;
  {
    gpu::SyncAllocator alloc;
    ntt::DeviceDomain domain(log_n, ntt::root_of_unity(log_n), alloc, stream);
    ntt::DeviceCosetShift shift(domain, ntt::fr_roots().shift, alloc, stream);
    // n x 32 B each: the pipeline's d_a and d_b.
    gpu::DeviceBuffer<ff::Fr> data(alloc, n, stream), scratch(alloc, n, stream);
    staging::fill_scalars(data.data(), n, 91, staging::ScalarShape::uniform, stream);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    rows = {{"log2_n", log_n},
            {"h_input", during_registration(c.device, stream, reg_block, reg_bytes, reps,
                                            [&] {
                                              ntt::detail::interpolate_to_coset(
                                                  domain, shift, data.data(), nullptr, nullptr,
                                                  ff::Fr::one(), false, stream);
                                            })},
            {"coset_intt", during_registration(c.device, stream, reg_block, reg_bytes, reps, [&] {
               ntt::coset_inverse(domain, shift, data.data(), stream, scratch.data());
             })}};
    // The same with the chain's launches issued 20 ms into the registration (the staging runs:
    // h_input_a started as the next partition's registration did, 0.6-0.7 s against 0.08 s), and
    // with both started at once (the staging runs at 2^25: each h_input_a took the registration's
    // time longer when it started with the stager's registration, 9 of 9 partitions).
    for (const auto& [row, start] : {std::pair{"h_input_launched_inside", Start::launched_inside},
                                     std::pair{"h_input_started_together", Start::together}})
      rows[row] = during_registration(
          c.device, stream, reg_block, reg_bytes, reps,
          [&] {
            ntt::detail::interpolate_to_coset(domain, shift, data.data(), nullptr, nullptr,
                                              ff::Fr::one(), false, stream);
          },
          start);
  }
  std::free(reg_block);
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  return Json{
      {"method", fmt::format("2^{}: host clock around one H input chain (interpolate_to_coset) and "
                             "one coset inverse NTT with scratch, each + stream sync, alone and "
                             "with another thread's cudaHostRegister of {} GiB (touched malloc'd "
                             "block) started 20 ms in, then unregistered (h_input_launched_inside: "
                             "the chain started 20 ms into the registration; "
                             "h_input_started_together: both released by one flag); {} "
                             "repetitions, "
                             "medians; stretch_over_register = (during - alone) / registration",
                             log_n, static_cast<double>(reg_bytes) / (1ull << 30), reps)},
      {"summary", rows}};
#endif
}

}  // namespace prestage::probe
