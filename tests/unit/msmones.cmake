# Area msmones: the MSM's 0/1-scalar pass (gpu/msm/host_msm: batch-affine IFMA tree for the bases
# with scalar 1, G1 and G2).
prestage_test(unit_msmones SOURCES unit/msmones/ones_test.cpp LIBS prestage_prover LABELS unit)
