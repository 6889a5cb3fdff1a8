# Area bingcd: the batched binary-GCD field inversion (gpu/ff/inverse_bingcd_hd.hpp) on the host,
# against Fermat, with its step-count bound (no GPU needed).
prestage_test(unit_ff_inverse_bingcd_hd SOURCES unit/bingcd/inverse_bingcd_hd_test.cpp
              LIBS prestage_prover LABELS unit)
