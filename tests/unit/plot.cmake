# prestage-plot (experiments/plot): figures from a tiny simulated run and sweep; bad input.
if(TARGET prestage-plot)
  prestage_test(unit_plot SOURCES unit/plot_test.cpp LIBS prestage_sim prestage_plot LABELS unit
                TIMEOUT 120)
  target_compile_definitions(unit_plot PRIVATE PRESTAGE_PLOT_BIN="$<TARGET_FILE:prestage-plot>")
  add_dependencies(unit_plot prestage-plot)
endif()
