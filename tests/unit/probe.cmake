# Host-side helpers of the GPU probe (gpu/probe): statistics and the calibration writer. Built from
# the sources directly so the test needs no CUDA.
prestage_test(unit_probe
  SOURCES unit/probe/probe_test.cpp ../gpu/probe/stats.cpp ../gpu/probe/calibration.cpp
          ../gpu/probe/kernel_curves.cpp
  LIBS prestage_model prestage_yaml nlohmann_json::nlohmann_json fmt::fmt Eigen3::Eigen
  LABELS unit)

# The probe's command line without a GPU: rebuilding the calibration from the committed raw file
# reproduces data/calibration/h200.yaml; a corrupt raw file is bad input (exit 2, no output file).
if(TARGET prestage-probe)
  set(_probe_tmp ${CMAKE_CURRENT_BINARY_DIR}/probe_cli)
  add_test(NAME unit_probe_cli
           COMMAND sh -c "set -u; rm -rf '${_probe_tmp}' && mkdir -p '${_probe_tmp}' && \
'$<TARGET_FILE:prestage-probe>' --from-json data/measurements/h200-probe-2026-11-30.json \
  --raw-path data/measurements/h200-probe-2026-11-30.json \
  --kernels data/calibration/estimates/h200-kernels.yaml \
  --gpu-bench data/gpu-runs/2026-12-01-h200/run18-c6677ef/gpu_bench.json --extrapolate 27 \
  --out-yaml '${_probe_tmp}/h200.yaml' && \
cmp '${_probe_tmp}/h200.yaml' data/calibration/h200.yaml && \
printf '{\"schema\": ' > '${_probe_tmp}/bad.json' && \
{ '$<TARGET_FILE:prestage-probe>' --from-json '${_probe_tmp}/bad.json' --out-yaml '${_probe_tmp}/bad.yaml'; \
  rc=$?; test $rc -eq 2 && test ! -e '${_probe_tmp}/bad.yaml'; }"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit_probe_cli PROPERTIES LABELS unit TIMEOUT 60)
  # Every committed calibration (data/calibration/h*.yaml) regenerates byte for byte from its raw
  # probe JSON with the arguments its own header and sources name (scripts/regen_calibrations.sh).
  add_test(NAME unit_calibrations_regenerate
           COMMAND bash scripts/regen_calibrations.sh $<TARGET_FILE:prestage-probe> --check
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit_calibrations_regenerate PROPERTIES LABELS unit TIMEOUT 120)
  # scripts/record_validation_session.sh files a session's probe, calibration and runs, and
  # refuses a taken name, a calibration that does not regenerate and a malformed name.
  add_test(NAME unit_record_validation_session
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/scripts/record_validation_session_test.sh
                   $<TARGET_FILE:prestage-probe>)
  set_tests_properties(unit_record_validation_session PROPERTIES LABELS unit TIMEOUT 120)
endif()
# Kernel cost curves of the calibration: the relative least-squares fit (model/kernel_fit), the
# gpu_bench JSON -> `kernels:` writer (gpu/probe/kernel_curves), the loader's fitted curves.
# Built from the probe's host sources directly so the test needs no CUDA.
prestage_test(unit_calib
  SOURCES unit/probe/calib_test.cpp ../gpu/probe/stats.cpp ../gpu/probe/calibration.cpp
          ../gpu/probe/kernel_curves.cpp
  LIBS prestage_model prestage_yaml nlohmann_json::nlohmann_json fmt::fmt Eigen3::Eigen
  LABELS unit TIMEOUT 60)

# The command line: a truncated gpu_bench JSON is bad input (exit 2, its line named, no output).
if(TARGET prestage-probe)
  set(_calib_tmp ${CMAKE_CURRENT_BINARY_DIR}/calib_cli)
  add_test(NAME unit_calib_cli
           COMMAND sh -c "set -u; rm -rf '${_calib_tmp}' && mkdir -p '${_calib_tmp}' && \
head -c 300 data/gpu-runs/2026-12-01-h200/run18-c6677ef/gpu_bench.json > '${_calib_tmp}/bench.json' && \
{ '$<TARGET_FILE:prestage-probe>' --from-json data/measurements/h200-probe-2026-11-30.json \
    --gpu-bench '${_calib_tmp}/bench.json' --out-yaml '${_calib_tmp}/out.yaml' 2> '${_calib_tmp}/err'; \
  rc=$?; cat '${_calib_tmp}/err'; test $rc -eq 2 && test ! -e '${_calib_tmp}/out.yaml' && \
  grep -q 'bench.json:[1-9][0-9]*: not JSON' '${_calib_tmp}/err'; }"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit_calib_cli PROPERTIES LABELS unit TIMEOUT 60)
endif()
