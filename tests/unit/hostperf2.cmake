# Area hostperf2: host prover speed work, second round (GLV endomorphism for the G1 MSM,
# gpu/msm/glv.hpp; faster Fq inversion and squaring for the batch-affine buckets).
prestage_test(unit_hostperf2_glv SOURCES unit/hostperf2/glv_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
