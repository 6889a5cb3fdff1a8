# Module ff: prime and extension fields (gpu/ff; header-only, one source for host and device).
# GMP is the oracle of the field tests, which are skipped where GMP is missing (the GPU image).
if(PRESTAGE_HAVE_GMP)
  prestage_test(unit_ff_field SOURCES unit/ff/field_test.cpp LIBS prestage_arith prestage_gmp
                LABELS unit)
  # x86-64 Montgomery multiplication kernels (gpu/ff/mont_x86.hpp).
  prestage_test(unit_ff_mont_x86 SOURCES unit/ff/mont_x86_test.cpp
                LIBS prestage_arith prestage_gmp LABELS unit)
  # Field add/sub kernels, faster Fq inversion and squaring (gpu/ff/addsub_x86.hpp).
  prestage_test(unit_ff_field_x86 SOURCES unit/ff/field_x86_test.cpp
                LIBS prestage_arith prestage_gmp LABELS unit)
  # The eight-lane AVX-512 IFMA Fq arithmetic (gpu/ff/fq_ifma.hpp) and the host G1 MSM's
  # batch-affine additions on it (MsmOptions::simd). Without AVX-512 IFMA the IFMA cases say so
  # and pass; the MSM cases then check the scalar path only.
  prestage_test(unit_ff_fq_ifma SOURCES unit/ff/fq_ifma_test.cpp
                LIBS prestage_prover prestage_gmp LABELS unit TIMEOUT 120)
endif()
prestage_test(unit_ff_tower SOURCES unit/ff/tower_test.cpp LIBS prestage_arith LABELS unit)
# The 32-bit-word Montgomery candidates (gpu/ff/mont32.hpp) on the host with the carry flag
# emulated, bit for bit against Fp::operator* and the Fq2 product.
prestage_test(unit_ff_mont32 SOURCES unit/ff/mont32_test.cpp LIBS prestage_arith LABELS unit)
# Field inversions on the host against Fermat: batched binary GCD with its step-count bound
# (gpu/ff/inverse_bingcd_hd.hpp) and binary Euclid (gpu/ff/inverse_binary_hd.hpp).
prestage_test(unit_ff_inverse_bingcd_hd SOURCES unit/ff/inverse_bingcd_hd_test.cpp
              LIBS prestage_prover LABELS unit)
prestage_test(unit_ff_inverse_binary_hd SOURCES unit/ff/inverse_binary_hd_test.cpp
              LIBS prestage_prover LABELS unit)
