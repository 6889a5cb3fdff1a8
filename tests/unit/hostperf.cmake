# Area hostperf: host prover speed work (x86-64 field multiplication kernels, gpu/ff/mont_x86.hpp);
# GMP is the oracle, so the test is skipped where GMP is missing (the GPU image).
if(PRESTAGE_HAVE_GMP)
  prestage_test(unit_hostperf_mont_x86 SOURCES unit/hostperf/mont_x86_test.cpp
                LIBS prestage_arith prestage_gmp LABELS unit)
endif()
