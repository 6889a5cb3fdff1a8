# Area keyload: proving keys read straight from the mapped .zkey (gpu/groth16/key_points).
prestage_test(unit_keyload SOURCES unit/keyload/keyload_test.cpp LIBS prestage_prover LABELS unit)
