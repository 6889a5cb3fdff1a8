# Simulator vs the H200 probe's findings (data/measurements/h200-probe-findings.md): one scenario
# per finding, on data/calibration/h200.yaml.
prestage_test(fidelity_sim_probe SOURCES fidelity/sim_probe_findings_test.cpp LIBS prestage_sim LABELS fidelity TIMEOUT 120)
