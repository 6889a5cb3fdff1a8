// gpu_bench: benchmarks of the GPU kernels on the device (not a test; nothing asserts timings).
//
// Axes: kernel (NTT forward/inverse/coset, H computation, G1/G2 MSM, PoRep-shaped MSM) x size.
// Method: data generated on the device or the host from a seed (never zeros), warm-up runs,
// then R timed runs with CUDA events on one stream; the median is reported with every run.
// Ceilings measured first, in the same process: device-to-device copy bandwidth (bytes read +
// written over time, cudaMemcpyAsync of 2 GiB) and the Fr and Fq multiplication rates (chains
// of independent Montgomery products, every SM busy). Each row's floor is the larger of
//   memory floor  = the fewest bytes the kernel must move / measured bandwidth;
//   compute floor = the field multiplications it must do / measured multiplication rate,
// with the counts stated in the row's "floor_how".
// MSM points: 2^18 random points (a random walk over random multiples of the generator, on the
// host) repeated to n on the device; scalars uniform in [0, r) from a counter-based hash.
//
// Usage: gpu_bench [--out FILE.json] [--commit SHA] [--max-log K] [--quick] [--rows LIST]
//                  [--ntt-logs LIST] [--forward-only]
//   --rows: comma-separated subset of ntt,h,msm (default all); NTT sizes 2^20/24/26/27 up to
//   --max-log (or the comma-separated --ntt-logs), each with forward, inverse, coset forward
//   and coset inverse rows (only forward with --forward-only: tuning sweeps), in place alone
//   (fr_ntt_*: the permutation fused into the last pass in place, or a separate bit-reversal
//   pass, as the row's in_place_path says) and with an n x 32 B scratch buffer
//   (fr_ntt_*_scratch: the permutation fused into the last pass, gpu_ntt.hpp). Rows `h`:
//   groth16_h_circom/textbook at 2^27 (2^20 with --quick or --max-log < 27) and groth16_h_input
//   (one input's chain, detail::ntt_interpolate_to_coset) at every --ntt-logs size. Token
//   coset_hilo (with ntt): also the four coset rows with the factors as hi * lo (*_hilo,
//   CosetTables::HiLo), the form before ntt9, A/B in the same process. Token mirror_ab
//   (ntt11): at every --ntt-logs size, the in-place last pass's two tile orders (ascending,
//   reversed: gpu_ntt.hpp, detail::MirrorOrder) against each other and the scratch path, 3
//   alternating rounds, then per-pass times (bench_mirror_ab). The NTT kernel tuning in force
//   (PRESTAGE_NTT_TUNING, gpu/ntt/gpu_ntt.cu) is recorded in the manifest. Finer MSM tokens:
//   g1_msm, g2_msm, porep, g1_window, g2_window ("msm" = all of them) and msm_occupancy (the
//   level-0 occupancy variants; only when named), msm_affine_min (the batch-affine threshold at G1
//   2^24 and G2 2^20; only when named), msm_affine_k (its chain lengths, likewise), msm_affine_ab
//   (msm7's batch-affine changes undone one at a time, likewise), msm_affine_ab8 and
//   msm_affine_ab8b (msm8's batch-affine knobs around the persistent scratch, runs 1 and 2,
//   likewise), msm_affine_ab9 and msm_affine_ab9b (msm9's inversion, chain lengths, round-0 add,
//   map search and infinity bits, likewise), g2_variants (G2 level-0 and reduction variants against
//   main's kernels, likewise), msm_auto_rule (both accumulations at the sizes next to the Auto
//   rule's bounds, likewise), msm_affine_ab11 (msm11: G1's Auto range edges, the batch-affine map
//   kernel, window groups, affine_min_pairs and max_workspace_bytes, likewise). g1_msm and g2_msm
//   rows come in pairs: the default accumulation (GpuMsmAccumulation::Auto) and the other one:
//   *_affine (batch-affine rounds first) where the default is XYZZ, *_xyzz where it is batch-affine
//   (from msm8 on: G2 2^20 and 2^22 (G1 2^26 too in msm8 run 2 only), from msm11 on G1 2^17 to 2^27
//   too (msm11's run had the bound at 2^19: its 2^17 and 2^18 rows are g1_msm (XYZZ) and
//   g1_msm_affine); before msm8 g1_msm and g2_msm were XYZZ at every size). (Msmaffine runs 1-3 had
//   batch-affine as the default: there g1_msm was batch-affine and g1_msm_xyzz the XYZZ path.)
//   msm_ws10 / msm_ws10b: the MSM workspace reused vs allocated per call, batch-affine window
//   sizes and window groups, likewise). MSM rows run on one workspace reused by every call of
//   the row (gpu_msm.hpp, GpuMsmWorkspace; from msm10 on), rows *_alloc allocate it per call
//   from the default pool. msm_g2_ab12: msm12's step-4 A/B (G2 reduction schemes, batch-affine
//   knobs at G2 2^20; G1 2^20 / 2^24 with both schemes; only when named), msm_ab12_next (its
//   open candidates: G2 2^21-2^23 batch-affine threshold 2^20, G1 2^26 scan; likewise),
//   msm_ab13 (msm13: scalars converted once per call vs per window group, G1 2^24-2^27, G2
//   2^22; PoRep-shaped G1 2^27 under Auto, per group and XYZZ; likewise), msm_fixed14 (msm14:
//   the fixed-base MSM, gpu_msm_fixed_base.hpp, with its table's build time and memory, beside
//   the default gpu_msm on the same inputs, G1 2^20-2^26 and G2 2^20/2^22 with a c sweep at G1
//   2^24 and G2 2^20; likewise), msm_fixed14b (msm14 run 2: the window rule's picks beside their
//   neighbours, one slice and the suffix-scan reduction at G1 2^24 and 2^26; likewise),
//   msm_fixed15 (msm15: the packed 96-B table at the targets' sizes, G1 2^24 at c = 20 with
//   slices of 2^26 (the default), 2^27 and 2^28 pairs, G1 2^26 and G2 2^20 at the rule's c;
//   likewise), msm_fixed16 (msm16: the fixed-base defaults (G1 slices of up to 2^28 pairs)
//   against msm15's and the batch-affine knobs, one table per size, G1 2^24 / 2^26 and G2 2^20;
//   likewise), msm_fixed16b (msm16 call 2: f7a105f's defaults (K = 16 for G1; 24 since) against
//   msm15's and chain lengths around them; likewise), msm_fixed (part of msm: the fixed-base MSM at
//   the issue's sizes, rows g1_msm_fixed* / g2_msm_fixed*, the rule's c, default slices and G1 2^24
//   / 2^26 with larger ones).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ec/sample_points.hpp"
#include "gpu/ff/mont_ptx.hpp"
#include "gpu/groth16/gpu_h.hpp"
#include "gpu/msm/gpu_msm.hpp"
#include "gpu/msm/gpu_msm_fixed_base.hpp"
#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/gpu_ntt.hpp"

namespace {

using prestage::ff::Fq;
using prestage::ff::Fr;
namespace g = prestage::gpu;
namespace ec = prestage::ec;

// MSM rows whose result differed from the XYZZ default's on the same inputs (bench_msm); any
// makes gpu_bench exit 3 after writing its JSON.
int g_msm_result_mismatches = 0;
using json = nlohmann::json;

__device__ __forceinline__ uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Uniform-ish Fr below r: raw Montgomery limbs with the top limb reduced below r's top limb.
// kind 0: uniform; kind 1: PoRep-shaped (50% zero, 45% one, 5% uniform).
__global__ void random_fr_kernel(Fr* out, std::size_t n, uint64_t seed, int kind) {
  std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const uint64_t h = mix64(seed ^ mix64(i));
  Fr x{};
  for (int k = 0; k < 4; ++k) x.limb[k] = mix64(h + k);
  x.limb[3] %= Fr::modulus[3];
  if (kind == 1) {
    const unsigned u = static_cast<unsigned>(mix64(h ^ 0x5555) % 100);
    if (u < 50)
      x = Fr::zero();
    else if (u < 95)
      x = Fr::one();
  }
  out[i] = x;
}

// data[k] <- data[k] * m, `iters` times, 4 independent chains per thread.
template <class F, bool kPtx>
__device__ __forceinline__ F bench_mul(const F& a, const F& b) {
  if constexpr (kPtx) return prestage::ff::detail::mul_ptx(a, b);
  return a * b;
}
template <class F, bool kPtx = false>
__global__ void mul_rate_kernel(F* data, int iters) {
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  F a0 = data[4 * t], a1 = data[4 * t + 1], a2 = data[4 * t + 2], a3 = data[4 * t + 3];
  const F m = a0 + a3;
  for (int i = 0; i < iters; ++i) {
    a0 = bench_mul<F, kPtx>(a0, m);
    a1 = bench_mul<F, kPtx>(a1, m);
    a2 = bench_mul<F, kPtx>(a2, m);
    a3 = bench_mul<F, kPtx>(a3, m);
  }
  data[4 * t] = a0;
  data[4 * t + 1] = a1;
  data[4 * t + 2] = a2;
  data[4 * t + 3] = a3;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t k = v.size();
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

// Runs `body` `warm` times untimed, then `reps` times between CUDA events on `stream`.
std::vector<double> time_runs(cudaStream_t stream, int warm, int reps,
                              const std::function<void()>& body) {
  for (int i = 0; i < warm; ++i) body();
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> ms;
  g::Event start, stop;
  for (int i = 0; i < reps; ++i) {
    start.record(stream);
    body();
    stop.record(stream);
    stop.synchronize();
    ms.push_back(g::Event::elapsed_ms(start, stop));
  }
  return ms;
}

unsigned blocks(std::size_t n, unsigned t = 256) {
  return static_cast<unsigned>((n + t - 1) / t);
}

struct Ceilings {
  double bandwidth_Bps = 0;  // device memory, bytes read + written per second
  double fr_mul_per_s = 0;
  double fq_mul_per_s = 0;
};

template <class F, bool kPtx = false>
double mul_rate(g::DeviceAllocator& alloc, cudaStream_t stream, int sms) {
  const std::size_t threads = std::size_t{sms} * 2048;  // full occupancy worth of threads
  g::DeviceBuffer<F> d(alloc, 4 * threads, stream);
  random_fr_kernel<<<blocks(d.bytes() / sizeof(Fr)), 256, 0, stream>>>(
      reinterpret_cast<Fr*>(d.data()), d.bytes() / sizeof(Fr), 7, 0);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  const int iters = 256;
  auto ms = time_runs(stream, 1, 5, [&] {
    mul_rate_kernel<F, kPtx><<<blocks(threads), 256, 0, stream>>>(d.data(), iters);
    PRESTAGE_CUDA_CHECK_LAUNCH();
  });
  return double(threads) * 4 * iters / (median(ms) * 1e-3);
}

Ceilings measure_ceilings(g::DeviceAllocator& alloc, cudaStream_t stream, json& out) {
  Ceilings c;
  int dev = 0, sms = 0;
  PRESTAGE_CUDA_CHECK(cudaGetDevice(&dev));
  PRESTAGE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const std::size_t bytes = std::size_t{2} << 30;
  g::DeviceBuffer<unsigned char> a(alloc, bytes, stream), b(alloc, bytes, stream);
  PRESTAGE_CUDA_CHECK(cudaMemsetAsync(a.data(), 0x5A, bytes, stream));
  auto ms = time_runs(stream, 2, 9, [&] {
    PRESTAGE_CUDA_CHECK(
        cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, stream));
  });
  c.bandwidth_Bps = 2.0 * bytes / (median(ms) * 1e-3);
  c.fr_mul_per_s = mul_rate<Fr>(alloc, stream, sms);
  c.fq_mul_per_s = mul_rate<Fq>(alloc, stream, sms);
  // The default Fp::operator* (on the device the even/odd CIOS of gpu/ff/mont32.hpp) and, for
  // comparison, the previous default (the 32-bit CIOS of gpu/ff/mont_ptx.hpp).
  const double fr_ptx = mul_rate<Fr, true>(alloc, stream, sms);
  const double fq_ptx = mul_rate<Fq, true>(alloc, stream, sms);
  out["mul_rates_ptx32"] = {{"fr_mul_per_s", fr_ptx}, {"fq_mul_per_s", fq_ptx}};
  std::printf(
      "default products: Fr %.3g /s, Fq %.3g /s; 32-bit CIOS (mont_ptx): Fr %.3g /s, "
      "Fq %.3g /s\n",
      c.fr_mul_per_s, c.fq_mul_per_s, fr_ptx, fq_ptx);
  const double fr_generic = c.fr_mul_per_s, fq_generic = c.fq_mul_per_s;
  // Floors use the faster of the two measured products (the best rate this device showed).
  c.fr_mul_per_s = std::max(c.fr_mul_per_s, fr_ptx);
  c.fq_mul_per_s = std::max(c.fq_mul_per_s, fq_ptx);
  out["ceilings"] = {
      {"d2d_bandwidth_GBps", c.bandwidth_Bps / 1e9},
      {"d2d_how", "cudaMemcpyAsync D2D of 2 GiB, (read + write bytes) / median of 9"},
      {"fr_mul_per_s_default", fr_generic},
      {"fq_mul_per_s_default", fq_generic},
      {"fr_mul_per_s_floor", c.fr_mul_per_s},
      {"fq_mul_per_s_floor", c.fq_mul_per_s},
      {"mul_how",
       "4 independent Montgomery-product chains x 256 per thread, SMs x 2048 "
       "threads, median of 5"},
      {"sms", sms}};
  std::printf("ceilings: D2D %.0f GB/s, Fr mul %.3g /s, Fq mul %.3g /s\n", c.bandwidth_Bps / 1e9,
              c.fr_mul_per_s, c.fq_mul_per_s);
  return c;
}

json row(const std::string& name, std::size_t n, const std::vector<double>& ms, double mem_floor_s,
         double compute_floor_s, const std::string& how) {
  const double med = median(ms);
  const double floor_ms = 1e3 * std::max(mem_floor_s, compute_floor_s);
  std::printf("%-28s n=2^%-2d median %9.3f ms  floor %8.3f ms (%s-bound floor)  x%.2f\n",
              name.c_str(), static_cast<int>(std::log2(double(n))), med, floor_ms,
              mem_floor_s > compute_floor_s ? "memory" : "compute", med / floor_ms);
  std::fflush(stdout);
  return {{"name", name},
          {"log_n", static_cast<int>(std::log2(double(n)))},
          {"n", n},
          {"median_ms", med},
          {"runs_ms", ms},
          {"floor_ms", floor_ms},
          {"floor_memory_ms", 1e3 * mem_floor_s},
          {"floor_compute_ms", 1e3 * compute_floor_s},
          {"floor_how", how},
          {"ratio_to_floor", med / floor_ms}};
}

// ---- NTT and H ----
// hilo: also the coset rows with the factors formed as hi * lo (CosetTables::HiLo, 2 products
// an element), *_hilo, against the default (split on three-pass plans: one product an element).
void bench_ntt(unsigned log_n, bool all_variants, bool hilo, const Ceilings& cl,
               cudaStream_t stream, json& rows) {
  g::SyncAllocator alloc;
  const std::size_t n = std::size_t{1} << log_n;
  g::DeviceNttDomain domain(log_n, prestage::ntt::root_of_unity(log_n), alloc, stream);
  // The data buffers before the coset tables (ntt9 run 2): their addresses then do not depend on
  // the tables' size (48 MiB more with the split tables at 2^27).
  g::DeviceBuffer<Fr> d(alloc, n, stream);
  g::DeviceBuffer<Fr> scratch(alloc, n, stream);  // n x 32 B for the *_scratch rows
  g::DeviceCosetShift coset(domain, prestage::ntt::fr_roots().shift, alloc, stream);
  // The coset factor's products an element: 1 with split tables, else 2 (hi * lo, then x).
  const double coset_muls = coset.split() ? 1.0 : 2.0;
  const std::string coset_how =
      coset.split() ? " (+ n: g^i split, one table read an element)" : " (+ 2n: g^i = hi * lo)";
  random_fr_kernel<<<blocks(n), 256, 0, stream>>>(d.data(), n, 1000 + log_n, 0);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  const int reps = log_n >= 26 ? 7 : 15;
  const double mem = 2.0 * n * sizeof(Fr) / cl.bandwidth_Bps;
  const double muls = 0.5 * double(n) * log_n;
  const double comp = muls / cl.fr_mul_per_s;
  const std::string how =
      "memory: read + write n x 32 B once; compute: (n/2) log2 n Fr products at the measured rate";
  const auto path = g::detail::in_place_path(domain);
  const char* path_name = path == g::detail::InPlacePath::Mirror    ? "fused_last_pass"
                          : path == g::detail::InPlacePath::OnePass ? "one_pass"
                                                                    : "separate_bit_reversal";
  const std::size_t first_row = rows.size();
  rows.push_back(row("fr_ntt_forward", n,
                     time_runs(stream, 2, reps, [&] { g::ntt_forward(domain, d.data(), stream); }),
                     mem, comp, how));
  Fr* sp = scratch.data();
  rows.push_back(
      row("fr_ntt_forward_scratch", n,
          time_runs(stream, 2, reps, [&] { g::ntt_forward(domain, d.data(), stream, sp); }), mem,
          comp, how));
  // The in-place rows' permutation (the *_scratch rows always fuse it into the last pass).
  auto mark_in_place = [&] {
    for (std::size_t i = first_row; i < rows.size(); ++i) {
      const std::string name = rows[i]["name"];
      if (name.find("_scratch") == std::string::npos) rows[i]["in_place_path"] = path_name;
    }
  };
  if (!all_variants) return mark_in_place();
  // 1/n: a shift and one 32-bit reduction step on the first pass's loads
  // (ntt_pass::mul_pow2_inv), not counted as a product.
  rows.push_back(row("fr_ntt_inverse", n,
                     time_runs(stream, 2, reps, [&] { g::ntt_inverse(domain, d.data(), stream); }),
                     mem, comp, how + " (1/n by shift, not counted)"));
  rows.push_back(row(
      "fr_ntt_coset_forward", n,
      time_runs(stream, 2, reps, [&] { g::ntt_coset_forward(domain, coset, d.data(), stream); }),
      mem, (muls + coset_muls * n) / cl.fr_mul_per_s, how + coset_how));
  rows.push_back(row(
      "fr_ntt_coset_inverse", n,
      time_runs(stream, 2, reps, [&] { g::ntt_coset_inverse(domain, coset, d.data(), stream); }),
      mem, (muls + coset_muls * n) / cl.fr_mul_per_s, how + coset_how + ", n^-1 in the table"));
  rows.push_back(
      row("fr_ntt_inverse_scratch", n,
          time_runs(stream, 2, reps, [&] { g::ntt_inverse(domain, d.data(), stream, sp); }), mem,
          comp, how + " (1/n by shift, not counted)"));
  rows.push_back(row("fr_ntt_coset_forward_scratch", n,
                     time_runs(stream, 2, reps,
                               [&] { g::ntt_coset_forward(domain, coset, d.data(), stream, sp); }),
                     mem, (muls + coset_muls * n) / cl.fr_mul_per_s, how + coset_how));
  rows.push_back(row("fr_ntt_coset_inverse_scratch", n,
                     time_runs(stream, 2, reps,
                               [&] { g::ntt_coset_inverse(domain, coset, d.data(), stream, sp); }),
                     mem, (muls + coset_muls * n) / cl.fr_mul_per_s,
                     how + coset_how + ", n^-1 in the table"));
  if (hilo) {
    g::DeviceCosetShift old(domain, prestage::ntt::fr_roots().shift, alloc, stream,
                            g::CosetTables::HiLo);
    const double c2 = (muls + 2 * n) / cl.fr_mul_per_s;
    const std::string h2 = how + " (+ 2n: g^i = hi * lo)";
    rows.push_back(row(
        "fr_ntt_coset_forward_hilo", n,
        time_runs(stream, 2, reps, [&] { g::ntt_coset_forward(domain, old, d.data(), stream); }),
        mem, c2, h2));
    rows.push_back(row(
        "fr_ntt_coset_inverse_hilo", n,
        time_runs(stream, 2, reps, [&] { g::ntt_coset_inverse(domain, old, d.data(), stream); }),
        mem, c2, h2));
    rows.push_back(row("fr_ntt_coset_forward_scratch_hilo", n,
                       time_runs(stream, 2, reps,
                                 [&] { g::ntt_coset_forward(domain, old, d.data(), stream, sp); }),
                       mem, c2, h2));
    rows.push_back(row("fr_ntt_coset_inverse_scratch_hilo", n,
                       time_runs(stream, 2, reps,
                                 [&] { g::ntt_coset_inverse(domain, old, d.data(), stream, sp); }),
                       mem, c2, h2));
  }
  mark_in_place();
}

// Token mirror_ab (ntt11): the in-place last pass's two tile orders (detail::MirrorOrder) A/B in
// one process at log_n, `rounds` rounds, the orders alternating (Ascending first in even rounds):
// each round the four transforms in place with each order (fr_ntt_*_ascending, *_reversed) and
// with scratch (fr_ntt_*_scratch_r; the permutation fused into the last pass, the path the
// in-place rows are compared against), then per-pass times (CUDA events between the
// transform's kernels, detail::set_pass_events) of the forward and coset forward, in place with
// each order and with scratch (fr_ntt_*_passes_*: "pass_ms", the median of each kernel's time;
// the in-place last pass includes its state's memset). The order in force before is restored.
// Run 1 of ntt11 (commit 6369f1d) compared ntt8's kernel (rows *_serial) with a form that
// overlapped its per-tile round trips (*_overlapped, removed since: slower).
void bench_mirror_ab(unsigned log_n, int rounds, const Ceilings& cl, cudaStream_t stream,
                     json& rows) {
  namespace gd = g::detail;
  g::SyncAllocator alloc;
  const std::size_t n = std::size_t{1} << log_n;
  g::DeviceNttDomain domain(log_n, prestage::ntt::root_of_unity(log_n), alloc, stream);
  g::DeviceBuffer<Fr> d(alloc, n, stream);
  g::DeviceBuffer<Fr> scratch(alloc, n, stream);
  g::DeviceCosetShift coset(domain, prestage::ntt::fr_roots().shift, alloc, stream);
  random_fr_kernel<<<blocks(n), 256, 0, stream>>>(d.data(), n, 1100 + log_n, 0);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  const gd::MirrorOrder before = gd::current_mirror_order();
  if (gd::in_place_path(domain) != gd::InPlacePath::Mirror) {
    std::printf("mirror_ab 2^%u: the in-place path is not the fused last pass; skipped\n", log_n);
    return;
  }
  const int reps = log_n >= 26 ? 7 : 15;
  const double mem = 2.0 * n * sizeof(Fr) / cl.bandwidth_Bps;
  const double muls = 0.5 * double(n) * log_n;
  const double coset_muls = coset.split() ? 1.0 : 2.0;
  const std::string how =
      "memory: read + write n x 32 B once; compute: (n/2) log2 n Fr products at the measured rate";
  Fr* x = d.data();
  Fr* sp = scratch.data();
  struct Transform {
    const char* name;
    double comp;
    std::function<void(Fr*)> run;  // scratch or null
  };
  const std::vector<Transform> transforms = {
      {"fr_ntt_forward", muls, [&](Fr* s) { g::ntt_forward(domain, x, stream, s); }},
      {"fr_ntt_inverse", muls, [&](Fr* s) { g::ntt_inverse(domain, x, stream, s); }},
      {"fr_ntt_coset_forward", muls + coset_muls * n,
       [&](Fr* s) { g::ntt_coset_forward(domain, coset, x, stream, s); }},
      {"fr_ntt_coset_inverse", muls + coset_muls * n,
       [&](Fr* s) { g::ntt_coset_inverse(domain, coset, x, stream, s); }},
  };
  const std::pair<gd::MirrorOrder, const char*> forms[] = {
      {gd::MirrorOrder::Ascending, "ascending"}, {gd::MirrorOrder::Reversed, "reversed"}};
  for (int r = 0; r < rounds; ++r) {
    for (int f = 0; f < 2; ++f) {
      const auto& form = forms[(f + r) % 2];
      gd::set_mirror_order(form.first);
      if (gd::current_mirror_order() != form.first) {
        std::printf("mirror_ab: order %s not built under this tuning; skipped\n", form.second);
        continue;
      }
      for (const auto& t : transforms) {
        json j = row(std::string(t.name) + "_" + form.second, n,
                     time_runs(stream, 2, reps, [&] { t.run(nullptr); }), mem,
                     t.comp / cl.fr_mul_per_s, how);
        j["round"] = r;
        j["mirror_order"] = form.second;
        rows.push_back(j);
      }
    }
    for (const auto& t : transforms) {
      json j =
          row(std::string(t.name) + "_scratch_r", n, time_runs(stream, 2, reps, [&] { t.run(sp); }),
              mem, t.comp / cl.fr_mul_per_s, how);
      j["round"] = r;
      rows.push_back(j);
    }
  }
  // Per-pass times: events between the kernels of one transform.
  constexpr int kMaxMarks = 8;
  std::vector<g::Event> marks(kMaxMarks + 1);
  std::vector<cudaEvent_t> ev;
  for (int i = 1; i <= kMaxMarks; ++i) ev.push_back(marks[i].get());
  auto passes = [&](const std::string& name, const std::function<void()>& body) {
    for (int i = 0; i < 2; ++i) body();
    PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<std::vector<double>> per(kMaxMarks);
    std::vector<double> total;
    int count = 0;
    for (int rep = 0; rep < reps; ++rep) {
      gd::PassEvents pe{ev.data(), kMaxMarks, 0};
      marks[0].record(stream);
      gd::set_pass_events(&pe);
      body();
      gd::set_pass_events(nullptr);
      marks[pe.recorded].synchronize();
      count = pe.recorded;
      for (int i = 0; i < pe.recorded; ++i)
        per[i].push_back(g::Event::elapsed_ms(marks[i], marks[i + 1]));
      total.push_back(g::Event::elapsed_ms(marks[0], marks[pe.recorded]));
    }
    json pass_ms = json::array();
    std::printf("%-40s n=2^%-2u passes", name.c_str(), log_n);
    for (int i = 0; i < count; ++i) {
      pass_ms.push_back(median(per[i]));
      std::printf(" %8.3f", median(per[i]));
    }
    std::printf("  total %8.3f ms\n", median(total));
    std::fflush(stdout);
    rows.push_back({{"name", name},
                    {"log_n", log_n},
                    {"n", n},
                    {"median_ms", median(total)},
                    {"pass_ms", pass_ms},
                    {"runs_ms", total},
                    {"how",
                     "CUDA events after each kernel of the transform (the in-place last "
                     "pass with its state's memset); medians of " +
                         std::to_string(reps) + " runs"}});
  };
  for (int ti : {0, 2}) {
    const auto& t = transforms[static_cast<std::size_t>(ti)];
    for (const auto& form : forms) {
      gd::set_mirror_order(form.first);
      if (gd::current_mirror_order() != form.first) continue;
      passes(std::string(t.name) + "_passes_" + form.second, [&] { t.run(nullptr); });
    }
    passes(std::string(t.name) + "_passes_scratch", [&] { t.run(sp); });
  }
  gd::set_mirror_order(before);
}

void bench_h(unsigned log_n, const Ceilings& cl, cudaStream_t stream, json& rows) {
  g::SyncAllocator alloc;
  const std::size_t n = std::size_t{1} << log_n;
  g::DeviceNttDomain domain(log_n, prestage::ntt::root_of_unity(log_n), alloc, stream);
  // The circom shift: a primitive 2n-th root of unity (snarkjs's groth16 prover).
  g::DeviceCosetShift coset(domain, prestage::ntt::root_of_unity(log_n + 1), alloc, stream);
  g::DeviceBuffer<Fr> a(alloc, n, stream), b(alloc, n, stream), c(alloc, n, stream);
  random_fr_kernel<<<blocks(n), 256, 0, stream>>>(a.data(), n, 11, 0);
  random_fr_kernel<<<blocks(n), 256, 0, stream>>>(b.data(), n, 12, 0);
  random_fr_kernel<<<blocks(n), 256, 0, stream>>>(c.data(), n, 13, 0);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  const double mem = 4.0 * n * sizeof(Fr) / cl.bandwidth_Bps;
  const double muls = 6 * (0.5 * double(n) * log_n + 2 * double(n)) + n;
  rows.push_back(row("groth16_h_circom", n,
                     time_runs(stream, 1, 5,
                               [&] {
                                 g::compute_h(domain, coset, g::HReduction::Circom, a.data(),
                                              b.data(), c.data(), stream);
                               }),
                     mem, muls / cl.fr_mul_per_s,
                     "memory: read a, b, c and write h once (4 n x 32 B); compute: 3 iNTT + 3 "
                     "coset NTT ((n/2) log2 n + 2n products each) + n"));
  g::DeviceCosetShift tb_coset(domain, prestage::ntt::fr_roots().shift, alloc, stream);
  rows.push_back(row("groth16_h_textbook", n,
                     time_runs(stream, 1, 5,
                               [&] {
                                 g::compute_h(domain, tb_coset, g::HReduction::Textbook, a.data(),
                                              b.data(), c.data(), stream);
                               }),
                     mem, (muls + 0.5 * double(n) * log_n + 3 * double(n)) / cl.fr_mul_per_s,
                     "as groth16_h_circom, + n for 1/Z and a coset iNTT ((n/2) log2 n + 2n)"));
}

// One input's H chain (detail::ntt_interpolate_to_coset on one buffer, no fused pointwise):
// evaluations on the domain -> evaluations on the circom coset, the step the model times once
// per input (compute_h runs it for a, b and c).
void bench_h_input(unsigned log_n, const Ceilings& cl, cudaStream_t stream, json& rows) {
  g::SyncAllocator alloc;
  const std::size_t n = std::size_t{1} << log_n;
  g::DeviceNttDomain domain(log_n, prestage::ntt::root_of_unity(log_n), alloc, stream);
  g::DeviceCosetShift coset(domain, prestage::ntt::root_of_unity(log_n + 1), alloc, stream);
  g::DeviceBuffer<Fr> x(alloc, n, stream);  // n x 32 B, Montgomery
  random_fr_kernel<<<blocks(n), 256, 0, stream>>>(x.data(), n, 14, 0);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  const int reps = log_n >= 26 ? 7 : 15;
  const double muls = 2 * (0.5 * double(n) * log_n + 2 * double(n));
  rows.push_back(row("groth16_h_input", n,
                     time_runs(stream, 2, reps,
                               [&] {
                                 g::detail::ntt_interpolate_to_coset(domain, coset, x.data(),
                                                                     nullptr, nullptr, Fr::one(),
                                                                     false, stream);
                               }),
                     2.0 * n * sizeof(Fr) / cl.bandwidth_Bps, muls / cl.fr_mul_per_s,
                     "memory: read + write n x 32 B once; compute: iNTT + coset NTT ((n/2) log2 n "
                     "+ 2n products each)"));
}

// ---- MSM ----
template <class Affine, class Jacobian>
std::vector<Affine> host_points(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return ec::random_walk_points<Affine, Jacobian>(n, rng);
}

template <class Curve>
void bench_msm(const std::string& name, const std::vector<typename Curve::Affine>& base,
               unsigned log_n, int scalar_kind, unsigned window_bits, double fq_per_fp,
               const Ceilings& cl, cudaStream_t stream, json& rows, bool split_01 = true,
               unsigned min_blocks = 0,
               g::GpuMsmAccumulation accumulation = g::GpuMsmAccumulation::Xyzz,
               std::size_t affine_min_pairs = 0, unsigned affine_k = 0, unsigned affine_k2 = 0,
               std::size_t group_pairs = 0, const std::string& suffix = "",
               const std::function<void(g::GpuMsmOptions&)>& tweak = nullptr,
               bool retain_pool = false, bool per_call_alloc = false) {
  using Affine = typename Curve::Affine;
  g::SyncAllocator sync;
  g::StreamOrderedAllocator pool;
  // retain_pool (rows *_retain): the default pool keeps freed memory mapped (release threshold
  // UINT64_MAX) for the row, so the calls after the first pay no pool growth or release: what
  // the MSM's allocations cost under the default threshold (0) is the difference. Reset after.
  struct PoolThreshold {
    cudaMemPool_t pool;
    bool on;
    explicit PoolThreshold(cudaMemPool_t p, bool o) : pool(p), on(o) { set(on ? UINT64_MAX : 0); }
    ~PoolThreshold() {
      std::uint64_t zero = 0;  // no throw from a destructor: a failure leaves the threshold
      if (on) (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &zero);
    }
    void set(std::uint64_t v) const {
      PRESTAGE_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v));
    }
  } threshold(pool.pool(), retain_pool);
  const std::size_t n = std::size_t{1} << log_n;
  g::DeviceBuffer<Affine> pts(sync, n, stream);
  g::DeviceBuffer<Fr> sc(sync, n, stream);
  for (std::size_t first = 0; first < n; first += base.size()) {
    const std::size_t k = std::min(base.size(), n - first);
    PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(pts.data() + first, base.data(), k * sizeof(Affine),
                                        cudaMemcpyHostToDevice, stream));
  }
  random_fr_kernel<<<blocks(n), 256, 0, stream>>>(sc.data(), n, 77 + log_n, scalar_kind);
  PRESTAGE_CUDA_CHECK_LAUNCH();
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  g::GpuMsmStats stats;
  g::GpuMsmOptions opt;
  opt.window_bits = window_bits;
  opt.split_01 = split_01;
  opt.accumulate_min_blocks = min_blocks;
  opt.accumulation = accumulation;
  opt.affine_min_pairs = affine_min_pairs;
  opt.affine_per_thread = affine_k;
  opt.affine_per_inversion = affine_k2;
  opt.max_group_pairs = group_pairs;
  if (tweak) tweak(opt);
  opt.stats = &stats;
  // The MSM's workspace (gpu_msm.hpp, GpuMsmWorkspace): allocated once for the row (cudaMalloc)
  // and reused by every call, as a prover holds it; per_call_alloc (rows *_alloc, and the
  // per-round batch-affine scratch, which needs an allocator): each call allocates its
  // workspace from the default pool and frees it (main's behaviour before msm10; sppark's
  // figure includes its scratch allocation likewise).
  if (!opt.affine_persistent_scratch) per_call_alloc = true;
  const std::size_t ws_bytes = g::gpu_msm_workspace_bytes<Curve>(n, opt);
  g::DeviceBuffer<unsigned char> ws_buf;
  if (!per_call_alloc) ws_buf = g::DeviceBuffer<unsigned char>(sync, ws_bytes, stream);
  const auto msm = [&] {
    return per_call_alloc
               ? g::gpu_msm<Curve>(pts.data(), sc.data(), n, pool, stream, opt)
               : g::gpu_msm<Curve>(pts.data(), sc.data(), n,
                                   g::GpuMsmWorkspace{ws_buf.data(), ws_buf.bytes()}, stream, opt);
  };
  const int reps = log_n >= 26 ? 3 : log_n >= 24 ? 5 : 9;
  // Phases: one more run with the stats' CUDA events (timed runs carry no extra events).
  constexpr int kPhases = 15;
  std::vector<double> phase[kPhases];
  opt.stats = nullptr;
  auto ms = time_runs(stream, 1, reps, [&] { (void)msm(); });
  opt.stats = &stats;
  for (int k = 0; k < 3; ++k) {
    (void)msm();
    // "affine": the batch-affine rounds but their invert kernels, as before msm7; then its
    // parts (gather, map + prep, add, the rest).
    const double p[kPhases] = {
        stats.classify_ms,
        stats.ones_ms,
        stats.digits_ms,
        stats.sort_ms,
        stats.affine_ms + stats.affine_gather_ms + stats.affine_map_ms + stats.affine_prep_ms +
            stats.affine_add_ms,
        stats.affine_invert_ms,
        stats.accumulate_ms,
        stats.reduce_ms,
        stats.host_ms,
        stats.affine_gather_ms,
        stats.affine_map_ms + stats.affine_prep_ms,  // "affine_prep": map + prep, as before msm9
        stats.affine_add_ms,
        stats.scratch_ms,
        stats.affine_map_ms,
        stats.scalars_ms};
    for (int q = 0; q < kPhases; ++q) phase[q].push_back(p[q]);
  }
  // Device memory of one MSM call: the stream-ordered pool holds nothing but the MSM's scratch
  // (points and scalars come from cudaMalloc), so the pool's high-water marks over one call,
  // reset just before it, are that call's scratch (used) and what the pool reserved for it.
  // The staging model's `msm_scratch` buffer (data/pipelines/supraseal_c2.yaml) comes from these.
  std::uint64_t pool_used_high = 0, pool_reserved_high = 0;
  decltype(msm()) result{};
  {
    PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    pool.trim(0);
    std::uint64_t zero = 0;
    PRESTAGE_CUDA_CHECK(cudaMemPoolSetAttribute(pool.pool(), cudaMemPoolAttrUsedMemHigh, &zero));
    PRESTAGE_CUDA_CHECK(
        cudaMemPoolSetAttribute(pool.pool(), cudaMemPoolAttrReservedMemHigh, &zero));
    result = msm();
    PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    PRESTAGE_CUDA_CHECK(
        cudaMemPoolGetAttribute(pool.pool(), cudaMemPoolAttrUsedMemHigh, &pool_used_high));
    PRESTAGE_CUDA_CHECK(
        cudaMemPoolGetAttribute(pool.pool(), cudaMemPoolAttrReservedMemHigh, &pool_reserved_high));
  }
  // Result check: the sizes here are too large for the host reference, so every row's result is
  // compared with one XYZZ run of the same inputs at the default options (points and scalars
  // depend only on the curve, log_n and scalar_kind; the XYZZ path is itself checked against the
  // host reference by gpu_msm_test to 2^16). Window size, accumulation, split and group size
  // change the computation, never the sum; a mismatch fails the whole benchmark (exit 3).
  static std::vector<std::pair<std::pair<unsigned, int>, decltype(result)>> reference;
  const auto key = std::make_pair(log_n, scalar_kind);
  auto ref = std::find_if(reference.begin(), reference.end(),
                          [&](const auto& e) { return e.first == key; });
  if (ref == reference.end()) {
    g::GpuMsmOptions xyzz_opt;
    xyzz_opt.accumulation = g::GpuMsmAccumulation::Xyzz;
    reference.emplace_back(key,
                           g::gpu_msm<Curve>(pts.data(), sc.data(), n, pool, stream, xyzz_opt));
    ref = reference.end() - 1;
  }
  const bool result_ok = result == ref->second;
  if (!result_ok) ++g_msm_result_mismatches;
  // Mixed XYZZ addition (madd-2008-s): 8M + 2S, one per item left for XYZZ level 0; XYZZ
  // addition (add-2008-s): 12M + 2S; a bucket costs 2 additions in the running sum. Batch-affine
  // rounds (gpu/msm/affine_batch.hpp): 3 per output (running product, 2 in the walk back), 3 per
  // pair addition (1S + 2M), 3 per thread product (second-level trick) and, with Fermat
  // inversions (GpuMsmOptions::affine_fermat), 608 per inversion (380 S + 228 M; Fq2: + 4 for
  // the norm and the conjugate). The default binary-Euclid inversions do no Montgomery products
  // (shift/subtract steps): the floor leaves them out (it stays a lower bound; Fq2's 4 counted).
  // fq_per_fp: Fq products per base-field product (Fq2: 3).
  const double buckets = double(stats.windows) * std::ldexp(1.0, stats.window_bits - 1);
  const double mixed = double(stats.nonzero_digits) +
                       (stats.split_01 ? double(stats.one_scalars) : 0.0) -
                       double(stats.affine_adds);
  const double inversion = (fq_per_fp > 1.0 ? 4.0 : 0.0) + (opt.affine_fermat ? 608.0 : 0.0);
  const double muls =
      fq_per_fp *
          (10.0 * mixed + 14.0 * (stats.partial_adds + 2 * buckets) +
           3.0 * (stats.affine_outputs + stats.affine_adds + stats.affine_thread_products)) +
      inversion * stats.affine_inversions;
  const double mem = double(n) * (sizeof(Affine) + sizeof(Fr)) / cl.bandwidth_Bps;
  // Rows name an explicit BatchAffine (_affine); Auto (the default) and Xyzz take no suffix (the
  // callers name an explicit Xyzz by `suffix` where Auto would pick BatchAffine).
  const bool xyzz = accumulation != g::GpuMsmAccumulation::BatchAffine;
  json r =
      row(name + (xyzz ? "" : "_affine") + (window_bits ? "_c" + std::to_string(window_bits) : "") +
              (min_blocks ? "_mb" + std::to_string(min_blocks) : "") +
              (affine_min_pairs ? "_amin" + std::to_string(affine_min_pairs) : "") +
              (affine_k ? "_k" + std::to_string(affine_k) : "") +
              (affine_k2 ? "_kk" + std::to_string(affine_k2) : "") +
              (group_pairs ? "_grp" + std::to_string(group_pairs) : "") + suffix +
              (per_call_alloc && opt.affine_persistent_scratch ? "_alloc" : ""),
          n, ms, mem, muls / cl.fq_mul_per_s,
          "memory: read n points + n scalars once; compute: Fq products of the additions "
          "this run did (10 per item left for the XYZZ mixed additions, 14 per reduction "
          "addition, 2 x 14 per bucket; batch-affine rounds: 3 per output, 3 per pair "
          "addition, 3 per thread product, 608 per Fermat inversion, none for the binary "
          "ones) at the measured Fq rate");
  r["result_matches_xyzz_default"] = result_ok;
  if (!result_ok)
    std::printf(
        "    RESULT MISMATCH: this row's MSM differs from the XYZZ default's on the same "
        "inputs\n");
  r["accumulation"] = stats.batch_affine ? "batch_affine" : "xyzz";
  r["reduce_scheme"] = opt.reduce == g::GpuMsmReduce::SuffixScan  ? "suffix_scan"
                       : opt.reduce == g::GpuMsmReduce::DoubleAdd ? "double_add"
                                                                  : "auto";
  r["affine_persistent_scratch"] = opt.affine_persistent_scratch;
  r["affine_scratch_B"] = stats.affine_scratch_bytes;
  r["workspace_B"] = ws_bytes;
  r["workspace_reused"] = !per_call_alloc;
  r["workspace_how"] =
      "gpu_msm_workspace_bytes(n, options); reused: one cudaMalloc for the row, every call on "
      "it (the pool high-water is then 0); per call (_alloc): from the default pool each call";
  r["pool_retained"] = retain_pool;
  r["pool_used_high_B"] = pool_used_high;
  r["pool_reserved_high_B"] = pool_reserved_high;
  r["pool_how"] =
      "cudaMemPoolAttrUsedMemHigh / ReservedMemHigh of the default pool over one gpu_msm call "
      "(pool trimmed and marks reset before it; the pool holds only the MSM's scratch)";
  r["affine_adds"] = stats.affine_adds;
  r["affine_outputs"] = stats.affine_outputs;
  r["affine_thread_products"] = stats.affine_thread_products;
  r["affine_inversions"] = stats.affine_inversions;
  r["affine_rounds"] = stats.affine_rounds;
  r["window_bits"] = stats.window_bits;
  r["windows"] = stats.windows;
  r["nonzero_digits"] = stats.nonzero_digits;
  r["partial_adds"] = stats.partial_adds;
  r["levels"] = stats.max_levels;
  r["split_01"] = stats.split_01;
  r["scalars_once"] = stats.scalars_once;  // msm13: canonical scalars converted once per call
  r["zero_scalars"] = stats.zero_scalars;
  r["one_scalars"] = stats.one_scalars;
  static const char* names[kPhases] = {"classify", "ones",          "digits",      "sort",
                                       "affine",   "affine_invert", "accumulate",  "reduce",
                                       "host",     "affine_gather", "affine_prep", "affine_add",
                                       "scratch",  "affine_map",    "scalars"};
  json ph;
  std::printf("    c=%u phases (median of 3 runs with events, ms):", stats.window_bits);
  for (int q = 0; q < kPhases; ++q) {
    ph[names[q]] = median(phase[q]);
    std::printf(" %s %.2f", names[q], median(phase[q]));
  }
  std::printf(
      "\n    workspace %.3f GiB (%s); pool high-water (one call): used %.3f GiB (%.1f B/point), "
      "reserved %.3f GiB; %s, persistent affine scratch %.3f GiB\n",
      double(ws_bytes) / (1u << 30), per_call_alloc ? "allocated per call" : "reused",
      double(pool_used_high) / (1u << 30), double(pool_used_high) / double(n),
      double(pool_reserved_high) / (1u << 30), stats.batch_affine ? "batch-affine" : "xyzz",
      double(stats.affine_scratch_bytes) / (1u << 30));
  r["phases_ms"] = ph;
  r["phases_how"] =
      "CUDA events between phases on the MSM stream (host waits count towards the "
      "next phase), host Horner by the host clock; median of 3 runs after the "
      "timed ones";
  rows.push_back(r);
}

// The inputs of a fixed-base bench: n points (`base` repeated, device), n random scalars
// (device), and the default gpu_msm on them (workspace reused): its row `default_row` (timed
// `reps` times after one warm-up) and its result, which every fixed-base row is compared with.
template <class Curve>
struct FixedBenchInputs {
  using Affine = typename Curve::Affine;
  g::SyncAllocator sync;
  std::size_t n;
  g::DeviceBuffer<Affine> pts;  // n points
  g::DeviceBuffer<Fr> sc;       // n scalars, Montgomery
  typename Curve::Jacobian def_result{};
  double def_ms = 0;
  FixedBenchInputs(const std::string& default_row, const std::vector<Affine>& base, unsigned log_n,
                   int reps, const Ceilings& cl, cudaStream_t stream, json& rows)
      : n(std::size_t{1} << log_n), pts(sync, n, stream), sc(sync, n, stream) {
    for (std::size_t first = 0; first < n; first += base.size()) {
      const std::size_t k = std::min(base.size(), n - first);
      PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(pts.data() + first, base.data(), k * sizeof(Affine),
                                          cudaMemcpyHostToDevice, stream));
    }
    random_fr_kernel<<<blocks(n), 256, 0, stream>>>(sc.data(), n, 77 + log_n, 0);
    PRESTAGE_CUDA_CHECK_LAUNCH();
    PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    const g::GpuMsmOptions opt;
    const std::size_t ws_bytes = g::gpu_msm_workspace_bytes<Curve>(n, opt);
    g::DeviceBuffer<unsigned char> ws(sync, ws_bytes, stream);
    const g::GpuMsmWorkspace w{ws.data(), ws.bytes()};
    const auto ms = time_runs(stream, 1, reps, [&] {
      (void)g::gpu_msm<Curve>(pts.data(), sc.data(), n, w, stream, opt);
    });
    def_result = g::gpu_msm<Curve>(pts.data(), sc.data(), n, w, stream, opt);
    def_ms = median(ms);
    json r =
        row(default_row, n, ms, double(n) * (sizeof(Affine) + sizeof(Fr)) / cl.bandwidth_Bps, 0.0,
            "memory: read n points + n scalars once (gpu_msm at its defaults, the A side)");
    r["workspace_B"] = ws_bytes;
    r["device_B"] = ws_bytes;
    rows.push_back(r);
  }
};

// Phases of a fixed-base call (ms, medians of 3 runs with opt.stats = &stats; `result` the last
// run's): digits, sort, affine (map + prep + the rounds' other time), affine_invert, affine_add,
// accumulate (XYZZ tail), reduce, affine_prep.
template <class Curve>
json fixed_phases(const g::GpuMsmBaseTable<Curve>& table, const Fr* d_scalars, std::size_t n,
                  const g::GpuMsmWorkspace& w, cudaStream_t stream, g::GpuMsmOptions opt,
                  g::GpuMsmStats& stats, typename Curve::Jacobian& result) {
  constexpr int kPh = 8;
  static const char* names[kPh] = {"digits",     "sort",       "affine", "affine_invert",
                                   "affine_add", "accumulate", "reduce", "affine_prep"};
  opt.stats = &stats;
  std::vector<double> phase[kPh];
  for (int k = 0; k < 3; ++k) {
    result = g::gpu_msm_fixed_base<Curve>(table, d_scalars, n, w, stream, opt);
    const double p[kPh] = {stats.digits_ms,
                           stats.sort_ms,
                           stats.affine_ms + stats.affine_map_ms + stats.affine_prep_ms,
                           stats.affine_invert_ms,
                           stats.affine_add_ms,
                           stats.accumulate_ms,
                           stats.reduce_ms,
                           stats.affine_prep_ms};
    for (int q = 0; q < kPh; ++q) phase[q].push_back(p[q]);
  }
  json ph = json::object();
  for (int q = 0; q < kPh; ++q) ph[names[q]] = median(phase[q]);
  return ph;
}

// Msm14: the fixed-base MSM (gpu/msm/gpu_msm_fixed_base.hpp) beside the default gpu_msm on the
// same inputs in one process. Row `name`_default: gpu_msm at its defaults (workspace reused);
// then for each c in `cs` (0: gpu_msm_fixed_base_window_bits), row `name`_cC: the table built once
// (build_ms, one build timed by CUDA events; table_B), then the fixed-base call timed on a
// reused workspace (slices of `slice_pairs` pairs, 0 = the default), its result compared with
// the default's (a mismatch counts in g_msm_result_mismatches: exit 3). A c whose table and
// workspace do not fit the free device memory (cudaMemGetInfo, 2 GiB kept) is skipped and says so.
template <class Curve>
void bench_msm_fixed(const std::string& name, const std::vector<typename Curve::Affine>& base,
                     unsigned log_n, const std::vector<unsigned>& cs, double fq_per_fp,
                     const Ceilings& cl, cudaStream_t stream, json& rows,
                     std::size_t slice_pairs = 0, const std::string& suffix = "",
                     const std::function<void(g::GpuMsmOptions&)>& tweak = nullptr) {
  using Affine = typename Curve::Affine;
  using Jacobian = typename Curve::Jacobian;
  const int reps = log_n >= 26 ? 3 : log_n >= 24 ? 5 : 9;
  const FixedBenchInputs<Curve> in(name + "_default" + suffix, base, log_n, reps, cl, stream, rows);
  g::SyncAllocator sync;
  const std::size_t n = in.n;
  const auto& sc = in.sc;
  const auto& pts = in.pts;
  const Jacobian& def_result = in.def_result;
  const double def_ms = in.def_ms;
  for (unsigned c0 : cs) {
    const unsigned c = c0 != 0 ? c0 : g::gpu_msm_fixed_base_window_bits(fq_per_fp > 1.0, n);
    const unsigned W = g::gpu_msm_num_windows(c);
    g::GpuMsmStats stats;
    g::GpuMsmOptions opt;
    opt.max_group_pairs = slice_pairs;
    if (tweak) tweak(opt);
    const std::size_t table_bytes = g::gpu_msm_base_table_bytes<Curve>(n, c);
    const std::size_t ws_bytes = g::gpu_msm_fixed_base_workspace_bytes<Curve>(n, c, opt);
    const std::size_t build_scratch =
        std::min<std::size_t>(n, std::size_t{1} << 22) *
        (sizeof(typename Curve::Xyzz) + sizeof(typename Affine::Field));
    std::size_t free_b = 0, total_b = 0;
    PRESTAGE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const std::string rname = name + "_c" + std::to_string(c) + suffix;
    if (table_bytes + ws_bytes + build_scratch + (std::size_t{2} << 30) > free_b) {
      std::printf("%-28s n=2^%-2u skipped: table %.2f GiB + workspace %.2f GiB > free %.2f GiB\n",
                  rname.c_str(), log_n, table_bytes / 1073741824.0, ws_bytes / 1073741824.0,
                  free_b / 1073741824.0);
      rows.push_back({{"name", rname},
                      {"log_n", log_n},
                      {"skipped", "device memory"},
                      {"table_B", table_bytes},
                      {"workspace_B", ws_bytes},
                      {"free_B", free_b}});
      continue;
    }
    g::DeviceBuffer<unsigned char> table_buf(sync, table_bytes, stream);
    g::GpuMsmBaseTable<Curve> table;
    const auto build_ms = time_runs(stream, 0, 1, [&] {
      table = g::gpu_msm_build_base_table<Curve>(pts.data(), n, c, table_buf.data(), table_bytes,
                                                 sync, stream);
    });
    g::DeviceBuffer<unsigned char> ws(sync, ws_bytes, stream);
    const g::GpuMsmWorkspace w{ws.data(), ws.bytes()};
    const auto ms = time_runs(stream, 1, reps, [&] {
      (void)g::gpu_msm_fixed_base<Curve>(table, sc.data(), n, w, stream, opt);
    });
    Jacobian result{};
    const json ph = fixed_phases(table, sc.data(), n, w, stream, opt, stats, result);
    const bool ok = result == def_result;
    if (!ok) {
      ++g_msm_result_mismatches;
      std::printf("    RESULT MISMATCH: the fixed-base MSM differs from gpu_msm's default\n");
    }
    // Fq products as bench_msm's floor (one window of 2^(c-1) buckets).
    const double buckets = std::ldexp(1.0, c - 1);
    const double mixed = double(stats.nonzero_digits) - double(stats.affine_adds);
    const double muls =
        fq_per_fp *
            (10.0 * mixed + 14.0 * (stats.partial_adds + 2 * buckets) +
             3.0 * (stats.affine_outputs + stats.affine_adds + stats.affine_thread_products)) +
        (fq_per_fp > 1.0 ? 4.0 : 0.0) * stats.affine_inversions;
    const double mem = double(n) *
                       (W * sizeof(typename g::GpuMsmBaseTable<Curve>::Entry) + sizeof(Fr)) /
                       cl.bandwidth_Bps;
    json r = row(rname, n, ms, mem, muls / cl.fq_mul_per_s,
                 "memory: read the n W table points + n scalars once; compute: Fq products of "
                 "the additions this run did, as g1_msm's floor, over one window of 2^(c-1) "
                 "buckets");
    r["result_matches_default"] = ok;
    r["default_median_ms"] = def_ms;
    r["speedup_vs_default"] = def_ms / median(ms);
    r["window_bits"] = c;
    r["windows"] = W;
    r["slices"] = stats.window_groups;
    r["slice_pairs_option"] = slice_pairs;
    r["reduce_scheme"] = opt.reduce == g::GpuMsmReduce::SuffixScan  ? "suffix_scan"
                         : opt.reduce == g::GpuMsmReduce::DoubleAdd ? "double_add"
                                                                    : "auto";
    r["table_B"] = table_bytes;
    r["build_ms"] = build_ms[0];
    r["workspace_B"] = ws_bytes;
    r["affine_scratch_B"] = stats.affine_scratch_bytes;
    r["accumulation"] = stats.batch_affine ? "batch_affine" : "xyzz";
    r["nonzero_digits"] = stats.nonzero_digits;
    r["affine_adds"] = stats.affine_adds;
    r["affine_rounds"] = stats.affine_rounds;
    r["partial_adds"] = stats.partial_adds;
    r["levels"] = stats.max_levels;
    std::printf("    c=%u W=%u slices=%u phases (median of 3, ms):", c, W, stats.window_groups);
    for (const auto& [phase_name, v] : ph.items())
      std::printf(" %s %.2f", phase_name.c_str(), v.get<double>());
    std::printf(
        "\n    table %.3f GiB built in %.1f ms; workspace %.3f GiB (affine scratch %.3f "
        "GiB); default %.3f ms -> x%.3f\n",
        table_bytes / 1073741824.0, build_ms[0], ws_bytes / 1073741824.0,
        stats.affine_scratch_bytes / 1073741824.0, def_ms, def_ms / median(ms));
    r["phases_ms"] = ph;
    rows.push_back(r);
  }
}

// Option sets of bench_msm_fixed_variants (msm16's A/B tokens): (row suffix, tweak of the
// default options; null = the defaults).
using FixedTweak = std::function<void(g::GpuMsmOptions&)>;
using FixedVariants = std::vector<std::pair<std::string, FixedTweak>>;
FixedTweak tweak_per_thread(unsigned k) {
  return [k](g::GpuMsmOptions& o) { o.affine_per_thread = k; };
}
FixedTweak tweak_min_pairs(std::size_t p) {
  return [p](g::GpuMsmOptions& o) { o.affine_min_pairs = p; };
}

// Msm16: option sets of the fixed-base MSM on ONE table in one process, beside the default
// gpu_msm. Row `name`_default: gpu_msm at its defaults (workspace reused); then for each
// (suffix, tweak) in `variants`, row `name`_cC`suffix`: the fixed-base call at c with the tweaked
// options, timed `reps` times (one warm-up) on its own workspace, in `passes` interleaved passes
// over the variants (each pass allocates the variant's workspace afresh; the row's runs_ms are
// all passes' runs, its median over them, pass_medians_ms each pass's), phases (medians of 3,
// first pass), the result compared with the default's on every pass (a mismatch counts in
// g_msm_result_mismatches: exit 3), memory: table_B, workspace_B and their sum (device_B).
template <class Curve>
void bench_msm_fixed_variants(const std::string& name,
                              const std::vector<typename Curve::Affine>& base, unsigned log_n,
                              unsigned c0, double fq_per_fp, const Ceilings& cl,
                              cudaStream_t stream, json& rows, const FixedVariants& variants,
                              int reps, int passes) {
  using Jacobian = typename Curve::Jacobian;
  const FixedBenchInputs<Curve> in(name + "_default", base, log_n, reps, cl, stream, rows);
  g::SyncAllocator sync;
  const std::size_t n = in.n;
  const auto& sc = in.sc;
  const auto& pts = in.pts;
  const Jacobian& def_result = in.def_result;
  const double def_ms = in.def_ms;
  const unsigned c = c0 != 0 ? c0 : g::gpu_msm_fixed_base_window_bits(fq_per_fp > 1.0, n);
  const unsigned W = g::gpu_msm_num_windows(c);
  const std::size_t table_bytes = g::gpu_msm_base_table_bytes<Curve>(n, c);
  g::DeviceBuffer<unsigned char> table_buf(sync, table_bytes, stream);
  g::GpuMsmBaseTable<Curve> table;
  const auto build_ms = time_runs(stream, 0, 1, [&] {
    table = g::gpu_msm_build_base_table<Curve>(pts.data(), n, c, table_buf.data(), table_bytes,
                                               sync, stream);
  });
  const std::size_t nv = variants.size();
  std::vector<std::vector<double>> all_ms(nv), pass_med(nv);
  std::vector<json> phases(nv);
  std::vector<std::size_t> ws_of(nv);
  std::vector<g::GpuMsmStats> stats_of(nv);
  std::vector<bool> ok_of(nv, true);
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t v = 0; v < nv; ++v) {
      g::GpuMsmOptions opt;
      if (variants[v].second) variants[v].second(opt);
      const std::size_t ws_bytes = g::gpu_msm_fixed_base_workspace_bytes<Curve>(n, c, opt);
      ws_of[v] = ws_bytes;
      std::size_t free_b = 0, total_b = 0;
      PRESTAGE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
      if (ws_bytes + (std::size_t{1} << 30) > free_b) {
        std::printf("%s_c%u%s skipped: workspace %.2f GiB > free %.2f GiB\n", name.c_str(), c,
                    variants[v].first.c_str(), ws_bytes / 1073741824.0, free_b / 1073741824.0);
        continue;
      }
      g::DeviceBuffer<unsigned char> ws(sync, ws_bytes, stream);
      const g::GpuMsmWorkspace w{ws.data(), ws.bytes()};
      const auto ms = time_runs(stream, 1, reps, [&] {
        (void)g::gpu_msm_fixed_base<Curve>(table, sc.data(), n, w, stream, opt);
      });
      all_ms[v].insert(all_ms[v].end(), ms.begin(), ms.end());
      pass_med[v].push_back(median(ms));
      g::GpuMsmStats& stats = stats_of[v];
      opt.stats = &stats;
      Jacobian result = g::gpu_msm_fixed_base<Curve>(table, sc.data(), n, w, stream, opt);
      if (pass == 0) phases[v] = fixed_phases(table, sc.data(), n, w, stream, opt, stats, result);
      if (!(result == def_result)) {
        ok_of[v] = false;
        ++g_msm_result_mismatches;
        std::printf("    RESULT MISMATCH: %s_c%u%s differs from gpu_msm's default\n", name.c_str(),
                    c, variants[v].first.c_str());
      }
      std::printf("    pass %d %s_c%u%s median %.3f ms\n", pass, name.c_str(), c,
                  variants[v].first.c_str(), median(ms));
      std::fflush(stdout);
    }
  }
  for (std::size_t v = 0; v < nv; ++v) {
    const std::string rname = name + "_c" + std::to_string(c) + variants[v].first;
    if (all_ms[v].empty()) {
      rows.push_back({{"name", rname},
                      {"log_n", log_n},
                      {"skipped", "device memory"},
                      {"table_B", table_bytes},
                      {"workspace_B", ws_of[v]}});
      continue;
    }
    const g::GpuMsmStats& stats = stats_of[v];
    const double mem = double(n) *
                       (W * sizeof(typename g::GpuMsmBaseTable<Curve>::Entry) + sizeof(Fr)) /
                       cl.bandwidth_Bps;
    json r = row(rname, n, all_ms[v], mem, 0.0,
                 "memory: read the n W table points + n scalars once (msm16 variant rows: no "
                 "compute floor)");
    r["pass_medians_ms"] = pass_med[v];
    r["result_matches_default"] = static_cast<bool>(ok_of[v]);
    r["default_median_ms"] = def_ms;
    r["speedup_vs_default"] = def_ms / median(all_ms[v]);
    r["window_bits"] = c;
    r["windows"] = W;
    r["slices"] = stats.window_groups;
    r["table_B"] = table_bytes;
    r["build_ms"] = build_ms[0];
    r["workspace_B"] = ws_of[v];
    r["device_B"] = table_bytes + ws_of[v];
    r["affine_scratch_B"] = stats.affine_scratch_bytes;
    r["accumulation"] = stats.batch_affine ? "batch_affine" : "xyzz";
    r["nonzero_digits"] = stats.nonzero_digits;
    r["affine_adds"] = stats.affine_adds;
    r["affine_outputs"] = stats.affine_outputs;
    r["affine_thread_products"] = stats.affine_thread_products;
    r["affine_inversions"] = stats.affine_inversions;
    r["affine_rounds"] = stats.affine_rounds;
    r["partial_adds"] = stats.partial_adds;
    r["levels"] = stats.max_levels;
    r["phases_ms"] = phases[v];
    std::printf("    slices=%u table %.3f GiB (build %.1f ms) workspace %.3f GiB; phases %s\n",
                stats.window_groups, table_bytes / 1073741824.0, build_ms[0],
                ws_of[v] / 1073741824.0, phases[v].dump().c_str());
    rows.push_back(r);
  }
}
}  // namespace

int main(int argc, char** argv) {
  std::string out_path = "gpu_bench.json", commit = "unknown";
  unsigned max_log = 27;
  bool quick = false, forward_only = false;
  std::string rows_sel = "ntt,h,msm";
  std::vector<unsigned> ntt_logs = {20, 24, 26, 27};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--out" && i + 1 < argc)
      out_path = argv[++i];
    else if (a == "--commit" && i + 1 < argc)
      commit = argv[++i];
    else if (a == "--max-log" && i + 1 < argc)
      max_log = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--quick")
      quick = true;
    else if (a == "--rows" && i + 1 < argc)
      rows_sel = std::string(",") + argv[++i] + ",";
    else if (a == "--forward-only")
      forward_only = true;
    else if (a == "--ntt-logs" && i + 1 < argc) {
      ntt_logs.clear();
      std::string list = argv[++i];
      for (std::size_t pos = 0; pos < list.size();) {
        const std::size_t end = std::min(list.find(',', pos), list.size());
        const unsigned k = static_cast<unsigned>(std::stoul(list.substr(pos, end - pos)));
        if (k < 1 || k > 28) {
          std::fprintf(stderr, "gpu_bench: --ntt-logs entries must be in 1..28\n");
          return 2;
        }
        ntt_logs.push_back(k);
        pos = end + 1;
      }
    } else {
      std::fprintf(stderr,
                   "usage: gpu_bench [--out FILE] [--commit SHA] [--max-log K] [--quick] "
                   "[--rows ntt,h,msm] [--ntt-logs K,K..] [--forward-only]\n");
      return 2;
    }
  }
  try {
    json out;
    cudaDeviceProp prop{};
    int dev = 0, driver = 0, runtime = 0;
    PRESTAGE_CUDA_CHECK(cudaGetDevice(&dev));
    PRESTAGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    PRESTAGE_CUDA_CHECK(cudaDriverGetVersion(&driver));
    PRESTAGE_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    out["manifest"] = {
        {"program", "gpu_bench"},
        {"commit", commit},
        {"date", date},
        {"gpu", prop.name},
        {"cuda_driver", driver},
        {"cuda_runtime", runtime},
        {"sm", std::to_string(prop.major) + std::to_string(prop.minor)},
        {"max_log", max_log},
        {"quick", quick},
        {"ntt_tuning",
         std::getenv("PRESTAGE_NTT_TUNING") ? std::getenv("PRESTAGE_NTT_TUNING") : "default"}};
    g::Stream stream;
    g::SyncAllocator sync;
    const Ceilings cl = measure_ceilings(sync, stream, out);
    json rows = json::array();
    if (rows_sel.front() != ',') rows_sel = "," + rows_sel + ",";
    auto want = [&](const char* r) {
      return rows_sel.find(std::string(",") + r + ",") != std::string::npos;
    };
    out["manifest"]["rows"] = rows_sel;
    for (unsigned k : ntt_logs) {
      if (k <= max_log && want("ntt"))
        bench_ntt(k, !forward_only, want("coset_hilo"), cl, stream, rows);
    }
    for (unsigned k : ntt_logs) {
      if (k <= max_log && want("mirror_ab")) bench_mirror_ab(k, 3, cl, stream, rows);
    }
    if (want("h")) {
      if (max_log >= 27 && !quick)
        bench_h(27, cl, stream, rows);
      else
        bench_h(std::min(max_log, 20u), cl, stream, rows);
      for (unsigned k : ntt_logs) {
        if (k <= max_log) bench_h_input(k, cl, stream, rows);
      }
    }
    const auto want_msm = [&](const char* r) { return want("msm") || want(r); };
    if (!want_msm("g1_msm") && !want_msm("g2_msm") && !want_msm("porep") &&
        !want_msm("g1_window") && !want_msm("g2_window") && !want("msm_occupancy") &&
        !want("msm_affine_min") && !want("msm_affine_k") && !want("msm_affine_ab") &&
        !want("msm_affine_ab8") && !want("msm_affine_ab8b") && !want("msm_affine_ab9") &&
        !want("msm_affine_ab9b") && !want("g2_variants") && !want("msm_auto_rule") &&
        !want("msm_ws10") && !want("msm_ws10b") && !want("msm_g2_ab12") && !want("msm_ab12_next") &&
        !want("msm_affine_ab11") && !want("msm_ab13") && !want("msm_fixed14") &&
        !want("msm_fixed14b") && !want("msm_fixed15") && !want("msm_fixed16") &&
        !want("msm_fixed16b") && !want_msm("msm_fixed")) {
      out["rows"] = rows;
      std::ofstream f(out_path);
      f << out.dump(2) << "\n";
      if (!f) {
        std::fprintf(stderr, "gpu_bench: cannot write %s\n", out_path.c_str());
        return 1;
      }
      std::printf("wrote %s\n", out_path.c_str());
      return 0;
    }

    const auto t0 = std::chrono::steady_clock::now();
    const auto g1_base = host_points<ec::G1Affine, ec::G1Jacobian>(std::size_t{1} << 18, 1);
    const auto g2_base = host_points<ec::G2Affine, ec::G2Jacobian>(std::size_t{1} << 16, 2);
    std::printf("host point generation: %.1f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    // Each size with the default accumulation (GpuMsmAccumulation::Auto: gpu_msm_auto_batch_affine,
    // batch-affine for G2 2^20 and 2^22, G1 2^17 to 2^27 from msm11 on) and the other one: *_affine
    // where the default is XYZZ, *_xyzz where it is batch-affine.
    const auto affine = g::GpuMsmAccumulation::BatchAffine;
    const auto xyzz = g::GpuMsmAccumulation::Xyzz;
    const auto autoacc = g::GpuMsmAccumulation::Auto;
    // The pair of rows at 2^k: `curve` (g::GpuG1{} or g::GpuG2{}) selects the curve, `fq_per_fp` is
    // bench_msm's (Fq products a base-field product: 1 for G1, 3 for G2).
    const auto default_and_other = [&](auto curve, const char* name, const auto& base, unsigned k,
                                       double fq_per_fp) {
      using Curve = decltype(curve);
      const bool g2 = std::is_same_v<Curve, g::GpuG2>;
      bench_msm<Curve>(name, base, k, 0, 0, fq_per_fp, cl, stream, rows, true, 0, autoacc);
      const bool default_affine = g::gpu_msm_auto_batch_affine(g2, std::size_t{1} << k);
      bench_msm<Curve>(name, base, k, 0, 0, fq_per_fp, cl, stream, rows, true, 0,
                       default_affine ? xyzz : affine, 0, 0, 0, 0, default_affine ? "_xyzz" : "");
    };
    // 2^27: a full PoRep partition's H MSM, random scalars (both accumulations from msm11 on: the
    // G1 default is batch-affine from 2^17 to 2^27, g1_msm_xyzz the other one).
    for (unsigned k : {20u, 22u, 24u, 26u, 27u}) {
      if (k > max_log || !want_msm("g1_msm") || (k == 27 && quick)) continue;
      default_and_other(g::GpuG1{}, "g1_msm", g1_base, k, 1.0);
    }
    // Msm11 (only when --rows names msm_affine_ab11), G1, same process: (1) both accumulations at
    // the sizes around G1's Auto range (2^16 to 2^19, 2^21, 2^23, 2^25); (2) the map kernel, one
    // warp a bucket (the default) against msm9's search an output (_mapsearch), default first, at
    // 2^20 to 2^26; (3) batch-affine window groups of 2^27 and 2^28 pairs (_grpN) at 2^24 and
    // 2^26; (4) affine_min_pairs 2^19 and 2^21 at 2^24 (_aminN); (5) Auto under a 4 GiB
    // max_workspace_bytes at 2^24 (_ws4g: XYZZ, the batch-affine layout does not fit); (6), (7)
    // below.
    for (unsigned k : {16u, 17u, 18u, 19u, 21u, 23u, 25u}) {
      if (k > max_log || quick || !want("msm_affine_ab11")) continue;
      default_and_other(g::GpuG1{}, "g1_msm", g1_base, k, 1.0);
    }
    for (unsigned k : {20u, 22u, 24u, 26u}) {
      if (k > max_log || quick || !want("msm_affine_ab11")) continue;
      bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc);
      bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc, 0, 0,
                          0, 0, "_mapsearch",
                          [](g::GpuMsmOptions& o) { o.affine_map_bucket = false; });
    }
    for (unsigned k : {24u, 26u}) {
      if (k > max_log || quick || !want("msm_affine_ab11")) continue;
      for (std::size_t gp : {std::size_t{1} << 27, std::size_t{1} << 28})
        bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc, 0,
                            0, 0, gp);
    }
    if (max_log >= 24 && !quick && want("msm_affine_ab11")) {
      for (std::size_t amin : {std::size_t{1} << 19, std::size_t{1} << 21})
        bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc,
                            amin);
      bench_msm<g::GpuG1>(
          "g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc, 0, 0, 0, 0, "_ws4g",
          [](g::GpuMsmOptions& o) { o.max_workspace_bytes = std::size_t{4} << 30; });
      // (6) chain lengths K (_kN) and the invert threads' cap (_inv15, _inv17) around the defaults
      // (8, 2^16), and round 0 gathered into bucket order first (_gather; with the persistent
      // scratch, unlike msm7's measurement), default first.
      bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc);
      for (unsigned k : {6u, 12u})
        bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc, 0,
                            k);
      for (unsigned inv : {15u, 17u})
        bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc, 0,
                            0, 0, 0, "_inv" + std::to_string(inv),
                            [inv](g::GpuMsmOptions& o) { o.affine_invert_threads = 1u << inv; });
      for (unsigned k : {24u, 26u}) {
        if (k > max_log) continue;
        bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc, 0,
                            0, 0, 0, "_gather",
                            [](g::GpuMsmOptions& o) { o.affine_gather = true; });
      }
    }
    // (7) The map kernel for G2 (batch-affine by default at 2^20 to 2^23), default first.
    for (unsigned k : {20u, 22u}) {
      if (k > max_log || quick || !want("msm_affine_ab11")) continue;
      bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc);
      bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc, 0, 0,
                          0, 0, "_mapsearch",
                          [](g::GpuMsmOptions& o) { o.affine_map_bucket = false; });
    }
    for (unsigned k : {20u, 22u}) {
      if (k > max_log || !want_msm("g2_msm")) continue;
      default_and_other(g::GpuG2{}, "g2_msm", g2_base, k, 3.0);
    }
    // The Auto rule's edges (only when --rows names msm_auto_rule): both accumulations at the
    // sizes next to the rule's (G2 2^18, 2^19, 2^21, 2^23; G1 2^23, 2^25), so the rule's bounds
    // rest on measurements on both sides. Rows as g1_msm / g2_msm (default + other).
    for (unsigned k : {18u, 19u, 21u, 23u}) {
      if (k > max_log || quick || !want("msm_auto_rule")) continue;
      default_and_other(g::GpuG2{}, "g2_msm", g2_base, k, 3.0);
    }
    for (unsigned k : {23u, 25u}) {
      if (k > max_log || quick || !want("msm_auto_rule")) continue;
      default_and_other(g::GpuG1{}, "g1_msm", g1_base, k, 1.0);
    }
    // Msm8's batch-affine A/B (only when --rows names msm_affine_ab8): the default (persistent
    // scratch) beside each knob moved alone, at G1 2^24 and G2 2^20 (G2 2^22 and G1 2^26 too
    // when --max-log allows): _perround (scratch per round: msm7's default), _retain (the pool
    // keeps its memory between calls: the allocations' cost), _grp26 / _grp27 (window groups
    // of 2^26 / 2^27 pairs: fewer rounds, more scratch), _amin20 / _amin22 (the rounds'
    // threshold 2^20 / 2^22 pairs: fewer rounds, more XYZZ), _kk16 / _kk32 (K2 fixed), _k4 /
    // _k16 (K), _inv16 / _inv17 (the K2 rule's cap on invert threads 2^16 / 2^17), _grp27_retain.
    struct Ab8Row {
      const char* suffix;
      std::function<void(g::GpuMsmOptions&)> tweak;
      bool retain;
    };
    const Ab8Row ab8[] = {
        {"", nullptr, false},
        {"_perround", [](g::GpuMsmOptions& o) { o.affine_persistent_scratch = false; }, false},
        {"_retain", nullptr, true},
        {"_grp26", [](g::GpuMsmOptions& o) { o.max_group_pairs = std::size_t{1} << 26; }, false},
        {"_grp27", [](g::GpuMsmOptions& o) { o.max_group_pairs = std::size_t{1} << 27; }, false},
        {"_amin20", [](g::GpuMsmOptions& o) { o.affine_min_pairs = std::size_t{1} << 20; }, false},
        {"_amin22", [](g::GpuMsmOptions& o) { o.affine_min_pairs = std::size_t{1} << 22; }, false},
        {"_kk16", [](g::GpuMsmOptions& o) { o.affine_per_inversion = 16; }, false},
        {"_kk32", [](g::GpuMsmOptions& o) { o.affine_per_inversion = 32; }, false},
        {"_inv16", [](g::GpuMsmOptions& o) { o.affine_invert_threads = 1u << 16; }, false},
        {"_inv17", [](g::GpuMsmOptions& o) { o.affine_invert_threads = 1u << 17; }, false},
        {"_k4", [](g::GpuMsmOptions& o) { o.affine_per_thread = 4; }, false},
        {"_k16", [](g::GpuMsmOptions& o) { o.affine_per_thread = 16; }, false},
        {"_grp27_retain", [](g::GpuMsmOptions& o) { o.max_group_pairs = std::size_t{1} << 27; },
         true},
        {"", nullptr, false}};  // the default again: drift within the process
    for (const auto& a : ab8) {
      if (quick || !want("msm_affine_ab8")) continue;
      // G2 2^22 and G1 2^26: the default, _perround and the _retain rows only.
      const std::string sfx = a.suffix;
      const bool big = sfx.empty() || sfx == "_retain" || sfx == "_perround";
      for (unsigned k : {20u, 22u}) {
        if (k <= max_log && (k == 20 || big))
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, affine, 0,
                              0, 0, 0, a.suffix, a.tweak, a.retain);
      }
      for (unsigned k : {24u, 26u}) {
        if (k <= max_log && (k == 24 || big))
          bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, affine, 0,
                              0, 0, 0, a.suffix, a.tweak, a.retain);
      }
    }
    // Batch-affine A/B (msm7; only when --rows names msm_affine_ab): each knob of msm7 moved
    // alone off its default, at G1 2^24 and G2 2^20, beside the default, then all of them
    // (_msmaffine: the msmaffine kernels and knobs, main's path before msm7). Msm7 run 1 measured
    // these rows with an earlier default (round 0 gathered, lean add for both curves): its
    // _nogather row is this default but for G2's add kernel (now msmaffine's). Rows: round 0
    // gathered (_gather) or not (_nogather), Fermat inversions (_fermat), K2 fixed at 64
    // (_kk64; the rule picks 64 for big rounds, down to 8 for small ones), each add kernel
    // (_addlean, _addleanlow, _addmsmaffine), the prep kernel at msmaffine's occupancy (G1
    // _prep2, G2 _prep1), the scratch kept for the whole call (_persist, _gather_persist; not
    // yet measured). Same process, same data.
    const auto old_knobs = [](g::GpuMsmOptions& o, unsigned prep) {
      o.affine_gather = false;
      o.affine_fermat = true;
      o.affine_per_inversion = 64;
      o.affine_add = g::GpuMsmAffineAdd::Msmaffine;
      o.affine_prep_min_blocks = prep;
    };
    struct AbRow {
      const char* suffix;
      std::function<void(g::GpuMsmOptions&)> tweak;
      bool g1, g2;
    };
    const AbRow ab[] = {
        {"", nullptr, true, true},
        {"_gather", [](g::GpuMsmOptions& o) { o.affine_gather = true; }, true, true},
        {"_nogather", [](g::GpuMsmOptions& o) { o.affine_gather = false; }, true, true},
        {"_fermat", [](g::GpuMsmOptions& o) { o.affine_fermat = true; }, true, true},
        {"_kk64", [](g::GpuMsmOptions& o) { o.affine_per_inversion = 64; }, true, true},
        {"_addmsmaffine", [](g::GpuMsmOptions& o) { o.affine_add = g::GpuMsmAffineAdd::Msmaffine; },
         true, true},
        {"_addlean", [](g::GpuMsmOptions& o) { o.affine_add = g::GpuMsmAffineAdd::Lean; }, true,
         true},
        {"_addleanlow", [](g::GpuMsmOptions& o) { o.affine_add = g::GpuMsmAffineAdd::LeanLow; },
         true, true},
        {"_persist", [](g::GpuMsmOptions& o) { o.affine_persistent_scratch = true; }, true, true},
        {"_gather_persist",
         [](g::GpuMsmOptions& o) {
           o.affine_persistent_scratch = true;
           o.affine_gather = true;
         },
         true, true},
        {"_prep2", [](g::GpuMsmOptions& o) { o.affine_prep_min_blocks = 2; }, true, false},
        {"_prep1", [](g::GpuMsmOptions& o) { o.affine_prep_min_blocks = 1; }, false, true},
        {"_msmaffine", [&](g::GpuMsmOptions& o) { old_knobs(o, 2); }, true, false},
        {"_msmaffine", [&](g::GpuMsmOptions& o) { old_knobs(o, 1); }, false, true},
        {"", nullptr, true, true}};  // the default again: drift within the process
    for (const auto& a : ab) {
      if (quick || !want("msm_affine_ab")) continue;
      if (max_log >= 20 && a.g2)
        bench_msm<g::GpuG2>("g2_msm", g2_base, 20, 0, 0, 3.0, cl, stream, rows, true, 0, affine, 0,
                            0, 0, 0, a.suffix, a.tweak);
      if (max_log >= 24 && a.g1)
        bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0, affine, 0,
                            0, 0, 0, a.suffix, a.tweak);
    }
    // Msm8 run 2 (only when --rows names msm_affine_ab8b): the G1 batch-affine defaults of msm8
    // (window groups of 2^26 pairs, rounds down to 2^20 pairs) beside msm8 run 1's (_grp25,
    // _amin18), XYZZ and batch-affine at G1 2^26 in one process, and each with the pool
    // retaining its memory between calls (_retain, _xyzz_retain: the allocations' cost);
    // G2 2^22 with one window group (_grp26). The G1 2^24 default again last (drift).
    struct Ab8bRow {
      bool g2;
      unsigned k;
      g::GpuMsmAccumulation acc;
      const char* suffix;
      std::function<void(g::GpuMsmOptions&)> tweak;
      bool retain;
    };
    const auto grp = [](unsigned lg) {
      return [lg](g::GpuMsmOptions& o) { o.max_group_pairs = std::size_t{1} << lg; };
    };
    const auto amin18 = [](g::GpuMsmOptions& o) { o.affine_min_pairs = std::size_t{1} << 18; };
    const Ab8bRow ab8b[] = {{false, 24, affine, "", nullptr, false},
                            {false, 24, affine, "_grp25", grp(25), false},
                            {false, 24, affine, "_amin18", amin18, false},
                            {false, 24, affine, "_retain", nullptr, true},
                            {false, 24, xyzz, "_xyzz_retain", nullptr, true},
                            {false, 24, affine, "_grp27_retain", grp(27), true},
                            {true, 22, affine, "", nullptr, false},
                            {true, 22, affine, "_grp26", grp(26), false},
                            {false, 26, xyzz, "_xyzz", nullptr, false},
                            {false, 26, affine, "", nullptr, false},
                            {false, 26, affine, "_amin18", amin18, false},
                            {false, 26, xyzz, "_xyzz_retain", nullptr, true},
                            {false, 26, affine, "_retain", nullptr, true},
                            {false, 24, affine, "", nullptr, false}};
    for (const auto& a : ab8b) {
      if (quick || !want("msm_affine_ab8b") || a.k > max_log) continue;
      if (a.g2)
        bench_msm<g::GpuG2>("g2_msm", g2_base, a.k, 0, 0, 3.0, cl, stream, rows, true, 0, a.acc, 0,
                            0, 0, 0, a.suffix, a.tweak, a.retain);
      else
        bench_msm<g::GpuG1>("g1_msm", g1_base, a.k, 0, 0, 1.0, cl, stream, rows, true, 0, a.acc, 0,
                            0, 0, 0, a.suffix, a.tweak, a.retain);
    }
    // Msm10 (only when --rows names msm_ws10): the caller-owned workspace reused across calls
    // (the default rows) beside the per-call allocation (_alloc: one workspace from the default
    // pool each call, as main before msm10), XYZZ and batch-affine, G1 2^24 and 2^26, G2 2^20;
    // the next group's steps 1-2 beside this group's accumulation (_ovl: overlap_sort);
    // then the batch-affine window sizes with the workspace reused (g1_msm_window_affine_cC,
    // g2_msm_window_affine_cC): G1 2^24 c = 15..18, G1 2^26 c = 18..21, G2 2^20 c = 12..16.
    if (!quick && want("msm_ws10")) {
      // The workspace a call of the default options declares (gpu_msm_workspace_bytes; no GPU
      // work), 2^16..2^27, for the staging model's msm_scratch.
      json wsb;
      for (unsigned k = 16; k <= 27; ++k) {
        const std::size_t n = std::size_t{1} << k;
        wsb["g1_" + std::to_string(k)] = g::gpu_msm_workspace_bytes<g::GpuG1>(n);
        wsb["g2_" + std::to_string(k)] = g::gpu_msm_workspace_bytes<g::GpuG2>(n);
        g::GpuMsmOptions ba;
        ba.accumulation = g::GpuMsmAccumulation::BatchAffine;
        wsb["g1_affine_" + std::to_string(k)] = g::gpu_msm_workspace_bytes<g::GpuG1>(n, ba);
        std::printf("workspace 2^%u: G1 %.3f GiB (batch-affine %.3f), G2 %.3f GiB\n", k,
                    double(wsb["g1_" + std::to_string(k)].get<std::size_t>()) / (1u << 30),
                    double(wsb["g1_affine_" + std::to_string(k)].get<std::size_t>()) / (1u << 30),
                    double(wsb["g2_" + std::to_string(k)].get<std::size_t>()) / (1u << 30));
      }
      out["msm_workspace_bytes"] = wsb;
      for (unsigned k : {24u, 26u}) {
        if (k > max_log) continue;
        for (auto acc : {xyzz, affine})
          for (bool per_call : {false, true})
            bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, acc, 0,
                                0, 0, 0, "", nullptr, false, per_call);
      }
      if (max_log >= 20) {
        for (bool per_call : {false, true})
          bench_msm<g::GpuG2>("g2_msm", g2_base, 20, 0, 0, 3.0, cl, stream, rows, true, 0, affine,
                              0, 0, 0, 0, "", nullptr, false, per_call);
        bench_msm<g::GpuG2>("g2_msm", g2_base, 20, 0, 0, 3.0, cl, stream, rows, true, 0, xyzz, 0, 0,
                            0, 0, "_xyzz");
      }
      // Steps 1-2 of the next window group beside this group's accumulation (overlap_sort).
      const auto ovl = [](g::GpuMsmOptions& o) { o.overlap_sort = true; };
      for (unsigned k : {24u, 26u}) {
        if (k > max_log) continue;
        for (auto acc : {xyzz, affine})
          bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, acc, 0, 0,
                              0, 0, "_ovl", ovl);
      }
      if (max_log >= 20)
        for (auto acc : {affine, xyzz})
          bench_msm<g::GpuG2>("g2_msm", g2_base, 20, 0, 0, 3.0, cl, stream, rows, true, 0, acc, 0,
                              0, 0, 0, acc == xyzz ? "_xyzz_ovl" : "_ovl", ovl);
      for (unsigned k : {24u, 26u}) {
        if (k > max_log) continue;
        for (unsigned c = k == 24 ? 15 : 18; c <= (k == 24 ? 18u : 21u); ++c)
          bench_msm<g::GpuG1>("g1_msm_window", g1_base, k, 0, c, 1.0, cl, stream, rows, true, 0,
                              affine);
      }
      for (unsigned c = 12; c <= 16 && max_log >= 20; ++c)
        bench_msm<g::GpuG2>("g2_msm_window", g2_base, 20, 0, c, 3.0, cl, stream, rows, true, 0,
                            affine);
    }
    // Msm10 call 2 (only when --rows names msm_ws10b): batch-affine window groups of 2^27 and
    // 2^28 pairs (fewer rounds, so fewer latency-bound inversions, at more workspace) now that
    // the workspace is reused (msm8 measured them with the per-call allocation), G1 2^24 and
    // 2^26, the default first and again last (drift).
    if (!quick && want("msm_ws10b")) {
      const auto grp = [](unsigned lg) {
        return [lg](g::GpuMsmOptions& o) { o.max_group_pairs = std::size_t{1} << lg; };
      };
      for (unsigned k : {24u, 26u}) {
        if (k > max_log) continue;
        bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, affine);
        for (unsigned lg : {27u, 28u})
          bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, affine, 0,
                              0, 0, 0, "_grp" + std::to_string(lg), grp(lg));
        bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, affine);
      }
    }
    // Msm9's batch-affine A/B (only when --rows names msm_affine_ab9), batch-affine at G1 2^24 and
    // G2 2^20 (G1 2^26 too, default and _binv, when --max-log allows), same process: the default
    // (batched binary-GCD inversions, gpu/ff/inverse_bingcd_hd.hpp) beside _binv (msm7's
    // binary-Euclid inversions: the default before msm9), K2 fixed at 8 / 16 / 32 (_kk8, _kk16,
    // _kk32) and the K2 rule's cap on invert threads at 2^16 / 2^17 (_inv16, _inv17): with a
    // cheaper inversion, shorter chains (more inversions) may pay; round 0's add through the
    // sorted values with the lean body (GpuMsmOptions::affine_lean_round0) at 3 / 2 blocks of
    // 256 per SM (_lean0h, _lean0l; G2: 3 of 128 / 1 of 256); the map kernel with one binary
    // search a warp (_mapwarp; run 1 had it as the default and measured _mapbs, one search an
    // output, the default since). The default again last.
    struct Ab9Row {
      const char* suffix;
      std::function<void(g::GpuMsmOptions&)> tweak;
      bool big;  // G1 2^26 too
    };
    const auto binv = [](g::GpuMsmOptions& o) {
      o.affine_inverse = g::GpuMsmAffineInverse::Binary;
    };
    const auto kk9 = [](unsigned k2) {
      return [k2](g::GpuMsmOptions& o) { o.affine_per_inversion = k2; };
    };
    const auto cap9 = [](unsigned lg) {
      return [lg](g::GpuMsmOptions& o) { o.affine_invert_threads = 1u << lg; };
    };
    const auto mapwarp = [](g::GpuMsmOptions& o) { o.affine_map_search = true; };
    const auto noinf = [](g::GpuMsmOptions& o) { o.affine_inf_bits = false; };
    const auto lean0 = [](unsigned blocks) {
      return [blocks](g::GpuMsmOptions& o) { o.affine_lean_round0 = blocks; };
    };
    // Run 1's list (msm_affine_ab9; _inv16 then above the default cap, now G1's default) and run
    // 2's (msm_affine_ab9b): the final defaults beside _noinfbits (round 0's infinity flags read
    // from the points), _inv15 (msm8's cap) and _binv.
    const Ab9Row ab9[] = {
        {"", nullptr, true},          {"_binv", binv, true},        {"_kk8", kk9(8), false},
        {"_kk16", kk9(16), false},    {"_kk32", kk9(32), false},    {"_inv16", cap9(16), false},
        {"_lean0h", lean0(3), false}, {"_lean0l", lean0(2), false}, {"_mapwarp", mapwarp, false},
        {"_binv", binv, false},       {"", nullptr, false}};
    const Ab9Row ab9b[] = {{"", nullptr, true},
                           {"_noinfbits", noinf, true},
                           {"_inv15", cap9(15), false},
                           {"_binv", binv, true},
                           {"", nullptr, false}};
    for (const bool b : {false, true})
      for (const auto& a : b ? std::span<const Ab9Row>(ab9b) : std::span<const Ab9Row>(ab9)) {
        if (quick || !want(b ? "msm_affine_ab9b" : "msm_affine_ab9")) continue;
        if (max_log >= 20)
          bench_msm<g::GpuG2>("g2_msm", g2_base, 20, 0, 0, 3.0, cl, stream, rows, true, 0, affine,
                              0, 0, 0, 0, a.suffix, a.tweak);
        if (max_log >= 24)
          bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0, affine,
                              0, 0, 0, 0, a.suffix, a.tweak);
        if (max_log >= 26 && a.big)
          bench_msm<g::GpuG1>("g1_msm", g1_base, 26, 0, 0, 1.0, cl, stream, rows, true, 0, affine,
                              0, 0, 0, 0, a.suffix, a.tweak);
      }
    // The batch-affine threshold (GpuMsmOptions::affine_min_pairs) around the default; only when
    // --rows names msm_affine_min.
    for (std::size_t amin : {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 22}) {
      if (quick || !want("msm_affine_min")) continue;
      if (max_log >= 24)
        bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0,
                            g::GpuMsmAccumulation::BatchAffine, amin);
      if (max_log >= 20)
        bench_msm<g::GpuG2>("g2_msm", g2_base, 20, 0, 0, 3.0, cl, stream, rows, true, 0,
                            g::GpuMsmAccumulation::BatchAffine, amin);
    }
    if (max_log >= 27 && !quick && want_msm("porep")) {
      // The default (Auto: batch-affine for the ~5% of scalars left after step 0 since msm11,
      // msm13: 77.9 vs 86.0 ms) and XYZZ (_xyzz; the only porep row up to run 16).
      bench_msm<g::GpuG1>("g1_msm_porep_shaped", g1_base, 27, 1, 0, 1.0, cl, stream, rows, true, 0,
                          autoacc);
      bench_msm<g::GpuG1>("g1_msm_porep_shaped", g1_base, 27, 1, 0, 1.0, cl, stream, rows, true, 0,
                          xyzz, 0, 0, 0, 0, "_xyzz");
      // The same without step 0's split of the 0/1 scalars (the run-2 algorithm; XYZZ).
      bench_msm<g::GpuG1>("g1_msm_porep_shaped_nosplit", g1_base, 27, 1, 0, 1.0, cl, stream, rows,
                          false);
    }
    // The batch-affine chain lengths (GpuMsmOptions::affine_per_thread K, affine_per_inversion
    // K2) around the defaults at G1 2^24 and G2 2^20; only when --rows names msm_affine_k.
    // Also larger window groups (GpuMsmOptions::max_group_pairs 2^26, 2^27: fewer rounds, so
    // fewer serial inversions), both accumulations.
    for (std::size_t gp : {std::size_t{1} << 26, std::size_t{1} << 27}) {
      if (quick || !want("msm_affine_k") || max_log < 24) continue;
      bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0,
                          g::GpuMsmAccumulation::BatchAffine, 0, 0, 0, gp);
      bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0,
                          g::GpuMsmAccumulation::Xyzz, 0, 0, 0, gp);
    }
    const unsigned kk[][2] = {{4, 0}, {16, 0}, {0, 16}, {0, 256}};
    for (const auto& p : kk) {
      if (quick || !want("msm_affine_k")) continue;
      if (max_log >= 24)
        bench_msm<g::GpuG1>("g1_msm", g1_base, 24, 0, 0, 1.0, cl, stream, rows, true, 0,
                            g::GpuMsmAccumulation::BatchAffine, 0, p[0], p[1]);
      if (max_log >= 20)
        bench_msm<g::GpuG2>("g2_msm", g2_base, 20, 0, 0, 3.0, cl, stream, rows, true, 0,
                            g::GpuMsmAccumulation::BatchAffine, 0, p[0], p[1]);
    }
    // Window-size measurement behind the rule: c around the rule's choice.
    for (unsigned k : {20u, 24u, 26u}) {
      if (k > max_log || quick || !want_msm("g1_window")) continue;
      const unsigned rule = g::gpu_msm_window_bits(std::size_t{1} << k);
      for (unsigned c = rule - 3; c <= std::min(rule + 2, 22u); ++c) {
        if (c == rule || (k == 26 && c < rule - 1)) continue;
        bench_msm<g::GpuG1>("g1_msm_window", g1_base, k, 0, c, 1.0, cl, stream, rows);
      }
    }
    // Level-0 occupancy (GpuMsmOptions::accumulate_min_blocks) against the default; only when
    // --rows names msm_occupancy (it measured the per-curve defaults; not part of the suite).
    for (unsigned mb : {1u, 2u, 3u}) {
      if (quick || !want("msm_occupancy")) continue;
      if (max_log >= 22)
        bench_msm<g::GpuG1>("g1_msm_occupancy", g1_base, 22, 0, 0, 1.0, cl, stream, rows, true, mb);
      if (max_log >= 20)
        bench_msm<g::GpuG2>("g2_msm_occupancy", g2_base, 20, 0, 0, 3.0, cl, stream, rows, true, mb);
    }
    // Step-4 variants (g2msm; only when --rows names g2_variants): *_main = main's step 4 before
    // g2msm (blocks of 256; G2 parts of 16), alternated with the default in one process so
    // machine drift cancels; then the last group's block size and the part length around the
    // defaults (G2 2^20), and G1 2^20 with the last group in blocks of 32.
    const auto main_reduce = [](g::GpuMsmOptions& o) {
      o.reduce_block = 256;
      o.reduce_part_len = 16;
    };
    for (unsigned k : {20u, 22u}) {
      if (k > max_log || quick || !want("g2_variants")) continue;
      for (int rep = 0; rep < 2; ++rep) {
        bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0,
                            g::GpuMsmAccumulation::Xyzz, 0, 0, 0, 0, "_main", main_reduce);
        bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows);
      }
      if (k != 20) continue;
      for (unsigned rb : {64u, 256u})
        bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0,
                            g::GpuMsmAccumulation::Xyzz, 0, 0, 0, 0, "_rb" + std::to_string(rb),
                            [rb](g::GpuMsmOptions& o) { o.reduce_block = rb; });
      for (unsigned pl : {4u, 16u})
        bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0,
                            g::GpuMsmAccumulation::Xyzz, 0, 0, 0, 0, "_part" + std::to_string(pl),
                            [pl](g::GpuMsmOptions& o) { o.reduce_part_len = pl; });
      for (int rep = 0; rep < 2; ++rep) {
        bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows);
        bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0,
                            g::GpuMsmAccumulation::Xyzz, 0, 0, 0, 0, "_rb32",
                            [](g::GpuMsmOptions& o) { o.reduce_block = 32; });
      }
    }
    // Msm12 (only when --rows names msm_g2_ab12): step 4 of G2. *_old12 = the reduction before
    // msm12 (DoubleAdd), alternated with the default twice (G2 2^20, 2^22) so drift cancels;
    // then, at G2 2^20: DoubleAdd again (_dadd), the scan's part length and last-group block,
    // the batch-affine threshold (_amin*), the invert cap (_inv*), the XYZZ tail's level-0
    // occupancy (_mb*), K (_k*), two window groups (_grp*), c = 12 / 14, the XYZZ path; G1 2^20 /
    // 2^24 (default DoubleAdd) beside the scan (_scan). Msm12 call 1 (data/gpu-runs/2026-12-01-
    // h200/msm12) also had a Jacobian host step in *_dadd and the defaults (dropped: no faster).
    if (want("msm_g2_ab12") && !quick) {
      const auto old12 = [](g::GpuMsmOptions& o) { o.reduce = g::GpuMsmReduce::DoubleAdd; };
      // *_old12 then the default, twice (curve and fq_per_fp as in default_and_other).
      const auto old12_alternated = [&](auto curve, const char* name, const auto& base, unsigned k,
                                        double fq_per_fp) {
        using Curve = decltype(curve);
        for (int rep = 0; rep < 2; ++rep) {
          bench_msm<Curve>(name, base, k, 0, 0, fq_per_fp, cl, stream, rows, true, 0, autoacc, 0, 0,
                           0, 0, "_old12", old12);
          bench_msm<Curve>(name, base, k, 0, 0, fq_per_fp, cl, stream, rows, true, 0, autoacc);
        }
      };
      const auto scan = [](unsigned part, unsigned block) {
        return [part, block](g::GpuMsmOptions& o) {
          o.reduce = g::GpuMsmReduce::SuffixScan;
          o.reduce_part_len = part;
          o.reduce_block = block;
        };
      };
      for (unsigned k : {20u, 22u}) {
        if (k > max_log) continue;
        old12_alternated(g::GpuG2{}, "g2_msm", g2_base, k, 3.0);
      }
      if (max_log >= 20) {
        const unsigned k = 20;
        bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc, 0,
                            0, 0, 0, "_dadd",
                            [](g::GpuMsmOptions& o) { o.reduce = g::GpuMsmReduce::DoubleAdd; });
        for (unsigned part : {2u, 8u, 16u})
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc,
                              0, 0, 0, 0, "_scan_part" + std::to_string(part), scan(part, 0));
        for (unsigned block : {64u, 128u})
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc,
                              0, 0, 0, 0, "_scan_rb" + std::to_string(block), scan(0, block));
        for (unsigned lg : {17u, 19u, 20u})
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc,
                              std::size_t{1} << lg);
        for (unsigned lg : {14u, 16u})
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc,
                              0, 0, 0, 0, "_inv" + std::to_string(lg),
                              [lg](g::GpuMsmOptions& o) { o.affine_invert_threads = 1u << lg; });
        for (unsigned mb : {2u, 3u})  // the XYZZ tail's level 0 at more blocks per SM
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, mb, autoacc);
        for (unsigned kk : {4u, 16u})
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc,
                              0, kk);
        bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc, 0,
                            0, 0, std::size_t{10} << 20);
        for (unsigned c : {12u, 14u})
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, c, 3.0, cl, stream, rows, true, 0, autoacc);
        bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, xyzz, 0, 0,
                            0, 0, "_xyzz");
        bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, xyzz, 0, 0,
                            0, 0, "_xyzz_old12", old12);
        bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc);
      }
      for (unsigned k : {20u, 24u}) {
        if (k > max_log) continue;
        old12_alternated(g::GpuG1{}, "g1_msm", g1_base, k, 1.0);
        bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc, 0,
                            0, 0, 0, "_scan", scan(0, 0));
      }
    }
    // Msm12's open candidates (only when --rows names msm_ab12_next; not run in msm12): G2's
    // batch-affine threshold 2^20 (faster at 2^20 in msm12 call 1) at 2^21 to 2^23 beside the
    // default, and the scan reduction for G1 at 2^26 (faster at 2^20 and 2^24 in call 1).
    if (want("msm_ab12_next") && !quick) {
      for (unsigned k : {21u, 22u, 23u}) {
        if (k > max_log) continue;
        for (int rep = 0; rep < 2; ++rep) {
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc);
          bench_msm<g::GpuG2>("g2_msm", g2_base, k, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc,
                              std::size_t{1} << 20);
        }
      }
      if (max_log >= 26) {
        for (int rep = 0; rep < 2; ++rep) {
          bench_msm<g::GpuG1>("g1_msm", g1_base, 26, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc);
          bench_msm<g::GpuG1>("g1_msm", g1_base, 26, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc,
                              0, 0, 0, 0, "_scan",
                              [](g::GpuMsmOptions& o) { o.reduce = g::GpuMsmReduce::SuffixScan; });
        }
      }
    }
    // Msm13 (only when --rows names msm_ab13): the scalars converted once per call (the default)
    // against once per window group (_conv13, scalars_once = false), alternated, G1 2^24 (twice),
    // 2^26, 2^27 and G2 2^22; then PoRep-shaped G1 2^27 (60M 1-scalars, ~6.7M others): Auto,
    // Auto per group (_conv13), XYZZ (_xyzz).
    if (want("msm_ab13") && !quick) {
      const auto conv13 = [](g::GpuMsmOptions& o) { o.scalars_once = false; };
      for (unsigned k : {24u, 24u, 26u, 27u}) {
        if (k > max_log) continue;
        bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc);
        bench_msm<g::GpuG1>("g1_msm", g1_base, k, 0, 0, 1.0, cl, stream, rows, true, 0, autoacc, 0,
                            0, 0, 0, "_conv13", conv13);
      }
      if (max_log >= 22) {
        bench_msm<g::GpuG2>("g2_msm", g2_base, 22, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc);
        bench_msm<g::GpuG2>("g2_msm", g2_base, 22, 0, 0, 3.0, cl, stream, rows, true, 0, autoacc, 0,
                            0, 0, 0, "_conv13", conv13);
      }
      if (max_log >= 27) {
        bench_msm<g::GpuG1>("g1_msm_porep_shaped", g1_base, 27, 1, 0, 1.0, cl, stream, rows, true,
                            0, autoacc);
        bench_msm<g::GpuG1>("g1_msm_porep_shaped", g1_base, 27, 1, 0, 1.0, cl, stream, rows, true,
                            0, autoacc, 0, 0, 0, 0, "_conv13", conv13);
        bench_msm<g::GpuG1>("g1_msm_porep_shaped", g1_base, 27, 1, 0, 1.0, cl, stream, rows, true,
                            0, xyzz, 0, 0, 0, 0, "_xyzz");
      }
    }
    // Msm14 (only when --rows names msm_fixed14): the fixed-base MSM beside the default gpu_msm,
    // same inputs, same process (bench_msm_fixed): G1 2^20 / 2^22 at the rule's c, 2^24 at c =
    // 20, 22 (the rule's), 24 and with one slice for all the pairs (_slice28: max_group_pairs
    // 2^28), 2^26 at the rule's c (if the table fits); G2 2^20 at c = 16, 18 (the rule's), 19, 20
    // and 2^22 at the rule's.
    if (want("msm_fixed14") && !quick) {
      for (unsigned k : {20u, 22u})
        if (k <= max_log)
          bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, k, {0}, 1.0, cl, stream, rows);
      if (max_log >= 24) {
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, 24, {20, 22, 24}, 1.0, cl, stream,
                                  rows);
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, 24, {0}, 1.0, cl, stream, rows,
                                  std::size_t{1} << 28, "_slice28");
      }
      if (max_log >= 20)
        bench_msm_fixed<g::GpuG2>("g2_msm_fixed14", g2_base, 20, {16, 18, 19, 20}, 3.0, cl, stream,
                                  rows);
      if (max_log >= 22)
        bench_msm_fixed<g::GpuG2>("g2_msm_fixed14", g2_base, 22, {0}, 3.0, cl, stream, rows);
      if (max_log >= 26)
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, 26, {0}, 1.0, cl, stream, rows);
    }
    // Msm14 run 2 (only when --rows names msm_fixed14b): the window rule's picks (c = 0: 16 at
    // 2^20, 19 at 2^22, 20 at 2^24, 22 at 2^26) beside their neighbours, one table a c: G1 2^20
    // {16, 18}, 2^22 {19, 20}, 2^24 {20, 22} in one slice (max_group_pairs 2^28, _slice28) with
    // the reduction by DoubleAdd (G1's default) and by SuffixScan (_scan), 2^26 {22} by both; G2
    // 2^20 {14, 15, 16}, 2^22 {18, 19}.
    if (want("msm_fixed14b") && !quick) {
      const auto scan = [](g::GpuMsmOptions& o) { o.reduce = g::GpuMsmReduce::SuffixScan; };
      const std::size_t s28 = std::size_t{1} << 28;
      if (max_log >= 20)
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, 20, {16, 18}, 1.0, cl, stream, rows);
      if (max_log >= 22)
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, 22, {19, 20}, 1.0, cl, stream, rows);
      if (max_log >= 24) {
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, 24, {20, 22}, 1.0, cl, stream, rows,
                                  s28, "_slice28");
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, 24, {20, 22}, 1.0, cl, stream, rows,
                                  s28, "_slice28_scan", scan);
      }
      if (max_log >= 20)
        bench_msm_fixed<g::GpuG2>("g2_msm_fixed14", g2_base, 20, {14, 15, 16}, 3.0, cl, stream,
                                  rows);
      if (max_log >= 22)
        bench_msm_fixed<g::GpuG2>("g2_msm_fixed14", g2_base, 22, {18, 19}, 3.0, cl, stream, rows);
      if (max_log >= 26) {
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, 26, {22}, 1.0, cl, stream, rows);
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed14", g1_base, 26, {22}, 1.0, cl, stream, rows, 0,
                                  "_scan", scan);
      }
    }
    // The fixed-base MSM at the issue's sizes (with `msm`, or token msm_fixed): G1 2^20 / 2^22 /
    // 2^24 / 2^26 and G2 2^20 / 2^22 at the rule's c and the default slices, each beside the
    // default gpu_msm in the same process; G1 2^24 and 2^26 also with slices of 2^27 pairs
    // (_slice27) and 2^26 with one of 2^28 (_slice28: skipped when it does not fit).
    if (want_msm("msm_fixed") && !quick) {
      const std::size_t s27 = std::size_t{1} << 27, s28 = std::size_t{1} << 28;
      for (unsigned k : {20u, 22u, 24u, 26u}) {
        if (k > max_log) continue;
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed", g1_base, k, {0}, 1.0, cl, stream, rows);
        if (k >= 24)
          bench_msm_fixed<g::GpuG1>("g1_msm_fixed", g1_base, k, {0}, 1.0, cl, stream, rows, s27,
                                    "_slice27");
        if (k == 26)
          bench_msm_fixed<g::GpuG1>("g1_msm_fixed", g1_base, k, {0}, 1.0, cl, stream, rows, s28,
                                    "_slice28");
      }
      for (unsigned k : {20u, 22u})
        if (k <= max_log)
          bench_msm_fixed<g::GpuG2>("g2_msm_fixed", g2_base, k, {0}, 3.0, cl, stream, rows);
    }
    // Msm15 (only when --rows names msm_fixed15): the packed table (96 / 192-B entries, the
    // infinity flags in a bitmap) at the targets' sizes, each beside the default gpu_msm: G2 2^20
    // at the rule's c (16), G1 2^24 at c = 20 with the default slices (2^26 pairs), 2^27
    // (_slice27) and one slice (2^28, _slice28), G1 2^26 at the rule's c (22).
    if (want("msm_fixed15") && !quick) {
      if (max_log >= 20)
        bench_msm_fixed<g::GpuG2>("g2_msm_fixed15", g2_base, 20, {0}, 3.0, cl, stream, rows);
      if (max_log >= 24) {
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed15", g1_base, 24, {20}, 1.0, cl, stream, rows);
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed15", g1_base, 24, {20}, 1.0, cl, stream, rows,
                                  std::size_t{1} << 27, "_slice27");
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed15", g1_base, 24, {20}, 1.0, cl, stream, rows,
                                  std::size_t{1} << 28, "_slice28");
      }
      if (max_log >= 26)
        bench_msm_fixed<g::GpuG1>("g1_msm_fixed15", g1_base, 26, {0}, 1.0, cl, stream, rows);
    }
    // Msm16 (only when --rows names msm_fixed16): the fixed-base defaults against msm15's (G1:
    // slices of 2^26 pairs, _old) and the batch-affine knobs on the new slices, one table per
    // size, 2 interleaved passes (bench_msm_fixed_variants): G1 2^24 (c = 20), 2^26 (c = 22), G2
    // 2^20 (c = 16), each beside the default gpu_msm.
    if (want("msm_fixed16") && !quick) {
      const FixedTweak old_slices = [](g::GpuMsmOptions& o) {
        o.max_group_pairs = std::size_t{1} << 26;
      };
      const auto lean = [](unsigned v) {
        return FixedTweak([v](g::GpuMsmOptions& o) { o.affine_lean_round0 = v; });
      };
      const auto inv_threads = [](unsigned t) {
        return FixedTweak([t](g::GpuMsmOptions& o) { o.affine_invert_threads = t; });
      };
      const auto per_inversion = [](unsigned k2) {
        return FixedTweak([k2](g::GpuMsmOptions& o) { o.affine_per_inversion = k2; });
      };
      const FixedTweak eager = [](g::GpuMsmOptions& o) { o.affine_eager_round0 = true; };
      if (max_log >= 20)
        bench_msm_fixed_variants<g::GpuG2>("g2_msm_fixed16", g2_base, 20, 16, 3.0, cl, stream, rows,
                                           FixedVariants{{"", nullptr},
                                                         {"_eager", eager},
                                                         {"_lean3", lean(3)},
                                                         {"_k12", tweak_per_thread(12)}},
                                           9, 2);
      if (max_log >= 24)
        bench_msm_fixed_variants<g::GpuG1>(
            "g1_msm_fixed16", g1_base, 24, 20, 1.0, cl, stream, rows,
            FixedVariants{{"_old", old_slices},
                          {"", nullptr},
                          {"_eager", eager},
                          {"_lean3", lean(3)},
                          {"_lean2", lean(2)},
                          {"_k12", tweak_per_thread(12)},
                          {"_k16", tweak_per_thread(16)},
                          {"_inv17", inv_threads(1u << 17)},
                          {"_kinv128", per_inversion(128)},
                          {"_amin19", tweak_min_pairs(std::size_t{1} << 19)},
                          {"_amin21", tweak_min_pairs(std::size_t{1} << 21)}},
            7, 2);
      if (max_log >= 26)
        bench_msm_fixed_variants<g::GpuG1>("g1_msm_fixed16", g1_base, 26, 22, 1.0, cl, stream, rows,
                                           FixedVariants{{"_old", old_slices},
                                                         {"", nullptr},
                                                         {"_eager", eager},
                                                         {"_lean3", lean(3)},
                                                         {"_k12", tweak_per_thread(12)},
                                                         {"_inv17", inv_threads(1u << 17)},
                                                         {"_kinv128", per_inversion(128)}},
                                           3, 2);
    }
    // Msm16 call 2 (only when --rows names msm_fixed16b): the fixed-base defaults of f7a105f (G1:
    // slices of up to 2^28 pairs, K = 16; K = 24 since, the _k24 rows) against msm15's (_old:
    // slices of 2^26, K = 8), call 1's (_k8) and chain lengths around 16, one table per size, 2
    // interleaved passes: G1 2^24 (c = 20), 2^26 (c = 22), G2 2^20 (c = 16, unchanged), each beside
    // the default gpu_msm.
    if (want("msm_fixed16b") && !quick) {
      const FixedTweak old = [](g::GpuMsmOptions& o) {
        o.max_group_pairs = std::size_t{1} << 26;
        o.affine_per_thread = 8;
      };
      const FixedTweak amin21 = tweak_min_pairs(std::size_t{1} << 21);
      if (max_log >= 20)
        bench_msm_fixed_variants<g::GpuG2>("g2_msm_fixed16b", g2_base, 20, 16, 3.0, cl, stream,
                                           rows, FixedVariants{{"", nullptr}}, 9, 2);
      if (max_log >= 24)
        bench_msm_fixed_variants<g::GpuG1>("g1_msm_fixed16b", g1_base, 24, 20, 1.0, cl, stream,
                                           rows,
                                           FixedVariants{{"_old", old},
                                                         {"", nullptr},
                                                         {"_k8", tweak_per_thread(8)},
                                                         {"_k12", tweak_per_thread(12)},
                                                         {"_k24", tweak_per_thread(24)},
                                                         {"_k32", tweak_per_thread(32)},
                                                         {"_amin21", amin21}},
                                           7, 2);
      if (max_log >= 26)
        bench_msm_fixed_variants<g::GpuG1>("g1_msm_fixed16b", g1_base, 26, 22, 1.0, cl, stream,
                                           rows,
                                           FixedVariants{{"_old", old},
                                                         {"", nullptr},
                                                         {"_k8", tweak_per_thread(8)},
                                                         {"_k12", tweak_per_thread(12)},
                                                         {"_k24", tweak_per_thread(24)},
                                                         {"_amin21", amin21}},
                                           3, 2);
    }
    for (unsigned k : {20u}) {
      if (k > max_log || quick || !want_msm("g2_window")) continue;
      const unsigned rule = g::gpu_msm_window_bits(std::size_t{1} << k);
      for (unsigned c = rule - 2; c <= std::min(rule + 2, 22u); ++c) {
        if (c == rule) continue;
        bench_msm<g::GpuG2>("g2_msm_window", g2_base, k, 0, c, 3.0, cl, stream, rows);
      }
    }
    out["rows"] = rows;
    std::ofstream f(out_path);
    f << out.dump(2) << "\n";
    if (!f) {
      std::fprintf(stderr, "gpu_bench: cannot write %s\n", out_path.c_str());
      return 1;
    }
    std::printf("wrote %s\n", out_path.c_str());
    if (g_msm_result_mismatches > 0) {
      std::fprintf(stderr, "gpu_bench: %d MSM row(s) differ from the XYZZ default's result\n",
                   g_msm_result_mismatches);
      return 3;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
