#include "gpu/groth16/circuit.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>

namespace prestage::groth16 {

namespace {
// splitmix64: the counter-based hash behind the synthetic circuits (deterministic per seed).
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
uint64_t hash3(uint64_t seed, uint64_t k, uint64_t salt) {
  return mix(mix(seed ^ mix(k)) ^ (salt * 0xd6e8feb86659fd93ULL));
}
// A uniform-ish field element from a hash: 4 hashed limbs with the top limb below 2^62 < r.
Fr field_from_hash(uint64_t seed, uint64_t k, uint64_t salt) {
  std::array<uint64_t, 4> v{};
  for (int i = 0; i < 4; ++i) v[i] = hash3(seed, k, salt * 8 + i);
  v[3] &= (uint64_t(1) << 62) - 1;
  return Fr::from_canonical(v);
}
unsigned thread_count(unsigned t) {
  if (t) return t;
  unsigned h = std::thread::hardware_concurrency();
  return h ? h : 1;
}
}  // namespace

uint32_t Circuit::domain_log2() const {
  uint64_t need = n_constraints() + n_public();  // domain must exceed this
  uint32_t p = 1;
  while ((uint64_t(1) << p) <= need) ++p;
  return p;
}

Fr dot(const std::vector<Term>& lc, const std::vector<Fr>& w) {
  Fr s = Fr::zero();
  for (const Term& t : lc) s += t.coeff * w[t.wire];
  return s;
}

int64_t first_unsatisfied(const Circuit& c, const std::vector<Fr>& w, unsigned threads) {
  if (w.size() != c.n_wires())
    throw std::invalid_argument("first_unsatisfied: witness size != n_wires");
  const uint64_t n = c.n_constraints();
  const unsigned T = std::max<unsigned>(1, std::min<uint64_t>(thread_count(threads), n));
  std::atomic<int64_t> first{-1};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < T; ++t)
    pool.emplace_back([&, t] {
      Row r;
      for (uint64_t k = n * t / T; k < n * (t + 1) / T; ++k) {
        c.row(k, r);
        if (dot(r.a, w) * dot(r.b, w) != dot(r.c, w)) {
          int64_t cur = first.load();
          while ((cur < 0 || int64_t(k) < cur) && !first.compare_exchange_weak(cur, int64_t(k))) {
          }
          return;
        }
      }
    });
  for (auto& th : pool) th.join();
  return first.load();
}

// ---- R1csCircuit ----

R1csCircuit::R1csCircuit(const io::R1cs& r)
    : n_wires_(r.n_wires), n_public_(r.n_public()), lc_begin_(r.lc_begin) {
  terms_.reserve(r.terms.size());
  for (const auto& t : r.terms) terms_.push_back({t.wire, Fr::from_canonical(t.coeff)});
}

void R1csCircuit::row(uint64_t k, Row& out) const {
  out.clear();
  std::vector<Term>* lcs[3] = {&out.a, &out.b, &out.c};
  for (int m = 0; m < 3; ++m)
    lcs[m]->assign(terms_.begin() + lc_begin_[3 * k + m],
                   terms_.begin() + lc_begin_[3 * k + m + 1]);
}

// ---- SyntheticCircuit ----

SyntheticCircuit::SyntheticCircuit(Profile profile, uint64_t n_constraints, uint32_t n_public,
                                   uint64_t seed)
    : profile_(profile),
      n_constraints_(n_constraints),
      n_public_(n_public),
      seed_(seed),
      n_inputs_(64) {
  if (n_constraints == 0) throw std::invalid_argument("synthetic circuit: needs >= 1 constraint");
  if (n_constraints + n_public + n_inputs_ + 1 > 0xffffffffULL)
    throw std::invalid_argument("synthetic circuit: more than 2^32 wires");
}

SyntheticCircuit::Profile SyntheticCircuit::parse_profile(const std::string& name) {
  if (name == "porep") return Profile::porep;
  if (name == "dense") return Profile::dense;
  throw std::invalid_argument("unknown synthetic profile '" + name + "' (porep, dense)");
}

uint32_t SyntheticCircuit::n_wires() const {
  return uint32_t(first_gate_wire() + n_constraints_);
}

bool SyntheticCircuit::is_bit_wire(uint64_t wire) const {
  if (wire == 0) return true;           // the constant 1
  if (wire <= n_public_) return false;  // public values are field elements
  if (wire < first_gate_wire()) return wire - 1 - n_public_ < n_inputs_ / 2;
  Gate g = describe_gate_type(wire - first_gate_wire());
  return g != Gate::field_mad;
}

SyntheticCircuit::Gate SyntheticCircuit::describe_gate_type(uint64_t k) const {
  if (profile_ == Profile::dense) return Gate::field_mad;
  uint64_t h = hash3(seed_, k, 0);
  if (h % 100 >= 95) return Gate::field_mad;
  return Gate((h >> 32) % 4);
}

uint64_t SyntheticCircuit::pick_wire(uint64_t k, uint32_t salt, bool bit) const {
  const uint64_t base = first_gate_wire() + k;  // wires before this row's output
  const uint64_t window = std::min<uint64_t>(base, 1 << 16);
  for (uint32_t attempt = 0; attempt < 8; ++attempt) {
    uint64_t h = hash3(seed_, k, 16 + salt * 8 + attempt);
    uint64_t j = base - 1 - h % window;
    if (is_bit_wire(j) == bit) return j;
  }
  uint64_t h = hash3(seed_, k, 15 + salt);
  uint64_t half = n_inputs_ / 2;
  return 1 + n_public_ + (bit ? h % half : half + h % half);
}

SyntheticCircuit::GateDesc SyntheticCircuit::describe(uint64_t k) const {
  GateDesc d{};
  d.gate = describe_gate_type(k);
  bool bit = d.gate != Gate::field_mad;
  d.in0 = uint32_t(pick_wire(k, 0, bit));
  d.in1 = uint32_t(pick_wire(k, 1, bit));
  d.in2 = uint32_t(pick_wire(k, 2, false));
  if (d.gate == Gate::field_mad && profile_ == Profile::dense) {
    d.k0 = Fr::from_u64(hash3(seed_, k, 1) | 1);
    d.k1 = Fr::from_u64(hash3(seed_, k, 2) | 1);
  } else {
    d.k0 = Fr::one();
    d.k1 = Fr::one();
  }
  return d;
}

void SyntheticCircuit::row(uint64_t k, Row& out) const {
  out.clear();
  const GateDesc d = describe(k);
  const uint32_t o = uint32_t(first_gate_wire() + k);
  const Fr one = Fr::one();
  switch (d.gate) {
    case Gate::and_:  // a * b = o
      out.a.push_back({d.in0, one});
      out.b.push_back({d.in1, one});
      out.c.push_back({o, one});
      break;
    case Gate::xor_:  // 2a * b = a + b - o
      out.a.push_back({d.in0, one + one});
      out.b.push_back({d.in1, one});
      out.c.push_back({d.in0, one});
      out.c.push_back({d.in1, one});
      out.c.push_back({o, -one});
      break;
    case Gate::or_:  // a * b = a + b - o
      out.a.push_back({d.in0, one});
      out.b.push_back({d.in1, one});
      out.c.push_back({d.in0, one});
      out.c.push_back({d.in1, one});
      out.c.push_back({o, -one});
      break;
    case Gate::sqr_bit:  // a * a = o
      out.a.push_back({d.in0, one});
      out.b.push_back({d.in0, one});
      out.c.push_back({o, one});
      break;
    case Gate::field_mad:  // (k0 x) * y = o - k1 z
      out.a.push_back({d.in0, d.k0});
      out.b.push_back({d.in1, one});
      out.c.push_back({o, one});
      out.c.push_back({d.in2, -d.k1});
      break;
  }
}

std::vector<Fr> SyntheticCircuit::witness() const {
  std::vector<Fr> w(n_wires());
  w[0] = Fr::one();
  for (uint32_t i = 1; i <= n_public_; ++i) w[i] = field_from_hash(seed_, i, 0xAB);
  for (uint32_t i = 0; i < n_inputs_; ++i) {
    uint64_t wire = 1 + n_public_ + i;
    w[wire] = i < n_inputs_ / 2 ? Fr::from_u64(hash3(seed_, i, 0xCD) & 1)
                                : field_from_hash(seed_, i, 0xEF);
  }
  const Fr one = Fr::one();
  for (uint64_t k = 0; k < n_constraints_; ++k) {
    const GateDesc d = describe(k);
    Fr& o = w[first_gate_wire() + k];
    const Fr &a = w[d.in0], &b = w[d.in1];
    switch (d.gate) {
      case Gate::and_:
        o = a * b;
        break;
      case Gate::xor_:
        o = a + b - (a + a) * b;
        break;
      case Gate::or_:
        o = a + b - a * b;
        break;
      case Gate::sqr_bit:
        o = a * a;
        break;
      case Gate::field_mad:
        o = d.k0 * a * b + d.k1 * w[d.in2];
        break;
    }
  }
  return w;
}

}  // namespace prestage::groth16
