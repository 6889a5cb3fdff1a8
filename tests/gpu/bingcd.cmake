# Area bingcd on the device: the batched binary-GCD inversion (gpu/ff/inverse_bingcd_hd.hpp)
# compiled by nvcc, results compared with the host (Fermat). The MSM's use of it: gpu_msm_test.
if(PRESTAGE_HAVE_CUDA AND NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
prestage_gpu_test(gpu_inverse_bingcd SOURCES gpu/inverse_bingcd_test.cu LIBS prestage_arith)
if(TARGET gpu_inverse_bingcd)
  target_compile_options(gpu_inverse_bingcd PRIVATE
                         $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
endif()
