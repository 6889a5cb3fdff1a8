# The staging runtime (gpu/staging/runtime.hpp) on a real GPU: every partition of a small
# scenario runs, the event names match the simulator's, every --inject-oom site is a clean,
# reported failure with device memory back where it started; skipped visibly without a GPU.
if(TARGET prestage_staging)
  prestage_gpu_test(gpu_staging_test SOURCES gpu/staging_test.cpp LIBS prestage_staging prestage_sim)
endif()
