#!/usr/bin/env bash
# System: data/INDEX.csv against scripts/data_index.sh run on the source tree (a git checkout).
# Expectation: identical, so the index lists every record under data/ with the files that cite
# it; on a difference the test prints it and the command that regenerates the index.
# Tolerance: none (byte for byte).
set -euo pipefail
root=$(cd "${1:?usage: data_index_test.sh SOURCE_ROOT}" && pwd)
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
bash "$root/scripts/data_index.sh" >"$fresh"
if ! diff -u "$root/data/INDEX.csv" "$fresh"; then
  echo "FAIL: data/INDEX.csv is stale: run scripts/data_index.sh > data/INDEX.csv and commit" >&2
  exit 1
fi
echo "data index: current ($(($(wc -l <"$fresh") - 1)) records)"
