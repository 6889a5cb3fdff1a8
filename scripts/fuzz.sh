#!/usr/bin/env bash
# Builds and runs one libFuzzer target per snarkjs parser (tests/fuzz/fuzz_io.cpp) with clang
# (-fsanitize=fuzzer,address,undefined). Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# Seeds: the interop fixtures when present (build/ci/interop_fixtures), else small files made by
# the unit tests' writers. Crashes are written to build/fuzz/<target>/crash-*; exit 1 if any.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(r1cs wtns zkey proof_json public_json vk_json)
out=build/fuzz
mkdir -p "$out"
cxx=${CXX_FUZZ:-clang++}
fx=${PRESTAGE_FUZZ_SEEDS:-build/ci/interop_fixtures}
status=0
for t in "${targets[@]}"; do
  bin=$out/fuzz_$t
  $cxx -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -DPRESTAGE_FUZZ_TARGET=$t -I. tests/fuzz/fuzz_io.cpp gpu/io/*.cpp -lfmt -o "$bin"
  corpus=$out/$t/corpus
  mkdir -p "$corpus"
  case $t in
    r1cs) cp -f "$fx"/multiplier.r1cs "$corpus"/ 2>/dev/null || true ;;
    wtns) cp -f "$fx"/multiplier.wtns "$corpus"/ 2>/dev/null || true ;;
    zkey) [ -f "$fx"/multiplier.zkey ] && head -c 60000 "$fx"/multiplier.zkey >"$corpus"/head.zkey || true ;;
    proof_json) cp -f "$fx"/proof.json "$corpus"/ 2>/dev/null || true ;;
    public_json) cp -f "$fx"/public.json "$corpus"/ 2>/dev/null || true ;;
    vk_json) cp -f "$fx"/verification_key.json "$corpus"/ 2>/dev/null || true ;;
  esac
  echo "fuzz.sh: $t for ${secs}s"
  (cd "$out/$t" && "../fuzz_$t" -max_total_time="$secs" -max_len=400000 -timeout=10 \
     -rss_limit_mb=2048 -print_final_stats=1 corpus 2>&1 | tail -12) || status=1
  ls "$out/$t"/crash-* "$out/$t"/leak-* "$out/$t"/timeout-* 2>/dev/null && status=1
done
exit $status
