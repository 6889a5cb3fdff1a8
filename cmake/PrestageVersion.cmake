# Exposes the version and git commit to the code (manifests record them).
find_package(Git QUIET)
set(PRESTAGE_GIT_COMMIT "unknown")
if(GIT_FOUND AND EXISTS "${CMAKE_SOURCE_DIR}/.git")
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse HEAD WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  OUTPUT_VARIABLE PRESTAGE_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} OUTPUT_VARIABLE _dirty ERROR_QUIET)
  if(_dirty)
    set(PRESTAGE_GIT_COMMIT "${PRESTAGE_GIT_COMMIT}-dirty")
  endif()
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/version.hpp.in
               ${CMAKE_BINARY_DIR}/generated/prestage/version.hpp @ONLY)
add_library(prestage_version INTERFACE)
target_include_directories(prestage_version INTERFACE ${CMAKE_BINARY_DIR}/generated)
