# Module msm: the host Pippenger MSM on G1 and G2 (gpu/msm/host_msm), its batch cut per window
# and 0/1-scalar pass, and the GPU MSM's batch-affine rounds (gpu/msm/affine_batch.hpp) emulated
# on the host with the kernels' own thread bodies against host bucket sums (no GPU needed).
prestage_test(unit_msm_host SOURCES unit/msm/host_msm_test.cpp LIBS prestage_prover LABELS unit
              TIMEOUT 120)
prestage_test(unit_msm_batch_cut SOURCES unit/msm/batch_cut_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
prestage_test(unit_msm_ones SOURCES unit/msm/ones_test.cpp LIBS prestage_prover LABELS unit)
prestage_test(unit_msm_affine_batch SOURCES unit/msm/affine_batch_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
