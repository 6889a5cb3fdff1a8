#include "gpu/groth16/groth16.hpp"

#include <fmt/core.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <random>
#include <stdexcept>
#include <thread>

#include "gpu/ec/pairing.hpp"
#include "gpu/groth16/fixed_base.hpp"
#include "gpu/groth16/key_points.hpp"
#include "gpu/groth16/parallel.hpp"
#include "gpu/msm/host_msm.hpp"
#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/host_ntt.hpp"
#include "model/errors.hpp"

namespace prestage::groth16 {

using ff::Fq;
using ff::Fq2;

const char* to_string(Reduction r) {
  return r == Reduction::textbook ? "textbook" : "circom";
}

namespace {

// A .zkey coefficient's stored value v * R^2 mod r: as Montgomery limbs that is the element
// v * R, and one more Montgomery product with the raw integer 1 (the element R^-1) gives v.
Fr coef_value(const io::FrLimbs& stored) {
  static constexpr Fr r_inv = Fr::from_raw({1, 0, 0, 0});
  return Fr::from_raw(stored) * r_inv;
}

Fr nonzero_random(std::mt19937_64& g) {
  for (;;) {
    Fr x = Fr::random(g);
    if (!x.is_zero()) return x;
  }
}

// In-place inversion of every element (Montgomery's trick; zeros are not allowed).
void batch_invert(std::span<Fr> v, unsigned threads) {
  parallel_for(v.size(), threads, [&](uint64_t b, uint64_t e) {
    std::vector<Fr> prefix(e - b);
    Fr acc = Fr::one();
    for (uint64_t i = b; i < e; ++i) {
      prefix[i - b] = acc;
      acc *= v[i];
    }
    Fr inv = acc.inverse();
    for (uint64_t i = e; i-- > b;) {
      Fr t = inv * prefix[i - b];
      inv *= v[i];
      v[i] = t;
    }
  });
}

// L_j(tau) for j in [0, count) on the domain of size n with generator omega, each times `scale`:
// L_j(tau) = (tau^n - 1) / n * omega^j / (tau - omega^j). Requires tau^n != 1.
// `stride`/`offset` select points omega^(offset + stride * i) (the circom H basis uses the odd
// points of the 2n domain).
std::vector<Fr> lagrange_at(const Fr& tau, uint64_t log_n, const Fr& omega, uint64_t count,
                            uint64_t offset, uint64_t stride, const Fr& scale, unsigned threads) {
  const uint64_t n = uint64_t(1) << log_n;
  Fr tau_n = tau;
  for (uint64_t i = 0; i < log_n; ++i) tau_n = tau_n.sqr();
  if (tau_n == Fr::one()) throw std::domain_error("setup: tau lies in the domain");
  const Fr factor = (tau_n - Fr::one()) * Fr::from_u64(n).inverse() * scale;
  std::vector<Fr> pts(count), den(count);
  const Fr step = omega.pow(stride);
  parallel_for(count, threads, [&](uint64_t b, uint64_t e) {
    Fr x = omega.pow(offset + stride * b);
    for (uint64_t i = b; i < e; ++i) {
      pts[i] = x;
      den[i] = tau - x;
      x *= step;
    }
  });
  batch_invert(den, threads);
  parallel_for(count, threads, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) den[i] = factor * pts[i] * den[i];
  });
  return den;
}

G1Affine to_affine(const G1Jacobian& p) {
  return p.to_affine();
}
G2Affine to_affine(const G2Jacobian& p) {
  return p.to_affine();
}

}  // namespace

// ---------------------------------------------------------------- setup

ProvingKey setup(const Circuit& circuit, const SetupOptions& opt) {
  const unsigned T = opt.threads;
  ProvingKey pk;
  pk.reduction = opt.reduction;
  pk.n_vars = circuit.n_wires();
  pk.n_public = circuit.n_public();
  pk.log_n = circuit.domain_log2();
  if (pk.n_vars < pk.n_public + 1) throw std::invalid_argument("setup: n_wires <= n_public");
  if (pk.log_n + 1 > ntt::kFrTwoAdicity)
    throw std::invalid_argument("setup: domain too large for Fr's 2-adicity");
  const uint64_t n = pk.domain_size();
  const uint64_t nc = circuit.n_constraints();

  std::mt19937_64 rng(opt.seed);
  const Fr tau = nonzero_random(rng), alpha = nonzero_random(rng), beta = nonzero_random(rng),
           gamma = nonzero_random(rng), delta = nonzero_random(rng);
  const Fr gamma_inv = gamma.inverse(), delta_inv = delta.inverse();

  // u_i(tau), v_i(tau), w_i(tau): scatter each row's coefficients times L_row(tau). The rows are
  // split across the threads; a term may name any wire, so its add holds the lock of the wire's
  // stripe (64 wires a stripe, 2^16 stripes: the synthetic circuits' rows read wires up to 2^16
  // before their own, so neighbouring threads rarely meet). Field addition is exact and
  // commutative: the same u, v, w whatever the order. (Serial, the loop took a third of the
  // setup's host time at 2^21, products stubbed out: perf, 2 cores.)
  std::vector<Fr> L =
      lagrange_at(tau, pk.log_n, ntt::root_of_unity(pk.log_n), n, 0, 1, Fr::one(), T);
  std::vector<Fr> u(pk.n_vars, Fr::zero()), v(pk.n_vars, Fr::zero()), w(pk.n_vars, Fr::zero());
  {
    constexpr unsigned kStripeShift = 6;
    constexpr std::size_t kStripes = std::size_t{1} << 16;
    std::vector<std::atomic_flag> stripe(kStripes);  // clear (C++20)
    const unsigned threads = nc < (1u << 16) ? 1u : host::resolve_threads(T);
    std::vector<std::vector<QapCoef>> coefs(threads);  // with_coefs: each thread's rows, in order
    host::run_on_threads(threads, [&](unsigned t) {
      Row row;
      auto add = [&](std::vector<Fr>& into, const Term& term, const Fr& lk) {
        std::atomic_flag& f = stripe[(term.wire >> kStripeShift) & (kStripes - 1)];
        const Fr x = term.coeff * lk;
        if (threads > 1)
          while (f.test_and_set(std::memory_order_acquire)) f.wait(true, std::memory_order_relaxed);
        into[term.wire] += x;
        if (threads > 1) {
          f.clear(std::memory_order_release);
          f.notify_one();
        }
      };
      for (uint64_t k = nc * t / threads, e = nc * (t + 1) / threads; k < e; ++k) {
        circuit.row(k, row);
        for (const Term& term : row.a) add(u, term, L[k]);
        for (const Term& term : row.b) add(v, term, L[k]);
        for (const Term& term : row.c) add(w, term, L[k]);
        if (opt.with_coefs) {
          for (const Term& term : row.a)
            coefs[t].push_back({0, uint32_t(k), term.wire, term.coeff});
          for (const Term& term : row.b)
            coefs[t].push_back({1, uint32_t(k), term.wire, term.coeff});
        }
      }
    });
    for (auto& c : coefs) pk.coefs.insert(pk.coefs.end(), c.begin(), c.end());
  }
  for (uint32_t s = 0; s <= pk.n_public; ++s) {
    u[s] += L[nc + s];
    if (opt.with_coefs) pk.coefs.push_back({0, uint32_t(nc + s), s, Fr::one()});
  }

  std::vector<Fr>().swap(L);

  // Scalars of every key point.
  std::vector<Fr> ic_s(pk.n_public + 1), c_s(pk.n_vars - pk.n_public - 1);
  parallel_for(pk.n_vars, T, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) {
      Fr lin = beta * u[i] + alpha * v[i] + w[i];
      if (i <= pk.n_public)
        ic_s[i] = lin * gamma_inv;
      else
        c_s[i - pk.n_public - 1] = lin * delta_inv;
    }
  });
  std::vector<Fr>().swap(w);

  const G1Affine g1 = G1Affine::generator();
  const G2Affine g2 = G2Affine::generator();
  FixedBase<G1Affine, G1Jacobian> fb1(g1);
  FixedBase<G2Affine, G2Jacobian> fb2(g2);
  pk.alpha1 = to_affine(fb1.mul(alpha));
  pk.beta1 = to_affine(fb1.mul(beta));
  pk.delta1 = to_affine(fb1.mul(delta));
  pk.beta2 = to_affine(fb2.mul(beta));
  pk.gamma2 = to_affine(fb2.mul(gamma));
  pk.delta2 = to_affine(fb2.mul(delta));
  // The points of each vector of scalars, which is released after them (the peak is the key
  // and one vector of scalars).
  auto g1_points = [&](std::vector<Fr>& scalars, bool release) {
    std::vector<G1Affine> out;
    if (opt.g1_multiples) {
      out.resize(scalars.size());
      opt.g1_multiples(scalars, out);
    } else {
      out = fb1.mul_all(scalars, T);
    }
    if (release) std::vector<Fr>().swap(scalars);
    return out;
  };
  pk.a = g1_points(u, true);
  pk.b1 = g1_points(v, false);
  if (opt.g2_multiples) {
    pk.b2.resize(v.size());
    opt.g2_multiples(v, pk.b2);
  } else {
    pk.b2 = fb2.mul_all(v, T);
  }
  std::vector<Fr>().swap(v);
  pk.c = g1_points(c_s, true);
  pk.ic = g1_points(ic_s, true);

  std::vector<Fr> h_s;
  if (opt.reduction == Reduction::textbook) {
    // tau^i Z(tau) / delta for i < n - 1.
    Fr tau_n = tau;
    for (uint32_t i = 0; i < pk.log_n; ++i) tau_n = tau_n.sqr();
    const Fr z_over_delta = (tau_n - Fr::one()) * delta_inv;
    h_s.resize(n - 1);
    parallel_for(n - 1, T, [&](uint64_t b, uint64_t e) {
      Fr x = tau.pow(b) * z_over_delta;
      for (uint64_t i = b; i < e; ++i) {
        h_s[i] = x;
        x *= tau;
      }
    });
  } else {
    // L'_{2i+1}(tau) / delta over the 2n domain (snarkjs's zkey section 9).
    h_s = lagrange_at(tau, pk.log_n + 1, ntt::root_of_unity(pk.log_n + 1), n, 1, 2, delta_inv, T);
  }
  pk.h = g1_points(h_s, true);
  return pk;
}

// ---------------------------------------------------------------- prover

void evaluate_qap_into(const Circuit& circuit, const std::vector<Fr>& w, std::span<Fr> a,
                       std::span<Fr> b, std::span<Fr> c, unsigned threads) {
  if (w.size() != circuit.n_wires())
    throw std::invalid_argument(
        fmt::format("witness has {} values, the circuit {} wires", w.size(), circuit.n_wires()));
  const uint64_t n = circuit.domain_size(), nc = circuit.n_constraints();
  if (a.size() != n || b.size() != n || c.size() != n)
    throw std::invalid_argument("evaluate_qap_into: buffers must hold domain_size() elements");
  parallel_for(n, threads, [&](uint64_t begin, uint64_t end) {
    Row r;
    for (uint64_t k = begin; k < end; ++k) {
      if (k < nc) {
        circuit.row(k, r);
        a[k] = dot(r.a, w);
        b[k] = dot(r.b, w);
        c[k] = dot(r.c, w);
      } else {
        const uint64_t s = k - nc;  // public-input binding rows, then padding
        a[k] = s <= circuit.n_public() ? w[s] : Fr::zero();
        b[k] = Fr::zero();
        c[k] = Fr::zero();
      }
    }
  });
}

Evaluations evaluate_qap(const Circuit& circuit, const std::vector<Fr>& w, unsigned threads) {
  const uint64_t n = circuit.domain_size();
  Evaluations e{std::vector<Fr>(n), std::vector<Fr>(n), std::vector<Fr>(n)};
  evaluate_qap_into(circuit, w, e.a, e.b, e.c, threads);
  return e;
}

Evaluations evaluate_qap(const ProvingKey& pk, const std::vector<Fr>& w, unsigned threads) {
  if (w.size() != pk.n_vars)
    throw std::invalid_argument(
        fmt::format("witness has {} values, the key {} variables", w.size(), pk.n_vars));
  if (pk.coefs.empty() && !pk.in_place)
    throw std::invalid_argument("proving key has no QAP coefficients");
  const uint64_t n = pk.domain_size();
  Evaluations e{std::vector<Fr>(n, Fr::zero()), std::vector<Fr>(n, Fr::zero()), std::vector<Fr>(n)};
  // Zero witness values add nothing and ones add the coefficient itself (same field elements,
  // fewer products: most SHA-256 / PoRep wires are bits). SHA-256-512: 6.8 -> 5.2 ms CPU.
  // accumulate(mat): the sums of matrix `mat` (0: a, 1: b, 2: both), coefficients in key order.
  // With 2+ threads a and b are summed concurrently, each thread reading every record and
  // keeping its matrix: the same additions in the same order per entry, so the same field
  // elements (bit-identical); every record is still checked on both. SHA-256-512 (2 threads):
  // see data/bench/groth16_vs_snarkjs/README.md ("host10").
  auto accumulate = [&](int mat) {
    if (pk.in_place) {
      // Straight from the mapping (44 B records): the value is converted only for a nonzero
      // witness value, with qap_coef's product, so the sums are the same field elements.
      const io::MappedZkey& m = *pk.in_place->key;
      const uint8_t* rec = m.file.data.get() + m.coefs_offset;
      for (uint64_t i = 0; i < m.coefs_count; ++i, rec += 44) {
        uint32_t head[3];  // matrix, row, signal
        std::memcpy(head, rec, sizeof head);
        if (head[1] >= n || head[2] >= w.size() || head[0] > 1)
          throw InputError(m.file.path, m.coefs_offset + 44 * i, "section 4 (coefficients)",
                           "coefficient changed after the key was checked");
        if (mat != 2 && head[0] != uint32_t(mat)) continue;
        const Fr& x = w[head[2]];
        if (x.is_zero()) continue;
        const Fr v = coef_value(io::load_le<4>(rec + 12));
        Fr& dst = (head[0] == 0 ? e.a : e.b)[head[1]];
        dst += x.is_one() ? v : v * x;
      }
    } else {
      for (const QapCoef& k : pk.coefs) {
        if (mat != 2 && k.matrix != uint32_t(mat)) continue;
        const Fr& x = w[k.signal];
        if (x.is_zero()) continue;
        Fr& dst = (k.matrix == 0 ? e.a : e.b)[k.row];
        dst += x.is_one() ? k.value : k.value * x;
      }
    }
  };
  if (resolve_threads(threads) >= 2) {
    // b on a second thread (its exception, if any, rethrown by get() after a's).
    std::future<void> b_sums = std::async(std::launch::async, accumulate, 1);
    accumulate(0);
    b_sums.get();
  } else {
    accumulate(2);
  }
  parallel_for(n, threads, [&](uint64_t b, uint64_t end) {
    for (uint64_t i = b; i < end; ++i) e.c[i] = e.a[i] * e.b[i];
  });
  return e;
}

std::optional<std::vector<Fr>> h_scalars(Evaluations&& e, uint32_t log_n, Reduction reduction,
                                         unsigned threads) {
  const ntt::Domain d(log_n, threads);
  const uint64_t n = d.size();
  if (e.a.size() != n || e.b.size() != n || e.c.size() != n)
    throw std::invalid_argument("h_scalars: evaluations do not match the domain");
  std::vector<Fr>* polys[3] = {&e.a, &e.b, &e.c};
  if (reduction == Reduction::circom) {
    // a, b, c at the odd points of the 2n domain: coefficients scaled by g^i, then a forward NTT.
    // Same values as inverse, scale_by_powers(1, g), forward; without the bit reversals and with
    // one table of g^i / n (ntt::to_coset). SHA-256-512 (2^16, 2 threads): see
    // data/bench/groth16_vs_snarkjs/README.md.
    const ntt::CosetShift g(d, d.circom_coset_shift(), threads);
    // Three transforms on T threads: a and b concurrently on T/2 and T - T/2 threads, then c on
    // all T. The NTTs split each stage into short regions that scale poorly on 2 threads
    // (SHA-256-512, 2^16: h 31 ms on 1 thread, 28 ms on 2), so whole transforms per thread do
    // better. Each transform's result does not depend on its thread count (exact field
    // arithmetic). Measured: data/bench/groth16_vs_snarkjs/README.md ("host10").
    const unsigned T = resolve_threads(threads);
    if (T >= 2) {
      std::jthread second([&] { ntt::to_coset(d, g, e.b, T - T / 2); });
      ntt::to_coset(d, g, e.a, T / 2);
      second.join();
      ntt::to_coset(d, g, e.c, T);
    } else {
      for (auto* p : polys) ntt::to_coset(d, g, *p, threads);
    }
    parallel_for(n, threads, [&](uint64_t b, uint64_t end) {
      for (uint64_t i = b; i < end; ++i) e.a[i] = e.a[i] * e.b[i] - e.c[i];
    });
    return std::move(e.a);
  }
  const Fr& shift = ntt::fr_roots().shift;
  for (auto* p : polys) {
    ntt::inverse(d, *p, threads);
    ntt::coset_forward(d, *p, shift, threads);
  }
  Fr shift_n = shift;
  for (uint32_t i = 0; i < log_n; ++i) shift_n = shift_n.sqr();
  const Fr z_inv = (shift_n - Fr::one()).inverse();  // 1 / Z on the whole coset
  parallel_for(n, threads, [&](uint64_t b, uint64_t end) {
    for (uint64_t i = b; i < end; ++i) e.a[i] = (e.a[i] * e.b[i] - e.c[i]) * z_inv;
  });
  ntt::coset_inverse(d, e.a, shift, threads);
  if (!e.a[n - 1].is_zero()) return std::nullopt;  // deg(p / Z) must be <= n - 2
  e.a.resize(n - 1);
  return std::move(e.a);
}

void check_prove_inputs(const ProvingKey& pk, const std::vector<Fr>& w, const Circuit* circuit) {
  if (w.size() != pk.n_vars)
    throw std::invalid_argument(
        fmt::format("witness has {} values, the key {} variables", w.size(), pk.n_vars));
  if (circuit && (circuit->n_wires() != pk.n_vars || circuit->n_public() != pk.n_public ||
                  circuit->domain_log2() != pk.log_n))
    throw std::invalid_argument("circuit and proving key disagree (wires, public, domain)");
}

Proof assemble_proof(const ProvingKey& pk, const MsmSums& m, std::optional<uint64_t> seed) {
  std::mt19937_64 rng(seed ? *seed
                           : (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}());
  const Fr r = Fr::random(rng), s = Fr::random(rng);
  const G1Jacobian d1 = G1Jacobian::from_affine(pk.delta1);
  const G1Jacobian pa = m.a + pk.alpha1 + d1.mul(r);
  const G2Jacobian pb = m.b2 + pk.beta2 + G2Jacobian::from_affine(pk.delta2).mul(s);
  const G1Jacobian b1 = m.b1 + pk.beta1 + d1.mul(s);
  const G1Jacobian pc = m.c + m.h + pa.mul(s) + b1.mul(r) - d1.mul(r * s);
  return Proof{pa.to_affine(), pb.to_affine(), pc.to_affine()};
}

Proof prove(const ProvingKey& pk, const std::vector<Fr>& w, const Circuit* circuit,
            const ProveOptions& opt) {
  const unsigned T = opt.threads;
  check_prove_inputs(pk, w, circuit);
  LapClock clock;
  ProveTimings tm;
  Evaluations ev = circuit ? evaluate_qap(*circuit, w, T) : evaluate_qap(pk, w, T);
  clock.lap(tm.qap);
  auto hs = h_scalars(std::move(ev), pk.log_n, pk.reduction, T);
  clock.lap(tm.h);
  if (!hs) throw std::domain_error("witness does not satisfy the circuit (p not divisible by Z)");
  const std::span<const Fr> ws(w);
  const msm::HostOptions mo{T, 0, msm::BucketMode::automatic};
  G1Jacobian sa, sb1, sc, sh;
  G2Jacobian sb2;
  if (pk.in_place) {
    const ProvingKey::InPlace& ip = *pk.in_place;
    if (hs->size() != ip.h.count)
      throw std::invalid_argument("proving key's H points do not match the reduction");
    sa = msm::msm<msm::G1Curve>(ip.a, ws, mo);
    sb1 = msm::msm<msm::G1Curve>(ip.b1, ws, mo);
    sc = msm::msm<msm::G1Curve>(ip.c, ws.subspan(pk.n_public + 1), mo);
    sh = msm::msm<msm::G1Curve>(ip.h, *hs, mo);
    clock.lap(tm.msm_g1);
    sb2 = msm::msm<msm::G2Curve>(ip.b2, ws, mo);
    clock.lap(tm.msm_g2);
  } else {
    if (hs->size() != pk.h.size())
      throw std::invalid_argument("proving key's H points do not match the reduction");
    sa = msm::msm_g1(pk.a, ws, T);
    sb1 = msm::msm_g1(pk.b1, ws, T);
    sc = msm::msm_g1(pk.c, ws.subspan(pk.n_public + 1), T);
    sh = msm::msm_g1(pk.h, *hs, T);
    clock.lap(tm.msm_g1);
    sb2 = msm::msm_g2(pk.b2, ws, T);
    clock.lap(tm.msm_g2);
  }

  const Proof proof = assemble_proof(pk, {sa, sb1, sc, sh, sb2}, opt.seed);
  clock.lap(tm.assemble);
  if (opt.timings) *opt.timings = tm;
  return proof;
}

// ---------------------------------------------------------------- verifier

bool verify(const VerifyingKey& vk, std::span<const Fr> x, const Proof& p) {
  if (x.size() + 1 != vk.ic.size()) return false;
  if (!p.a.is_on_curve() || !p.b.is_on_curve() || !p.c.is_on_curve()) return false;
  if (!p.a.in_subgroup() || !p.b.in_subgroup() || !p.c.in_subgroup()) return false;
  G1Jacobian acc = msm::msm_g1(std::span<const G1Affine>(vk.ic).subspan(1), x, 1) + vk.ic[0];
  const std::pair<G1Affine, G2Affine> pairs[4] = {
      {-p.a, p.b}, {vk.alpha1, vk.beta2}, {acc.to_affine(), vk.gamma2}, {p.c, vk.delta2}};
  return ec::pairing_product_is_one(pairs);
}

// ---------------------------------------------------------------- conversions

namespace {
Fq fq_raw(const io::FqLimbs& l) {
  return Fq::from_raw(l);
}
io::FqLimbs limbs_of(const Fq& f) {
  io::FqLimbs l;
  for (int i = 0; i < 6; ++i) l[i] = f.limb[i];
  return l;
}
G1Affine g1_from_raw(const io::G1Raw& p) {
  if (p.infinity) return G1Affine::identity();
  return G1Affine{fq_raw(p.x), fq_raw(p.y), false};
}
G2Affine g2_from_raw(const io::G2Raw& p) {
  if (p.infinity) return G2Affine::identity();
  return G2Affine{Fq2{fq_raw(p.x0), fq_raw(p.x1)}, Fq2{fq_raw(p.y0), fq_raw(p.y1)}, false};
}
io::G1Raw g1_to_raw(const G1Affine& p) {
  io::G1Raw r;
  r.infinity = p.infinity;
  if (!p.infinity) {
    r.x = limbs_of(p.x);
    r.y = limbs_of(p.y);
  }
  return r;
}
io::G2Raw g2_to_raw(const G2Affine& p) {
  io::G2Raw r;
  r.infinity = p.infinity;
  if (!p.infinity) {
    r.x0 = limbs_of(p.x.c0);
    r.x1 = limbs_of(p.x.c1);
    r.y0 = limbs_of(p.y.c0);
    r.y1 = limbs_of(p.y.c1);
  }
  return r;
}
template <class P, class Raw, class F>
std::vector<P> convert_points(const std::vector<Raw>& in, F f, const std::string& path,
                              const char* section, unsigned threads) {
  std::vector<P> out(in.size());
  std::atomic<int64_t> bad{-1};
  parallel_for(in.size(), threads, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) {
      out[i] = f(in[i]);
      if (!out[i].is_on_curve()) bad = int64_t(i);
    }
  });
  if (bad >= 0)
    throw InputError(path, 0, section,
                     fmt::format("point {} is not on the BLS12-381 curve", bad.load()));
  return out;
}
io::G1Plain g1_plain(const G1Affine& p) {
  io::G1Plain o;
  o.infinity = p.infinity;
  if (!p.infinity) {
    o.x = p.x.to_canonical();
    o.y = p.y.to_canonical();
  }
  return o;
}
io::G2Plain g2_plain(const G2Affine& p) {
  io::G2Plain o;
  o.infinity = p.infinity;
  if (!p.infinity) {
    o.x0 = p.x.c0.to_canonical();
    o.x1 = p.x.c1.to_canonical();
    o.y0 = p.y.c0.to_canonical();
    o.y1 = p.y.c1.to_canonical();
  }
  return o;
}
G1Affine g1_from_plain(const io::G1Plain& p) {
  if (p.infinity) return G1Affine::identity();
  return G1Affine{Fq::from_canonical(p.x), Fq::from_canonical(p.y), false};
}
G2Affine g2_from_plain(const io::G2Plain& p) {
  if (p.infinity) return G2Affine::identity();
  return G2Affine{Fq2{Fq::from_canonical(p.x0), Fq::from_canonical(p.x1)},
                  Fq2{Fq::from_canonical(p.y0), Fq::from_canonical(p.y1)}, false};
}
}  // namespace

namespace {
// Everything of the key but the QAP coefficients and the A, B1, B2, C and H points: counts, the
// six header points and IC.
ProvingKey key_head(const io::Zkey& z, const std::string& path) {
  ProvingKey pk;
  pk.reduction = Reduction::circom;
  pk.n_vars = z.n_vars;
  pk.n_public = z.n_public;
  pk.log_n = 0;
  while ((uint64_t(1) << pk.log_n) < z.domain_size) ++pk.log_n;
  auto one_g1 = [&](const io::G1Raw& r, const char* what) {
    G1Affine p = g1_from_raw(r);
    if (!p.is_on_curve())
      throw InputError(path, 0, "section 2 (groth16 header)",
                       fmt::format("{} is not on the BLS12-381 curve", what));
    return p;
  };
  auto one_g2 = [&](const io::G2Raw& r, const char* what) {
    G2Affine p = g2_from_raw(r);
    if (!p.is_on_curve())
      throw InputError(path, 0, "section 2 (groth16 header)",
                       fmt::format("{} is not on the BLS12-381 G2 curve", what));
    return p;
  };
  pk.alpha1 = one_g1(z.alpha1, "alpha1");
  pk.beta1 = one_g1(z.beta1, "beta1");
  pk.delta1 = one_g1(z.delta1, "delta1");
  pk.beta2 = one_g2(z.beta2, "beta2");
  pk.gamma2 = one_g2(z.gamma2, "gamma2");
  pk.delta2 = one_g2(z.delta2, "delta2");
  pk.ic = convert_points<G1Affine>(z.ic, g1_from_raw, path, "section 3 (IC)", 0);
  return pk;
}
}  // namespace

QapCoef qap_coef(const io::ZkeyCoef& k) {
  return {k.matrix, k.constraint, k.signal, coef_value(k.value)};
}

ProvingKey from_zkey(const io::Zkey& z, const std::string& path) {
  ProvingKey pk = key_head(z, path);
  pk.coefs.reserve(z.coefs.size());
  for (const auto& k : z.coefs) pk.coefs.push_back(qap_coef(k));
  pk.a = convert_points<G1Affine>(z.a, g1_from_raw, path, "section 5 (A points)", 0);
  pk.b1 = convert_points<G1Affine>(z.b1, g1_from_raw, path, "section 6 (B1 points)", 0);
  pk.b2 = convert_points<G2Affine>(z.b2, g2_from_raw, path, "section 7 (B2 points)", 0);
  pk.c = convert_points<G1Affine>(z.c, g1_from_raw, path, "section 8 (C points)", 0);
  pk.h = convert_points<G1Affine>(z.h, g1_from_raw, path, "section 9 (H points)", 0);
  return pk;
}

// One pass per point section, straight from the mapping (gpu/groth16/key_points.hpp).
ProvingKey from_zkey(const io::MappedZkey& m, unsigned threads) {
  ProvingKey pk = key_head(m.z, m.file.path);
  // Straight from the mapping (no io::ZkeyCoef copy: 44 -> 48 B per coefficient once, not twice).
  pk.coefs.reserve(m.coefs_count);
  for (uint64_t i = 0; i < m.coefs_count; ++i) pk.coefs.push_back(qap_coef(m.coef(i)));
  pk.a = g1_points(m, m.a, threads);
  pk.b1 = g1_points(m, m.b1, threads);
  pk.b2 = g2_points(m, m.b2, threads);
  pk.c = g1_points(m, m.c, threads);
  pk.h = g1_points(m, m.h, threads);
  return pk;
}

// The same checks as from_zkey(m), in place (gpu/groth16/key_points.hpp: check_g1_points).
ProvingKey from_zkey_in_place(const io::MappedZkey& m, unsigned threads) {
  ProvingKey pk = key_head(m.z, m.file.path);
  ProvingKey::InPlace ip;
  ip.key = &m;
  ip.a = check_g1_points(m, m.a, threads);
  ip.b1 = check_g1_points(m, m.b1, threads);
  ip.b2 = check_g2_points(m, m.b2, threads);
  ip.c = check_g1_points(m, m.c, threads);
  ip.h = check_g1_points(m, m.h, threads);
  pk.in_place = ip;
  return pk;
}

ProvingKey load_zkey(const std::string& path, unsigned threads) {
  return from_zkey(io::map_zkey(path), threads);
}

io::Zkey to_zkey(const ProvingKey& pk) {
  if (pk.reduction != Reduction::circom)
    throw std::invalid_argument("a .zkey needs the circom reduction's H points");
  if (pk.coefs.empty()) throw std::invalid_argument("proving key has no QAP coefficients");
  io::Zkey z;
  z.n_vars = pk.n_vars;
  z.n_public = pk.n_public;
  z.domain_size = uint32_t(pk.domain_size());
  z.alpha1 = g1_to_raw(pk.alpha1);
  z.beta1 = g1_to_raw(pk.beta1);
  z.delta1 = g1_to_raw(pk.delta1);
  z.beta2 = g2_to_raw(pk.beta2);
  z.gamma2 = g2_to_raw(pk.gamma2);
  z.delta2 = g2_to_raw(pk.delta2);
  auto g1s = [](const std::vector<G1Affine>& v) {
    std::vector<io::G1Raw> o;
    o.reserve(v.size());
    for (const auto& p : v) o.push_back(g1_to_raw(p));
    return o;
  };
  z.ic = g1s(pk.ic);
  z.a = g1s(pk.a);
  z.b1 = g1s(pk.b1);
  z.c = g1s(pk.c);
  z.h = g1s(pk.h);
  z.b2.reserve(pk.b2.size());
  for (const auto& p : pk.b2) z.b2.push_back(g2_to_raw(p));
  const Fr r2 = Fr::from_raw(Fr::R2);  // Montgomery product with it multiplies the raw value by R
  z.coefs.reserve(pk.coefs.size());
  for (const auto& k : pk.coefs) {
    Fr stored = k.value * r2;  // raw limbs v * R^2 mod r
    io::FrLimbs l;
    for (int i = 0; i < 4; ++i) l[i] = stored.limb[i];
    z.coefs.push_back({k.matrix, k.row, k.signal, l});
  }
  return z;
}

io::ProofJson to_json(const Proof& p) {
  return {g1_plain(p.a), g2_plain(p.b), g1_plain(p.c)};
}
Proof from_json(const io::ProofJson& p) {
  return {g1_from_plain(p.a), g2_from_plain(p.b), g1_from_plain(p.c)};
}

io::VkJson to_json(const VerifyingKey& vk) {
  io::VkJson j;
  j.alpha1 = g1_plain(vk.alpha1);
  j.beta2 = g2_plain(vk.beta2);
  j.gamma2 = g2_plain(vk.gamma2);
  j.delta2 = g2_plain(vk.delta2);
  for (const auto& p : vk.ic) j.ic.push_back(g1_plain(p));
  const auto e = ec::pairing(vk.alpha1, vk.beta2);
  const ff::Fq6* f6[2] = {&e.c0, &e.c1};
  for (int i = 0; i < 2; ++i) {
    const Fq2* f2[3] = {&f6[i]->c0, &f6[i]->c1, &f6[i]->c2};
    for (int k = 0; k < 3; ++k) {
      j.alphabeta12[6 * i + 2 * k] = f2[k]->c0.to_canonical();
      j.alphabeta12[6 * i + 2 * k + 1] = f2[k]->c1.to_canonical();
    }
  }
  return j;
}

VerifyingKey from_json(const io::VkJson& j) {
  VerifyingKey vk;
  vk.alpha1 = g1_from_plain(j.alpha1);
  vk.beta2 = g2_from_plain(j.beta2);
  vk.gamma2 = g2_from_plain(j.gamma2);
  vk.delta2 = g2_from_plain(j.delta2);
  for (const auto& p : j.ic) vk.ic.push_back(g1_from_plain(p));
  return vk;
}

std::vector<Fr> witness_from_io(const std::vector<io::FrLimbs>& values) {
  std::vector<Fr> w(values.size());
  parallel_for(values.size(), 0, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) w[i] = Fr::from_canonical(values[i]);
  });
  return w;
}

}  // namespace prestage::groth16
