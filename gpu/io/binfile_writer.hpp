#pragma once
// Writer of the iden3 binary section container (see binfile.hpp): sections are appended in
// memory and the file is written atomically (temporary file + rename) by save().
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/io/limbs.hpp"

namespace prestage::io {

class BinFileWriter {
 public:
  BinFileWriter(const char magic[4], uint32_t version);
  void begin_section(uint32_t type);  // sections must not nest
  void end_section();
  void u32(uint32_t v);
  void u64(uint64_t v);
  void raw(const uint8_t* p, size_t n);
  template <size_t N>
  void limbs(const std::array<uint64_t, N>& a) {
    uint8_t b[8 * N];
    store_le(a, b);
    raw(b, sizeof b);
  }
  const std::vector<uint8_t>& bytes() const { return buf_; }
  void save(const std::string& path) const;  // atomic; InputError when not writable

 private:
  std::vector<uint8_t> buf_;
  size_t section_size_at_ = 0;  // offset of the open section's u64 size field, 0 if none
  uint32_t n_sections_ = 0;
};

}  // namespace prestage::io
