# Module ec: G1, G2, their encodings, the optimal ate pairing (gpu/ec; header-only), and the GLV
# endomorphism of the G1 MSM (gpu/msm/glv.hpp).
prestage_test(unit_ec_curve SOURCES unit/ec/curve_test.cpp LIBS prestage_arith LABELS unit)
prestage_test(unit_ec_pairing SOURCES unit/ec/pairing_test.cpp LIBS prestage_arith LABELS unit)
prestage_test(unit_ec_encoding SOURCES unit/ec/encoding_test.cpp LIBS prestage_arith LABELS unit)
prestage_test(unit_ec_glv SOURCES unit/ec/glv_test.cpp LIBS prestage_prover LABELS unit
              TIMEOUT 120)
