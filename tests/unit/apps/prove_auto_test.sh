#!/usr/bin/env bash
# System: `prestage prove --auto` (PRESTAGE, this build's binary) on a small synthetic circuit's
# key (domain 2^5, made by `prestage setup`), on a machine with or without a CUDA device.
# Expectations: below --auto's crossover (2^20) it takes the host prover whatever the machine,
# says so on stderr ("--auto: host prover (domain 2^5 ..."), exits 0 and writes a proof that
# `prestage verify` accepts; --auto with --gpu is refused as bad usage (exit != 0, no output).
# Tolerance: exact (exit codes, substrings).
set -euo pipefail
prestage=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$prestage" synth --profile dense --log-domain 5 --public 2 --seed 1 --r1cs c.r1cs --wtns w.wtns
"$prestage" setup --r1cs c.r1cs --zkey k.zkey --vk vk.json --seed 2 2>/dev/null
"$prestage" prove --auto --zkey k.zkey --wtns w.wtns -o p.json --public pub.json 2>err ||
  { cat err >&2; fail "prove --auto failed"; }
grep -q -- "--auto: host prover (domain 2^5" err || { cat err >&2; fail "no --auto choice printed"; }
"$prestage" verify --vk vk.json --public pub.json --proof p.json || fail "the --auto proof does not verify"
set +e
"$prestage" prove --auto --gpu --zkey k.zkey --wtns w.wtns -o p2.json --public pub2.json 2>err2
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "--auto with --gpu accepted"
[ ! -e p2.json ] || fail "--auto with --gpu wrote a proof"
echo "prove --auto: all checks passed"
