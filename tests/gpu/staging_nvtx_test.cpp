// System: the GPU staging runtime's NVTX ranges, as an Nsight Systems capture would show them.
// The lent machine's nsys cannot write reports, so this test is the NVTX tool itself: a static
// NVTX injection (nvtxDetail/nvtxInit.h: a strong InitializeInjectionNvtx2_fnptr in the
// executable) receives every nvtxRangePushA / nvtxRangePop of the run.
// Expectations: every host-side event of the run's trace (every pipeline step of the executor,
// the stager's calls, synthesis, the detached CPU step, the partition) has an NVTX range of the
// same name, so a capture reads like the simulated trace; every NVTX range is named like an event
// of the trace or is one of the two documented sub-ranges of the B_G2 step; pushes and pops
// balance on every thread. Tolerance: exact names.
// This file defines InitializeInjectionNvtx2_fnptr (below), so NVTX's weak default is skipped;
// the loader reads it, declared here with its type spelt out (NvtxInitializeInjectionNvtxFunc_t
// on Linux, where NVTX_API is empty) before the header that uses it.
#include <cstdint>
#define NVTX_STATIC_INJECTION_IMPL
extern "C" int (*InitializeInjectionNvtx2_fnptr)(const void* (*)(std::uint32_t));
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>

#include "gpu/staging/runtime.hpp"
#include "model/scenario.hpp"
#include "tests/support/sim_support.hpp"

namespace fs = std::filesystem;
using namespace prestage;

namespace {

struct Recorded {
  std::mutex mu;
  std::set<std::string> names;
  long pushes = 0, pops = 0, unbalanced_pops = 0;
};
Recorded& recorded() {
  static Recorded r;
  return r;
}
thread_local int depth = 0;

int NVTX_API on_push(const char* message) {
  Recorded& r = recorded();
  std::lock_guard<std::mutex> lk(r.mu);
  r.names.insert(message ? message : "");
  ++r.pushes;
  return depth++;
}
int NVTX_API on_pop() {
  Recorded& r = recorded();
  std::lock_guard<std::mutex> lk(r.mu);
  ++r.pops;
  if (depth == 0) {
    ++r.unbalanced_pops;
    return -1;
  }
  return --depth;
}

int NVTX_API inject(NvtxGetExportTableFunc_t get_table) {
  const auto* cb = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (cb == nullptr) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size)) return 0;
  if (size <= NVTX_CBID_CORE_RangePop) return 0;
  *table[NVTX_CBID_CORE_RangePushA] = reinterpret_cast<NvtxFunctionPointer>(&on_push);
  *table[NVTX_CBID_CORE_RangePop] = reinterpret_cast<NvtxFunctionPointer>(&on_pop);
  return 1;
}

}  // namespace

extern "C" {
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = &inject;
}
static_assert(
    std::is_same_v<decltype(InitializeInjectionNvtx2_fnptr), NvtxInitializeInjectionNvtxFunc_t>);

BOOST_AUTO_TEST_CASE(every_host_event_is_an_nvtx_range_of_the_same_name) {
  test::TempDir d("staging-nvtx");
  // The default pipeline at n = 2^16 with an MSM scratch that holds its MSM (staging_test.cpp),
  // two workers, tiers (pre-staging, so the stager's calls run too), real proofs.
  const std::string pipeline = d.file(
      "pipeline.yaml",
      test::replace_once(model::default_pipeline_text(), "bytes: \"n*81/2\"", "bytes: \"n*1024\""));
  const std::string text =
      "schema: prestage-scenario/1\nname: gpu_staging_nvtx_test\ncalibration: " +
      fs::absolute("data/calibration/h200.yaml").string() + "\npipeline: " + pipeline +
      "\nworkload: {log2_n: 16, partitions: 4, element_bytes: 32, proofs: 1, key_points: "
      "streamed}\ngpus: {count: 1, workers_per_gpu: 2}\nhost: {synthesis_workers: 2, "
      "synthesis_seconds: 0.01, host_slots: 3, cpu_workers: 2}\npolicy: {name: tiers}\n"
      "phases: {msm_b_g2: 0.01}\nrun: {seed: 1, max_retries: 1}\n";
  auto s = model::load_scenario(d.file("s.yaml", text));
  auto r = staging::run_on_gpu(s, staging::GpuRunOptions{}, nullptr);
  BOOST_TEST(r.summary.partitions_done == 4);

  Recorded& rec = recorded();
  std::lock_guard<std::mutex> lk(rec.mu);
  BOOST_TEST_REQUIRE(rec.pushes > 0, "no NVTX range reached the injection");
  BOOST_TEST(rec.pushes == rec.pops);
  BOOST_TEST(rec.unbalanced_pops == 0);

  // Host-side events: those on a worker's host/stager track, synthesis and the CPU steps.
  // Device intervals (gpu*/compute, h2d, d2h, copy_stream) are CUDA's own rows in a capture;
  // memory samples and OOM marks are points, not calls.
  std::set<std::string> host_events, all_events;
  for (const auto& e : r.trace.events()) {
    const std::string& n = r.trace.event_name(e.name);
    all_events.insert(n);
    if (e.kind == model::EventKind::memory || e.kind == model::EventKind::oom) continue;
    const std::string& track = r.trace.track_name(e.track);
    const bool host =
        track.ends_with("/host") || track.ends_with("/stager") || track.starts_with("host/");
    if (host) host_events.insert(n);
  }
  BOOST_TEST_REQUIRE(!host_events.empty());
  for (const auto& n : host_events)
    BOOST_TEST(rec.names.count(n) == 1, "host event '" << n << "' has no NVTX range");
  const std::set<std::string> sub_ranges = {"msm_b_g2_host", "proof_check"};
  for (const auto& n : rec.names)
    BOOST_TEST((all_events.count(n) == 1 || sub_ranges.count(n) == 1),
               "NVTX range '" << n << "' is named like no event of the trace");
}
