// System: the YAML loaders (model::parse_scenario via build_scenario, parse_calibration,
// parse_pipeline on yaml::load_string) fed the inputs that once broke them under libFuzzer or
// review (tests/fuzz/regressions/<target>-*.yaml; scripts/fuzz.sh seeds its corpora with them).
// Expectation: each is a clean prestage::InputError naming the file, the line and the key, with
// the reason (no crash, hang or other exception): a size expression's number out of range or
// malformed, parentheses nested past the limit, an alias inside its own anchor, aliases that
// expand past the node limit (10^5); a NUL inside a number's scalar. Tolerance: exact (substrings),
// and the alias expansion is refused in well under the fuzzer's 10 s per input.
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/calibration.hpp"
#include "model/errors.hpp"
#include "model/pipeline.hpp"
#include "model/scenario.hpp"
#include "model/yaml_input.hpp"

using namespace prestage;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Loads `text` as the target's file and returns the InputError's message ("" if none).
std::string load_error(const std::string& target, const std::string& text,
                       const std::string& file) {
  try {
    if (target == "pipeline")
      (void)model::parse_pipeline(yaml::In(yaml::load_string(text, file), file, ""));
    else if (target == "calibration")
      (void)model::parse_calibration(yaml::In(yaml::load_string(text, file), file, ""));
    else
      (void)model::build_scenario(yaml::load_string(text, file), file, {}, nullptr);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_regression(const std::string& target, const std::string& name,
                       const std::vector<std::string>& needles) {
  const std::string path = "tests/fuzz/regressions/" + target + "-" + name + ".yaml";
  const std::string what = load_error(target, slurp(path), path);
  BOOST_TEST_MESSAGE(path << ": " << what);
  BOOST_TEST(!what.empty(), path << " loaded without an error");
  for (const auto& n : needles)
    BOOST_TEST(what.find(n) != std::string::npos, "'" << what << "' lacks '" << n << "'");
}

}  // namespace

BOOST_AUTO_TEST_CASE(size_expressions_out_of_range_malformed_or_too_deep_are_input_errors) {
  // std::stod threw std::out_of_range (uncaught) on a 400-digit number.
  expect_regression("pipeline", "expr-number-out-of-range",
                    {"-expr-number-out-of-range.yaml:4: key 'inputs.x.bytes'", "is out of range"});
  // 20000 nested parentheses overflowed the stack of the recursive-descent parser.
  expect_regression(
      "pipeline", "expr-deep-parens",
      {"-expr-deep-parens.yaml:4: key 'inputs.x.bytes'", "parentheses nested deeper than 100"});
  // "1.2.3" was read as 1.2 (stod stops at the second dot): now an error.
  expect_regression(
      "pipeline", "expr-malformed-number",
      {"-expr-malformed-number.yaml:4: key 'inputs.x.bytes'", "malformed number '1.2.3'"});
}

BOOST_AUTO_TEST_CASE(aliases_inside_themselves_or_expanding_without_bound_are_input_errors) {
  // `device: &a [*a]`: the duplicate-key walk recursed until the stack overflowed.
  expect_regression("calibration", "alias-inside-itself",
                    {"-alias-inside-itself.yaml:2: key 'device", "nested deeper than 100 levels"});
  // Ten aliases of ten aliases, nine levels deep: 10^10 nodes, walked for hours.
  const auto t0 = std::chrono::steady_clock::now();
  expect_regression("scenario", "alias-expansion",
                    {"-alias-expansion.yaml:", "key 'l", "more than 100000 nodes"});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  BOOST_TEST(s < 5.0, "alias expansion refused after " << s << " s");
}

BOOST_AUTO_TEST_CASE(a_nul_inside_a_number_is_not_the_end_of_it) {
  // "12\0x" is a YAML scalar of four characters; strtod/strtoll stopped at the NUL and read 12.
  const yaml::In doc(yaml::load_string("a: \"12\\0x\"\nb: \"4\\0GiB\"\n", "nul.yaml"), "nul.yaml",
                     "");
  for (const char* key : {"a", "b"}) {
    BOOST_TEST_CONTEXT(key) {
      BOOST_CHECK_THROW((void)doc.at(key).num(), InputError);
      BOOST_CHECK_THROW((void)doc.at(key).integer(), InputError);
      BOOST_CHECK_THROW((void)doc.at(key).bytes(), InputError);
    }
  }
  try {
    (void)doc.at("a").integer();
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("nul.yaml:1: key 'a': expected an integer") == 0,
               e.what());
  }
}
