# Simulator (issue 4): model layer, engine and simulated hardware, CLI bad input.
prestage_test(unit_sim_model SOURCES unit/sim/sim_model_test.cpp LIBS prestage_sim LABELS unit TIMEOUT 120)
prestage_test(unit_sim_engine SOURCES unit/sim/sim_engine_test.cpp LIBS prestage_sim LABELS unit TIMEOUT 120)
prestage_test(unit_sim_cli SOURCES unit/sim/sim_cli_test.cpp LIBS prestage_sim LABELS unit TIMEOUT 120)
target_compile_definitions(unit_sim_cli PRIVATE PRESTAGE_BIN="$<TARGET_FILE:prestage>")
add_dependencies(unit_sim_cli prestage)
prestage_test(unit_sim_replay SOURCES unit/sim/sim_replay_test.cpp LIBS prestage_sim LABELS unit TIMEOUT 120)
target_compile_definitions(unit_sim_replay PRIVATE PRESTAGE_BIN="$<TARGET_FILE:prestage>")
add_dependencies(unit_sim_replay prestage)
