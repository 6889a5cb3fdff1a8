# Module io: snarkjs file formats (gpu/io: .r1cs, .wtns, .zkey, proof and key JSON), and the
# inputs that once broke its parsers (tests/fuzz/regressions/json-*, scripts/fuzz.sh).
prestage_test(unit_io_formats SOURCES unit/io/formats_test.cpp LIBS prestage_prover LABELS unit)
if(TARGET prestage_prover)
  prestage_test(unit_fuzz_regressions_io SOURCES unit/io/fuzz_regressions_io_test.cpp
                LIBS prestage_prover LABELS unit)
endif()
