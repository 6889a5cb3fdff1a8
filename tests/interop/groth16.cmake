# Area groth16 interop: prestage vs snarkjs 0.7.6 / circom2 0.2.23 (npm packages pinned in
# tests/interop/package.json, installed by scripts/install_deps.sh --interop). The fixture test
# generates the circuit, keys, witness and snarkjs proof into the build tree; without node or
# the npm packages it FAILS (and so does everything that needs it): interop is never skipped.
set(PRESTAGE_INTEROP_FIXTURES ${CMAKE_BINARY_DIR}/interop_fixtures)
add_test(NAME interop_groth16_fixtures
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/interop/make_fixtures.sh
                 ${PRESTAGE_INTEROP_FIXTURES} multiplier 10)
set_tests_properties(interop_groth16_fixtures PROPERTIES LABELS interop TIMEOUT 900
                     FIXTURES_SETUP groth16_interop_fixtures RUN_SERIAL ON)
add_test(NAME interop_groth16
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/interop/groth16_interop.sh
                 $<TARGET_FILE:prestage> ${PRESTAGE_INTEROP_FIXTURES})
set_tests_properties(interop_groth16 PROPERTIES LABELS interop TIMEOUT 900
                     FIXTURES_REQUIRED groth16_interop_fixtures)
