# Area gpuntt on the GPU: the NTT butterfly's PTX sum and difference against the host (the NTT
# and H tests themselves are gpu_ntt_test in kernels.cmake); skipped visibly without a GPU.
prestage_gpu_test(gpu_ntt_arith_test SOURCES gpu/ntt_arith_test.cu LIBS prestage_arith)
if(TARGET gpu_ntt_arith_test)
  target_compile_options(gpu_ntt_arith_test
                         PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
endif()
