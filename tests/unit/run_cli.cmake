# `prestage run --gpu` (the staging runtime's command) as a user without a GPU meets it.
prestage_test(unit_run_cli SOURCES unit/run_cli_test.cpp LIBS prestage_model LABELS unit TIMEOUT 120)
target_compile_definitions(unit_run_cli PRIVATE PRESTAGE_BIN="$<TARGET_FILE:prestage>")
add_dependencies(unit_run_cli prestage)
