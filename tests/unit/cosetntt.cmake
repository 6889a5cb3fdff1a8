# Area cosetntt: the circom reduction's fused NTT step (gpu/ntt/host_ntt: ntt::to_coset).
prestage_test(unit_cosetntt SOURCES unit/cosetntt/to_coset_test.cpp LIBS prestage_prover
              LABELS unit)
