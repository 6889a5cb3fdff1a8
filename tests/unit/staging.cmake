# Host-side logic of the GPU staging runtime (gpu/staging): the MSM split into pieces that fit a
# workspace. Header-only, so the test needs no CUDA.
prestage_test(unit_staging_msm_split SOURCES unit/staging/msm_split_test.cpp LABELS unit)
# The host memory a run holds (host_memory.hpp): the check setup makes before allocating.
prestage_test(unit_staging_host_memory SOURCES unit/staging/host_memory_test.cpp LABELS unit)
