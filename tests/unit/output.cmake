# Safe outputs (issue 16): model/output_files, the module every output goes through.
prestage_test(unit_output_files SOURCES unit/output_files_test.cpp LIBS prestage_model
              LABELS unit TIMEOUT 60)
