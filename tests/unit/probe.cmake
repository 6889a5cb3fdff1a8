# Host-side helpers of the GPU probe (gpu/probe): statistics and the calibration writer. Built from
# the sources directly so the test needs no CUDA.
prestage_test(unit_probe
  SOURCES unit/probe_test.cpp ../gpu/probe/stats.cpp ../gpu/probe/calibration.cpp
  LIBS prestage_yaml nlohmann_json::nlohmann_json fmt::fmt Eigen3::Eigen
  LABELS unit)
