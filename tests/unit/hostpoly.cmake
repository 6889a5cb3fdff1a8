# Area hostpoly: host polynomials and MSM (gpu/ntt, gpu/msm): reference NTT with ffjavascript's
# roots of unity, Pippenger MSM on G1 and G2. Sources and fixtures in unit/hostpoly/.
prestage_test(unit_hostpoly_ntt SOURCES unit/hostpoly/ntt_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
prestage_test(unit_hostpoly_msm SOURCES unit/hostpoly/msm_test.cpp LIBS prestage_prover
              LABELS unit TIMEOUT 120)
