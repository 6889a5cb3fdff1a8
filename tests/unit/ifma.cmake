# Area ifma: the eight-lane AVX-512 IFMA Fq arithmetic (gpu/ff/fq_ifma.hpp) and the host G1 MSM's
# batch-affine additions on it (gpu/msm/host_msm.cpp, MsmOptions::simd). GMP is the field oracle,
# so the test is skipped where GMP is missing (the GPU image). On a CPU without AVX-512 IFMA the
# IFMA cases say so and pass; the MSM cases then check the scalar path only.
if(PRESTAGE_HAVE_GMP)
  prestage_test(unit_ifma SOURCES unit/ifma/fq_ifma_test.cpp
                LIBS prestage_prover prestage_gmp LABELS unit TIMEOUT 120)
endif()
