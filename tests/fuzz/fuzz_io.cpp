// libFuzzer targets for the snarkjs file parsers (gpu/io). One source, one target per parser,
// chosen at compile time with -DPRESTAGE_FUZZ_TARGET=r1cs|wtns|zkey|proof_json|public_json|
// vk_json (scripts/fuzz.sh builds and runs them). Contract under test: any byte string either
// parses or throws prestage::InputError; never a crash, hang, leak or other exception.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gpu/io/r1cs.hpp"
#include "gpu/io/snarkjs_json.hpp"
#include "gpu/io/wtns.hpp"
#include "gpu/io/zkey.hpp"
#include "model/errors.hpp"

#define PRESTAGE_STR2(x) #x
#define PRESTAGE_STR(x) PRESTAGE_STR2(x)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace prestage::io;
  const std::string_view target = PRESTAGE_STR(PRESTAGE_FUZZ_TARGET);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<uint8_t> bytes(data, data + size);
  try {
    if (target == "r1cs") {
      parse_r1cs("fuzz.r1cs", std::move(bytes));
    } else if (target == "wtns") {
      parse_wtns("fuzz.wtns", std::move(bytes));
    } else if (target == "zkey") {
      parse_zkey("fuzz.zkey", std::move(bytes));
    } else if (target == "proof_json") {
      parse_proof_json("fuzz.json", text);
    } else if (target == "public_json") {
      parse_public_json("fuzz.json", text);
    } else if (target == "vk_json") {
      parse_vk_json("fuzz.json", text);
    } else {
      __builtin_trap();
    }
  } catch (const prestage::InputError&) {
    // expected for malformed input
  }
  return 0;
}
