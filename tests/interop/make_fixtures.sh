#!/usr/bin/env bash
# Generates the snarkjs interop fixtures for prestage's tests into OUT (default: ./fixtures):
#   circom2 0.2.23 (-p bls12381) compiles CIRCUIT (circuits/<name>.circom, default multiplier) to
#   .r1cs + witness .wasm; snarkjs 0.7.6 makes a small powers-of-tau (fixed entropy, so the run is
#   reproducible), prepares phase 2, sets up and contributes a Groth16 .zkey, exports the
#   verification key, computes the witness from circuits/<name>.input.json and proves.
# Output (OUT/):  <name>.r1cs  <name>.wtns  <name>.zkey  verification_key.json
#                 proof.json   public.json  (snarkjs's own proof of the witness)
#                 <name>_bn128.r1cs <name>_bn128.wtns (the same circuit on the wrong curve, for
#                 bad-input tests)
# Needs node and the pinned npm packages (scripts/install_deps.sh --interop); fails loudly, with
# exit 1, when they are absent. Idempotent: a complete OUT (stamp file) is kept as it is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/fixtures}
name=${2:-multiplier}
power=${3:-10}   # ptau power: 2^power must exceed constraints + public inputs (snarkjs rule)
snarkjs="$here/node_modules/snarkjs/build/cli.cjs"
circom="$here/node_modules/circom2/cli.js"
command -v node >/dev/null || { echo "make_fixtures: node not found (run scripts/install_deps.sh --interop)" >&2; exit 1; }
for f in "$snarkjs" "$circom"; do
  [ -f "$f" ] || { echo "make_fixtures: $f missing (run scripts/install_deps.sh --interop)" >&2; exit 1; }
done
stamp="$out/.complete-$name-v2"
[ -f "$stamp" ] && exit 0
mkdir -p "$out"
work=$(mktemp -d "$out/.tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
sj() { node "$snarkjs" "$@" >>log.txt 2>&1 || { cat log.txt >&2; echo "make_fixtures: snarkjs $1 $2 failed" >&2; exit 1; }; }

node "$circom" -p bls12381 --r1cs --wasm -o . "$here/circuits/$name.circom" >>log.txt 2>&1 ||
  { cat log.txt >&2; echo "make_fixtures: circom2 failed" >&2; exit 1; }
sj powersoftau new bls12381 "$power" pot0.ptau
sj powersoftau contribute pot0.ptau pot1.ptau --name=prestage -e="prestage fixed entropy 1"
sj powersoftau prepare phase2 pot1.ptau pot.ptau
sj groth16 setup "$name.r1cs" pot.ptau key0.zkey
sj zkey contribute key0.zkey "$name.zkey" --name=prestage -e="prestage fixed entropy 2"
sj zkey export verificationkey "$name.zkey" verification_key.json
sj wtns calculate "${name}_js/$name.wasm" "$here/circuits/$name.input.json" "$name.wtns"
sj groth16 prove "$name.zkey" "$name.wtns" proof.json public.json
sj groth16 verify verification_key.json public.json proof.json
mkdir bn128
node "$circom" --r1cs --wasm -o bn128 "$here/circuits/$name.circom" >>log.txt 2>&1 ||
  { cat log.txt >&2; echo "make_fixtures: circom2 (bn128) failed" >&2; exit 1; }
sj wtns calculate "bn128/${name}_js/$name.wasm" "$here/circuits/$name.input.json" "${name}_bn128.wtns"
mv "bn128/$name.r1cs" "${name}_bn128.r1cs"
for f in "$name.r1cs" "$name.wtns" "$name.zkey" verification_key.json proof.json public.json \
         "${name}_bn128.r1cs" "${name}_bn128.wtns"; do
  mv -f "$f" "$out/$f"
done
touch "$stamp"
