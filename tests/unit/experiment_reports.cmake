# The experiment reports' cells (issue 22): experiments/lib.sh's throughput comparisons,
# partitions per hour, and the sentences on what a result owes to other than its policy's idea.
add_test(NAME unit_experiment_report_cells
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/experiment_reports_test.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(unit_experiment_report_cells PROPERTIES LABELS unit TIMEOUT 60)
# The same, then experiments 01 and 03 run whole with this build's prestage and prestage-plot.
if(TARGET prestage AND TARGET prestage-plot)
  add_test(NAME golden_experiment_reports
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/experiment_reports_test.sh
                   ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
  set_tests_properties(golden_experiment_reports PROPERTIES LABELS golden TIMEOUT 300)
endif()
