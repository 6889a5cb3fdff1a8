# Module apps: the prestage CLI as a user meets it: each subcommand's --help, `run --gpu`
# without a GPU, `prove` on a corrupt key and `prove --auto`.
# `prestage SUBCOMMAND --help` (issue: each subcommand's help lists its output files, exit codes,
# and the policies and scenario keys it accepts).
prestage_test(unit_cli_help SOURCES unit/apps/cli_help_test.cpp LIBS prestage_model LABELS unit
              TIMEOUT 120)
target_compile_definitions(unit_cli_help PRIVATE PRESTAGE_BIN="$<TARGET_FILE:prestage>")
add_dependencies(unit_cli_help prestage)
# `prestage run --gpu` (the staging runtime's command) as a user without a GPU meets it.
prestage_test(unit_run_cli SOURCES unit/apps/run_cli_test.cpp LIBS prestage_model LABELS unit TIMEOUT 120)
target_compile_definitions(unit_run_cli PRIVATE PRESTAGE_BIN="$<TARGET_FILE:prestage>")
add_dependencies(unit_run_cli prestage)
# `prestage prove` on a key with a flipped coefficient bit: the .zkey is blamed, with the offset.
if(TARGET prestage AND TARGET prestage_prover)
  add_test(NAME unit_prove_corrupt_key
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/apps/prove_corrupt_key_test.sh
                   $<TARGET_FILE:prestage>)
  set_tests_properties(unit_prove_corrupt_key PROPERTIES LABELS unit TIMEOUT 120)
  # `prestage prove --auto` below the crossover: the host prover, its choice printed.
  add_test(NAME unit_prove_auto
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/apps/prove_auto_test.sh
                   $<TARGET_FILE:prestage>)
  set_tests_properties(unit_prove_auto PROPERTIES LABELS unit TIMEOUT 120)
endif()
