#pragma once
// The GPU driver of a scenario: the staging runtime. It runs the very scenario file that the
// simulator runs (model/scenario.hpp), under the same policy objects (model/policy/policy.hpp),
// on real CUDA devices, and returns the same result type (model/run_summary.hpp) with the same
// event names, so `prestage compare`, the plots and the experiments read either side's run.
//
// Threads, as in the engine of the story (and as sim/runner.cpp models them):
//  - synthesis workers (host.synthesis_workers) take a free host slot (host.host_slots) for each
//    partition and hold it for host.synthesis_seconds;
//  - per GPU worker (gpus.workers_per_gpu per GPU), a stager thread pins the partition's inputs,
//    asks the policy what to place, allocates and uploads it on the worker's copy stream (CUDA
//    events mark the uploads' end), one partition ahead of
//  - the worker's executor thread, which runs the pipeline's steps in order under the per-GPU
//    lock: cudaMalloc / cudaMallocAsync per buffer allocator, uploads, the prover's kernels,
//    frees, the download;
//  - detached cpu steps (B_G2 on the CPU) run on host.cpu_workers threads.
// Policies see a MemoryView over cudaMemGetInfo, the default pool's attributes,
// cudaMemPoolTrimTo and stream / event / device synchronisation. An allocation failure is a
// result the policy sees (on_failure); a partition that fails frees what it holds, releases the
// lock and is retried or lost (run.max_retries). gpus.vram is enforced by a ballast allocation.
//
// What is real and what stands in (each also listed in the manifest's `runtime.notes`):
//  - real: allocations, pinning, copies, synchronisation, policy decisions, the NTT kernels
//    (h_input: ntt::interpolate_to_coset; coset_intt: ntt::coset_inverse) and the G1 MSMs
//    (msm::on_device on the pipeline's pool buffer as workspace, points resident or streamed from
//    pinned host memory as workload.key_points says), all at the scenario's n on n x 32 B data;
//  - stand-ins: synthesis is a timed wait over host slots filled once with random field
//    elements; the L, A, B_G1 MSMs take PoRep-shaped scalars written into the first buffer by a
//    fill kernel (the pipeline uploads no witness); the key is one set of n points (2^18 random
//    points repeated, as gpu_bench measures) shared by the four G1 MSMs; detached cpu steps are
//    timed waits of the scenario's duration; kernel steps without a kernel curve (and every
//    kernel step under KernelMode::spin) run a spin kernel of the step's bound duration. No
//    proof is assembled or verified yet.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/run_summary.hpp"
#include "model/scenario.hpp"

namespace prestage::staging {

// real: the prover's kernels where a step names one (spin for the rest); spin: every kernel
// step spins for the duration the simulator gives it (isolates memory, copies and sync).
enum class KernelMode { real, spin };

// --inject-oom SITE:NTH: the NTH (1-based) allocation attempt at SITE fails as out of memory
// (cudaErrorMemoryAllocation), without calling CUDA. Sites: "alloc_<buffer>" (every allocation
// of that pipeline buffer, staged or not), "register" (cudaHostRegister of a partition's
// inputs), "msm_workspace" (the MSM's workspace inside the pool buffer).
struct OomInjection {
  std::string site;
  int nth = 1;
};
OomInjection parse_oom_injection(const std::string& text);  // InputError on bad syntax
std::vector<std::string> oom_sites(const model::Scenario& s);

// stand_in: the data above (no proof); verified: every partition a real proof, checked on the
// host (needs KernelMode::real); automatic: verified up to kAutoVerifiedMaxLog2, stand-in above
// (above, the key's n x 680 B of host memory and the real synthesis's host time would change the
// scenario's host side), said on stderr and in the manifest.
enum class ProofMode { automatic, verified, stand_in };
constexpr int kAutoVerifiedMaxLog2 = 22;

struct GpuRunOptions {
  KernelMode kernels = KernelMode::real;
  ProofMode proofs = ProofMode::automatic;
  std::vector<OomInjection> inject;
  bool progress = false;  // a line on stderr per partition
};

// True when at least `count` CUDA devices can be used; otherwise *why says why.
bool cuda_devices_available(int count, std::string* why);

// Runs `s` on GPUs 0 .. s.gpus - 1. Fills *manifest (an object) with the GPU, driver, runtime
// settings and notes. UnavailableError without enough devices; InputError for a scenario the
// runtime cannot run as written (names the key); CudaError for a CUDA failure other than
// out-of-memory.
model::RunResult run_on_gpu(const model::Scenario& s, const GpuRunOptions& options,
                            nlohmann::json* manifest);

}  // namespace prestage::staging
