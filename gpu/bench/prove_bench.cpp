// prove_bench: one Groth16 proof end to end, host prover (groth16::prove) against the GPU prover
// (groth16::prove_gpu, with the key's points uploaded per proof and resident on the device), on
// synthetic circuits by size (a benchmark, not a test). Each figure is
// the median wall clock of --runs proofs after one warm-up proof per prover (the GPU's first
// proof pays the context, module loading and the pool's growth), phase by phase. Every GPU proof
// is compared with the host proof of the same key, witness and seed and verified: a mismatch
// exits 3. --setup gpu | both times the key's setup with its points on the GPU (gpu_setup.hpp);
// both also times the host's and compares the two keys point for point (a mismatch exits 3).
// Output: a table on stdout and JSON (--out) with the machine, date and commit.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "gpu/groth16/gpu_prover.hpp"
#include "gpu/groth16/gpu_setup.hpp"
#include "gpu/groth16/groth16.hpp"
#include "gpu/runtime/memory.hpp"
#include "model/output_files.hpp"
#include "model/stats.hpp"
#include "model/version_info.hpp"

using namespace prestage;
using namespace prestage::groth16;
using json = nlohmann::ordered_json;

namespace {

using prestage::model::median;

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

bool same(const Proof& x, const Proof& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"prove_bench: Groth16 proof time, host prover vs GPU prover"};
  std::vector<unsigned> logs{16, 18, 20};
  unsigned runs = 3, threads = 0;
  std::string profile_name = "dense", reduction_name = "circom", out, commit = git_commit();
  std::string setup_where = "host";
  app.add_option("--log", logs, "domain sizes, log2 (default 16 18 20)")->delimiter(',');
  app.add_option("--runs", runs, "timed proofs per prover and size (median; default 3)")
      ->check(CLI::Range(1u, 99u));
  app.add_option("--threads", threads, "host threads (0 = all cores)");
  app.add_option("--setup", setup_where,
                 "where the key's points are made: host (default), gpu, or both (timed, compared)")
      ->check(CLI::IsMember({"host", "gpu", "both"}));
  app.add_option("--profile", profile_name, "synthetic circuit: porep or dense (default dense)");
  app.add_option("--reduction", reduction_name, "circom or textbook (default circom)");
  app.add_option("--commit", commit, "commit the tree was taken from (no .git on the device)");
  app.add_option("--out", out, "JSON results");
  CLI11_PARSE(app, argc, argv);
  const auto profile = SyntheticCircuit::parse_profile(profile_name);
  if (reduction_name != "circom" && reduction_name != "textbook") {
    std::fprintf(stderr, "prove_bench: --reduction must be circom or textbook\n");
    return 2;
  }
  const Reduction red = reduction_name == "circom" ? Reduction::circom : Reduction::textbook;

  int dev = 0, driver = 0;
  PRESTAGE_CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  PRESTAGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  PRESTAGE_CUDA_CHECK(cudaDriverGetVersion(&driver));
  json doc;
  doc["manifest"] = {{"tool", "prove_bench"},
                     {"commit", commit},
                     {"date", utc_now()},
                     {"gpu", prop.name},
                     {"cuda_driver", driver},
                     {"host_threads", threads ? threads : std::thread::hardware_concurrency()},
                     {"profile", profile_name},
                     {"reduction", reduction_name},
                     {"runs", runs},
                     {"setup", setup_where},
                     {"statistic", "median wall clock after one warm-up proof per prover"}};
  doc["rows"] = json::array();
  gpu::SyncAllocator ntt_alloc;
  gpu::StreamOrderedAllocator msm_alloc;
  int rc = 0;
  std::printf("%-6s %9s | %-48s | %-72s | %s\n", "log_n", "setup s", "host prove s (qap h g1 g2)",
              "gpu prove s (qap up_abc h g1 g2 asm)", "gpu, key resident s (g1 g2; key upload)");
  for (unsigned log_n : logs) {
    using clock = std::chrono::steady_clock;
    const uint32_t n_public = 2;
    SyntheticCircuit circuit(profile, SyntheticCircuit::constraints_for_domain(log_n, n_public),
                             n_public, 1000 + log_n);
    const std::vector<Fr> w = circuit.witness();
    auto t0 = clock::now();
    SetupOptions so;
    so.seed = 7;
    so.reduction = red;
    so.with_coefs = red == Reduction::circom;
    so.threads = threads;
    const ProvingKey pk = setup(circuit, setup_where == "host" ? so : with_gpu_multiples(so));
    const double setup_s = std::chrono::duration<double>(clock::now() - t0).count();
    double host_setup_s = setup_where == "host" ? setup_s : 0;
    bool same_key = true;
    if (setup_where == "both") {  // the host's setup too, timed, and the keys compared
      t0 = clock::now();
      const ProvingKey hk = setup(circuit, so);
      host_setup_s = std::chrono::duration<double>(clock::now() - t0).count();
      same_key = hk.a == pk.a && hk.b1 == pk.b1 && hk.b2 == pk.b2 && hk.c == pk.c && hk.h == pk.h &&
                 hk.ic == pk.ic;
      std::printf("2^%u setup: points on the GPU %.2f s, on the host %.2f s (%.1fx)%s\n", log_n,
                  setup_s, host_setup_s, host_setup_s / setup_s, same_key ? "" : "  KEY MISMATCH");
      if (!same_key) rc = 3;
    }
    const VerifyingKey vk = pk.verifying_key();
    const std::vector<Fr> pub(w.begin() + 1, w.begin() + 1 + n_public);

    // The key's points resident on the device (pre-staged once): the third prover column.
    t0 = clock::now();
    const DeviceKeyPoints resident(pk, ntt_alloc, threads);
    const double resident_upload_s = std::chrono::duration<double>(clock::now() - t0).count();
    std::vector<double> host_total, hq, hh, hg1, hg2, gpu_total, gq, gu, gh, gg1, gg2, ga;
    std::vector<double> res_total, rg1, rg2;
    Proof host_proof, gpu_proof;
    GpuProveTimings gt;
    bool equal = true;
    for (unsigned r = 0; r <= runs; ++r) {  // r = 0: warm-up
      ProveOptions po;
      po.seed = 100 + r;
      po.threads = threads;
      ProveTimings ht;
      po.timings = &ht;
      t0 = clock::now();
      host_proof = prove(pk, w, &circuit, po);
      const double host_s = std::chrono::duration<double>(clock::now() - t0).count();
      GpuProveOptions go;
      go.seed = po.seed;
      go.threads = threads;
      go.timings = &gt;
      t0 = clock::now();
      gpu_proof = prove_gpu(pk, w, &circuit, ntt_alloc, msm_alloc, go);
      const double gpu_s = std::chrono::duration<double>(clock::now() - t0).count();
      equal = equal && same(host_proof, gpu_proof);
      GpuProveTimings rt;
      go.timings = &rt;
      go.resident_key = &resident;
      t0 = clock::now();
      const Proof res_proof = prove_gpu(pk, w, &circuit, ntt_alloc, msm_alloc, go);
      const double res_s = std::chrono::duration<double>(clock::now() - t0).count();
      equal = equal && same(host_proof, res_proof);
      if (r == 0) continue;
      res_total.push_back(res_s);
      rg1.push_back(rt.msm_g1);
      rg2.push_back(rt.msm_g2);
      host_total.push_back(host_s);
      hq.push_back(ht.qap);
      hh.push_back(ht.h);
      hg1.push_back(ht.msm_g1);
      hg2.push_back(ht.msm_g2);
      gpu_total.push_back(gpu_s);
      gq.push_back(gt.qap);
      gu.push_back(gt.upload_abc);
      gh.push_back(gt.h);
      gg1.push_back(gt.msm_g1);
      gg2.push_back(gt.msm_g2);
      ga.push_back(gt.assemble);
    }
    const bool verified = verify(vk, pub, gpu_proof);
    if (!equal || !verified) rc = 3;
    std::printf(
        "2^%-4u %9.2f | %7.3f (%6.3f %6.3f %6.3f %6.3f)       | %7.3f (%6.3f %6.3f %6.3f %6.3f "
        "%6.3f %6.3f) | %7.3f (%6.3f %6.3f; %6.3f)%s\n",
        log_n, setup_s, median(host_total), median(hq), median(hh), median(hg1), median(hg2),
        median(gpu_total), median(gq), median(gu), median(gh), median(gg1), median(gg2), median(ga),
        median(res_total), median(rg1), median(rg2), resident_upload_s,
        equal && verified ? "" : "  MISMATCH");
    std::fflush(stdout);
    doc["rows"].push_back(
        {{"log_n", log_n},
         {"n_vars", pk.n_vars},
         {"setup_s", setup_s},
         {"setup_points_on", setup_where == "host" ? "host" : "gpu"},
         {"host_setup_s", setup_where == "gpu" ? json(nullptr) : json(host_setup_s)},
         {"setup_keys_equal", same_key},
         {"host",
          {{"median_s", median(host_total)},
           {"runs_s", host_total},
           {"qap_s", median(hq)},
           {"h_s", median(hh)},
           {"msm_g1_s", median(hg1)},
           {"msm_g2_s", median(hg2)}}},
         {"gpu",
          {{"median_s", median(gpu_total)},
           {"runs_s", gpu_total},
           {"qap_s", median(gq)},
           {"upload_abc_s", median(gu)},
           {"h_s", median(gh)},
           {"msm_g1_s", median(gg1)},
           {"msm_g2_s", median(gg2)},
           {"assemble_s", median(ga)},
           {"points_bytes", gt.points_bytes},
           {"buffers_peak_bytes", gt.buffers_peak_bytes}}},
         {"gpu_resident_key",
          {{"median_s", median(res_total)},
           {"runs_s", res_total},
           {"msm_g1_s", median(rg1)},
           {"msm_g2_s", median(rg2)},
           {"key_upload_s", resident_upload_s},
           {"key_bytes", resident.bytes()}}},
         {"gpu_proof_equals_host_proof", equal},
         {"gpu_proof_verifies", verified}});
  }
  if (!out.empty()) {
    // Atomically (unique temporary beside it, renamed); an earlier regular file is replaced, a
    // directory never (model/output_files.hpp).
    try {
      prestage::output::write_file_atomic(
          out, true, [&](std::ostream& f) { f << doc.dump(1) << "\n"; }, "--out");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "prove_bench: %s\n", e.what());
      return 2;
    }
  }
  return rc;
}
