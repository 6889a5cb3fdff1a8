# Area hostperf3: host prover speed work, third round (gpu/msm/host_msm.cpp: the batch-affine
# batch cut per window; the inversion it leans on is tested in hostperf2's field_x86 test).
prestage_test(unit_hostperf3_batch_cut SOURCES unit/hostperf3/batch_cut_test.cpp
              LIBS prestage_prover LABELS unit TIMEOUT 120)
