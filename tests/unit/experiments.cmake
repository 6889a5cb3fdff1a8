# Module experiments: prestage-plot, the experiment scripts' reports and outputs, the data
# index, and the paper's numbers against fresh runs.
# prestage-plot (experiments/plot): figures from a tiny simulated run and sweep; bad input.
if(TARGET prestage-plot)
  prestage_test(unit_plot SOURCES unit/experiments/plot_test.cpp LIBS prestage_sim prestage_plot LABELS unit
                TIMEOUT 120)
  target_compile_definitions(unit_plot PRIVATE PRESTAGE_PLOT_BIN="$<TARGET_FILE:prestage-plot>")
  add_dependencies(unit_plot prestage-plot)
endif()
# The experiment reports' cells (issue 22): experiments/lib.sh's throughput comparisons,
# partitions per hour, and the sentences on what a result owes to other than its policy's idea.
add_test(NAME unit_experiment_report_cells
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/experiments/experiment_reports_test.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(unit_experiment_report_cells PROPERTIES LABELS unit TIMEOUT 60)
# The same, then experiments 01 and 03 run whole with this build's prestage and prestage-plot.
if(TARGET prestage AND TARGET prestage-plot)
  add_test(NAME golden_experiment_reports
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/experiments/experiment_reports_test.sh
                   ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
  set_tests_properties(golden_experiment_reports PROPERTIES LABELS golden TIMEOUT 300)
endif()
# experiments/run_all.sh and lib.sh write into and remove only folders they stamped (issue 16).
add_test(NAME unit_experiment_scripts_outputs
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/experiments/experiment_scripts_test.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(unit_experiment_scripts_outputs PROPERTIES LABELS unit TIMEOUT 60)
# data/INDEX.csv is what scripts/data_index.sh makes of the tree (every record, who cites it).
add_test(NAME unit_data_index
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/experiments/data_index_test.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(unit_data_index PROPERTIES LABELS unit TIMEOUT 120)
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
