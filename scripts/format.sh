#!/usr/bin/env bash
# Formats every tracked C++/CUDA source with the repository's .clang-format.
# --check: list files that need formatting and exit 1 if any do (changes nothing).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh')
if [ "${1:-}" = "--check" ]; then
  bad=$(clang-format --dry-run "${files[@]}" 2>&1 | grep -oE '^[^:]+:[0-9]+:[0-9]+: warning' | cut -d: -f1 | sort -u || true)
  [ -z "$bad" ] && { echo "format: clean"; exit 0; }
  echo "format: needs clang-format:"; echo "$bad"; exit 1
fi
clang-format -i "${files[@]}"
