# Area hostperf2: host prover speed work, second round (GLV endomorphism for the G1 MSM,
# gpu/msm/glv.hpp; faster Fq inversion and squaring for the batch-affine buckets).
prestage_test(unit_hostperf2_glv SOURCES unit/hostperf2/glv_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
# Field kernels (gpu/ff/addsub_x86.hpp); GMP is the oracle, so skipped where GMP is missing.
if(PRESTAGE_HAVE_GMP)
  prestage_test(unit_hostperf2_field_x86 SOURCES unit/hostperf2/field_x86_test.cpp
                LIBS prestage_arith prestage_gmp LABELS unit)
endif()
