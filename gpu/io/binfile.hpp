#pragma once
// The iden3 binary "section" container shared by .r1cs, .wtns, .zkey and .ptau (binfileutils):
//   magic (4 ASCII bytes) | version u32 | nSections u32 | nSections x (type u32, size u64, bytes)
// all little-endian. open_binfile() maps the whole file read-only and checks the container;
// Reader reads inside one section with bounds checks. Every defect throws prestage::InputError
// naming the file, the byte offset (as the "line") and the section (as the "key").
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu/io/limbs.hpp"

namespace prestage::io {

struct Section {
  uint64_t offset = 0;  // byte offset of the section's first data byte in the file
  uint64_t size = 0;    // bytes
};

struct BinFile {
  std::string path;
  uint32_t version = 0;
  // The whole file, read-only, size bytes: a private read-only mapping of the file
  // (open_binfile) or the bytes handed to parse_binfile. Shared, so copies stay valid.
  std::shared_ptr<const uint8_t> data;
  uint64_t size = 0;
  std::map<uint32_t, Section> sections;  // by section type; duplicates are rejected

  // The unique section of this type; throws InputError naming `what` when it is missing.
  const Section& section(uint32_t type, const char* what) const;
  bool has(uint32_t type) const { return sections.count(type) != 0; }
  // Throws InputError (this file, offset, "section <type> (<what>)") with the message.
  [[noreturn]] void fail(uint64_t offset, uint32_t type, const char* what,
                         const std::string& message) const;
};

// Maps `path` read-only (mmap, pages populated up front: 2 ms of CPU for a 45 MB .zkey against
// 24 ms to zero, fault in and fill a buffer of its size with read(), measured on the 2-vCPU dev
// VM, 2026-11-30; files that cannot be mapped are read instead) and checks magic, 1 <= version <=
// max_version, that every section header and section lies inside the file, that sections do not
// overlap the end, and that no type repeats. If the mapped file shrinks while it is in use
// (another process truncates it), the next read past its new end raises SIGBUS: the process
// then prints "<path>: input error: the file shrank while it was being read ..." and exits with
// 2, as for bad input (no exception can be thrown from there).
BinFile open_binfile(const std::string& path, const char magic[4], uint32_t max_version);
// The same checks on bytes already in memory (`path` only names them in errors; fuzzing).
BinFile parse_binfile(const std::string& path, std::vector<uint8_t> bytes, const char magic[4],
                      uint32_t max_version);

// Sequential little-endian reads inside one section; reading past its end throws InputError
// ("truncated"), finish() checks the section was consumed exactly.
class Reader {
 public:
  Reader(const BinFile& f, uint32_t type, const char* what);
  uint32_t u32();
  uint64_t u64();
  const uint8_t* bytes(uint64_t n);  // n bytes, valid as long as the BinFile lives
  template <size_t N>
  std::array<uint64_t, N> limbs() {
    return load_le<N>(bytes(8 * N));
  }
  uint64_t pos() const { return pos_; }  // absolute file offset
  uint64_t remaining() const { return end_ - pos_; }
  [[noreturn]] void fail(const std::string& message) const { f_.fail(pos_, type_, what_, message); }
  [[noreturn]] void fail_at(uint64_t offset, const std::string& message) const {
    f_.fail(offset, type_, what_, message);
  }
  void finish() const;  // throws unless the whole section was read

 private:
  const BinFile& f_;
  uint32_t type_;
  const char* what_;
  uint64_t pos_, end_;
};

// Field-size header shared by r1cs and wtns: n8 u32, then the prime as n8 LE bytes. Checks
// n8 == 32 and prime == BLS12-381 r ("wrong curve" otherwise).
void read_fr_prime_header(Reader& r);

}  // namespace prestage::io
