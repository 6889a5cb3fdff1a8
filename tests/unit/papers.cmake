# The paper's numbers (issue 19): papers/check.sh reruns the simulated experiments with this build's
# prestage and prestage-plot, regenerates every number of papers/prestage/numbers.tex and the
# generated tables, and fails naming the number and both values when one drifts beyond its
# tolerance (relative 1e-6 for simulated numbers, exact for the measured ones read from data/).
# A model change that moves a number must commit the regenerated numbers (papers/build.sh).
# Runtime: 70-75 s wall (35 s CPU) on the 2-core development VM shared with other jobs, 2026-12-02.
find_program(PRESTAGE_JQ jq)
if(TARGET prestage AND TARGET prestage-plot AND PRESTAGE_JQ)
  add_test(NAME golden_paper_numbers
           COMMAND bash ${CMAKE_SOURCE_DIR}/papers/check.sh ${CMAKE_BINARY_DIR}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(golden_paper_numbers PROPERTIES LABELS golden TIMEOUT 600)
endif()
