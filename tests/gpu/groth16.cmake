# The Groth16 prover on the GPU (groth16::prove_gpu) against the host prover: the same proofs,
# verified; skipped visibly (exit 77) without a GPU. Size knob: PRESTAGE_GPU_TEST_PROVE_MAX_LOG
# (scripts/gpu_suite.sh lowers it under compute-sanitizer).
if(TARGET prestage_gpu_prover)
  prestage_gpu_test(gpu_groth16_test SOURCES gpu/groth16_test.cpp LIBS prestage_gpu_prover)
endif()
