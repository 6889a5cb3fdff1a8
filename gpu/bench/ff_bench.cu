// ff_bench: device throughput of each field-arithmetic candidate (gpu/ff/mont32_candidates.hpp);
// a benchmark, not a test: nothing asserts timings.
//
// Axes: candidate x element (Fr, Fq, Fq2) x operation (mul, sqr, add, sub) x independent chains
// per thread (4, 1).
// Method: SMs x 2048 threads (the floor-rate shape of gpu_bench's ceilings, bench_common.cu);
// each thread keeps `chains` independent dependent chains x <- op(x, m) for `iters` steps (the
// step loop is not unrolled, so every candidate runs the same loop); inputs uniform random from
// the host (Fp::random, never zero); 2 warm-up launches, then 9 launches timed with CUDA events;
// the median is reported with every run. Rate = threads x chains x iters / median.
// Checks per row: after timing, the pristine inputs are restored and one launch runs; its output
// is hashed (FNV-1a over the bytes: every candidate of one operation must give the same checksum)
// and 64 sampled threads are recomputed on the host with Fp/Fq2 operators (mismatches counted).
// Output: one line per row on stdout, a JSON file (--out) with the manifest, each kernel's
// registers and local memory, the runs, checksums and mismatches.
//
// Usage: ff_bench [--out FILE.json] [--commit SHA] [--reps R] [--fields fr|all]
//   --fields fr: only the Fr rows (4 and 1 chains); default all (Fr, Fq, Fq2).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu/ff/mont32_candidates.hpp"
#include "gpu/runtime/cuda_check.hpp"
#include "model/stats.hpp"

namespace {

using prestage::ff::Fq;
using prestage::ff::Fq2;
using prestage::ff::Fr;
namespace cand = prestage::ff::candidates;
using json = nlohmann::json;

// x[c] <- Op(x[c], m) for `iters` steps, CH independent chains per thread.
// data: (threads x CH) elements, thread-major; mult: threads elements.
template <class Op, class T, int CH>
__global__ void rate_kernel(T* data, const T* mult, int iters) {
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  T x[CH];
#pragma unroll
  for (int c = 0; c < CH; ++c) x[c] = data[CH * t + c];
  const T m = mult[t];
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int c = 0; c < CH; ++c) x[c] = Op::apply(x[c], m);
  }
#pragma unroll
  for (int c = 0; c < CH; ++c) data[CH * t + c] = x[c];
}

// Host reference of one step, per operation kind.
enum class Kind { mul, sqr, add, sub };
template <class T>
T host_step(Kind k, const T& x, const T& m) {
  switch (k) {
    case Kind::mul:
      return x * m;
    case Kind::sqr:
      return x.sqr();
    case Kind::add:
      return x + m;
    case Kind::sub:
      return x - m;
  }
  return x;
}

using prestage::model::median;

uint64_t fnv1a(const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

template <class T>
T random_elem(std::mt19937_64& g) {
  return T::random(g);
}

struct Setup {
  std::size_t threads = 0;
  unsigned block = 256;
  int reps = 9;
};

// Pristine inputs per element type and chain count (same for every candidate of the type).
template <class T>
struct Data {
  std::vector<T> init;  // threads x CH
  std::vector<T> mult;  // threads
  T* d_data = nullptr;  // threads x CH x sizeof(T) B, Montgomery
  T* d_init = nullptr;
  T* d_mult = nullptr;
  Data(std::size_t threads, int ch, uint64_t seed) {
    std::mt19937_64 g(seed);
    init.resize(threads * ch);
    mult.resize(threads);
    for (auto& x : init) x = random_elem<T>(g);
    for (auto& x : mult) x = random_elem<T>(g);
    PRESTAGE_CUDA_CHECK(cudaMalloc(&d_data, init.size() * sizeof(T)));
    PRESTAGE_CUDA_CHECK(cudaMalloc(&d_init, init.size() * sizeof(T)));
    PRESTAGE_CUDA_CHECK(cudaMalloc(&d_mult, mult.size() * sizeof(T)));
    PRESTAGE_CUDA_CHECK(
        cudaMemcpy(d_init, init.data(), init.size() * sizeof(T), cudaMemcpyHostToDevice));
    PRESTAGE_CUDA_CHECK(
        cudaMemcpy(d_mult, mult.data(), mult.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~Data() {
    cudaFree(d_data);
    cudaFree(d_init);
    cudaFree(d_mult);
  }
  Data(const Data&) = delete;
  Data& operator=(const Data&) = delete;
  void reset() {
    PRESTAGE_CUDA_CHECK(
        cudaMemcpy(d_data, d_init, init.size() * sizeof(T), cudaMemcpyDeviceToDevice));
  }
};

template <class Op, class T, int CH>
json bench(const char* elem, Kind kind, Data<T>& data, int iters, const Setup& s) {
  const unsigned grid = static_cast<unsigned>(s.threads / s.block);
  cudaFuncAttributes attr{};
  PRESTAGE_CUDA_CHECK(cudaFuncGetAttributes(&attr, rate_kernel<Op, T, CH>));
  auto launch = [&] {
    rate_kernel<Op, T, CH><<<grid, s.block>>>(data.d_data, data.d_mult, iters);
    PRESTAGE_CUDA_CHECK_LAUNCH();
  };
  data.reset();
  for (int i = 0; i < 2; ++i) launch();
  PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  PRESTAGE_CUDA_CHECK(cudaEventCreate(&start));
  PRESTAGE_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int r = 0; r < s.reps; ++r) {
    PRESTAGE_CUDA_CHECK(cudaEventRecord(start));
    launch();
    PRESTAGE_CUDA_CHECK(cudaEventRecord(stop));
    PRESTAGE_CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    PRESTAGE_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  PRESTAGE_CUDA_CHECK(cudaEventDestroy(start));
  PRESTAGE_CUDA_CHECK(cudaEventDestroy(stop));
  // Check: one launch from the pristine inputs, checksum + sampled host recomputation.
  data.reset();
  launch();
  std::vector<T> out(data.init.size());
  PRESTAGE_CUDA_CHECK(
      cudaMemcpy(out.data(), data.d_data, out.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const uint64_t sum = fnv1a(out.data(), out.size() * sizeof(T));
  int checked = 0, mismatches = 0;
  for (std::size_t t = 0; t < s.threads; t += s.threads / 64) {
    for (int c = 0; c < CH; ++c) {
      T x = data.init[CH * t + c];
      for (int i = 0; i < iters; ++i) x = host_step(kind, x, data.mult[t]);
      ++checked;
      mismatches += !(x == out[CH * t + c]);
    }
  }
  const double med = median(ms);
  const double rate = double(s.threads) * CH * iters / (med * 1e-3);
  char sum_hex[17];
  std::snprintf(sum_hex, sizeof sum_hex, "%016llx", static_cast<unsigned long long>(sum));
  std::printf(
      "%-4s %-16s chains %d  %9.3f ms  %.4e /s  regs %3d  local %4zu B  checksum %s  "
      "mismatches %d/%d\n",
      elem, Op::name, CH, med, rate, attr.numRegs, attr.localSizeBytes, sum_hex, mismatches,
      checked);
  std::fflush(stdout);
  return {{"element", elem},
          {"candidate", Op::name},
          {"chains", CH},
          {"threads", s.threads},
          {"iters", iters},
          {"median_ms", med},
          {"runs_ms", ms},
          {"ops_per_s", rate},
          {"registers", attr.numRegs},
          {"local_bytes", attr.localSizeBytes},
          {"checksum", sum_hex},
          {"checked", checked},
          {"mismatches", mismatches}};
}

template <class T, int CH>
void bench_field(const char* elem, int mul_iters, const Setup& s, json& rows) {
  Data<T> d(s.threads, CH, 1000 + sizeof(T) + CH);
  rows.push_back(bench<cand::mul_cios, T, CH>(elem, Kind::mul, d, mul_iters, s));
  rows.push_back(bench<cand::mul_eo, T, CH>(elem, Kind::mul, d, mul_iters, s));
  rows.push_back(bench<cand::mul_eo_imm, T, CH>(elem, Kind::mul, d, mul_iters, s));
  rows.push_back(bench<cand::mul_sos, T, CH>(elem, Kind::mul, d, mul_iters, s));
  rows.push_back(bench<cand::mul_default, T, CH>(elem, Kind::mul, d, mul_iters, s));
  rows.push_back(bench<cand::sqr_eo, T, CH>(elem, Kind::sqr, d, mul_iters, s));
  rows.push_back(bench<cand::sqr_sos, T, CH>(elem, Kind::sqr, d, mul_iters, s));
  rows.push_back(bench<cand::sqr_sos_imm, T, CH>(elem, Kind::sqr, d, mul_iters, s));
  rows.push_back(bench<cand::sqr_default, T, CH>(elem, Kind::sqr, d, mul_iters, s));
  rows.push_back(bench<cand::add_default, T, CH>(elem, Kind::add, d, 8 * mul_iters, s));
  rows.push_back(bench<cand::add_w32, T, CH>(elem, Kind::add, d, 8 * mul_iters, s));
  rows.push_back(bench<cand::add_limb64, T, CH>(elem, Kind::add, d, 8 * mul_iters, s));
  rows.push_back(bench<cand::sub_default, T, CH>(elem, Kind::sub, d, 8 * mul_iters, s));
  rows.push_back(bench<cand::sub_w32, T, CH>(elem, Kind::sub, d, 8 * mul_iters, s));
  rows.push_back(bench<cand::sub_limb64, T, CH>(elem, Kind::sub, d, 8 * mul_iters, s));
}

template <int CH>
void bench_fq2(int iters, const Setup& s, json& rows) {
  Data<Fq2> d(s.threads, CH, 3000 + CH);
  rows.push_back(bench<cand::fq2_mul_cios, Fq2, CH>("fq2", Kind::mul, d, iters, s));
  rows.push_back(bench<cand::fq2_mul_eo, Fq2, CH>("fq2", Kind::mul, d, iters, s));
  rows.push_back(bench<cand::fq2_mul_lazy, Fq2, CH>("fq2", Kind::mul, d, iters, s));
  rows.push_back(bench<cand::fq2_mul_default, Fq2, CH>("fq2", Kind::mul, d, iters, s));
  rows.push_back(bench<cand::fq2_sqr_cios, Fq2, CH>("fq2", Kind::sqr, d, iters, s));
  rows.push_back(bench<cand::fq2_sqr_eo, Fq2, CH>("fq2", Kind::sqr, d, iters, s));
  rows.push_back(bench<cand::fq2_sqr_default, Fq2, CH>("fq2", Kind::sqr, d, iters, s));
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path = "ff_bench.json", commit = "unknown", fields = "all";
  Setup s;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      out_path = argv[++i];
    } else if (a == "--commit" && i + 1 < argc) {
      commit = argv[++i];
    } else if (a == "--reps" && i + 1 < argc) {
      s.reps = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--fields" && i + 1 < argc &&
               (std::string(argv[i + 1]) == "fr" || std::string(argv[i + 1]) == "all")) {
      fields = argv[++i];
    } else {
      std::fprintf(
          stderr,
          "usage: ff_bench [--out FILE.json] [--commit SHA] [--reps R] [--fields fr|all]\n");
      return 2;
    }
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  try {
    cudaDeviceProp prop{};
    int driver = 0, runtime = 0;
    PRESTAGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    PRESTAGE_CUDA_CHECK(cudaDriverGetVersion(&driver));
    PRESTAGE_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    s.threads = std::size_t{static_cast<unsigned>(prop.multiProcessorCount)} * 2048;
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    json out;
    out["manifest"] = {{"program", "ff_bench"},
                       {"commit", commit},
                       {"date", date},
                       {"gpu", prop.name},
                       {"sms", prop.multiProcessorCount},
                       {"cuda_driver", driver},
                       {"cuda_runtime", runtime},
                       {"threads", s.threads},
                       {"block", s.block},
                       {"reps", s.reps},
                       {"fields", fields},
                       {"warmup", 2}};
    std::printf("%s, %d SMs, driver %d, runtime %d, %zu threads, commit %s\n", prop.name,
                prop.multiProcessorCount, driver, runtime, s.threads, commit.c_str());
    json rows = json::array();
    const bool all = fields == "all";
    bench_field<Fr, 4>("fr", 256, s, rows);
    if (all) bench_field<Fq, 4>("fq", 128, s, rows);
    if (all) bench_fq2<4>(48, s, rows);
    bench_field<Fr, 1>("fr", 1024, s, rows);
    if (all) bench_field<Fq, 1>("fq", 512, s, rows);
    if (all) bench_fq2<1>(192, s, rows);
    out["rows"] = rows;
    std::ofstream f(out_path);
    f << out.dump(2) << "\n";
    if (!f) {
      std::fprintf(stderr, "ff_bench: cannot write %s\n", out_path.c_str());
      return 1;
    }
    std::printf("wrote %s\n", out_path.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ff_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
