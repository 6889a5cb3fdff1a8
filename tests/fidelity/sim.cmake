# Simulator fidelity: whole scenarios vs closed forms from the calibration.
prestage_test(fidelity_sim SOURCES fidelity/sim_fidelity_test.cpp LIBS prestage_sim LABELS fidelity TIMEOUT 120)
