// `prestage prove --zkey K --wtns W -o proof.json --public public.json [--r1cs R] [--gpu]`: a
// Groth16 proof with the host prover (or, --gpu, groth16::prove_gpu on CUDA device 0: H and the
// five MSMs on the GPU; the same proof for the same blinding) from a snarkjs proving key and
// witness, written as snarkjs writes
// proof.json and public.json (atomically: unique temporary files beside them, renamed at the end;
// model/output_files.hpp; an existing regular file is replaced, a directory never).
// Checks: the files themselves (gpu/io readers), witness size vs key, and satisfaction -- per
// constraint A*B = C when --r1cs is given, else by verifying the new proof against the key
// (a proof from an unsatisfying witness never verifies). A proof that fails verification although
// the witness satisfies the --r1cs is the key's fault: the error names the .zkey and its first
// coefficient that disagrees with the circuit (section 4, byte offset; gpu/groth16/key_check.hpp).
// Bad input -> InputError -> exit 2.
// In a build without the host prover (the `sim` preset) the command exits 4.
#include <fmt/core.h>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "model/errors.hpp"
#ifdef PRESTAGE_HAVE_PROVER
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "gpu/groth16/groth16.hpp"
#include "gpu/groth16/key_check.hpp"
#include "gpu/io/r1cs.hpp"
#include "gpu/io/snarkjs_json.hpp"
#include "gpu/io/wtns.hpp"
#include "gpu/io/zkey.hpp"
#include "model/output_files.hpp"
#endif
#ifdef PRESTAGE_HAVE_GPU_PROVER
#include "gpu/groth16/gpu_prover.hpp"
#endif

namespace {

struct ProveArgs {
  std::string zkey, wtns, proof, pub, r1cs;
  unsigned threads = 0;
  bool quiet = false;
  bool gpu = false;
  bool autoselect = false;  // --auto: the GPU from kAutoGpuMinLog2 up, when a device exists
  std::string b2;           // --b2: where the G2 MSM runs with --gpu (gpu | host; "" = gpu)
  unsigned repeat = 1;      // --repeat: proofs made in this process (the last one is written)
};

// --auto's crossover: the smallest domain (log2) at which a one-shot `prove --gpu --b2 host` beat
// the host prover, wall clock, on the lent H200 (16 cores; 5 runs each, medians, 2026-12-02,
// data/bench/prove_gpu_oneshot/2026-12-02_h200.log): 2^16 0.478 s vs 0.095 s, 2^18 0.513 s vs
// 0.326 s, 2^20 1.034 s vs 1.117 s. Below it the CUDA context and module loading (~0.4 s of
// the GPU path's wall time) outweigh the kernels' gain.
constexpr unsigned kAutoGpuMinLog2 = 20;

#ifdef PRESTAGE_HAVE_GPU_PROVER
// The CUDA context of device 0, created on its own thread from the command's start, so that the
// driver's start-up runs beside the key's mapping and checks. ready() joins it and returns how
// long the main thread waited; seconds() is the creation's own time.
class ContextWarmup {
 public:
  ContextWarmup()
      : t_([this] {
          const auto t0 = std::chrono::steady_clock::now();
          int devices = 0;
          status_ = cudaGetDeviceCount(&devices);
          if (status_ == cudaSuccess && devices == 0) status_ = cudaErrorNoDevice;
          if (status_ == cudaSuccess) status_ = cudaSetDevice(0);
          if (status_ == cudaSuccess) status_ = cudaFree(nullptr);  // creates the primary context
          seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }) {}
  double ready() {
    const auto t0 = std::chrono::steady_clock::now();
    if (t_.joinable()) t_.join();
    if (status_ != cudaSuccess)
      throw prestage::UnavailableError(
          fmt::format("prove --gpu: no usable CUDA device ({})", cudaGetErrorString(status_)));
    // The context is current per thread: make device 0's primary context this thread's.
    PRESTAGE_CUDA_CHECK(cudaSetDevice(0));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double seconds() const { return seconds_; }

 private:
  cudaError_t status_ = cudaSuccess;
  double seconds_ = 0;
  std::jthread t_;  // joined by ready() or, on an early error, by the destructor
};
#endif

#ifdef PRESTAGE_HAVE_PROVER
// The proof on the GPU (prove_gpu: a, b, c, H and the points from cudaMalloc, the MSM scratch
// from the stream-ordered pool, as the real prover's two paths) and its timing line.
#ifdef PRESTAGE_HAVE_GPU_PROVER
prestage::groth16::Proof prove_on_gpu(const prestage::groth16::ProvingKey& pk,
                                      const std::vector<prestage::ff::Fr>& w, const ProveArgs& a,
                                      ContextWarmup& context, std::string& timing) {
  using namespace prestage;
  const double waited = context.ready();
  gpu::SyncAllocator ntt_alloc;
  gpu::StreamOrderedAllocator msm_alloc;
  groth16::GpuProveOptions o;
  o.threads = a.threads;
  // --auto chooses the host for B2 unless --b2 says otherwise: it ran beside the G1 MSMs and
  // was the faster one-shot path at every size measured (data/bench/prove_gpu_oneshot).
  o.b2_on_host = a.b2 == "host" || (a.autoselect && a.b2.empty());
  groth16::GpuProveTimings tm;
  o.timings = &tm;
  groth16::Proof p = groth16::prove_gpu(pk, w, nullptr, ntt_alloc, msm_alloc, o);
  timing = fmt::format(
      "gpu: context {:.3f} (waited {:.3f}), qap {:.3f}, upload a/b/c {:.3f}, h {:.3f}, msm g1 "
      "{:.3f}, msm g2 {:.3f}{}, assemble {:.3f}; points {:.1f} MiB, buffers peak {:.1f} MiB",
      context.seconds(), waited, tm.qap, tm.upload_abc, tm.h, tm.msm_g1, tm.msm_g2,
      o.b2_on_host ? fmt::format(" (on the host: {:.3f})", tm.b2_host) : std::string(), tm.assemble,
      tm.points_bytes / 1048576.0, tm.buffers_peak_bytes / 1048576.0);
  return p;
}
bool gpu_device_present() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}
#else
bool gpu_device_present() {
  return false;
}
struct ContextWarmup {};
prestage::groth16::Proof prove_on_gpu(const prestage::groth16::ProvingKey&,
                                      const std::vector<prestage::ff::Fr>&, const ProveArgs&,
                                      ContextWarmup&, std::string&) {
  throw prestage::UnavailableError(
      "prove --gpu: this build has no CUDA (configure with nvcc found)");
}
#endif

void run_prove(const ProveArgs& a) {
  using namespace prestage;
  // glibc keeps freed blocks below 32 MB in one heap instead of unmapping them, so the H MSM's
  // buffers reuse the memory the NTTs freed: fewer fresh pages (each first touch costs ~2 us on
  // the dev VM). SHA-256-512, 2 threads, 9 interleaved rounds (2026-12-01): page faults 8.2k ->
  // 7.0k, task-clock -2% (data/bench/groth16_vs_snarkjs/README.md). Only this process.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  // --gpu: the CUDA context starts now, beside the file reads and checks below. --auto decides
  // once the key's header tells the domain (the mapping is cheap), then starts it.
  std::optional<ContextWarmup> context;
  bool use_gpu = a.gpu;
  if (use_gpu) context.emplace();
  // The outputs' places before any work: each directory exists, neither names a directory.
  output::check_replaceable_file(a.proof, true, "-o");
  output::check_replaceable_file(a.pub, true, "--public");
  // The key stays mapped: its points and coefficients are checked there and the prover reads
  // them in place (groth16::from_zkey_in_place); *mz outlives pk.
  auto mz = std::make_unique<const io::MappedZkey>(io::map_zkey(a.zkey));
  const io::Zkey& z = mz->z;
  std::string chosen;
  if (a.autoselect) {
    unsigned log_domain = 0;
    while ((uint64_t{1} << log_domain) < z.domain_size) ++log_domain;
    use_gpu = log_domain >= kAutoGpuMinLog2 && gpu_device_present();
    chosen = fmt::format("--auto: {} (domain 2^{}; the GPU from 2^{} with a CUDA device{})",
                         use_gpu ? "GPU, --b2 host" : "host prover", log_domain, kAutoGpuMinLog2,
                         use_gpu || log_domain < kAutoGpuMinLog2 ? "" : ", none found");
    if (use_gpu) context.emplace();
  }
  const io::Witness wt = io::read_wtns(a.wtns);
  if (wt.values.size() != z.n_vars)
    throw InputError(a.wtns, 0, "section 2 (values)",
                     fmt::format("witness has {} values, the proving key {} expects {}",
                                 wt.values.size(), a.zkey, z.n_vars));
  auto pk =
      std::make_unique<const groth16::ProvingKey>(groth16::from_zkey_in_place(*mz, a.threads));
  const std::vector<ff::Fr> w = groth16::witness_from_io(wt.values);
  std::unique_ptr<groth16::R1csCircuit> circuit;
  if (!a.r1cs.empty()) {
    const io::R1cs r = io::read_r1cs(a.r1cs);
    if (r.n_wires != z.n_vars || r.n_public() != z.n_public)
      throw InputError(a.r1cs, 0, "section 1 (header)",
                       fmt::format("{} wires / {} public disagree with the proving key {} ({} / "
                                   "{})",
                                   r.n_wires, r.n_public(), a.zkey, z.n_vars, z.n_public));
    circuit = std::make_unique<groth16::R1csCircuit>(r);
    if (circuit->domain_size() != z.domain_size)
      throw InputError(a.r1cs, 0, "section 1 (header)",
                       fmt::format("{} constraints need domain {}, the proving key has {}",
                                   r.n_constraints, circuit->domain_size(), z.domain_size));
    int64_t bad = groth16::first_unsatisfied(*circuit, w, a.threads);
    if (bad >= 0)
      throw InputError(
          a.wtns, 0, fmt::format("constraint {}", bad),
          fmt::format("witness does not satisfy constraint {} of {} (A*B != C)", bad, a.r1cs));
  }
  const auto t1 = clock::now();
  std::string timing;
  groth16::Proof proof;
  // --repeat N: N proofs in this process, each timed (s); the later ones find the CUDA context,
  // the modules and the host's pages warm. The last proof is the one verified and written.
  std::vector<double> each_s;
  for (unsigned k = 0; k < std::max(1u, a.repeat); ++k) {
    const auto p0 = clock::now();
    if (use_gpu) {
      proof = prove_on_gpu(*pk, w, a, *context, timing);
    } else {
      groth16::ProveOptions po;
      po.threads = a.threads;
      groth16::ProveTimings tm;
      po.timings = &tm;
      // The key's A/B coefficients give a and b; c = a*b as snarkjs does (the r1cs is only
      // checked).
      proof = groth16::prove(*pk, w, nullptr, po);
      timing = fmt::format("qap {:.3f}, h {:.3f}, msm g1 {:.3f}, msm g2 {:.3f}, assemble {:.3f}",
                           tm.qap, tm.h, tm.msm_g1, tm.msm_g2, tm.assemble);
    }
    each_s.push_back(std::chrono::duration<double>(clock::now() - p0).count());
  }
  const auto t2 = clock::now();
  const groth16::VerifyingKey vk = pk->verifying_key();
  const uint64_t n_vars = pk->n_vars, n_public = pk->n_public;
  const unsigned log_n = pk->log_n;
  // The key is no longer needed: its unmapping (~11k page-table entries of the 44.7 MB
  // SHA-256-512 key: munmap 2.0 ms by strace -T, serial kernel work otherwise done at exit) runs
  // on a second thread while this one verifies and writes the outputs (~4 ms). Joined before
  // returning (also on throw). Measured: data/bench/groth16_vs_snarkjs/README.md ("host10").
  std::jthread release([pk = std::move(pk), mz = std::move(mz)]() mutable {
    pk.reset();
    mz.reset();
  });
  std::vector<ff::Fr> pub(w.begin() + 1, w.begin() + 1 + n_public);
  // A proof that fails verification: with --r1cs the witness satisfies the circuit (checked
  // above), so the key is at fault, at its first coefficient that disagrees with the circuit
  // (key_check.hpp; the key is mapped again there, this path only); else either could be.
  if (!groth16::verify(vk, pub, proof))
    groth16::throw_failed_verification(a.zkey, a.wtns, circuit.get(), a.r1cs);
  std::vector<io::FrLimbs> pub_limbs;
  for (const auto& x : pub) pub_limbs.push_back(x.to_canonical());
  // Both outputs staged first (unique temporaries beside them), then renamed: no half-written
  // pair on failure. An earlier proof/public file is replaced, a directory never.
  output::OutputFile out_proof(a.proof, true, "-o"), out_pub(a.pub, true, "--public");
  io::write_file_atomic(out_proof.path().string(), io::proof_to_json(groth16::to_json(proof)));
  io::write_file_atomic(out_pub.path().string(), io::public_to_json(pub_limbs));
  out_proof.commit();
  out_pub.commit();
  const auto t3 = clock::now();
  if (!a.quiet && each_s.size() > 1) {
    std::vector<double> warm(each_s.begin() + 1, each_s.end());
    std::sort(warm.begin(), warm.end());
    const double med = warm.size() % 2 ? warm[warm.size() / 2]
                                       : 0.5 * (warm[warm.size() / 2 - 1] + warm[warm.size() / 2]);
    std::string all;
    for (double x : each_s) all += fmt::format("{}{:.3f}", all.empty() ? "" : " ", x);
    fmt::print(stderr,
               "prestage prove: --repeat {}: proofs took {} s; first {:.3f} s, warm median "
               "{:.3f} s (proofs 2-{}); the timing below is the last proof's\n",
               each_s.size(), all, each_s.front(), med, each_s.size());
  }
  if (!a.quiet)
    fmt::print(stderr,
               "prestage prove: {} vars, domain 2^{}: load+check {:.3f} s, prove {:.3f} s ({}), "
               "self-verify {:.3f} s{}\n",
               n_vars, log_n, std::chrono::duration<double>(t1 - t0).count(),
               std::chrono::duration<double>(t2 - t1).count(), timing,
               std::chrono::duration<double>(t3 - t2).count(),
               chosen.empty() ? std::string() : "; " + chosen);
}
#endif  // PRESTAGE_HAVE_PROVER

void add_prove(CLI::App& app) {
  auto args = std::make_shared<ProveArgs>();
  CLI::App* c = app.add_subcommand("prove",
                                   "Groth16 proof (host prover, or --gpu) from a snarkjs .zkey "
                                   "and .wtns (BLS12-381)");
  using prestage::cli::prover_required;
  prover_required(c->add_option("--zkey", args->zkey, "snarkjs Groth16 proving key (.zkey)"));
  prover_required(c->add_option("--wtns", args->wtns, "witness (.wtns)"));
  prover_required(c->add_option("-o,--proof", args->proof, "output proof.json"));
  prover_required(c->add_option("--public", args->pub, "output public.json"));
  c->add_option("--r1cs", args->r1cs, "circuit (.r1cs): check A*B = C per constraint first");
  c->add_option("--threads", args->threads, "worker threads (0 = all cores)");
  c->add_flag("-q,--quiet", args->quiet, "no timing line on stderr");
  CLI::Option* gpu_flag = c->add_flag(
      "--gpu", args->gpu,
      "prove on CUDA device 0 (H and the MSMs on the GPU; needs a CUDA build). One-shot, it is "
      "slower than the host prover below 2^20 domains: see --auto");
  c->add_flag("--auto", args->autoselect,
              "the faster path for this key: the GPU (--b2 host) from 2^20 domains when a CUDA "
              "device exists, else the host prover (the choice is printed)")
      ->excludes(gpu_flag);
  c->add_option("--b2", args->b2,
                "with --gpu or --auto: where the G2 MSM (B2) runs: gpu (after the G1 MSMs; "
                "--gpu's default) or host (on the host's cores beside them; --auto's default)")
      ->check(CLI::IsMember({"gpu", "host"}));
  c->add_option("--repeat", args->repeat,
                "make N proofs in this process and time each (the first pays the start-up; the "
                "warm median of the rest is printed); the last is verified and written")
      ->check(CLI::Range(1u, 1000u));
  namespace help = prestage::cli::help;
  c->footer(help::footer(
      {{"Output files",
        "the proof (-o, snarkjs proof.json) and its public signals (--public, "
        "public.json), written atomically (an earlier file is replaced, a "
        "directory never)"},
       {"Exit codes",
        help::exit_codes(
            "proof written (it verifies against the key)",
            " -- unreadable or malformed .zkey/.wtns/.r1cs, witness size or circuit that "
            "disagrees with the key, a witness that does not satisfy the circuit, a key whose "
            "coefficients disagree with the --r1cs (named with the byte offset)",
            "; 4 unavailable (--gpu without a CUDA device or in a build without CUDA; a build "
            "without the prover)")},
       {"Accepts",
        "BLS12-381 Groth16 keys as snarkjs writes them (circom reduction); --threads "
        "0 = all cores"},
       {"GPU or host",
        "a one-shot `prove --gpu` pays ~0.4 s for the CUDA context and module loading, so on "
        "the lent H200 (16 cores, 2026-12-02, 5 runs, medians) the host prover wins below 2^20: "
        "2^16 0.095 s host vs 0.478 s GPU (--b2 host), 2^18 0.326 vs 0.513 s; at 2^20 the GPU "
        "wins, 1.034 vs 1.117 s; on an H100 (2026-12-07) a dense 2^16 circuit: host 0.26 s, "
        "--gpu 0.61 s one-shot, 0.047 s warm (--repeat). --auto takes the faster one"}}));
  c->callback([args] {
#ifdef PRESTAGE_HAVE_PROVER
    run_prove(*args);
    prestage::cli::set_exit_code(0);
#else
    (void)args;
    prestage::cli::throw_no_prover("prove");
#endif
  });
}

PRESTAGE_REGISTER_COMMAND(add_prove);

}  // namespace
