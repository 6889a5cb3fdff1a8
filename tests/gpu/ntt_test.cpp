// System: the GPU Fr NTT (gpu/ntt/gpu_ntt.hpp) and the GPU H computation
// (gpu/groth16/gpu_h.hpp), against the host reference NTT (gpu/ntt/host_ntt.hpp, ffjavascript's
// roots). Expectation: every output element equals the reference. Tolerance: none (exact field
// arithmetic, compared limb for limb). Inputs: fresh random Fr per run (seed printed), device
// buffers poisoned with 0xFF bytes before the inputs are copied in.
// Each transform runs twice: in place alone and with a scratch buffer (poisoned too; the
// permutation fused into the last pass, the first pass writing the scratch). In place, the plan
// decides (detail::in_place_path): one pass (2^1-2^11), the last pass fused in place
// (mirror_pass_kernel: 2^12-2^18 with two passes of equal stages, every plan of three passes
// from 2^21), or a separate bit-reversal pass (2^19-2^20, last pass of more than half the stages).
// Coset transforms: the shift's factors split (CosetTables::Split, the default; one product an
// element on three-pass plans, 2^21 up) and, from 2^21, the hi * lo tables (CosetTables::HiLo).
// Size knobs: PRESTAGE_GPU_TEST_NTT_MAX_LOG (default 20; all sizes from 2^10, both modes),
// PRESTAGE_GPU_TEST_NTT_LARGE_LOGS (comma-separated, default 22: those sizes in place only,
// e.g. 24,27 on a large GPU; each needs 3 host vectors and one device buffer of n x 32 B),
// PRESTAGE_GPU_TEST_NTT_MIRROR_LOGS (the in-place last pass's forms against the scratch path,
// ntt_in_place_last_pass_forms_agree; sizes above PRESTAGE_GPU_TEST_NTT_MAX_LOG, when that is
// set, are left out but for 2^12, the smallest fused last pass: the sanitizer runs set it).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include "gpu/groth16/gpu_h.hpp"
#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/gpu_ntt.hpp"
#include "gpu/ntt/host_ntt.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace {

using prestage::ff::Fr;
namespace g = prestage::gpu;
namespace gt = prestage::gpu::test;
namespace ntt = prestage::ntt;
namespace groth16 = prestage::groth16;

enum class Variant { Forward, Inverse, CosetForward, CosetInverse };
const char* name(Variant v) {
  switch (v) {
    case Variant::Forward:
      return "forward";
    case Variant::Inverse:
      return "inverse";
    case Variant::CosetForward:
      return "coset_forward";
    default:
      return "coset_inverse";
  }
}

// One transform of `in` (fresh random values when null) against the host reference; coset
// variants with the shift's factors formed as `tables` says (split only on three-pass plans).
void check_variant(unsigned log_n, Variant v, bool with_scratch, std::mt19937_64& rng,
                   const std::vector<Fr>* given = nullptr,
                   ntt::CosetTables tables = ntt::CosetTables::Split) {
  g::SyncAllocator alloc;
  ntt::Domain host_domain(log_n);
  const Fr shift = ntt::fr_roots().shift;  // ffjavascript's Fr.shift, a non-root coset shift
  const std::vector<Fr> fresh =
      given == nullptr ? gt::random_fr(host_domain.size(), rng) : std::vector<Fr>{};
  const std::vector<Fr>& in = given == nullptr ? fresh : *given;
  std::vector<Fr> ref = in;
  switch (v) {
    case Variant::Forward:
      ntt::forward(host_domain, ref);
      break;
    case Variant::Inverse:
      ntt::inverse(host_domain, ref);
      break;
    case Variant::CosetForward:
      ntt::coset_forward(host_domain, ref, shift);
      break;
    case Variant::CosetInverse:
      ntt::coset_inverse(host_domain, ref, shift);
      break;
  }
  ntt::DeviceDomain domain(log_n, ntt::root_of_unity(log_n), alloc, nullptr);
  ntt::DeviceCosetShift coset(domain, shift, alloc, nullptr, tables);
  auto d = gt::poisoned(alloc, in.size(), in.data());
  auto scratch = gt::poisoned<Fr>(alloc, with_scratch ? in.size() : 1);
  Fr* s = with_scratch ? scratch.data() : nullptr;
  switch (v) {
    case Variant::Forward:
      ntt::forward(domain, d.data(), nullptr, s);
      break;
    case Variant::Inverse:
      ntt::inverse(domain, d.data(), nullptr, s);
      break;
    case Variant::CosetForward:
      ntt::coset_forward(domain, coset, d.data(), nullptr, s);
      break;
    case Variant::CosetInverse:
      ntt::coset_inverse(domain, coset, d.data(), nullptr, s);
      break;
  }
  PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
  const auto out = gt::download(d);
  const std::size_t bad = gt::first_mismatch(out, ref);
  BOOST_TEST(bad == out.size(), name(v) << (with_scratch ? " (scratch)" : "")
                                        << (tables == ntt::CosetTables::HiLo ? " (hi*lo)" : "")
                                        << " 2^" << log_n << ": first mismatch at " << bad);
}

}  // namespace

BOOST_AUTO_TEST_CASE(ntt_all_variants_match_host_reference) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const unsigned max_log = gt::env_log("PRESTAGE_GPU_TEST_NTT_MAX_LOG", 20);
  for (unsigned log_n = 10; log_n <= max_log; ++log_n) {
    for (Variant v :
         {Variant::Forward, Variant::Inverse, Variant::CosetForward, Variant::CosetInverse}) {
      for (bool with_scratch : {false, true}) check_variant(log_n, v, with_scratch, rng);
      // Three-pass plans (2^21 up) split the coset factors by default: the hi * lo path too.
      if (log_n >= 21 && (v == Variant::CosetForward || v == Variant::CosetInverse)) {
        for (bool with_scratch : {false, true})
          check_variant(log_n, v, with_scratch, rng, nullptr, ntt::CosetTables::HiLo);
      }
    }
  }
}

// Three-pass plans and the target size, in place: the path the in-place last pass takes there
// (printed; with PRESTAGE_GPU_TEST_NTT_EXPECT_MIRROR=1, expected to be the fused last pass from
// 2^21 up, as on an H200: 2^27 needs 256 resident tiles, it holds 396), then the four transforms.
BOOST_AUTO_TEST_CASE(ntt_large_sizes_in_place_match_host_reference) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  std::vector<unsigned> logs;
  const char* env = std::getenv("PRESTAGE_GPU_TEST_NTT_LARGE_LOGS");
  const std::string list = env != nullptr ? env : "22";
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    logs.push_back(static_cast<unsigned>(std::stoul(list.substr(at, comma - at))));
    at = comma + 1;
  }
  const char* expect_env = std::getenv("PRESTAGE_GPU_TEST_NTT_EXPECT_MIRROR");
  const bool expect_mirror = expect_env != nullptr && std::string(expect_env) == "1";
  g::SyncAllocator alloc;
  for (unsigned log_n : logs) {
    BOOST_TEST_REQUIRE((log_n >= 1 && log_n <= 28), "PRESTAGE_GPU_TEST_NTT_LARGE_LOGS: " << log_n);
    {
      ntt::DeviceDomain domain(log_n, ntt::root_of_unity(log_n), alloc, nullptr);
      const auto path = ntt::detail::in_place_path(domain);
      using P = ntt::detail::InPlacePath;
      BOOST_TEST_MESSAGE("2^" << log_n << " in-place path "
                              << (path == P::Mirror    ? "mirror"
                                  : path == P::OnePass ? "one pass"
                                                       : "separate reversal"));
      if (expect_mirror && log_n >= 21) BOOST_TEST((path == P::Mirror), "2^" << log_n);
    }
    const std::vector<Fr> in = gt::random_fr(std::size_t{1} << log_n, rng);  // shared by all 4
    for (Variant v :
         {Variant::Forward, Variant::Inverse, Variant::CosetForward, Variant::CosetInverse}) {
      check_variant(log_n, v, false, rng, &in);
    }
  }
}

// The in-place last pass's two tile orders (detail::MirrorOrder: Ascending, the default;
// Reversed, the scratch path's bit-reversed order, kept for A/B) against the scratch path
// (checked against the host reference above at 2^10-2^22), limb for limb, the four transforms on
// one random input a size. Sizes: PRESTAGE_GPU_TEST_NTT_MIRROR_LOGS (comma-separated, default
// 12,16,17,18,21,22: two-pass plans of 6+6, 8+8, 9+8, 9+9 stages and three-pass plans), only
// where the in-place path is the fused last pass. 2^27 (k = 9, 4 sub-problems a tile, sets of
// 128 tiles) took over 50 s on the H200 machine (12 uploads and downloads of 4 GiB;
// data/gpu-runs/2026-12-01-h200/ntt11/run1, cut at 60 s), 2^24-2^26 are cheaper. The order in
// force before is restored.
BOOST_AUTO_TEST_CASE(ntt_in_place_last_pass_forms_agree) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  std::vector<unsigned> logs;
  const char* env = std::getenv("PRESTAGE_GPU_TEST_NTT_MIRROR_LOGS");
  const std::string list = env != nullptr ? env : "12,16,17,18,21,22";
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    logs.push_back(static_cast<unsigned>(std::stoul(list.substr(at, comma - at))));
    at = comma + 1;
  }
  using F = ntt::detail::MirrorOrder;
  const F before = ntt::detail::current_mirror_order();
  g::SyncAllocator alloc;
  // Run 18: this case at 2^12-2^22 made gpu_ntt_test's racecheck take 407 s alone.
  const bool capped = std::getenv("PRESTAGE_GPU_TEST_NTT_MAX_LOG") != nullptr;
  const unsigned cap = std::max(12u, gt::env_log("PRESTAGE_GPU_TEST_NTT_MAX_LOG", 28));
  for (unsigned log_n : logs) {
    BOOST_TEST_REQUIRE((log_n >= 1 && log_n <= 28), "PRESTAGE_GPU_TEST_NTT_MIRROR_LOGS: " << log_n);
    if (capped && log_n > cap) {
      BOOST_TEST_MESSAGE("2^" << log_n << ": above PRESTAGE_GPU_TEST_NTT_MAX_LOG, skipped");
      continue;
    }
    const std::size_t n = std::size_t{1} << log_n;
    ntt::DeviceDomain domain(log_n, ntt::root_of_unity(log_n), alloc, nullptr);
    if (ntt::detail::in_place_path(domain) != ntt::detail::InPlacePath::Mirror) {
      BOOST_TEST_MESSAGE("2^" << log_n << ": in-place path not the fused last pass, skipped");
      continue;
    }
    ntt::DeviceCosetShift coset(domain, ntt::fr_roots().shift, alloc, nullptr);
    const std::vector<Fr> in = gt::random_fr(n, rng);
    auto scratch = gt::poisoned<Fr>(alloc, n);
    for (Variant v :
         {Variant::Forward, Variant::Inverse, Variant::CosetForward, Variant::CosetInverse}) {
      auto run = [&](Fr* data, Fr* s) {
        switch (v) {
          case Variant::Forward:
            ntt::forward(domain, data, nullptr, s);
            break;
          case Variant::Inverse:
            ntt::inverse(domain, data, nullptr, s);
            break;
          case Variant::CosetForward:
            ntt::coset_forward(domain, coset, data, nullptr, s);
            break;
          case Variant::CosetInverse:
            ntt::coset_inverse(domain, coset, data, nullptr, s);
            break;
        }
        PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
      };
      std::vector<Fr> ref;
      {
        auto d = gt::poisoned(alloc, n, in.data());
        run(d.data(), scratch.data());
        ref = gt::download(d);
      }
      for (F form : {F::Ascending, F::Reversed}) {
        ntt::detail::set_mirror_order(form);
        const bool ascending = form == F::Ascending;
        if (ntt::detail::current_mirror_order() != form) {
          BOOST_TEST_MESSAGE("reversed order not built under this tuning");
          continue;
        }
        auto d = gt::poisoned(alloc, n, in.data());
        run(d.data(), nullptr);
        const auto out = gt::download(d);
        const std::size_t bad = gt::first_mismatch(out, ref);
        BOOST_TEST(bad == n, name(v) << " 2^" << log_n << (ascending ? " ascending" : " reversed")
                                     << ": first mismatch against the scratch path at " << bad);
      }
    }
  }
  ntt::detail::set_mirror_order(before);
}

// Small domains exercise the pass planner's edge cases (one short pass, tiles of fewer than 8
// elements, the bit reversal fused in place into the one pass).
BOOST_AUTO_TEST_CASE(ntt_small_domains_match_host_reference) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  for (unsigned log_n = 1; log_n < 10; ++log_n) {
    for (Variant v :
         {Variant::Forward, Variant::Inverse, Variant::CosetForward, Variant::CosetInverse}) {
      for (bool with_scratch : {false, true}) check_variant(log_n, v, with_scratch, rng);
    }
  }
}

// H computation, both reductions, against the same steps on the host. For the textbook
// reduction c = a * b on the domain, so A B - C vanishes there and H has degree <= n - 2.
BOOST_AUTO_TEST_CASE(h_computation_matches_host_reference) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const unsigned max_log = gt::env_log("PRESTAGE_GPU_TEST_NTT_MAX_LOG", 20);
  g::SyncAllocator alloc;
  // 1..11: one fused pass (the a*b - c store in it); 12, 14, 17: two passes; 21: three.
  std::set<unsigned> sizes{1, 2, 3, 4, 5, 8, 10, 11, 12, 14, 17, 21, max_log};
  for (unsigned log_n : sizes) {
    if (log_n > max_log) continue;
    ntt::Domain hd(log_n);
    const std::size_t n = hd.size();
    for (auto red : {groth16::HReduction::Circom, groth16::HReduction::Textbook}) {
      const bool circom = red == groth16::HReduction::Circom;
      const Fr shift = circom ? hd.circom_coset_shift() : ntt::fr_roots().shift;
      auto a = gt::random_fr(n, rng), b = gt::random_fr(n, rng), c = gt::random_fr(n, rng);
      if (!circom) {
        for (std::size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
      }
      // Host reference.
      auto ra = a, rb = b, rc = c;
      for (auto* x : {&ra, &rb, &rc}) {
        ntt::inverse(hd, *x);
        ntt::coset_forward(hd, *x, shift);
      }
      Fr zinv = Fr::one();
      if (!circom) zinv = (shift.pow(uint64_t{n}) - Fr::one()).inverse();
      for (std::size_t i = 0; i < n; ++i) ra[i] = (ra[i] * rb[i] - rc[i]) * zinv;
      if (!circom) ntt::coset_inverse(hd, ra, shift);
      // GPU.
      ntt::DeviceDomain domain(log_n, ntt::root_of_unity(log_n), alloc, nullptr);
      ntt::DeviceCosetShift coset(domain, shift, alloc, nullptr);
      auto da = gt::poisoned(alloc, n, a.data());
      auto db = gt::poisoned(alloc, n, b.data());
      auto dc = gt::poisoned(alloc, n, c.data());
      groth16::compute_h_on_device(domain, coset, red, da.data(), db.data(), dc.data(), nullptr);
      PRESTAGE_CUDA_CHECK(cudaDeviceSynchronize());
      const auto h = gt::download(da);
      const std::size_t bad = gt::first_mismatch(h, ra);
      BOOST_TEST(bad == n, (circom ? "circom" : "textbook")
                               << " H 2^" << log_n << ": first mismatch at " << bad);
      if (!circom) BOOST_TEST(h[n - 1].is_zero(), "textbook H has degree <= n-2");
    }
  }
}
