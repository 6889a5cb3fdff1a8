# Area gpuntt: the GPU NTT's pass structure (gpu/ntt/ntt_pass.hpp) emulated on the host with the
# same phase functions the kernels run, against the host reference NTT (no GPU needed).
# Timeout 300 s: 45 s alone on a loaded 2-core machine (session 8); it hit 120 s under ctest -j2
# beside other builds.
prestage_test(unit_gpuntt_passes SOURCES unit/gpuntt/ntt_pass_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 300)
