# model/validation: the figures, spreads, errors and verdicts of `prestage validate`.
prestage_test(unit_validation SOURCES unit/validation_test.cpp LIBS prestage_model LABELS unit TIMEOUT 60)
