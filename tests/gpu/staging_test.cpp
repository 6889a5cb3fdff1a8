// System: the GPU staging runtime running a scenario file on the real device.
// Expectations: every declared partition is done, retried or lost and reported (never silently
// dropped); at n = 2^16 every partition done is a real proof that passes the pairing check; the
// trace uses the simulator's step and call names; an injected out-of-memory at any site fails its
// partition cleanly; device memory returns to where it started. Tolerances: device memory within
// one 2 MiB allocation granule; spin steps within 5 ms + 10%.
#include <cuda_runtime.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "gpu/msm/host_msm.hpp"
#include "gpu/staging/proofs.hpp"
#include "gpu/staging/runtime.hpp"
#include "model/errors.hpp"
#include "sim/runner.hpp"
#include "tests/support/sim_support.hpp"

namespace fs = std::filesystem;
using namespace prestage;

namespace {

// The default pipeline with an MSM scratch that holds the MSM at n = 2^16 (the default's
// n*81/2 is exact at 2^27 only; at 2^16 the MSM's workspace needs ~10 MB): 64 MiB.
std::string small_n_pipeline(const test::TempDir& d) {
  std::string text = model::default_pipeline_text();
  return d.file("pipeline.yaml",
                test::replace_once(text, "bytes: \"n*81/2\"", "bytes: \"n*1024\""));
}

// As small_n_pipeline, with B_G2 on the GPU (data/pipelines/supraseal_c2_b_g2_gpu.yaml), and a
// scratch of `bytes_per_point` x n: 8192 (512 MiB) holds the resident G2 MSM at 2^16 whole;
// 1024 (64 MiB) does not (its XYZZ buckets and partial sums are twice G1's), so the runtime
// splits it into pieces; the streamed one chunks to fit either.
std::string small_n_b_g2_gpu_pipeline(const test::TempDir& d, int bytes_per_point) {
  std::string text = test::read_text("data/pipelines/supraseal_c2_b_g2_gpu.yaml");
  return d.file("pipeline_b_g2_gpu_" + std::to_string(bytes_per_point) + ".yaml",
                test::replace_once(text, "bytes: \"n*81/2\"",
                                   "bytes: \"n*" + std::to_string(bytes_per_point) + "\""));
}

// n = 2^16 (2 MiB inputs), one proof of `partitions`, short synthesis; the default pipeline or
// `pipeline_file`.
std::string scenario_text(const std::string& policy, int workers, const std::string& vram,
                          int partitions, const std::string& key_points,
                          const std::string& pipeline_file = "") {
  static test::TempDir pipe_dir("staging-pipeline");
  static const std::string default_pipeline = small_n_pipeline(pipe_dir);
  const std::string& pipeline = pipeline_file.empty() ? default_pipeline : pipeline_file;
  return "schema: prestage-scenario/1\nname: gpu_staging_test\n"
         "calibration: " +
         fs::absolute("data/calibration/h200.yaml").string() + "\npipeline: " + pipeline +
         "\nworkload: {log2_n: 16, partitions: " + std::to_string(partitions) +
         ", element_bytes: 32, proofs: 1, key_points: " + key_points + "}\ngpus: {count: 1, " +
         vram + "workers_per_gpu: " + std::to_string(workers) +
         "}\nhost: {synthesis_workers: 2, synthesis_seconds: 0.01, host_slots: 3, cpu_workers: 2}"
         "\npolicy: {name: " +
         policy + "}\nphases: {msm_b_g2: 0.01}\nrun: {seed: 1, max_retries: 1}\n";
}

std::size_t device_free() {
  std::size_t f = 0, t = 0;
  BOOST_REQUIRE_EQUAL(cudaMemGetInfo(&f, &t), cudaSuccess);
  return f;
}

// Event names, less the simulator's implicit device waits ("free_sync_device", ...): on the GPU
// that wait is inside the call's own event (free_<buffer>, host_unregister).
std::set<std::string> names(const model::Trace& t) {
  std::set<std::string> s;
  for (const auto& e : t.events()) {
    const std::string& n = t.event_name(e.name);
    const std::string tail = "_sync_device";
    if (n.size() > tail.size() && n.compare(n.size() - tail.size(), tail.size(), tail) == 0)
      continue;
    s.insert(n);
  }
  return s;
}

// One run of each key-point mode first: module loading and the driver's first allocations
// (streams and events inside msm::on_device_streamed) are not the runtime's to give back.
void warm_up(const test::TempDir& d) {
  static bool done = false;
  if (done) return;
  done = true;
  for (const char* kp : {"resident", "streamed"}) {
    auto s = model::load_scenario(d.file("warm.yaml", scenario_text("tiers", 1, "", 1, kp)));
    (void)staging::run_on_gpu(s, staging::GpuRunOptions{}, nullptr);
  }
}

void check_accounting(const model::Summary& m) {
  BOOST_TEST(m.partitions_done + m.partitions_lost == m.partitions_total);
  std::int64_t by_workers = 0;
  for (const auto& w : m.workers) by_workers += w.partitions_done;
  BOOST_TEST(by_workers == m.partitions_done);
  BOOST_TEST(m.proofs_completed == (m.partitions_lost == 0 ? m.proofs_requested : 0));
  // Real proofs (automatic at this n): every partition done passed the host's pairing check.
  if (m.partitions_verified >= 0) {
    BOOST_TEST(m.partitions_verified == m.partitions_done);
    BOOST_TEST(m.partitions_check_failed == 0);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_partition_runs_with_the_simulators_event_names) {
  test::TempDir d("staging-names");
  warm_up(d);
  for (const char* kp : {"resident", "streamed"}) {
    for (const char* policy : {"baseline", "naive", "tiers", "budget"}) {
      BOOST_TEST_MESSAGE("policy " << policy << ", key points " << kp);
      auto s = model::load_scenario(d.file("s.yaml", scenario_text(policy, 2, "", 4, kp)));
      std::size_t before = device_free();
      staging::GpuRunOptions o;
      auto r = staging::run_on_gpu(s, o, nullptr);
      BOOST_TEST(r.summary.partitions_done == 4);
      BOOST_TEST(r.summary.partitions_verified == 4);  // real proofs, each checked
      BOOST_TEST(r.summary.proofs_completed == 1);
      BOOST_TEST(r.summary.ooms.empty());
      check_accounting(r.summary);
      for (const auto& w : r.summary.workers) BOOST_TEST(w.partitions_done > 0);
      BOOST_TEST(static_cast<double>(device_free()) >= static_cast<double>(before) - (2 << 20));
      // Every name the simulator gives this scenario's events, the GPU run gives too.
      auto simulated = sim::run_scenario(s, true);
      auto measured = names(r.trace);
      for (const auto& n : names(simulated.trace)) BOOST_TEST(measured.count(n) == 1, n);
    }
  }
}

BOOST_AUTO_TEST_CASE(b_g2_on_the_gpu_gives_proofs_that_verify) {
  // System: the runtime (real kernels and proofs at 2^16, two workers, tiers) on the pipeline
  // with B_G2 on the GPU (kernel msm_g2_porep inside the lock, no cpu step): key points resident
  // and streamed with a 512 MiB scratch, and resident with a 64 MiB scratch, which the resident
  // G2 MSM does not fit whole (the runtime runs it in pieces). Expectation: every partition runs
  // and its proof, assembled from five device MSMs, passes the host's pairing check; no
  // out-of-memory result; the 64 MiB case splits msm_b_g2 (manifest resident_msm_pieces > 1), the
  // 512 MiB cases split nothing; the simulator's event names appear in the GPU run (msm_b_g2 as a
  // compute event); device memory returns to where it started (2 MiB).
  test::TempDir d("staging-b-g2-gpu");
  warm_up(d);
  const std::string pipeline = small_n_b_g2_gpu_pipeline(d, 8192);
  const std::string small_scratch = small_n_b_g2_gpu_pipeline(d, 1024);
  // First the G2 MSM's own warm-up (its kernels load lazily at their first launch, and that
  // memory is the driver's, not the runtime's to give back), one run per key mode.
  for (const char* kp : {"resident", "streamed"})
    (void)staging::run_on_gpu(
        model::load_scenario(d.file("warm.yaml", scenario_text("tiers", 1, "", 1, kp, pipeline))),
        staging::GpuRunOptions{}, nullptr);
  struct Case {
    const char* key_points;
    const std::string& pipeline;
    bool pieces;
  };
  for (const Case& c : {Case{"resident", pipeline, false}, Case{"streamed", pipeline, false},
                        Case{"resident", small_scratch, true}}) {
    BOOST_TEST_MESSAGE("B_G2 on the GPU, key points " << c.key_points << ", " << c.pipeline);
    auto s = model::load_scenario(
        d.file("s.yaml", scenario_text("tiers", 2, "", 4, c.key_points, c.pipeline)));
    std::size_t before = device_free();
    nlohmann::json manifest = nlohmann::json::object();
    auto r = staging::run_on_gpu(s, staging::GpuRunOptions{}, &manifest);
    BOOST_TEST(r.summary.partitions_done == 4);
    BOOST_TEST(r.summary.partitions_verified == 4);
    BOOST_TEST(r.summary.proofs_completed == 1);
    for (const auto& o : r.summary.ooms)
      BOOST_TEST_MESSAGE("out of memory at " << o.where << ": " << o.bytes << " B");
    BOOST_TEST(r.summary.ooms.empty());
    const auto& pieces = manifest["runtime"]["resident_msm_pieces"];
    BOOST_TEST(pieces.contains("msm_b_g2") == c.pieces, pieces.dump());
    if (c.pieces && pieces.contains("msm_b_g2"))
      BOOST_TEST(pieces["msm_b_g2"].get<std::size_t>() > 1);
    check_accounting(r.summary);
    bool b2_compute = false;
    for (const auto& e : r.trace.events())
      if (r.trace.event_name(e.name) == "msm_b_g2" && e.kind == model::EventKind::compute)
        b2_compute = true;
    BOOST_TEST(b2_compute);
    auto simulated = sim::run_scenario(s, true);
    auto measured = names(r.trace);
    for (const auto& n : names(simulated.trace)) BOOST_TEST(measured.count(n) == 1, n);
    BOOST_TEST(static_cast<double>(device_free()) >= static_cast<double>(before) - (2 << 20));
  }
}

BOOST_AUTO_TEST_CASE(a_pinned_pool_pins_the_host_slots_once) {
  // System: the runtime (real kernels and proofs at 2^16, two workers) under the control `pinned`
  // and under tiers, both with pinning: pinned_pool. Expectation: every partition runs and its
  // proof passes; no host_register / host_unregister event; summary.json's pinned_pool holds
  // host.host_slots x the partition's inputs and a positive setup time; the simulator's event
  // names appear in the GPU run; device memory returns to where it started (2 MiB).
  test::TempDir d("staging-pinned-pool");
  warm_up(d);
  for (const char* policy : {"pinned", "tiers"}) {
    BOOST_TEST_MESSAGE("policy " << policy << ", pinned_pool");
    auto s = model::load_scenario(
        d.file("s.yaml", scenario_text(std::string(policy) + ", params: {pinning: pinned_pool}", 2,
                                       "", 4, "streamed")));
    std::size_t before = device_free();
    auto r = staging::run_on_gpu(s, staging::GpuRunOptions{}, nullptr);
    BOOST_TEST(r.summary.partitions_done == 4);
    BOOST_TEST(r.summary.partitions_verified == 4);
    check_accounting(r.summary);
    double inputs = 0;
    for (double b : s.input_bytes) inputs += b;
    BOOST_TEST(r.summary.pinned_pool_bytes == inputs * s.host_slots);
    BOOST_TEST(r.summary.pinned_pool_setup_s > 0);
    for (const auto& e : r.trace.events()) {
      const std::string& n = r.trace.event_name(e.name);
      BOOST_TEST((n != "host_register" && n != "host_unregister"), n);
    }
    BOOST_TEST(static_cast<double>(device_free()) >= static_cast<double>(before) - (2 << 20));
    auto simulated = sim::run_scenario(s, true);
    auto measured = names(r.trace);
    for (const auto& n : names(simulated.trace)) BOOST_TEST(measured.count(n) == 1, n);
  }
}

BOOST_AUTO_TEST_CASE(sync_steps_run_with_the_simulators_names) {
  // System: the runtime (spin kernels, two workers, tiers) on the small-n pipeline with three
  // `sync` steps after its unlock (stream, event, device). Expectation: every partition runs;
  // each sync step's phase is counted once a partition, as in the simulator, and every event
  // name the simulator gives the run, the GPU run gives too. Tolerance: exact counts.
  test::TempDir d("staging-sync");
  std::string text = scenario_text("tiers", 2, "", 4, "streamed");
  const std::string pipe =
      d.file("sync_pipeline.yaml",
             test::replace_once(test::read_text(small_n_pipeline(d)), "  - {op: unlock}\n",
                                "  - {op: unlock}\n  - {op: sync}\n  - {op: sync, scope: event}\n"
                                "  - {op: sync, scope: device}\n"));
  auto s = model::load_scenario(d.file("s.yaml", text), {{"pipeline", pipe}});
  staging::GpuRunOptions o;
  o.kernels = staging::KernelMode::spin;
  auto r = staging::run_on_gpu(s, o, nullptr);
  BOOST_TEST(r.summary.partitions_done == 4);
  check_accounting(r.summary);
  for (const char* nm : {"sync_stream", "sync_event", "sync_device"}) {
    auto it = r.summary.phases.find(nm);
    BOOST_REQUIRE_MESSAGE(it != r.summary.phases.end(), nm);
    BOOST_TEST(it->second.count == 4u, nm);
  }
  auto simulated = sim::run_scenario(s, true);
  auto measured = names(r.trace);
  for (const auto& n : names(simulated.trace)) BOOST_TEST(measured.count(n) == 1, n);
}

BOOST_AUTO_TEST_CASE(spin_steps_take_the_simulators_durations) {
  test::TempDir d("staging-spin");
  auto s = model::load_scenario(d.file("s.yaml", scenario_text("tiers", 1, "", 2, "streamed")));
  staging::GpuRunOptions o;
  o.kernels = staging::KernelMode::spin;
  auto r = staging::run_on_gpu(s, o, nullptr);
  BOOST_TEST(r.summary.partitions_done == 2);
  for (std::size_t i = 0; i < s.pipe.steps.size(); ++i) {
    const auto& st = s.pipe.steps[i];
    if (st.op != model::StepOp::kernel) continue;
    const auto& ph = r.summary.phases.at(st.name);
    double mean = ph.total_s / static_cast<double>(ph.count);
    BOOST_TEST(mean >= s.step_seconds[i] * 0.99, st.name);
    BOOST_TEST(mean <= s.step_seconds[i] * 1.10 + 0.005, st.name);
  }
}

BOOST_AUTO_TEST_CASE(every_injected_oom_is_a_clean_reported_failure) {
  test::TempDir d("staging-oom");
  warm_up(d);
  for (const char* kp : {"resident", "streamed"}) {
    auto s = model::load_scenario(d.file("s.yaml", scenario_text("tiers", 2, "", 3, kp)));
    for (const auto& site : staging::oom_sites(s)) {
      for (int nth : {1, 2}) {
        BOOST_TEST_MESSAGE("site " << site << ":" << nth << ", key points " << kp);
        std::size_t before = device_free();
        staging::GpuRunOptions o;
        o.inject.push_back({site, nth});
        auto r = staging::run_on_gpu(s, o, nullptr);
        check_accounting(r.summary);
        // The injected failure is reported (an OOM event) and costs a retry, never a silent
        // loss; with max_retries 1 every partition still completes.
        BOOST_TEST(!r.summary.ooms.empty(), site);
        BOOST_TEST(r.summary.partitions_done + r.summary.partitions_lost == 3);
        BOOST_TEST(static_cast<double>(device_free()) >= static_cast<double>(before) - (2 << 20));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_small_card_runs_out_of_memory_as_a_result) {
  // gpus.vram just above the context and the prover's resident memory (the pipeline's NTT
  // tables and the resident key points): the staged buffers cannot all fit; the policy sees the
  // failures, the run ends with every partition accounted for. 70 MB above them: every single
  // buffer fits (the largest, msm_scratch, is n*1024 B = 67.1 MB; a buffer larger than the card
  // is refused at load, model/scenario.cpp), the two workers' buffers together do not.
  test::TempDir d("staging-small");
  warm_up(d);
  const auto base =
      model::load_scenario(d.file("s.yaml", scenario_text("naive", 2, "", 3, "resident")));
  double ctx = base.cal.total_memory - base.cal.free_at_context_start;
  std::string vram =
      "vram: " + std::to_string(static_cast<long long>(ctx + base.resident_bytes + 70e6)) + ", ";
  auto s = model::load_scenario(d.file("s2.yaml", scenario_text("naive", 2, vram, 3, "resident")));
  std::size_t before = device_free();
  staging::GpuRunOptions o;
  o.proofs = staging::ProofMode::stand_in;  // the real key alone would not fit this card
  try {
    auto r = staging::run_on_gpu(s, o, nullptr);
    check_accounting(r.summary);
  } catch (const InputError& e) {
    BOOST_TEST_MESSAGE("infeasible as configured: " << e.what());
  }
  BOOST_TEST(static_cast<double>(device_free()) >= static_cast<double>(before) - (2 << 20));
}

BOOST_AUTO_TEST_CASE(the_proof_check_passes_honest_sums_and_fails_a_tampered_one) {
  // System: the partition prover's host check (assemble + pairing check), at n = 2^10.
  // Expectation: the MSM sums computed on the host from the key and witness pass; the same sums
  // with H moved by the generator fail; the witness fills exactly n wires.
  staging::PartitionProofs pp(10, 7, 0);
  const auto& pk = pp.key();
  const std::size_t n = pp.n();
  std::vector<ff::Fr> w(pp.witness_pinned(), pp.witness_pinned() + n);
  std::vector<ff::Fr> a(n), b(n), c(n);
  pp.synthesize(a.data(), b.data(), c.data(), 0);
  auto hs = groth16::h_scalars(groth16::Evaluations{a, b, c}, pk.log_n, pk.reduction);
  BOOST_REQUIRE(hs.has_value());
  groth16::MsmSums sums;
  sums.a = msm::msm_g1(pk.a, w);
  sums.b1 = msm::msm_g1(pk.b1, w);
  sums.c = msm::msm_g1(
      pk.c, std::span<const ff::Fr>(w).subspan(pp.witness_offset(staging::KeyVector::l)));
  sums.h = msm::msm_g1(pk.h, std::span<const ff::Fr>(*hs).first(pk.h.size()));
  sums.b2 = pp.msm_b2(0);
  BOOST_TEST(pp.check(sums, 1));
  sums.h = sums.h + ec::G1Jacobian::generator();
  BOOST_TEST(!pp.check(sums, 1));
}
