#include "gpu/io/r1cs.hpp"

#include <fmt/core.h>

#include "gpu/io/binfile.hpp"
#include "gpu/io/binfile_writer.hpp"

namespace prestage::io {

namespace {
R1cs parse(const BinFile& f);
}

R1cs read_r1cs(const std::string& path) {
  return parse(open_binfile(path, "r1cs", 1));
}

R1cs parse_r1cs(const std::string& name, std::vector<uint8_t> bytes) {
  return parse(parse_binfile(name, std::move(bytes), "r1cs", 1));
}

namespace {
R1cs parse(const BinFile& f) {
  R1cs r;
  {
    Reader h(f, 1, "header");
    read_fr_prime_header(h);
    r.n_wires = h.u32();
    r.n_pub_out = h.u32();
    r.n_pub_in = h.u32();
    r.n_prv_in = h.u32();
    r.n_labels = h.u64();
    r.n_constraints = h.u32();
    h.finish();
    uint64_t inputs = uint64_t(r.n_pub_out) + r.n_pub_in + r.n_prv_in;
    if (r.n_wires == 0 || inputs + 1 > r.n_wires)
      h.fail(
          fmt::format("counts disagree: {} wires cannot hold the constant, {} outputs and {} "
                      "inputs",
                      r.n_wires, r.n_pub_out, uint64_t(r.n_pub_in) + r.n_prv_in));
  }
  if (f.has(4) || f.has(5))
    f.fail(f.sections.at(f.has(4) ? 4 : 5).offset, f.has(4) ? 4 : 5, "custom gates",
           "custom gates (PLONK-only) are not supported by Groth16");
  {
    Reader c(f, 2, "constraints");
    // Each constraint needs at least 12 bytes (three empty LCs): reject absurd counts before
    // reserving memory.
    if (uint64_t(r.n_constraints) * 12 > c.remaining())
      c.fail(fmt::format("truncated: {} constraints need at least {} bytes, the section has {}",
                         r.n_constraints, uint64_t(r.n_constraints) * 12, c.remaining()));
    r.lc_begin.reserve(3 * uint64_t(r.n_constraints) + 1);
    r.terms.reserve(c.remaining() / 36);
    r.lc_begin.push_back(0);
    for (uint32_t k = 0; k < r.n_constraints; ++k) {
      for (int m = 0; m < 3; ++m) {
        uint32_t n_terms = c.u32();
        if (uint64_t(n_terms) * 36 > c.remaining())
          c.fail(fmt::format("truncated: constraint {} {} declares {} terms ({} bytes), {} left", k,
                             "ABC"[m], n_terms, uint64_t(n_terms) * 36, c.remaining()));
        for (uint32_t t = 0; t < n_terms; ++t) {
          uint64_t at = c.pos();
          uint32_t wire = c.u32();
          if (wire >= r.n_wires)
            c.fail_at(at, fmt::format("constraint {} {}: wire {} out of range (nWires = {})", k,
                                      "ABC"[m], wire, r.n_wires));
          at = c.pos();
          FrLimbs v = c.limbs<4>();
          if (!less_than(v, kFrModulus))
            c.fail_at(at, fmt::format("constraint {} {}: coefficient {} is not below r", k,
                                      "ABC"[m], to_decimal(v)));
          r.terms.push_back({wire, v});
        }
        r.lc_begin.push_back(r.terms.size());
      }
    }
    c.finish();
  }
  if (f.has(3)) {
    const Section& s = f.section(3, "wire map");
    if (s.size != uint64_t(r.n_wires) * 8)
      f.fail(s.offset, 3, "wire map",
             fmt::format("size {} bytes disagrees with {} wires x 8 bytes", s.size, r.n_wires));
  }
  return r;
}
}  // namespace

void write_r1cs(const std::string& path, const R1cs& r) {
  BinFileWriter w("r1cs", 1);
  w.begin_section(1);
  w.u32(32);
  w.limbs(kFrModulus);
  w.u32(r.n_wires);
  w.u32(r.n_pub_out);
  w.u32(r.n_pub_in);
  w.u32(r.n_prv_in);
  w.u64(r.n_labels);
  w.u32(r.n_constraints);
  w.end_section();
  w.begin_section(2);
  for (uint64_t lc = 0; lc + 1 < r.lc_begin.size(); ++lc) {
    w.u32(uint32_t(r.lc_begin[lc + 1] - r.lc_begin[lc]));
    for (uint64_t t = r.lc_begin[lc]; t < r.lc_begin[lc + 1]; ++t) {
      w.u32(r.terms[t].wire);
      w.limbs(r.terms[t].coeff);
    }
  }
  w.end_section();
  w.save(path);
}

}  // namespace prestage::io
