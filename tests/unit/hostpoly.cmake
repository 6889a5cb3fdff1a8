# Host polynomials and MSM (gpu/ntt, gpu/msm): reference NTT with ffjavascript's roots, Pippenger.
prestage_test(unit_hostpoly_ntt SOURCES unit/hostpoly_ntt_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
