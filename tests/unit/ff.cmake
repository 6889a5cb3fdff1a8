# Area ff: prime fields, extension fields, curves and pairing (gpu/ff, gpu/ec; header-only).
# Field tests use GMP as the oracle and are skipped where GMP is missing (the GPU image).
if(PRESTAGE_HAVE_GMP)
  prestage_test(unit_ff_field SOURCES unit/ff/field_test.cpp LIBS prestage_arith prestage_gmp
                LABELS unit)
endif()
prestage_test(unit_ff_curve SOURCES unit/ff/curve_test.cpp LIBS prestage_arith LABELS unit)
prestage_test(unit_ff_tower SOURCES unit/ff/tower_test.cpp LIBS prestage_arith LABELS unit)
prestage_test(unit_ff_pairing SOURCES unit/ff/pairing_test.cpp LIBS prestage_arith LABELS unit)
prestage_test(unit_ff_encoding SOURCES unit/ff/encoding_test.cpp LIBS prestage_arith LABELS unit)
