# Area groth16: snarkjs file formats (gpu/io) and the Groth16 host prover (gpu/groth16).
prestage_test(unit_groth16_io SOURCES unit/groth16/io_test.cpp LIBS prestage_prover LABELS unit)
prestage_test(unit_groth16 SOURCES unit/groth16/groth16_test.cpp LIBS prestage_prover LABELS unit)
prestage_test(unit_groth16_key_check SOURCES unit/groth16/key_check_test.cpp LIBS prestage_prover LABELS unit)
# `prestage prove` on a key with a flipped coefficient bit: the .zkey is blamed, with the offset.
if(TARGET prestage AND TARGET prestage_prover)
  add_test(NAME unit_prove_corrupt_key
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/groth16/prove_corrupt_key_test.sh
                   $<TARGET_FILE:prestage>)
  set_tests_properties(unit_prove_corrupt_key PROPERTIES LABELS unit TIMEOUT 120)
  # `prestage prove --auto` below the crossover: the host prover, its choice printed.
  add_test(NAME unit_prove_auto
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/groth16/prove_auto_test.sh
                   $<TARGET_FILE:prestage>)
  set_tests_properties(unit_prove_auto PROPERTIES LABELS unit TIMEOUT 120)
endif()
