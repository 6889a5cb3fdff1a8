prestage_test(unit_errors SOURCES unit/errors_test.cpp LIBS prestage_model LABELS unit)
