// The one Boost.Test main for host test executables (header-only variant: the GPU machine has
// Boost headers but no compiled Boost libraries).
#define BOOST_TEST_MODULE prestage
#include <boost/test/included/unit_test.hpp>
