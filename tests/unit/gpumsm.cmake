# Area gpumsm: the GPU MSM's batch-affine rounds (gpu/msm/affine_batch.hpp) emulated on the host
# with the kernels' own thread bodies, against host reference bucket sums (no GPU needed).
prestage_test(unit_gpumsm_affine SOURCES unit/gpumsm/affine_batch_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
