# Area gpuntt: the GPU NTT's pass structure (gpu/ntt/ntt_pass.hpp) emulated on the host with the
# same phase functions the kernels run, against the host reference NTT (no GPU needed).
prestage_test(unit_gpuntt_passes SOURCES unit/gpuntt/ntt_pass_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
