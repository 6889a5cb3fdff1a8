# Area ff on the device: gpu/ff and gpu/ec compiled by nvcc, results compared with the host.
# CMake 3.25 knows no nvcc flag for the CUDA20 dialect (generate fails on CUDA_STANDARD 20);
# nvcc >= 12 accepts -std=c++20. Scope: the tests/ directory only.
if(PRESTAGE_HAVE_CUDA AND NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
prestage_gpu_test(gpu_ff_device SOURCES gpu/ff_device_test.cu LIBS prestage_arith)
if(TARGET gpu_ff_device)
  target_compile_options(gpu_ff_device PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
endif()
# Throughput benchmark of the same arithmetic with multiplications inlined (not a test; excluded
# from the default build): cmake --build <dir> --target ff_device_bench, then run it on the GPU.
if(PRESTAGE_HAVE_CUDA)
  add_executable(ff_device_bench EXCLUDE_FROM_ALL gpu/ff_device_bench.cu)
  target_include_directories(ff_device_bench PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(ff_device_bench PRIVATE prestage_arith CUDA::cudart)
  target_compile_options(ff_device_bench PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
endif()
