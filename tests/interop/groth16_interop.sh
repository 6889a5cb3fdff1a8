#!/usr/bin/env bash
# Interop test: prestage's Groth16 (BLS12-381) against snarkjs 0.7.6 on the fixtures of
# make_fixtures.sh. Usage: groth16_interop.sh PRESTAGE_BINARY FIXTURE_DIR
# System: `prestage prove/verify/setup/vk` and `snarkjs groth16 prove/verify`.
# Expectations: our proof from snarkjs's .zkey verifies with snarkjs and with us, our
# public.json equals snarkjs's byte for byte, snarkjs's proof verifies with us, our vk export
# equals snarkjs's verification_key.json byte for byte, snarkjs proves with a .zkey of our setup
# and both verifiers accept it; tampered proofs give exit 1; bad input (truncated or corrupt
# files, wrong curve, wrong sizes, unsatisfying witness) gives exit 2, a message naming the
# file, and no output file. Needs node + the pinned npm packages: fails (never skips) without.
set -euo pipefail
prestage=$1
fx=$2
here=$(cd "$(dirname "$0")" && pwd)
snarkjs="$here/node_modules/snarkjs/build/cli.cjs"
command -v node >/dev/null || { echo "FAIL: node not found (scripts/install_deps.sh --interop)"; exit 1; }
[ -f "$snarkjs" ] || { echo "FAIL: $snarkjs missing (scripts/install_deps.sh --interop)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
sjs() { node "$snarkjs" "$@"; }

# expect CODE NEEDLE -- command...: exit status CODE and NEEDLE in its output.
expect() {
  local code=$1 needle=$2
  shift 3
  local out rc=0
  out=$("$@" 2>&1) || rc=$?
  if [ "$rc" -ne "$code" ]; then
    fail "exit $rc (expected $code): $* :: $out"
  elif [[ "$out" != *"$needle"* ]]; then
    fail "message lacks '$needle': $* :: $out"
  else
    pass "exit $code, '$needle' in: ${out:0:200}"
  fi
}

m=$fx/multiplier
# 1. Our proof from snarkjs's key and witness.
"$prestage" prove --zkey "$m.zkey" --wtns "$m.wtns" --r1cs "$m.r1cs" -o "$work/proof.json" \
  --public "$work/public.json" || fail "prestage prove"
cmp -s "$work/public.json" "$fx/public.json" && pass "public.json identical to snarkjs's" ||
  fail "public.json differs from snarkjs's"
sjs groth16 verify "$fx/verification_key.json" "$work/public.json" "$work/proof.json" |
  grep -q "OK!" && pass "snarkjs verifies our proof" || fail "snarkjs rejects our proof"
expect 0 "OK" -- "$prestage" verify --vk "$fx/verification_key.json" --public "$work/public.json" --proof "$work/proof.json"
# 1b. The same with the GPU prover (prove --gpu): with a CUDA device its proof verifies with
# snarkjs; without one (CI) exit 4 naming the missing device, and no output file.
gpu_out=$("$prestage" prove --gpu --zkey "$m.zkey" --wtns "$m.wtns" -o "$work/gproof.json" \
  --public "$work/gpublic.json" 2>&1) && gpu_rc=0 || gpu_rc=$?
if [ "$gpu_rc" -eq 0 ]; then
  sjs groth16 verify "$fx/verification_key.json" "$work/gpublic.json" "$work/gproof.json" |
    grep -q "OK!" && pass "snarkjs verifies our GPU proof" || fail "snarkjs rejects our GPU proof"
elif [ "$gpu_rc" -eq 4 ] && [[ "$gpu_out" == *"no usable CUDA device"* || "$gpu_out" == *"has no CUDA"* ]] &&
  [ ! -e "$work/gproof.json" ] && [ ! -e "$work/gpublic.json" ]; then
  pass "prove --gpu without a device: exit 4, no output (${gpu_out:0:120})"
else
  fail "prove --gpu: exit $gpu_rc :: $gpu_out"
fi
# 2. snarkjs's proof with our verifier; tampered variants rejected.
expect 0 "OK" -- "$prestage" verify --vk "$fx/verification_key.json" --public "$fx/public.json" --proof "$fx/proof.json"
node - "$fx/proof.json" "$fx/public.json" "$work" <<'JS'
const fs = require("fs");
const [proofPath, publicPath, work] = process.argv.slice(2);
const p = JSON.parse(fs.readFileSync(proofPath));
fs.writeFileSync(work + "/swapped.json", JSON.stringify({...p, pi_a: p.pi_c, pi_c: p.pi_a}, null, 1));
const pub = JSON.parse(fs.readFileSync(publicPath));
pub[1] = (BigInt(pub[1]) + 1n).toString();
fs.writeFileSync(work + "/public_wrong.json", JSON.stringify(pub, null, 1));
pub.push("5");
fs.writeFileSync(work + "/public_long.json", JSON.stringify(pub, null, 1));
JS
expect 1 "INVALID" -- "$prestage" verify --vk "$fx/verification_key.json" --public "$fx/public.json" --proof "$work/swapped.json"
expect 1 "INVALID" -- "$prestage" verify --vk "$fx/verification_key.json" --public "$work/public_wrong.json" --proof "$fx/proof.json"
# 3. Our verification-key export equals snarkjs's (including vk_alphabeta_12 = e(alpha, beta)).
"$prestage" vk --zkey "$m.zkey" -o "$work/vk.json" || fail "prestage vk"
cmp -s "$work/vk.json" "$fx/verification_key.json" && pass "vk export identical to snarkjs's" ||
  fail "vk export differs from snarkjs's"
# 4. Our seeded setup of the circom circuit: snarkjs proves with our .zkey, both verify.
"$prestage" setup --r1cs "$m.r1cs" --zkey "$work/ours.zkey" --vk "$work/ours_vk.json" --seed 7 ||
  fail "prestage setup"
sjs groth16 prove "$work/ours.zkey" "$m.wtns" "$work/sj_proof.json" "$work/sj_public.json" ||
  fail "snarkjs prove with our zkey"
sjs groth16 verify "$work/ours_vk.json" "$work/sj_public.json" "$work/sj_proof.json" | grep -q "OK!" &&
  pass "snarkjs verifies its proof under our key" || fail "snarkjs rejects its proof under our key"
expect 0 "OK" -- "$prestage" verify --vk "$work/ours_vk.json" --public "$work/sj_public.json" --proof "$work/sj_proof.json"
"$prestage" prove --zkey "$work/ours.zkey" --wtns "$m.wtns" -o "$work/p2.json" --public "$work/pub2.json" ||
  fail "prestage prove with our zkey"
sjs groth16 verify "$work/ours_vk.json" "$work/pub2.json" "$work/p2.json" | grep -q "OK!" &&
  pass "snarkjs verifies our proof under our key" || fail "snarkjs rejects our proof under our key"

# 4b. The same setup with its points on the GPU (setup --gpu): with a CUDA device the .zkey and
#     vk are the host setup's byte for byte; without one (CI) exit 4 and no output file.
gs_out=$("$prestage" setup --gpu --r1cs "$m.r1cs" --zkey "$work/gpu.zkey" --vk "$work/gpu_vk.json" \
  --seed 7 2>&1) && gs_rc=0 || gs_rc=$?
if [ "$gs_rc" -eq 0 ]; then
  cmp -s "$work/gpu.zkey" "$work/ours.zkey" && cmp -s "$work/gpu_vk.json" "$work/ours_vk.json" &&
    pass "setup --gpu: the host setup's .zkey and vk, byte for byte" ||
    fail "setup --gpu: its .zkey or vk differs from the host setup's"
elif [ "$gs_rc" -eq 4 ] && [[ "$gs_out" == *"no usable CUDA device"* || "$gs_out" == *"has no CUDA"* ]] &&
  [ ! -e "$work/gpu.zkey" ] && [ ! -e "$work/gpu_vk.json" ]; then
  pass "setup --gpu without a device: exit 4, no output (${gs_out:0:120})"
else
  fail "setup --gpu: exit $gs_rc :: $gs_out"
fi

# 5. Our synthetic PoRep-shaped circuit as files: snarkjs accepts the .r1cs/.wtns (its own
#    witness check) and verifies our proof under our key.
"$prestage" synth --profile porep --log-domain 9 --public 2 --seed 3 --r1cs "$work/s.r1cs" \
  --wtns "$work/s.wtns" || fail "prestage synth"
sjs wtns check "$work/s.r1cs" "$work/s.wtns" 2>&1 | grep -q "WITNESS IS CORRECT" &&
  pass "snarkjs: our synthetic witness satisfies our synthetic r1cs" ||
  fail "snarkjs wtns check rejects the synthetic circuit"
"$prestage" setup --r1cs "$work/s.r1cs" --zkey "$work/s.zkey" --vk "$work/s_vk.json" --seed 9 &&
  "$prestage" prove --zkey "$work/s.zkey" --wtns "$work/s.wtns" --r1cs "$work/s.r1cs" \
    -o "$work/s_proof.json" --public "$work/s_public.json" || fail "synthetic setup/prove"
sjs groth16 verify "$work/s_vk.json" "$work/s_public.json" "$work/s_proof.json" | grep -q "OK!" &&
  pass "snarkjs verifies our proof of the synthetic circuit" ||
  fail "snarkjs rejects our proof of the synthetic circuit"

# 6. Bad input: exit 2, the file named, no output left behind.
bad=$work/bad
mkdir -p "$bad"
head -c 100000 "$m.zkey" >"$bad/trunc.zkey"
head -c 5000 "$m.wtns" >"$bad/trunc.wtns"
head -c 3000 "$m.r1cs" >"$bad/trunc.r1cs"
prove_bad() {  # prove_bad NEEDLE ZKEY WTNS [R1CS]
  local needle=$1 z=$2 w=$3 r=${4:-}
  rm -f "$bad/out.json" "$bad/out_pub.json"
  if [ -n "$r" ]; then
    expect 2 "$needle" -- "$prestage" prove --zkey "$z" --wtns "$w" --r1cs "$r" -o "$bad/out.json" --public "$bad/out_pub.json"
  else
    expect 2 "$needle" -- "$prestage" prove --zkey "$z" --wtns "$w" -o "$bad/out.json" --public "$bad/out_pub.json"
  fi
  if [ -e "$bad/out.json" ] || [ -e "$bad/out_pub.json" ] || ls "$bad" | grep -q tmp; then
    fail "output left behind after bad input ($needle)"
  fi
}
prove_bad "$bad/trunc.zkey" "$bad/trunc.zkey" "$m.wtns"
prove_bad "$bad/trunc.wtns" "$m.zkey" "$bad/trunc.wtns"
prove_bad "$bad/trunc.r1cs" "$m.zkey" "$m.wtns" "$bad/trunc.r1cs"
prove_bad "wrong curve" "$m.zkey" "$m.wtns" "${m}_bn128.r1cs"
prove_bad "${m}_bn128.wtns" "$m.zkey" "${m}_bn128.wtns"
# A witness of the wrong size: snarkjs's header count and section both shortened by one value.
node - "$m.wtns" "$bad/short.wtns" "$bad/unsat.wtns" "$bad/corrupt.zkey" "$m.zkey" <<'JS'
const fs = require("fs");
const [wtns, shortOut, unsatOut, zkeyOut, zkey] = process.argv.slice(2);
const b = fs.readFileSync(wtns);
// Sections: header at 12 (type 1, u64 size), data n8 | prime | nWitness; then section 2.
const size1 = Number(b.readBigUInt64LE(16));
const nOff = 24 + 4 + 32;
const n = b.readUInt32LE(nOff);
const s2 = 24 + size1;
const short = Buffer.from(b);
short.writeUInt32LE(n - 1, nOff);
short.writeBigUInt64LE(BigInt((n - 1) * 32), s2 + 4);
fs.writeFileSync(shortOut, short.subarray(0, short.length - 32));
// An unsatisfying witness: the low byte of the last value changed (still below r here).
const unsat = Buffer.from(b);
unsat[unsat.length - 32] += 1;
fs.writeFileSync(unsatOut, unsat);
// A .zkey whose first A point moved off the curve (a bit of its y coordinate flipped).
const z = Buffer.from(fs.readFileSync(zkey));
let pos = 12;
const nsec = z.readUInt32LE(8);
for (let i = 0; i < nsec; i++) {
  const t = z.readUInt32LE(pos), sz = Number(z.readBigUInt64LE(pos + 4));
  if (t === 5) z[pos + 12 + 48] ^= 1;
  pos += 12 + sz;
}
fs.writeFileSync(zkeyOut, z);
JS
prove_bad "expects" "$m.zkey" "$bad/short.wtns"
prove_bad "does not satisfy constraint" "$m.zkey" "$bad/unsat.wtns" "$m.r1cs"
prove_bad "does not satisfy" "$m.zkey" "$bad/unsat.wtns"
prove_bad "not on the BLS12-381 curve" "$bad/corrupt.zkey" "$m.wtns"
prove_bad "cannot open" "$bad/missing.zkey" "$m.wtns"
sed 's/bls12381/bn128/' "$fx/verification_key.json" >"$bad/vk_bn128.json"
expect 2 "wrong curve" -- "$prestage" verify --vk "$bad/vk_bn128.json" --public "$fx/public.json" --proof "$fx/proof.json"
expect 2 "public_long.json" -- "$prestage" verify --vk "$fx/verification_key.json" --public "$work/public_long.json" --proof "$fx/proof.json"
node -e '
const fs = require("fs");
const vk = JSON.parse(fs.readFileSync(process.argv[1]));
vk.IC[1][1] = (BigInt(vk.IC[1][1]) + 1n).toString();
fs.writeFileSync(process.argv[2], JSON.stringify(vk, null, 1));' "$fx/verification_key.json" "$bad/vk_offcurve.json"
expect 2 "IC[1]" -- "$prestage" verify --vk "$bad/vk_offcurve.json" --public "$fx/public.json" --proof "$fx/proof.json"
head -c 500 "$fx/proof.json" >"$bad/trunc_proof.json"
expect 2 "trunc_proof.json" -- "$prestage" verify --vk "$fx/verification_key.json" --public "$fx/public.json" --proof "$bad/trunc_proof.json"

if [ "$failures" -ne 0 ]; then
  echo "groth16 interop: $failures failure(s)"
  exit 1
fi
echo "groth16 interop: all checks passed"
