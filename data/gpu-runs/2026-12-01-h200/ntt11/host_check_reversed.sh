#!/usr/bin/env bash
# Host check of MirrorOrder::Reversed (ntt11; no GPU): tests/unit/nttinplace's tile-map and
# in-place schedule tests with ntt_pass::mirror_tile(..., reversed = true), built against a ci
# build (cmake --preset ci && cmake --build build/ci -j2 --target unit_ntt_in_place). Run from the
# repository root. Result at ntt11 (13:13 UTC): "No errors detected" (3 cases: every ticket a
# distinct tile of its set at 2^12-2^27; all four transforms in place at 2^12, 2^13, 2^15, 2^21
# equal to the host reference).
set -euo pipefail
root=$PWD; tmp=$(mktemp -d); T=$root/tests/unit/nttinplace; B=$root/build/ci/tests
sed 's/np::mirror_tile(last, order.data(), t, &m)/np::mirror_tile(last, order.data(), t, \&m, true)/' \
  "$T/mirror_map_test.cpp" > "$tmp/mirror_map_rev.cpp"
sed 's/np::mirror_tile(p, order.data(), t, &mm)/np::mirror_tile(p, order.data(), t, \&mm, true)/' \
  "$T/schedule_test.cpp" > "$tmp/schedule_rev.cpp"
[ "$(grep -c 'mirror_tile(.*true)' "$tmp/mirror_map_rev.cpp" "$tmp/schedule_rev.cpp" | cut -d: -f2 | paste -sd+ | bc)" = 2 ]
for f in mirror_map_rev schedule_rev; do
  c++ -DBOOST_ALL_NO_LIB -DFMT_SHARED -I"$root" -I"$root/build/ci/generated" -isystem /usr/include/eigen3 \
    -O3 -DNDEBUG -std=c++20 -c "$tmp/$f.cpp" -o "$tmp/$f.o"
done
cd "$B"
c++ -O3 "$tmp/mirror_map_rev.o" "$tmp/schedule_rev.o" CMakeFiles/prestage_test_main.dir/support/boost_test_main.cpp.o \
  ../model/CMakeFiles/prestage_policies.dir/policies/*.o -o "$tmp/rev_test" ../gpu/libprestage_prover.a \
  ../model/libprestage_model.a -lyaml-cpp -lfmt
"$tmp/rev_test"
