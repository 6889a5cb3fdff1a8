# Inputs that once broke the YAML loaders (tests/fuzz/regressions/, scripts/fuzz.sh).
prestage_test(unit_fuzz_regressions SOURCES unit/fuzz_regressions_test.cpp LIBS prestage_model LABELS unit)
if(TARGET prestage_prover)
  prestage_test(unit_fuzz_regressions_io SOURCES unit/fuzz_regressions_io_test.cpp
                LIBS prestage_prover LABELS unit)
endif()
