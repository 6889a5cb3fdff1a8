#include "gpu/io/binfile_writer.hpp"

#include <stdexcept>

#include "gpu/io/snarkjs_json.hpp"

namespace prestage::io {

BinFileWriter::BinFileWriter(const char magic[4], uint32_t version) {
  buf_.reserve(1 << 16);
  for (int i = 0; i < 4; ++i) buf_.push_back(uint8_t(magic[i]));
  u32(version);
  u32(0);  // number of sections, patched by end_section()
}

void BinFileWriter::begin_section(uint32_t type) {
  if (section_size_at_ != 0) throw std::logic_error("BinFileWriter: nested section");
  u32(type);
  section_size_at_ = buf_.size();
  u64(0);
}

void BinFileWriter::end_section() {
  if (section_size_at_ == 0) throw std::logic_error("BinFileWriter: no open section");
  uint64_t size = buf_.size() - section_size_at_ - 8;
  for (int b = 0; b < 8; ++b) buf_[section_size_at_ + b] = uint8_t(size >> (8 * b));
  section_size_at_ = 0;
  ++n_sections_;
  for (int b = 0; b < 4; ++b) buf_[8 + b] = uint8_t(n_sections_ >> (8 * b));
}

void BinFileWriter::u32(uint32_t v) {
  for (int b = 0; b < 4; ++b) buf_.push_back(uint8_t(v >> (8 * b)));
}
void BinFileWriter::u64(uint64_t v) {
  for (int b = 0; b < 8; ++b) buf_.push_back(uint8_t(v >> (8 * b)));
}
void BinFileWriter::raw(const uint8_t* p, size_t n) {
  buf_.insert(buf_.end(), p, p + n);
}

void BinFileWriter::save(const std::string& path) const {
  if (section_size_at_ != 0) throw std::logic_error("BinFileWriter: section left open");
  write_file_atomic(path,
                    std::string_view(reinterpret_cast<const char*>(buf_.data()), buf_.size()));
}

}  // namespace prestage::io
