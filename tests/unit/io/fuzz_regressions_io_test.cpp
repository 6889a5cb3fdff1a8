// System: the snarkjs JSON parsers (gpu/io/snarkjs_json.hpp) fed the inputs that once broke them
// under libFuzzer (tests/fuzz/regressions/json-*.json; data/fuzz/README.md).
// Expectation: each parser either accepts each file or throws prestage::InputError naming it;
// no other exception. Tolerance: exact.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpu/io/snarkjs_json.hpp"
#include "model/errors.hpp"

using namespace prestage;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_CASE(json_regressions_parse_or_are_input_errors) {
  int files = 0;
  for (const auto& e : fs::directory_iterator("tests/fuzz/regressions")) {
    const std::string path = e.path().string();
    if (e.path().extension() != ".json") continue;
    ++files;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    for (int parser = 0; parser < 3; ++parser) {
      BOOST_TEST_CONTEXT(path << ", parser " << parser) {
        try {
          if (parser == 0) (void)io::parse_proof_json(path, text);
          if (parser == 1) (void)io::parse_public_json(path, text);
          if (parser == 2) (void)io::parse_vk_json(path, text);
        } catch (const InputError& err) {
          BOOST_TEST(std::string(err.what()).find(path) == 0, err.what());
        }
      }
    }
  }
  BOOST_TEST(files >= 2);
}
