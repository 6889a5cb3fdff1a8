#!/usr/bin/env bash
# Builds and runs one libFuzzer target per snarkjs parser (tests/fuzz/fuzz_io.cpp: r1cs wtns zkey
# proof_json public_json vk_json) and per YAML loader (tests/fuzz/fuzz_yaml.cpp: scenario
# calibration pipeline) with clang (-fsanitize=fuzzer,address,undefined).
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default: all nine targets)
# Seeds: snarkjs parsers -- the interop fixtures when present (build/ci/interop_fixtures);
# YAML loaders -- data/scenarios, data/calibration, data/pipelines, tests/data/sim, with a
# dictionary of the keys those files use. tests/fuzz/regressions/<target>-* are added to the
# corpus. Crashes are written to build/fuzz/<target>/crash-*; exit 1 if any.
# The YAML targets link the system yaml-cpp (built without sanitizers or coverage): libFuzzer
# steers by the model/ code's coverage, and ASan checks the model/ code, not yaml-cpp itself.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] &&
  targets=(r1cs wtns zkey proof_json public_json vk_json scenario calibration pipeline)
out=build/fuzz
mkdir -p "$out/generated/model"
# model/scenario.cpp embeds data/pipelines/supraseal_c2.yaml (model/CMakeLists.txt does the same).
{
  printf '#pragma once\nnamespace prestage::model {\ninline constexpr const char* kDefaultPipelineYaml = R"PRESTAGE_YAML('
  cat data/pipelines/supraseal_c2.yaml
  printf ')PRESTAGE_YAML";\n}\n'
} >"$out/generated/model/default_pipeline.hpp"
model_sources=(model/scenario.cpp model/calibration.cpp model/pipeline.cpp model/yaml_input.cpp
               model/expr.cpp model/kernel_fit.cpp model/policy/registry.cpp model/policies/*.cpp)
cxx=${CXX_FUZZ:-clang++}
fx=${PRESTAGE_FUZZ_SEEDS:-build/ci/interop_fixtures}
status=0
for t in "${targets[@]}"; do
  bin=$out/fuzz_$t
  flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
         -DPRESTAGE_FUZZ_TARGET=$t -I.)
  corpus=$out/$t/corpus
  mkdir -p "$corpus"
  extra=(-max_len=400000)
  case $t in
    scenario | calibration | pipeline)
      $cxx "${flags[@]}" -I"$out/generated" -I/usr/include/eigen3 \
        -DPRESTAGE_FUZZ_SCENARIO_PATH="\"$PWD/data/scenarios/fuzz.yaml\"" tests/fuzz/fuzz_yaml.cpp \
        "${model_sources[@]}" -lyaml-cpp -lfmt -o "$bin"
      extra=(-max_len=65536 -dict=../$t.dict) ;;
    *)
      $cxx "${flags[@]}" tests/fuzz/fuzz_io.cpp gpu/io/*.cpp -lfmt -o "$bin" ;;
  esac
  case $t in
    r1cs) cp -f "$fx"/multiplier.r1cs "$corpus"/ 2>/dev/null || true ;;
    wtns) cp -f "$fx"/multiplier.wtns "$corpus"/ 2>/dev/null || true ;;
    zkey) [ -f "$fx"/multiplier.zkey ] && head -c 60000 "$fx"/multiplier.zkey >"$corpus"/head.zkey || true ;;
    proof_json) cp -f "$fx"/proof.json "$corpus"/ 2>/dev/null || true ;;
    public_json) cp -f "$fx"/public.json "$corpus"/ 2>/dev/null || true ;;
    vk_json) cp -f "$fx"/verification_key.json "$corpus"/ 2>/dev/null || true ;;
    scenario)
      cp -f data/scenarios/*.yaml "$corpus"/
      # data/scenarios/gpu's (some with a pipeline:), their files named from data/scenarios/
      for f in data/scenarios/gpu/*.yaml data/scenarios/gpu/proofs/*.yaml; do
        sed -E 's#^(calibration|pipeline): (\.\./)+#\1: ../#' "$f" >"$corpus/gpu_$(basename "$f")"
      done
      # tests/data/sim's scenarios, their calibration named from data/scenarios/fuzz.yaml's place
      for f in tests/data/sim/tiny.yaml tests/data/sim/bench_two_workers.yaml; do
        sed 's#^calibration: #calibration: ../../tests/data/sim/#' "$f" >"$corpus/sim_$(basename "$f")"
      done ;;
    calibration) cp -f data/calibration/*.yaml tests/data/sim/calibration_synthetic.yaml "$corpus"/
                 cp -f data/calibration/estimates/*.yaml "$corpus"/ 2>/dev/null || true ;;
    pipeline) cp -f data/pipelines/*.yaml tests/data/sim/*pipeline*.yaml "$corpus"/ ;;
  esac
  case $t in
    scenario | calibration | pipeline)
      # Dictionary: every key (and the schema strings) the seed files use.
      cat "$corpus"/*.yaml | grep -oE '[A-Za-z_][A-Za-z0-9_]*:|prestage-[a-z]+/[0-9]+' | sort -u |
        sed 's/.*/"&"/' >"$out/$t.dict" ;;
  esac
  cp -f tests/fuzz/regressions/"$t"-* "$corpus"/ 2>/dev/null || true
  echo "fuzz.sh: $t for ${secs}s"
  (cd "$out/$t" && "../fuzz_$t" -max_total_time="$secs" "${extra[@]}" -timeout=10 \
     -rss_limit_mb=2048 -print_final_stats=1 corpus 2>&1 | tee fuzz.log | tail -12) || status=1
  ls "$out/$t"/crash-* "$out/$t"/leak-* "$out/$t"/timeout-* 2>/dev/null && status=1
done
exit $status
