#!/usr/bin/env bash
# Where the pass kernels spill: for each pass_kernel of BINARY with local-memory traffic, its
# STL/LDL instructions with the source line nvdisasm attributes to them (-lineinfo build).
# Needs cuobjdump and nvdisasm (CUDA toolkit on the GPU machine). Usage: spills.sh BINARY OUTFILE
set -uo pipefail
bin=$1 out=$2
tmp=$(mktemp -d)
(cd "$tmp" && cuobjdump -xelf all "$bin" >/dev/null 2>&1)
: >"$out"
for c in "$tmp"/*.cubin; do
  nvdisasm --print-line-info "$c" 2>/dev/null | awk '
    /^[[:space:]]*\.text\./ { fn = $1 }
    /^[[:space:]]*\/\/## File/ { line = $0 }
    /(STL|LDL)/ && fn ~ /pass_kernel/ {
      n[fn]++; sub(/^[[:space:]]+/, "", line); print fn " | " line " | " $0
    }' >>"$out"
done
counts=$(awk -F' [|] ' '{print $1}' "$out" | sort | uniq -c)
echo "spill instructions per kernel:" >>"$out"
echo "$counts" >>"$out"
rm -rf "$tmp"
