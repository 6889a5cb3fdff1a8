# `prestage SUBCOMMAND --help` (issue: each subcommand's help lists its output files, exit codes,
# and the policies and scenario keys it accepts).
prestage_test(unit_cli_help SOURCES unit/cli_help_test.cpp LIBS prestage_model LABELS unit
              TIMEOUT 120)
target_compile_definitions(unit_cli_help PRIVATE PRESTAGE_BIN="$<TARGET_FILE:prestage>")
add_dependencies(unit_cli_help prestage)
