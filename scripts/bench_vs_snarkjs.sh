#!/usr/bin/env bash
# Benchmark (not a test): prestage's host Groth16 prover vs `snarkjs groth16 prove` (0.7.6) on
# the same circuit, key and witness, one run after the other on this machine.
# Usage: scripts/bench_vs_snarkjs.sh [CIRCUIT] [RUNS]
#   CIRCUIT: sha256_512 (default; circomlib SHA-256 of 512 bits, ~60k constraints, domain 2^16)
#            or any tests/interop/circuits/<name>.circom with <name>.input.json.
# The key comes from `prestage setup` (seeded, circom reduction, snarkjs .zkey format): a JS
# powers-of-tau ceremony for 2^17 on BLS12-381 is too slow here; the proving work does not
# depend on where the key came from. Both provers read the same .zkey and .wtns; both proofs
# are checked with `snarkjs groth16 verify`. Axes: circuit, prover, run. Results: one JSON line
# per run in build/bench/<circuit>.jsonl and a summary (medians, ratio) on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-sha256_512}
runs=${2:-3}
prestage=${PRESTAGE_BIN:-build/ci/apps/prestage/prestage}
ix=tests/interop
snarkjs=$ix/node_modules/snarkjs/build/cli.cjs
[ -x "$prestage" ] || { echo "bench: $prestage not built (scripts/build.sh ci)" >&2; exit 1; }
[ -f "$snarkjs" ] || { echo "bench: npm packages missing (scripts/install_deps.sh --interop)" >&2; exit 1; }
out=build/bench/$name
mkdir -p "$out"
if [ ! -f "$out/$name.wtns" ]; then
  # circom2 (WASI) resolves includes from the working directory: compile from tests/interop.
  (cd $ix && node node_modules/circom2/cli.js -p bls12381 --r1cs --wasm -l node_modules \
     -o "../../$out" "circuits/$name.circom")
  node "$snarkjs" wtns calculate "$out/${name}_js/$name.wasm" "$ix/circuits/$name.input.json" "$out/$name.wtns"
fi
[ -f "$out/$name.zkey" ] || "$prestage" setup --r1cs "$out/$name.r1cs" --zkey "$out/$name.zkey" --vk "$out/vk.json" --seed 1
node "$snarkjs" r1cs info "$out/$name.r1cs" | grep -E "Constraints|Wires" || true
results=build/bench/$name.jsonl
: >"$results"
# Wall clock and CPU (user + system, all threads) of each prover process: on a shared machine
# the CPU time is the steadier figure; both are recorded. Measured with os.wait4's rusage
# (microseconds) and a monotonic clock: /usr/bin/time prints %U and %S to 10 ms, truncated,
# which took ~0.01-0.02 s off a 0.23 s prestage run (session 6: 20.2x by /usr/bin/time, 18.6x
# by getrusage on the same binary).
timed() {  # timed OUTFILE command...: writes "wall cpu" (seconds, 4 decimals); fails as the command
  local o=$1
  shift
  python3 - "$o" "$@" <<'PY'
import os, subprocess, sys, time
t0 = time.monotonic()
p = subprocess.Popen(sys.argv[2:])
_, status, ru = os.wait4(p.pid, 0)
wall = time.monotonic() - t0
rc = os.waitstatus_to_exitcode(status)
if rc != 0:
    sys.exit(f"bench: {sys.argv[2]} exited with {rc}")
with open(sys.argv[1], "w") as f:
    f.write(f"{wall:.4f} {ru.ru_utime + ru.ru_stime:.4f}\n")
PY
}
for run in $(seq 1 "$runs"); do
  timed "$out/t_snarkjs" node "$snarkjs" groth16 prove "$out/$name.zkey" "$out/$name.wtns" \
    "$out/sj_proof.json" "$out/sj_public.json"
  timed "$out/t_prestage" "$prestage" prove --zkey "$out/$name.zkey" --wtns "$out/$name.wtns" \
    -o "$out/our_proof.json" --public "$out/our_public.json"
  node "$snarkjs" groth16 verify "$out/vk.json" "$out/sj_public.json" "$out/sj_proof.json" | grep -q "OK!"
  node "$snarkjs" groth16 verify "$out/vk.json" "$out/our_public.json" "$out/our_proof.json" | grep -q "OK!"
  for p in snarkjs prestage; do
    read -r wall cpu <"$out/t_$p"
    printf '{"circuit":"%s","prover":"%s","run":%d,"wall_s":%s,"cpu_s":%s,"cores":%d,"load1":%s,"date":"%s"}\n' \
      "$name" "$p" "$run" "$wall" "$cpu" "$(nproc)" "$(cut -d' ' -f1 /proc/loadavg)" \
      "$(date -u +%FT%TZ)" >>"$results"
  done
done
python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
med = lambda p, k: statistics.median(r[k] for r in rows if r["prover"] == p)
n = len(rows) // 2
for k, what in (("wall_s", "wall clock"), ("cpu_s", "CPU time (user+sys)")):
    s, o = med("snarkjs", k), med("prestage", k)
    print(f"{rows[0]['circuit']} {what}: snarkjs {s:.3f} s, prestage {o:.3f} s, ratio {s / o:.1f}x "
          f"(medians of {n} runs, whole processes incl. start-up and file reads, {rows[0]['cores']} cores)")
PY
