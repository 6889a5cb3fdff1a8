// System: the Groth16 prover with its arithmetic on the GPU (groth16::prove_gpu: a, b, c
// uploaded, H by the GPU NTTs, the five MSMs by msm::on_device, blinding on the host) on synthetic
// circuits (PoRep-like 0/1 witnesses and dense field witnesses), both reductions, keys in memory
// and keys read in place from a .zkey, points uploaded per proof or resident on the device.
// Expectation: the GPU proof equals the host prover's proof for the same key, witness and
// blinding seed, point for point (the MSM sums are group elements, whatever the algorithm), and
// verifies; bad input gets the host prover's exceptions; the device buffers are all freed.
// Tolerance: none (exact group elements).
// Sizes: domain 2^7 to 2^PRESTAGE_GPU_TEST_PROVE_MAX_LOG (default 14; the sanitizer runs lower it).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/groth16/fixed_base.hpp"
#include "gpu/groth16/gpu_prover.hpp"
#include "gpu/groth16/gpu_setup.hpp"
#include "gpu/groth16/groth16.hpp"
#include "gpu/io/zkey.hpp"
#include "gpu/runtime/memory.hpp"
#include "tests/gpu/gpu_test_util.hpp"

using namespace prestage;
using namespace prestage::groth16;
namespace g = prestage::gpu;

namespace {

std::vector<Fr> publics(const std::vector<Fr>& w, uint32_t n_public) {
  return std::vector<Fr>(w.begin() + 1, w.begin() + 1 + n_public);
}

bool same(const Proof& x, const Proof& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c;
}

ProvingKey key_for(const Circuit& circuit, Reduction red, uint64_t seed) {
  SetupOptions so;
  so.seed = seed;
  so.reduction = red;
  so.with_coefs = red == Reduction::circom;  // a .zkey holds the coefficients (circom keys)
  return setup(circuit, so);
}

// The free device memory once the pool has given back what it keeps.
std::size_t free_after_trim(g::StreamOrderedAllocator& pool) {
  PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
  pool.trim(0);
  return g::mem_info().free_bytes;
}

}  // namespace

BOOST_AUTO_TEST_CASE(gpu_proof_equals_the_host_proof_and_verifies) {
  const unsigned max_log = g::test::env_log("PRESTAGE_GPU_TEST_PROVE_MAX_LOG", 14);
  g::SyncAllocator ntt_alloc;
  g::StreamOrderedAllocator msm_alloc;
  const uint64_t seed = g::test::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed << " (PRESTAGE_SEED replays it)");
  unsigned largest = 0;
  for (unsigned log_n : {7u, 10u, 14u}) {
    if (log_n > max_log) continue;
    largest = log_n;
    for (auto profile : {SyntheticCircuit::Profile::porep, SyntheticCircuit::Profile::dense}) {
      const uint32_t n_public = 3;
      SyntheticCircuit circuit(profile, SyntheticCircuit::constraints_for_domain(log_n, n_public),
                               n_public, seed + log_n);
      const std::vector<Fr> w = circuit.witness();
      BOOST_REQUIRE(first_unsatisfied(circuit, w) == -1);
      for (Reduction red : {Reduction::textbook, Reduction::circom}) {
        const ProvingKey pk = key_for(circuit, red, seed + 1);
        const VerifyingKey vk = pk.verifying_key();
        ProveOptions po;
        po.seed = seed + 2;
        const Proof host = prove(pk, w, &circuit, po);
        GpuProveOptions go;
        go.seed = po.seed;
        GpuProveTimings tm;
        go.timings = &tm;
        const Proof gpu = prove_gpu(pk, w, &circuit, ntt_alloc, msm_alloc, go);
        BOOST_TEST_MESSAGE("2^" << log_n << " profile " << int(profile) << " " << to_string(red)
                                << ": h " << tm.h << " s, msm g1 " << tm.msm_g1 << " s, msm g2 "
                                << tm.msm_g2 << " s, buffers peak " << tm.buffers_peak_bytes
                                << " B");
        BOOST_TEST(same(gpu, host), "2^" << log_n << " " << to_string(red));
        BOOST_TEST(verify(vk, publics(w, n_public), gpu));
        // The prover's own buffers: a, b, c (3 n x 32 B) at least; every point uploaded once.
        const std::size_t n = pk.domain_size();
        BOOST_TEST(tm.buffers_peak_bytes >= 3 * n * sizeof(Fr));
        BOOST_TEST(tm.points_bytes ==
                   (2 * pk.n_vars + pk.c.size() + pk.h.size()) * sizeof(G1Affine) +
                       pk.n_vars * sizeof(G2Affine));
        BOOST_TEST(tm.h > 0);
        BOOST_TEST(tm.msm_g1 > 0);
        BOOST_TEST(tm.msm_g2 > 0);
        {  // the key's points resident on the device: no uploads, the same proof
          const DeviceKeyPoints resident(pk, ntt_alloc);
          GpuProveOptions ro = go;
          GpuProveTimings rt;
          ro.timings = &rt;
          ro.resident_key = &resident;
          BOOST_TEST(same(prove_gpu(pk, w, &circuit, ntt_alloc, msm_alloc, ro), host));
          BOOST_TEST(rt.points_bytes == 0u);
          BOOST_TEST(resident.bytes() == tm.points_bytes);
        }
        if (red == Reduction::circom) {  // a, b from the key's coefficients, c = a b (snarkjs)
          const Proof gpu2 = prove_gpu(pk, w, nullptr, ntt_alloc, msm_alloc, go);
          BOOST_TEST(same(gpu2, prove(pk, w, nullptr, po)));
        }
      }
    }
  }
  // Nothing left allocated per proof: after the proofs above (which loaded every module and
  // reserved the kernels' local memory: run p1 found the first proofs take ~300 MiB of the
  // device for good), ten more proofs at the largest size leave the free memory (pool trimmed)
  // within 16 MiB of where it was.
  if (largest == 0) return;
  SyntheticCircuit circuit(SyntheticCircuit::Profile::dense,
                           SyntheticCircuit::constraints_for_domain(largest, 1), 1, seed);
  const std::vector<Fr> w = circuit.witness();
  const ProvingKey pk = key_for(circuit, Reduction::circom, seed);
  const std::size_t free_before = free_after_trim(msm_alloc);
  for (int k = 0; k < 10; ++k) prove_gpu(pk, w, &circuit, ntt_alloc, msm_alloc);
  const std::size_t free_after = free_after_trim(msm_alloc);
  BOOST_TEST(free_after + (std::size_t{16} << 20) >= free_before,
             "free " << free_before << " B before, " << free_after << " B after");
}

BOOST_AUTO_TEST_CASE(gpu_proof_from_a_key_read_in_place_equals_the_host_proof) {
  // System: a circom key written as a .zkey and mapped (from_zkey_in_place: the points stay in
  // the file's 96 / 192 B layout, decoded by prove_gpu), witness from a dense circuit, 2^10
  // (or the size knob's, if lower).
  const unsigned log_n = std::min(10u, g::test::env_log("PRESTAGE_GPU_TEST_PROVE_MAX_LOG", 14));
  const uint64_t seed = g::test::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  SyntheticCircuit circuit(SyntheticCircuit::Profile::dense,
                           SyntheticCircuit::constraints_for_domain(log_n, 2), 2, seed);
  const std::vector<Fr> w = circuit.witness();
  const ProvingKey pk = key_for(circuit, Reduction::circom, seed + 1);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("prestage_gpu_groth16_" + std::to_string(seed) + ".zkey"))
                               .string();
  io::write_zkey(path, to_zkey(pk));
  const io::MappedZkey mz = io::map_zkey(path);
  std::filesystem::remove(path);  // the mapping stays valid
  const ProvingKey ipk = from_zkey_in_place(mz, 0);
  BOOST_REQUIRE(ipk.in_place.has_value());
  g::SyncAllocator ntt_alloc;
  g::StreamOrderedAllocator msm_alloc;
  GpuProveOptions go;
  go.seed = seed + 2;
  ProveOptions po;
  po.seed = go.seed;
  const Proof gpu = prove_gpu(ipk, w, nullptr, ntt_alloc, msm_alloc, go);
  BOOST_TEST(same(gpu, prove(ipk, w, nullptr, po)));
  BOOST_TEST(same(gpu, prove_gpu(pk, w, nullptr, ntt_alloc, msm_alloc, go)));
  BOOST_TEST(verify(ipk.verifying_key(), publics(w, 2), gpu));
  // The in-place key's points made resident (decoded from the file's layout): the same proof.
  const DeviceKeyPoints resident(ipk, ntt_alloc);
  GpuProveOptions ro = go;
  ro.resident_key = &resident;
  BOOST_TEST(same(gpu, prove_gpu(ipk, w, nullptr, ntt_alloc, msm_alloc, ro)));
}

BOOST_AUTO_TEST_CASE(bad_input_gets_the_host_provers_errors) {
  // System: a 2^7 textbook key. Expectation: a witness of the wrong length, a circuit of another
  // size and another key's resident points are std::invalid_argument, an unsatisfying witness
  // std::domain_error (p not divisible by Z, found on the device), as groth16::prove throws them.
  SyntheticCircuit circuit(SyntheticCircuit::Profile::dense,
                           SyntheticCircuit::constraints_for_domain(7, 1), 1, 5);
  SyntheticCircuit other(SyntheticCircuit::Profile::dense,
                         SyntheticCircuit::constraints_for_domain(8, 1), 1, 5);
  const ProvingKey pk = key_for(circuit, Reduction::textbook, 3);
  g::SyncAllocator ntt_alloc;
  g::StreamOrderedAllocator msm_alloc;
  std::vector<Fr> w = circuit.witness();
  std::vector<Fr> short_w(w.begin(), w.end() - 1);
  BOOST_CHECK_THROW(prove_gpu(pk, short_w, &circuit, ntt_alloc, msm_alloc), std::invalid_argument);
  BOOST_CHECK_THROW(prove_gpu(pk, w, &other, ntt_alloc, msm_alloc), std::invalid_argument);
  // Another key's resident points (of a 2^8 key): its counts are not this key's.
  const ProvingKey other_pk = key_for(other, Reduction::textbook, 3);
  const DeviceKeyPoints other_points(other_pk, ntt_alloc);
  GpuProveOptions ro;
  ro.resident_key = &other_points;
  BOOST_CHECK_THROW(prove_gpu(pk, w, &circuit, ntt_alloc, msm_alloc, ro), std::invalid_argument);
  w.back() += Fr::one();  // the last gate's output no longer matches its inputs
  BOOST_REQUIRE(first_unsatisfied(circuit, w) >= 0);
  BOOST_CHECK_THROW(prove(pk, w, &circuit), std::domain_error);
  BOOST_CHECK_THROW(prove_gpu(pk, w, &circuit, ntt_alloc, msm_alloc), std::domain_error);
}

BOOST_AUTO_TEST_CASE(gpu_setup_makes_the_host_setups_key) {
  // System: groth16::setup with its generator multiples on the GPU (gpu_setup.hpp) against the
  // host's FixedBase, on PoRep-like (many zero scalars: identity points) and dense circuits,
  // both reductions, 2^7 and 2^12 (or the size knob's, if lower); and the multiples alone at
  // the scalars' edges (0, 1, -1, digits 255 and 256, random), G1 and G2.
  // Expectation: the same key, point for point; a GPU-setup proof verifies.
  // Tolerance: none (exact group elements).
  const unsigned max_log = g::test::env_log("PRESTAGE_GPU_TEST_PROVE_MAX_LOG", 14);
  const uint64_t seed = g::test::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed << " (PRESTAGE_SEED replays it)");
  for (unsigned log_n : {7u, 12u}) {
    if (log_n > max_log) continue;
    for (auto profile : {SyntheticCircuit::Profile::porep, SyntheticCircuit::Profile::dense}) {
      SyntheticCircuit circuit(profile, SyntheticCircuit::constraints_for_domain(log_n, 1), 1,
                               seed + log_n);
      for (Reduction red : {Reduction::textbook, Reduction::circom}) {
        SetupOptions so;
        so.seed = seed + 1;
        so.reduction = red;
        const ProvingKey host = setup(circuit, so);
        const ProvingKey gpu = setup(circuit, with_gpu_multiples(so));
        const std::string what = "2^" + std::to_string(log_n) + " profile " +
                                 std::to_string(int(profile)) + " " + to_string(red);
        BOOST_TEST((gpu.a == host.a), what);
        BOOST_TEST((gpu.b1 == host.b1), what);
        BOOST_TEST((gpu.b2 == host.b2), what);
        BOOST_TEST((gpu.c == host.c), what);
        BOOST_TEST((gpu.h == host.h), what);
        BOOST_TEST((gpu.ic == host.ic), what);
        BOOST_TEST((gpu.alpha1 == host.alpha1 && gpu.delta2 == host.delta2), what);
        if (profile == SyntheticCircuit::Profile::porep)  // zero scalars: identities made too
          BOOST_TEST(std::count_if(gpu.a.begin(), gpu.a.end(),
                                   [](const G1Affine& p) { return p.infinity; }) > 0);
        const std::vector<Fr> w = circuit.witness();
        const Proof proof = prove(gpu, w, &circuit);
        BOOST_TEST(verify(gpu.verifying_key(), publics(w, 1), proof), what);
      }
    }
  }
  // The multiples alone at the scalars' edges.
  std::vector<Fr> s = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(255), Fr::from_u64(256)};
  std::mt19937_64 rng(seed);
  while (s.size() < 1000)
    s.push_back(Fr::from_u64(rng()) * Fr::from_u64(rng()) + Fr::from_u64(rng()));
  std::vector<G1Affine> p1(s.size());
  std::vector<G2Affine> p2(s.size());
  gpu_generator_multiples(s, p1);
  gpu_generator_multiples(s, p2);
  const FixedBase<G1Affine, G1Jacobian> fb1(G1Affine::generator());
  const FixedBase<G2Affine, G2Jacobian> fb2(G2Affine::generator());
  for (std::size_t i = 0; i < s.size(); ++i) {
    BOOST_TEST((p1[i] == fb1.mul(s[i]).to_affine()), "G1 scalar " << i);
    BOOST_TEST((p2[i] == fb2.mul(s[i]).to_affine()), "G2 scalar " << i);
  }
  BOOST_TEST(p1[0].infinity);
  BOOST_TEST((p1[1] == G1Affine::generator()));
  BOOST_TEST((p2[2] == -G2Affine::generator()));
  std::vector<G1Affine> wrong(3);
  BOOST_CHECK_THROW(gpu_generator_multiples(s, wrong), std::invalid_argument);
}
