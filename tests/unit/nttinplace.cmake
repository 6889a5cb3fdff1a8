# Area nttinplace: pieces of the GPU NTT's in-place transforms, host builds of the host/device
# code (no GPU needed): the 1/n scaling (ntt_pass::mul_pow2_inv, its device build checked in
# tests/gpu/ntt_arith_test.cu), the tile map of the in-place fused last pass
# (ntt_pass::mirror_tile, gpu_ntt.cu's mirror_pass_kernel), and gpu_ntt.cu's DIF schedules of all
# four transforms, in place (pairs of sets, one array) and with scratch, emulated with the
# kernels' phase functions against the host NTT (~10 s, 2^21 the largest).
prestage_test(unit_ntt_in_place
              SOURCES unit/nttinplace/pow2_inv_test.cpp unit/nttinplace/mirror_map_test.cpp
                      unit/nttinplace/schedule_test.cpp
              LIBS prestage_prover LABELS unit)
