# Module groth16: the Groth16 host prover (gpu/groth16): proofs, the key checks, the keys read in
# place from a mapped .zkey (msm over msm::RawPoints, from_zkey_in_place, the one-pass loader of
# gpu/groth16/key_points) and the prover's concurrent steps against the one-thread results.
prestage_test(unit_groth16 SOURCES unit/groth16/groth16_test.cpp LIBS prestage_prover LABELS unit)
prestage_test(unit_groth16_key_check SOURCES unit/groth16/key_check_test.cpp LIBS prestage_prover
              LABELS unit)
prestage_test(unit_groth16_in_place SOURCES unit/groth16/in_place_test.cpp LIBS prestage_prover
              LABELS unit)
prestage_test(unit_groth16_keyload SOURCES unit/groth16/keyload_test.cpp LIBS prestage_prover
              LABELS unit)
prestage_test(unit_groth16_concurrent SOURCES unit/groth16/concurrent_test.cpp
              LIBS prestage_prover LABELS unit)
