// Boost.Test main for GPU test executables: with no CUDA device visible it prints a SKIPPED line
// and exits 77, which CTest reports as a skipped test (SKIP_RETURN_CODE 77), so a machine without
// a GPU shows the skip instead of silently passing.
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#define BOOST_TEST_MODULE prestage_gpu
#include <cuda_runtime.h>

#include <boost/test/included/unit_test.hpp>
#include <cstdio>

int main(int argc, char** argv) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device visible (%s); GPU tests need a GPU\n",
                err != cudaSuccess ? cudaGetErrorString(err) : "device count 0");
    return 77;
  }
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
