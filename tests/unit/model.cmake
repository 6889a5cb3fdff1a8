# Module model: the vocabulary both drivers share (model/): validation figures and verdicts,
# safe outputs, errors, and the YAML loaders' fuzz regressions (tests/fuzz/regressions/).
# model/validation: the figures, spreads, errors and verdicts of `prestage validate`.
prestage_test(unit_validation SOURCES unit/model/validation_test.cpp LIBS prestage_model LABELS unit TIMEOUT 60)
prestage_test(unit_output_files SOURCES unit/model/output_files_test.cpp LIBS prestage_model
              LABELS unit TIMEOUT 60)
prestage_test(unit_errors SOURCES unit/model/errors_test.cpp LIBS prestage_model LABELS unit)
prestage_test(unit_fuzz_regressions SOURCES unit/model/fuzz_regressions_test.cpp LIBS prestage_model
              LABELS unit)
# model/msm_split.hpp: the MSM split into pieces that fit a workspace, as both drivers run it.
prestage_test(unit_msm_split SOURCES unit/model/msm_split_test.cpp LABELS unit)
