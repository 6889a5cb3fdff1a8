# Safe outputs (issue 16): model/output_files, the module every output goes through.
prestage_test(unit_output_files SOURCES unit/output_files_test.cpp LIBS prestage_model
              LABELS unit TIMEOUT 60)
# experiments/run_all.sh and lib.sh write into and remove only folders they stamped (issue 16).
add_test(NAME unit_experiment_scripts_outputs
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/experiment_scripts_test.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(unit_experiment_scripts_outputs PROPERTIES LABELS unit TIMEOUT 60)
# data/INDEX.csv is what scripts/data_index.sh makes of the tree (every record, who cites it).
add_test(NAME unit_data_index
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/unit/data_index_test.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(unit_data_index PROPERTIES LABELS unit TIMEOUT 120)
