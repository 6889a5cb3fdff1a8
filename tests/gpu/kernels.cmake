# GPU kernels (issue 3): NTT, H computation and MSM against the host reference on the GPU;
# skipped visibly (exit 77) without one. Size knobs: PRESTAGE_GPU_TEST_NTT_MAX_LOG,
# PRESTAGE_GPU_TEST_MSM_MAX_LOG (scripts/gpu_suite.sh lowers them under compute-sanitizer).
if(TARGET prestage_cuda AND TARGET prestage_prover)
  prestage_gpu_test(gpu_ntt_test SOURCES gpu/ntt_test.cpp LIBS prestage_cuda prestage_prover)
endif()
if(TARGET prestage_cuda AND TARGET prestage_prover)
  prestage_gpu_test(gpu_msm_test SOURCES gpu/msm_test.cpp LIBS prestage_cuda prestage_prover)
endif()
# The device-only PTX Montgomery product (gpu/ff/mont_ptx.hpp) against the host product.
prestage_gpu_test(gpu_ptx_mul_test SOURCES gpu/ptx_mul_test.cu LIBS prestage_arith)
if(TARGET gpu_ptx_mul_test)
  target_compile_options(gpu_ptx_mul_test PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
endif()
# The device-memory layer (allocators, out-of-memory, ballast, pinned buffers).
if(TARGET prestage_cuda)
  prestage_gpu_test(gpu_runtime_test SOURCES gpu/runtime_test.cpp LIBS prestage_cuda)
endif()
