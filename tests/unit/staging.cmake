# Host-side logic of the GPU staging runtime (gpu/staging), header-only, so the tests need no CUDA.
# The host memory a run holds (host_memory.hpp): the check setup makes before allocating.
prestage_test(unit_staging_host_memory SOURCES unit/staging/host_memory_test.cpp LABELS unit)
