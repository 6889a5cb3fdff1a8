#include "gpu/io/limbs.hpp"

#include <algorithm>
#include <vector>

namespace prestage::io {

std::string to_decimal(const uint64_t* limbs, size_t n) {
  std::vector<uint64_t> v(limbs, limbs + n);
  std::string out;
  constexpr uint64_t kChunk = 10000000000000000000ULL;  // 10^19, the largest power of 10 < 2^64
  auto nonzero = [&] { return std::any_of(v.begin(), v.end(), [](uint64_t x) { return x != 0; }); };
  while (nonzero()) {
    unsigned __int128 rem = 0;
    for (size_t i = v.size(); i-- > 0;) {
      unsigned __int128 cur = (rem << 64) | v[i];
      v[i] = uint64_t(cur / kChunk);
      rem = cur % kChunk;
    }
    uint64_t r = uint64_t(rem);
    for (int d = 0; d < 19; ++d) {
      out.push_back(char('0' + r % 10));
      r /= 10;
    }
  }
  while (out.size() > 1 && out.back() == '0') out.pop_back();
  if (out.empty()) out = "0";
  std::reverse(out.begin(), out.end());
  return out;
}

bool from_decimal(std::string_view s, uint64_t* limbs, size_t n) {
  if (s.empty() || s.size() > 200) return false;
  std::fill(limbs, limbs + n, 0);
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    // limbs = limbs * 10 + digit, failing on overflow past n limbs.
    unsigned __int128 carry = uint64_t(c - '0');
    for (size_t i = 0; i < n; ++i) {
      unsigned __int128 cur = (unsigned __int128)limbs[i] * 10 + carry;
      limbs[i] = uint64_t(cur);
      carry = cur >> 64;
    }
    if (carry) return false;
  }
  return true;
}

}  // namespace prestage::io
