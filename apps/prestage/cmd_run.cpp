// `prestage run SCENARIO --gpu -o DIR`: runs the scenario that `prestage simulate` takes on the
// real GPU(s) with the staging runtime (gpu/staging/runtime.hpp) and writes the same files:
// summary.json, events.jsonl, trace.json (Perfetto), manifest.json (with the GPU, driver and the
// runtime's settings and notes). Exit codes: 0 done, 2 bad input (nothing written), 3 internal
// error (nothing written), 4 no CUDA device or a build without CUDA (nothing written), 5 a
// partition's proof failed the pairing check (outputs written, the count in summary.json).
#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "apps/prestage/output_options.hpp"
#include "model/errors.hpp"
#include "model/run_output.hpp"
#include "model/scenario.hpp"
#ifdef PRESTAGE_HAVE_STAGING
#include "gpu/staging/runtime.hpp"
#endif

namespace {

void add_run(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "run",
      "Run a scenario on the real GPU(s) with the staging runtime (the file `simulate` takes)");
  struct Opts {
    std::string scenario, out, kernels = "real", proofs = "auto";
    bool gpu = false, force = false, quiet = false, progress = false;
    std::vector<std::string> inject;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("scenario", o->scenario, "Scenario YAML (data/scenarios/...)")->required();
  cmd->add_flag("--gpu", o->gpu, "Run on CUDA devices 0..gpus.count-1 (required: the only driver)");
  cmd->add_option("--kernels", o->kernels,
                  "real: the prover's kernels where a step names one; spin: every kernel step "
                  "spins for the simulator's duration")
      ->check(CLI::IsMember({"real", "spin"}));
  cmd->add_option("--proofs", o->proofs,
                  "verified: every partition a real Groth16 proof (PoRep-shaped synthetic "
                  "circuit at n, key set up on the host at the start), checked on the host; "
                  "stand-in: random data, no proof; auto (default): verified up to 2^22")
      ->check(CLI::IsMember({"auto", "verified", "stand-in"}));
  cmd->add_option("--inject-oom", o->inject,
                  "SITE:NTH: fail the NTH allocation at SITE (alloc_<buffer>, register, "
                  "msm_workspace); repeatable");
  prestage::cli::add_output_dir_options(cmd, o->out, o->force, &o->quiet);
  cmd->add_flag("--progress", o->progress, "A line on stderr per partition");
  namespace help = prestage::cli::help;
  cmd->footer(help::footer(help::with_scenario_parts(
      {{"Output files", help::run_dir_outputs("(with the GPU, driver and the runtime's settings)")},
       {"Exit codes",
        help::exit_codes("done", " -- also: no --gpu",
                         "; 4 unavailable: no usable CUDA device, or a build without CUDA "
                         "(nothing written); 5 a partition's proof failed the pairing check "
                         "(outputs written; summary.json partitions.check_failed)")},
       {"Accepts",
        "--kernels real or spin; --proofs auto, verified or stand-in; --inject-oom SITE:NTH "
        "with SITE alloc_<buffer>, register or msm_workspace"}})));
  cmd->callback([o] {
    if (!o->gpu)
      throw prestage::InputError("", 0, "--gpu",
                                 "`prestage run` drives the GPU: pass --gpu (the simulator is "
                                 "`prestage simulate`)");
    prestage::model::Scenario s = prestage::model::load_scenario(o->scenario);
#ifdef PRESTAGE_HAVE_STAGING
    namespace st = prestage::staging;
    st::GpuRunOptions opt;
    opt.kernels = o->kernels == "spin" ? st::KernelMode::spin : st::KernelMode::real;
    opt.progress = o->progress;
    opt.proofs = o->proofs == "verified"   ? st::ProofMode::verified
                 : o->proofs == "stand-in" ? st::ProofMode::stand_in
                                           : st::ProofMode::automatic;
    for (const auto& i : o->inject) opt.inject.push_back(st::parse_oom_injection(i));
    std::string why;
    if (!st::cuda_devices_available(s.gpus, &why))
      throw prestage::UnavailableError("run --gpu: no usable CUDA device (" + why + ")");
    nlohmann::json extra = nlohmann::json::object();
    prestage::model::RunResult r = st::run_on_gpu(s, opt, &extra);
    std::string cmdline = "prestage run " + o->scenario + " --gpu -o " + o->out +
                          (o->kernels != "real" ? " --kernels " + o->kernels : "") +
                          (o->proofs != "auto" ? " --proofs " + o->proofs : "");
    for (const auto& i : o->inject) cmdline += " --inject-oom " + i;
    if (o->force) cmdline += " --force";
    prestage::model::write_run(o->out, s, r, cmdline, o->force, "prestage run --gpu", &extra);
    if (!o->quiet) {
      const auto& m = r.summary;
      fmt::print(
          "{} (GPU): {} proofs of {} in {:.3f} s = {:.2f} proofs/h; partitions done {} of {}; "
          "OOM events {}; partitions lost {}, retried {}; wrote {}\n",
          m.scenario, m.proofs_completed, m.proofs_requested, m.makespan_s, m.throughput_per_hour,
          m.partitions_done, m.partitions_total, m.ooms.size(), m.partitions_lost,
          m.partitions_retried, o->out);
      if (m.partitions_verified >= 0)
        fmt::print("{}: proofs checked on the host: {} passed, {} failed\n", m.scenario,
                   m.partitions_verified, m.partitions_check_failed);
    }
    if (r.summary.partitions_check_failed > 0) {
      fmt::print(stderr, "prestage run: {} partition proof(s) failed the pairing check\n",
                 r.summary.partitions_check_failed);
      prestage::cli::set_exit_code(5);
      return;
    }
    prestage::cli::set_exit_code(0);
#else
    throw prestage::UnavailableError(
        "run --gpu: this build has no CUDA (configure with nvcc found)");
#endif
  });
}

PRESTAGE_REGISTER_COMMAND(add_run);

}  // namespace
