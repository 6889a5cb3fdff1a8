#pragma once
// Groth16 proofs with the prover's arithmetic on one GPU (docs/story.md, "The workload"):
//   1. the QAP evaluations a, b, c on the host (evaluate_qap, from the circuit or the key's
//      coefficients), uploaded to the device (n x 32 B each, the NTT path's allocator);
//   2. H on the device (compute_h_on_device: iNTT + coset NTT chains, a*b - c; the textbook
//   reduction
//      also divides by Z and interpolates), d_b and d_c freed after it;
//   3. the witness uploaded (n_vars x 32 B), then one MSM at a time: A, B1, C, H on G1, B2 on G2
//      (msm::on_device, workspace from the MSM path's allocator), each with its points uploaded
//      just before it and freed after it (the key's points in ec::G1Affine / G2Affine layout,
//      104 / 200 B a point; an in-place .zkey key is decoded into that layout first), or read
//      from a DeviceKeyPoints uploaded once for many proofs (the key pre-staged);
//   4. the blinding and the final additions on the host (groth16::assemble_proof, the host
//      prover's own).
// The result is the host prover's proof for the same key, witness and seed, bit for bit (the
// MSM sums are group elements, whatever the algorithm).
#include <cstdint>
#include <optional>
#include <vector>

#include "gpu/groth16/groth16.hpp"
#include "gpu/msm/gpu_msm.hpp"
#include "gpu/runtime/memory.hpp"

namespace prestage::groth16 {

// Wall-clock seconds of each phase of prove_gpu (each phase ends with the device idle).
struct GpuProveTimings {
  double qap = 0;         // a, b, c on the host
  double upload_abc = 0;  // a, b, c to the device, domain and coset tables built
  double h = 0;           // compute_h_on_device (and, textbook, the check that h_{n-1} = 0)
  double msm_g1 = 0;      // witness upload, then A, B1, C, H: point uploads and MSMs
  double msm_g2 = 0;      // B2: point upload and MSM (b2_on_host: the wait for the host's B2)
  double b2_host = 0;     // b2_on_host: the host's B2 MSM, start to end (overlaps the GPU work)
  double assemble = 0;    // blinding and the final additions (host)
  // Bytes of the key's points uploaded (all five MSMs; 0 with a resident key) and the device
  // memory high-water mark the prover's own buffers reached (a, b, c, tables, witness, one MSM's
  // points; neither the MSM workspaces from msm_alloc nor a resident key are counted).
  std::size_t points_bytes = 0;
  std::size_t buffers_peak_bytes = 0;
};

// A proving key's points resident on the device, uploaded once for many proofs (the key
// pre-staged): A, B1 (n_vars), C (n_vars - n_public - 1), H (n or n - 1) as ec::G1Affine and
// B2 (n_vars) as ec::G2Affine, from `alloc` (the NTT path's cudaMalloc in the real prover).
// 104 / 200 B a point: a 2^27 key holds ~82 GB. Ready when the constructor returns; freed with
// the object. prove_gpu checks that its counts are the key's.
class DeviceKeyPoints {
 public:
  DeviceKeyPoints(const ProvingKey& pk, gpu::DeviceAllocator& alloc, unsigned threads = 0);
  std::size_t bytes() const { return a.bytes() + b1.bytes() + c.bytes() + h.bytes() + b2.bytes(); }
  gpu::DeviceBuffer<G1Affine> a, b1, c, h;
  gpu::DeviceBuffer<G2Affine> b2;
};

struct GpuProveOptions {
  std::optional<uint64_t> seed;  // blinding r, s from this seed (tests); else std::random_device
  unsigned threads = 0;          // host threads (QAP evaluations, decoding in-place points)
  msm::DeviceOptions msm;        // options of all five MSMs (msm::on_device's defaults)
  // The key's points already on the device (no uploads; points_bytes stays 0); null: upload
  // each vector before its MSM.
  const DeviceKeyPoints* resident_key = nullptr;
  // B2 (the G2 MSM) on the host's cores while the GPU computes H and the G1 MSMs, instead of on
  // the GPU after them (resident_key's b2 is then unused).
  bool b2_on_host = false;
  GpuProveTimings* timings = nullptr;
};

// A proof for witness w (n_vars values, Montgomery) on the current CUDA device. `ntt_alloc`
// gives a, b, c, the domain's tables, the witness and the points (cudaMalloc in the real
// prover), `msm_alloc` the MSM workspaces (the stream-ordered pool); all of it is freed before
// the call returns, also on an exception. Uses `circuit` for a, b, c when given, else pk.coefs.
// Throws as prove() does (std::invalid_argument on sizes, std::domain_error when the textbook
// reduction finds p not divisible by Z) and gpu::CudaError on a device error (out_of_memory()
// when a buffer does not fit).
Proof prove_gpu(const ProvingKey& pk, const std::vector<Fr>& w, const Circuit* circuit,
                gpu::DeviceAllocator& ntt_alloc, gpu::DeviceAllocator& msm_alloc,
                const GpuProveOptions& options = {});

}  // namespace prestage::groth16
