# Host-side logic of the GPU staging runtime (gpu/staging): the MSM split into pieces that fit a
# workspace. Header-only, so the test needs no CUDA.
prestage_test(unit_staging_msm_split SOURCES unit/staging/msm_split_test.cpp LABELS unit)
