// System: prestage::InputError. Expectation: its message names file, line and key.
#include <boost/test/unit_test.hpp>

#include "model/errors.hpp"

BOOST_AUTO_TEST_CASE(input_error_names_file_line_and_key) {
  prestage::InputError e("scenario.yaml", 12, "workers_per_gpu", "must be >= 1, got 0");
  BOOST_TEST(std::string(e.what()) ==
             "scenario.yaml:12: key 'workers_per_gpu': must be >= 1, got 0");
  BOOST_TEST(e.line() == 12);
  BOOST_TEST(e.key() == "workers_per_gpu");
}
