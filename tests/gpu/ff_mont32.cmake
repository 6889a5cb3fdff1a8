# Area ff_mont32 on the device: every field-product candidate (gpu/ff/mont32_candidates.hpp) and
# the defaults (Fp::operator*, Fp::sqr, Fq2) run in kernels, compared bit for bit with the host.
prestage_gpu_test(gpu_ff_mont32 SOURCES gpu/ff_mont32_test.cu LIBS prestage_arith)
if(TARGET gpu_ff_mont32)
  target_compile_options(gpu_ff_mont32 PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
endif()
