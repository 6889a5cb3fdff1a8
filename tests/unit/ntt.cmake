# Module ntt: the host reference NTT (gpu/ntt/host_ntt) with ffjavascript's roots of unity, the
# circom reduction's fused coset step and the IFMA Fr arithmetic of its in-block stages, and the
# GPU NTT's pass structure and in-place schedules emulated on the host (no GPU needed).
prestage_test(unit_ntt_host SOURCES unit/ntt/host_ntt_test.cpp LIBS prestage_prover LABELS unit
              TIMEOUT 120)
prestage_test(unit_ntt_coset SOURCES unit/ntt/to_coset_test.cpp unit/ntt/fr_ifma_test.cpp
              LIBS prestage_prover LABELS unit)
# The same with the scalar in-block stages (PRESTAGE_HOST_IFMA=0): both paths must agree with the
# definitions, so a bug common to the IFMA forward and inverse cannot hide.
add_test(NAME unit_ntt_coset_scalar COMMAND unit_ntt_coset --log_level=message --report_level=short
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(unit_ntt_coset_scalar PROPERTIES LABELS unit TIMEOUT 600
                     ENVIRONMENT "PRESTAGE_HOST_IFMA=0")
# The GPU NTT's passes (gpu/ntt/ntt_pass.hpp) with the kernels' phase functions against the host
# NTT. Timeout 300 s: 45 s alone on a loaded 2-core machine; it hit 120 s under ctest -j2 beside
# other builds.
prestage_test(unit_ntt_passes SOURCES unit/ntt/ntt_pass_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 300)
# The in-place transforms: the 1/n scaling (ntt_pass::mul_pow2_inv; its device build in
# tests/gpu/ntt_arith_test.cu), the fused last pass's tile map (ntt_pass::mirror_tile), and
# gpu_ntt.cu's DIF schedules of all four transforms, in place and with scratch (~10 s, 2^21).
prestage_test(unit_ntt_in_place
              SOURCES unit/ntt/pow2_inv_test.cpp unit/ntt/mirror_map_test.cpp
                      unit/ntt/schedule_test.cpp
              LIBS prestage_prover LABELS unit)
