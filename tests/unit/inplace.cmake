# Area inplace: the prover reading a mapped .zkey in place (gpu/msm/host_msm: msm over
# msm::RawPoints; gpu/groth16: from_zkey_in_place, check_g1_points / check_g2_points).
prestage_test(unit_inplace SOURCES unit/inplace/inplace_test.cpp LIBS prestage_prover LABELS unit)
