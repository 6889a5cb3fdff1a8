# The staging runtime (gpu/staging/runtime.hpp) on a real GPU: every partition of a small
# scenario runs, the event names match the simulator's, every --inject-oom site is a clean,
# reported failure with device memory back where it started; skipped visibly without a GPU.
if(TARGET prestage_staging)
  prestage_gpu_test(gpu_staging_test SOURCES gpu/staging_test.cpp LIBS prestage_staging prestage_sim)
endif()
# The runtime's NVTX ranges against its trace's event names, through a static NVTX injection
# (its own executable: the injection symbol binds every NVTX call of the process).
if(TARGET prestage_staging)
  prestage_gpu_test(gpu_staging_nvtx_test SOURCES gpu/staging_nvtx_test.cpp LIBS prestage_staging)
endif()
