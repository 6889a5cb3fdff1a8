# Simulator golden event log and determinism.
prestage_test(golden_sim SOURCES golden/sim_golden_test.cpp LIBS prestage_sim LABELS golden TIMEOUT 120)
