#include "gpu/io/wtns.hpp"

#include <fmt/core.h>

#include "gpu/io/binfile.hpp"
#include "gpu/io/binfile_writer.hpp"

namespace prestage::io {

namespace {
Witness parse(const BinFile& f);
}

Witness read_wtns(const std::string& path) {
  return parse(open_binfile(path, "wtns", 2));
}

Witness parse_wtns(const std::string& name, std::vector<uint8_t> bytes) {
  return parse(parse_binfile(name, std::move(bytes), "wtns", 2));
}

namespace {
Witness parse(const BinFile& f) {
  uint32_t n = 0;
  {
    Reader h(f, 1, "header");
    read_fr_prime_header(h);
    n = h.u32();
    h.finish();
  }
  Witness w;
  Reader v(f, 2, "values");
  if (uint64_t(n) * 32 != v.remaining())
    v.fail(fmt::format("size {} bytes disagrees with the header's {} values x 32 bytes",
                       v.remaining(), n));
  w.values.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t at = v.pos();
    FrLimbs x = v.limbs<4>();
    if (!less_than(x, kFrModulus))
      v.fail_at(at, fmt::format("value {} = {} is not below r", i, to_decimal(x)));
    w.values.push_back(x);
  }
  v.finish();
  if (n == 0 || w.values[0] != FrLimbs{1, 0, 0, 0})
    v.fail_at(f.section(2, "values").offset,
              "value 0 (the constant wire) must be 1; not a circom witness");
  return w;
}
}  // namespace

void write_wtns(const std::string& path, const Witness& w) {
  BinFileWriter out("wtns", 2);
  out.begin_section(1);
  out.u32(32);
  out.limbs(kFrModulus);
  out.u32(uint32_t(w.values.size()));
  out.end_section();
  out.begin_section(2);
  for (const auto& v : w.values) out.limbs(v);
  out.end_section();
  out.save(path);
}

}  // namespace prestage::io
