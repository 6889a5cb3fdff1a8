// libFuzzer targets for the YAML loaders (model/): one source, one target per loader, chosen at
// compile time with -DPRESTAGE_FUZZ_TARGET=scenario|calibration|pipeline (scripts/fuzz.sh builds
// and runs them). Contract under test: any text either loads or throws prestage::InputError;
// never a crash, hang, sanitizer report or other exception (a YAML::Exception or std::exception
// escaping is a bug: libFuzzer reports the uncaught exception as a crash).
//   calibration, pipeline: the text is parsed as that file (parse_calibration / parse_pipeline on
//     yaml::load_string, as load_calibration / load_pipeline do on a file's text).
//   scenario: build_scenario on the text as if it were PRESTAGE_FUZZ_SCENARIO_PATH (a file in
//     data/scenarios/ of the source tree), so its `calibration:` and `pipeline:` name real files
//     relative to it (../calibration/h200.yaml); one LoadCache across inputs keeps the referenced
//     files parsed once (a cached file is the same file: what is fuzzed is the scenario's text).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "model/calibration.hpp"
#include "model/errors.hpp"
#include "model/pipeline.hpp"
#include "model/scenario.hpp"
#include "model/yaml_input.hpp"

#define PRESTAGE_STR2(x) #x
#define PRESTAGE_STR(x) PRESTAGE_STR2(x)

#ifndef PRESTAGE_FUZZ_SCENARIO_PATH
#define PRESTAGE_FUZZ_SCENARIO_PATH "data/scenarios/fuzz.yaml"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace prestage;
  const std::string_view target = PRESTAGE_STR(PRESTAGE_FUZZ_TARGET);
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    if (target == "calibration") {
      const std::string file = "fuzz-calibration.yaml";
      (void)model::parse_calibration(yaml::In(yaml::load_string(text, file), file, ""));
    } else if (target == "pipeline") {
      const std::string file = "fuzz-pipeline.yaml";
      (void)model::parse_pipeline(yaml::In(yaml::load_string(text, file), file, ""));
    } else if (target == "scenario") {
      static model::LoadCache cache;
      const std::string file = PRESTAGE_FUZZ_SCENARIO_PATH;
      (void)model::build_scenario(yaml::load_string(text, file), file, {}, &cache);
    } else {
      __builtin_trap();
    }
  } catch (const prestage::InputError&) {
    // expected for malformed input
  }
  return 0;
}
