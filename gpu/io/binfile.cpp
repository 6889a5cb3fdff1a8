#include "gpu/io/binfile.hpp"

#include <fmt/core.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>

#include "model/errors.hpp"

namespace prestage::io {

namespace {
uint32_t rd32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t rd64(const uint8_t* p) {
  return uint64_t(rd32(p)) | uint64_t(rd32(p + 4)) << 32;
}

[[noreturn]] void fail_file(const std::string& path, uint64_t offset, const std::string& key,
                            const std::string& message) {
  throw InputError(path, int(offset > 0x7fffffff ? 0 : offset), key,
                   fmt::format("at byte {}: {}", offset, message));
}
}  // namespace

const Section& BinFile::section(uint32_t type, const char* what) const {
  auto it = sections.find(type);
  if (it == sections.end()) fail(0, type, what, fmt::format("missing section {} ({})", type, what));
  return it->second;
}

void BinFile::fail(uint64_t offset, uint32_t type, const char* what,
                   const std::string& message) const {
  fail_file(path, offset, fmt::format("section {} ({})", type, what), message);
}

namespace {
// ---- SIGBUS on a mapped input file ----
// A file that shrinks while it is mapped (another process truncates or rewrites it) turns our
// next read of a page past its new end into SIGBUS. Each mapping registers its address range and
// path here; the handler, for a fault inside a registered range, writes
// "<path>: input error: the file shrank while it was being read (SIGBUS at byte N)" to stderr and
// exits with 2 (bad input, as the CLI does for InputError). Faults elsewhere go to the previous
// handler (or the default action). Everything the handler touches is lock-free and fixed-size.
constexpr int kMapSlots = 64;
constexpr std::size_t kPathBytes = 512;
struct MapSlot {
  std::atomic<uintptr_t> begin{0};  // 0: free
  std::atomic<uintptr_t> end{0};
  char path[kPathBytes] = {};
};
MapSlot g_maps[kMapSlots];
struct sigaction g_previous_sigbus {};
std::mutex g_sigbus_mutex;  // guards (re)installing the handler

void write_all(const char* s, std::size_t n) {
  while (n > 0) {
    const ssize_t k = ::write(STDERR_FILENO, s, n);
    if (k <= 0) return;
    s += k;
    n -= std::size_t(k);
  }
}

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  for (MapSlot& m : g_maps) {
    const uintptr_t b = m.begin.load(std::memory_order_acquire);
    if (b == 0 || addr < b || addr >= m.end.load(std::memory_order_acquire)) continue;
    char num[24];
    int len = 0;
    for (uintptr_t v = addr - b; len == 0 || v > 0; v /= 10) num[len++] = char('0' + v % 10);
    write_all(m.path, ::strnlen(m.path, kPathBytes));
    const char msg[] = ": input error: the file shrank while it was being read (SIGBUS at byte ";
    write_all(msg, sizeof msg - 1);
    while (len > 0) write_all(&num[--len], 1);
    write_all(")\n", 2);
    ::_exit(2);
  }
  // Not ours: the previous disposition.
  if (g_previous_sigbus.sa_flags & SA_SIGINFO) {
    g_previous_sigbus.sa_sigaction(sig, info, context);
    return;
  }
  if (g_previous_sigbus.sa_handler != SIG_DFL && g_previous_sigbus.sa_handler != SIG_IGN) {
    g_previous_sigbus.sa_handler(sig);
    return;
  }
  ::signal(SIGBUS, SIG_DFL);
  ::raise(SIGBUS);
}

// Registers [p, p + len) as `path`'s mapping; returns the slot (-1 when all are taken: the
// mapping then has no SIGBUS message, only the default action).
int register_mapping(const void* p, std::size_t len, const std::string& path) {
  {
    // (Re)install the handler when the current one is not ours: a library may have replaced or
    // restored the disposition since the last mapping (Boost.Test does, around each test case).
    std::lock_guard<std::mutex> lock(g_sigbus_mutex);
    struct sigaction current {};
    ::sigaction(SIGBUS, nullptr, &current);
    if (!((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_sigbus)) {
      struct sigaction sa {};
      sa.sa_sigaction = on_sigbus;
      sa.sa_flags = SA_SIGINFO | SA_NODEFER;
      sigemptyset(&sa.sa_mask);
      ::sigaction(SIGBUS, &sa, &g_previous_sigbus);
    }
  }
  for (int i = 0; i < kMapSlots; ++i) {
    uintptr_t expected = 0;
    MapSlot& m = g_maps[i];
    // Claim the slot with a placeholder begin, fill it, then publish the real range.
    if (!m.begin.compare_exchange_strong(expected, uintptr_t{1})) continue;
    const std::size_t n = std::min(path.size(), kPathBytes - 1);
    std::memcpy(m.path, path.data(), n);
    m.path[n] = '\0';
    m.end.store(reinterpret_cast<uintptr_t>(p) + len, std::memory_order_release);
    m.begin.store(reinterpret_cast<uintptr_t>(p), std::memory_order_release);
    return i;
  }
  return -1;
}

void unregister_mapping(int slot) {
  if (slot >= 0) g_maps[slot].begin.store(0, std::memory_order_release);
}

// The container checks on f.data / f.size (set by the caller).
BinFile check_container(BinFile f, const char magic[4], uint32_t max_version);
}  // namespace

BinFile open_binfile(const std::string& path, const char magic[4], uint32_t max_version) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, 0, "", "cannot open file");
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
  void* map =
      regular ? ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0)
              : MAP_FAILED;
  ::close(fd);
  if (map != MAP_FAILED) {
    BinFile f;
    f.path = path;
    f.size = uint64_t(st.st_size);
    const size_t len = size_t(st.st_size);
    const int slot = register_mapping(map, len, path);
    f.data = std::shared_ptr<const uint8_t>(static_cast<const uint8_t*>(map),
                                            [len, slot](const uint8_t* p) {
                                              unregister_mapping(slot);
                                              ::munmap(const_cast<uint8_t*>(p), len);
                                            });
    return check_container(std::move(f), magic, max_version);
  }
  // Empty files, pipes and the like: read them.
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot open file");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path, 0, "", "cannot read file");
  return parse_binfile(path, std::move(bytes), magic, max_version);
}

BinFile parse_binfile(const std::string& path, std::vector<uint8_t> bytes, const char magic[4],
                      uint32_t max_version) {
  BinFile f;
  f.path = path;
  f.size = bytes.size();
  auto owner = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  f.data = std::shared_ptr<const uint8_t>(owner, owner->data());
  return check_container(std::move(f), magic, max_version);
}

namespace {
BinFile check_container(BinFile f, const char magic[4], uint32_t max_version) {
  const std::string& path = f.path;
  const uint64_t n = f.size;
  const uint8_t* b = f.data.get();
  if (n < 12)
    fail_file(
        path, 0, "header",
        fmt::format("truncated: {} bytes, a '{:.4}' file starts with a 12-byte header", n, magic));
  if (std::memcmp(b, magic, 4) != 0)
    fail_file(path, 0, "magic",
              fmt::format("not a '{:.4}' file (magic bytes {:02x} {:02x} {:02x} {:02x})", magic,
                          b[0], b[1], b[2], b[3]));
  f.version = rd32(b + 4);
  if (f.version < 1 || f.version > max_version)
    fail_file(path, 4, "version",
              fmt::format("unsupported version {} (supported: 1..{})", f.version, max_version));
  uint32_t n_sections = rd32(b + 8);
  uint64_t pos = 12;
  for (uint32_t i = 0; i < n_sections; ++i) {
    if (n - pos < 12)
      fail_file(path, pos, fmt::format("section header {}", i),
                fmt::format("truncated: section header {} of {} needs 12 bytes, {} left", i,
                            n_sections, n - pos));
    uint32_t type = rd32(b + pos);
    uint64_t size = rd64(b + pos + 4);
    pos += 12;
    if (size > n - pos)
      fail_file(path, pos, fmt::format("section {}", type),
                fmt::format("truncated: section {} declares {} bytes, the file has {} left", type,
                            size, n - pos));
    if (!f.sections.emplace(type, Section{pos, size}).second)
      fail_file(path, pos - 12, fmt::format("section {}", type),
                fmt::format("section {} appears twice", type));
    pos += size;
  }
  if (pos != n)
    fail_file(path, pos, "sections",
              fmt::format("{} trailing bytes after the last of {} sections", n - pos, n_sections));
  return f;
}
}  // namespace

Reader::Reader(const BinFile& f, uint32_t type, const char* what)
    : f_(f), type_(type), what_(what) {
  const Section& s = f.section(type, what);
  pos_ = s.offset;
  end_ = s.offset + s.size;
}

const uint8_t* Reader::bytes(uint64_t n) {
  if (n > end_ - pos_)
    fail(fmt::format("truncated: needs {} more bytes, the section has {} left", n, end_ - pos_));
  const uint8_t* p = f_.data.get() + pos_;
  pos_ += n;
  return p;
}
uint32_t Reader::u32() {
  return rd32(bytes(4));
}
uint64_t Reader::u64() {
  return rd64(bytes(8));
}

void Reader::finish() const {
  if (pos_ != end_)
    fail(fmt::format("section size disagrees with its contents: {} unread bytes", end_ - pos_));
}

void read_fr_prime_header(Reader& r) {
  uint64_t at = r.pos();
  uint32_t n8 = r.u32();
  if (n8 != 32)
    r.fail_at(at, fmt::format("field size {} bytes; BLS12-381 r needs 32 (wrong curve?)", n8));
  at = r.pos();
  auto prime = r.limbs<4>();
  if (prime != kFrModulus)
    r.fail_at(at, fmt::format("prime {} is not the BLS12-381 scalar field r (wrong curve; "
                              "compile with circom -p bls12381)",
                              to_decimal(prime)));
}

}  // namespace prestage::io
