# Area proveconc: the host prover's concurrent steps (gpu/groth16/groth16.cpp: a and b QAP sums
# on two threads, the a and b coset transforms concurrently) give the one-thread results.
prestage_test(unit_proveconc SOURCES unit/proveconc/proveconc_test.cpp LIBS prestage_prover
              LABELS unit)
