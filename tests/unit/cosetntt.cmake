# Area cosetntt: the circom reduction's fused NTT step (gpu/ntt/host_ntt: ntt::to_coset) and the
# AVX-512 IFMA Fr arithmetic of the NTT's in-block stages (gpu/ff/fr_ifma.hpp).
prestage_test(unit_cosetntt SOURCES unit/cosetntt/to_coset_test.cpp unit/cosetntt/fr_ifma_test.cpp
              LIBS prestage_prover LABELS unit)
# The same tests with the scalar in-block stages (PRESTAGE_HOST_IFMA=0): both paths must agree
# with the definitions, so a bug common to the IFMA forward and inverse cannot hide.
add_test(NAME unit_cosetntt_scalar COMMAND unit_cosetntt --log_level=message --report_level=short
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(unit_cosetntt_scalar PROPERTIES LABELS unit TIMEOUT 600
                     ENVIRONMENT "PRESTAGE_HOST_IFMA=0")
