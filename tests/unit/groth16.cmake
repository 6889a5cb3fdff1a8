# Area groth16: snarkjs file formats (gpu/io) and the Groth16 host prover (gpu/groth16).
prestage_test(unit_groth16_io SOURCES unit/groth16/io_test.cpp LIBS prestage_prover LABELS unit)
prestage_test(unit_groth16 SOURCES unit/groth16/groth16_test.cpp LIBS prestage_prover LABELS unit)
prestage_test(unit_groth16_key_check SOURCES unit/groth16/key_check_test.cpp LIBS prestage_prover LABELS unit)
