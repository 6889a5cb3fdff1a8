#include "gpu/io/zkey.hpp"

#include <fmt/core.h>

#include "gpu/io/binfile.hpp"
#include "gpu/io/binfile_writer.hpp"

namespace prestage::io {

namespace {

FqLimbs read_fq(Reader& r, const char* what) {
  uint64_t at = r.pos();
  FqLimbs v = r.limbs<6>();
  if (!less_than(v, kFqModulus)) r.fail_at(at, fmt::format("{}: coordinate is not below q", what));
  return v;
}

G1Raw read_g1(Reader& r, const char* what) {
  G1Raw p;
  p.x = read_fq(r, what);
  p.y = read_fq(r, what);
  p.infinity = is_zero(p.x) && is_zero(p.y);
  return p;
}

G2Raw read_g2(Reader& r, const char* what) {
  G2Raw p;
  p.x0 = read_fq(r, what);
  p.x1 = read_fq(r, what);
  p.y0 = read_fq(r, what);
  p.y1 = read_fq(r, what);
  p.infinity = is_zero(p.x0) && is_zero(p.x1) && is_zero(p.y0) && is_zero(p.y1);
  return p;
}

template <class P, class F>
std::vector<P> read_points(const BinFile& f, uint32_t type, const char* what, uint64_t count,
                           uint64_t point_bytes, F read_one) {
  Reader r(f, type, what);
  if (r.remaining() != count * point_bytes)
    r.fail(fmt::format("size {} bytes disagrees with the header: {} points x {} bytes = {}",
                       r.remaining(), count, point_bytes, count * point_bytes));
  std::vector<P> pts;
  pts.reserve(count);
  for (uint64_t i = 0; i < count; ++i) pts.push_back(read_one(r, what));
  r.finish();
  return pts;
}

}  // namespace

namespace {
MappedZkey parse_head(BinFile f);

// Section `type` must hold exactly `count` points of `point_bytes` each.
ZkeyPoints locate(const BinFile& f, uint32_t type, const char* what, uint64_t count,
                  uint64_t point_bytes) {
  Reader r(f, type, what);
  if (r.remaining() != count * point_bytes)
    r.fail(fmt::format("size {} bytes disagrees with the header: {} points x {} bytes = {}",
                       r.remaining(), count, point_bytes, count * point_bytes));
  return {type, what, r.pos(), count, point_bytes};
}

// The coefficients and the coordinates of the mapped point sections, read (and the coordinates
// range-checked) into m.z.
Zkey decode_all(MappedZkey&& m) {
  Zkey z = std::move(m.z);
  z.coefs.reserve(m.coefs_count);
  for (uint64_t i = 0; i < m.coefs_count; ++i) z.coefs.push_back(m.coef(i));
  z.a = read_points<G1Raw>(m.file, 5, "A points", m.a.count, 96, read_g1);
  z.b1 = read_points<G1Raw>(m.file, 6, "B1 points", m.b1.count, 96, read_g1);
  z.b2 = read_points<G2Raw>(m.file, 7, "B2 points", m.b2.count, 192, read_g2);
  z.c = read_points<G1Raw>(m.file, 8, "C points", m.c.count, 96, read_g1);
  z.h = read_points<G1Raw>(m.file, 9, "H points", m.h.count, 96, read_g1);
  return z;
}
}  // namespace

MappedZkey map_zkey(const std::string& path) {
  return parse_head(open_binfile(path, "zkey", 1));
}

MappedZkey map_zkey_bytes(const std::string& name, std::vector<uint8_t> bytes) {
  return parse_head(parse_binfile(name, std::move(bytes), "zkey", 1));
}

Zkey read_zkey(const std::string& path) {
  return decode_all(map_zkey(path));
}

Zkey parse_zkey(const std::string& name, std::vector<uint8_t> bytes) {
  return decode_all(map_zkey_bytes(name, std::move(bytes)));
}

namespace {
MappedZkey parse_head(BinFile file) {
  MappedZkey m;
  m.file = std::move(file);
  Zkey& z = m.z;
  const BinFile& f = m.file;
  {
    Reader h(f, 1, "header");
    uint32_t protocol = h.u32();
    if (protocol != 1)
      h.fail_at(h.pos() - 4, fmt::format("protocol {} is not Groth16 (1); PLONK/FFLONK keys are "
                                         "not supported",
                                         protocol));
    h.finish();
  }
  {
    Reader h(f, 2, "groth16 header");
    uint64_t at = h.pos();
    uint32_t n8q = h.u32();
    if (n8q != 48)
      h.fail_at(at,
                fmt::format("base field size {} bytes; BLS12-381 q needs 48 (wrong curve?)", n8q));
    at = h.pos();
    if (h.limbs<6>() != kFqModulus)
      h.fail_at(at, "base field prime is not BLS12-381 q (wrong curve)");
    at = h.pos();
    uint32_t n8r = h.u32();
    if (n8r != 32)
      h.fail_at(at, fmt::format("scalar field size {} bytes; BLS12-381 r needs 32", n8r));
    at = h.pos();
    if (h.limbs<4>() != kFrModulus)
      h.fail_at(at, "scalar field prime is not BLS12-381 r (wrong curve)");
    at = h.pos();
    z.n_vars = h.u32();
    z.n_public = h.u32();
    z.domain_size = h.u32();
    if (z.n_vars == 0 || uint64_t(z.n_public) + 1 > z.n_vars)
      h.fail_at(at, fmt::format("counts disagree: nPublic {} needs nVars > nPublic, got {}",
                                z.n_public, z.n_vars));
    if (z.domain_size < 2 || (z.domain_size & (z.domain_size - 1)) != 0 ||
        z.domain_size > (1u << 31))
      h.fail_at(at + 8,
                fmt::format("domainSize {} is not a power of two in [2, 2^31]", z.domain_size));
    if (z.domain_size <= z.n_public)
      h.fail_at(at + 8, fmt::format("domainSize {} cannot hold the {} public-input rows",
                                    z.domain_size, z.n_public + 1));
    z.alpha1 = read_g1(h, "alpha1");
    z.beta1 = read_g1(h, "beta1");
    z.beta2 = read_g2(h, "beta2");
    z.gamma2 = read_g2(h, "gamma2");
    z.delta1 = read_g1(h, "delta1");
    z.delta2 = read_g2(h, "delta2");
    h.finish();
  }
  z.ic = read_points<G1Raw>(f, 3, "IC", uint64_t(z.n_public) + 1, 96, read_g1);
  {
    Reader c(f, 4, "coefficients");
    uint32_t n = c.u32();
    if (uint64_t(n) * 44 != c.remaining())
      c.fail(fmt::format("size disagrees: {} coefficients x 44 bytes, {} bytes present", n,
                         c.remaining()));
    m.coefs_offset = c.pos();
    m.coefs_count = n;
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t at = c.pos();
      ZkeyCoef k;
      k.matrix = c.u32();
      k.constraint = c.u32();
      k.signal = c.u32();
      k.value = c.limbs<4>();
      if (k.matrix > 1)
        c.fail_at(at, fmt::format("coefficient {}: matrix {} (only A = 0, B = 1)", i, k.matrix));
      if (k.constraint >= z.domain_size)
        c.fail_at(at + 4, fmt::format("coefficient {}: constraint {} >= domainSize {}", i,
                                      k.constraint, z.domain_size));
      if (k.signal >= z.n_vars)
        c.fail_at(at + 8,
                  fmt::format("coefficient {}: signal {} >= nVars {}", i, k.signal, z.n_vars));
      if (!less_than(k.value, kFrModulus))
        c.fail_at(at + 12, fmt::format("coefficient {}: value is not below r", i));
    }
    c.finish();
  }
  m.a = locate(f, 5, "A points", z.n_vars, 96);
  m.b1 = locate(f, 6, "B1 points", z.n_vars, 96);
  m.b2 = locate(f, 7, "B2 points", z.n_vars, 192);
  m.c = locate(f, 8, "C points", uint64_t(z.n_vars) - z.n_public - 1, 96);
  m.h = locate(f, 9, "H points", z.domain_size, 96);
  return m;
}
}  // namespace

namespace {
void put_g1(BinFileWriter& w, const G1Raw& p) {
  if (p.infinity) {
    w.limbs(FqLimbs{});
    w.limbs(FqLimbs{});
  } else {
    w.limbs(p.x);
    w.limbs(p.y);
  }
}
void put_g2(BinFileWriter& w, const G2Raw& p) {
  const G2Raw q = p.infinity ? G2Raw{} : p;
  w.limbs(q.x0);
  w.limbs(q.x1);
  w.limbs(q.y0);
  w.limbs(q.y1);
}
}  // namespace

void write_zkey(const std::string& path, const Zkey& z) {
  BinFileWriter w("zkey", 1);
  w.begin_section(1);
  w.u32(1);
  w.end_section();
  w.begin_section(2);
  w.u32(48);
  w.limbs(kFqModulus);
  w.u32(32);
  w.limbs(kFrModulus);
  w.u32(z.n_vars);
  w.u32(z.n_public);
  w.u32(z.domain_size);
  put_g1(w, z.alpha1);
  put_g1(w, z.beta1);
  put_g2(w, z.beta2);
  put_g2(w, z.gamma2);
  put_g1(w, z.delta1);
  put_g2(w, z.delta2);
  w.end_section();
  w.begin_section(3);
  for (const auto& p : z.ic) put_g1(w, p);
  w.end_section();
  w.begin_section(4);
  w.u32(uint32_t(z.coefs.size()));
  for (const auto& k : z.coefs) {
    w.u32(k.matrix);
    w.u32(k.constraint);
    w.u32(k.signal);
    w.limbs(k.value);
  }
  w.end_section();
  const std::vector<G1Raw>* g1s[] = {&z.a, &z.b1};
  for (int s = 0; s < 2; ++s) {
    w.begin_section(5 + s);
    for (const auto& p : *g1s[s]) put_g1(w, p);
    w.end_section();
  }
  w.begin_section(7);
  for (const auto& p : z.b2) put_g2(w, p);
  w.end_section();
  w.begin_section(8);
  for (const auto& p : z.c) put_g1(w, p);
  w.end_section();
  w.begin_section(9);
  for (const auto& p : z.h) put_g1(w, p);
  w.end_section();
  w.begin_section(10);
  uint8_t hash[64] = {};
  w.raw(hash, sizeof hash);
  w.u32(0);
  w.end_section();
  w.save(path);
}

}  // namespace prestage::io
