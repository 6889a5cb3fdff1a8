# Area ff_mont32: the 32-bit-word Montgomery candidates (gpu/ff/mont32.hpp) run on the host with
# the carry flag emulated, checked bit for bit against Fp::operator* and the Fq2 product.
prestage_test(unit_ff_mont32 SOURCES unit/ff_mont32/mont32_test.cpp LIBS prestage_arith
              LABELS unit)
