# Area gpumsm: the GPU MSM's batch-affine rounds (gpu/msm/affine_batch.hpp) emulated on the host
# with the kernels' own thread bodies, against host reference bucket sums (no GPU needed).
prestage_test(unit_gpumsm_affine SOURCES unit/gpumsm/affine_batch_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
# The host-and-device binary-Euclid inversion (gpu/ff/inverse_binary_hd.hpp) against Fermat.
prestage_test(unit_ff_inverse_binary_hd SOURCES unit/gpumsm/inverse_binary_hd_test.cpp
              LIBS prestage_prover LABELS unit)
