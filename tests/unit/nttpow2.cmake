# Area nttpow2: the GPU NTT's cheap 1/n scaling (ntt_pass::mul_pow2_inv, host build of the
# host/device function) against Fr's product by (2^s)^-1 (no GPU needed; its device build is
# checked in tests/gpu/ntt_arith_test.cu).
prestage_test(unit_ntt_pow2_inv SOURCES unit/nttpow2/pow2_inv_test.cpp LIBS prestage_prover
              LABELS unit)
