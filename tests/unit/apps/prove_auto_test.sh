#!/usr/bin/env bash
# System: `prestage prove --auto` (PRESTAGE, this build's binary) on a small synthetic circuit's
# key (domain 2^5, made by `prestage setup`), on a machine with or without a CUDA device.
# Expectations: below --auto's crossover (2^20) it takes the host prover whatever the machine,
# says so on stderr ("--auto: host prover (domain 2^5 ..."), exits 0 and writes a proof that
# `prestage verify` accepts; --auto with --gpu is refused as bad usage (exit != 0, no output);
# --repeat 3 makes three timed proofs in one process (stderr lists three times and the warm
# median) and writes the last, which verifies; --repeat 0 is refused with nothing written.
# Tolerance: exact (exit codes, substrings).
set -euo pipefail
# shellcheck source=small_key.sh
source "$(dirname "$0")/small_key.sh"
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
"$prestage" prove --repeat 3 --zkey k.zkey --wtns w.wtns -o p3.json --public pub3.json 2>err3 ||
  { cat err3 >&2; fail "prove --repeat 3 failed"; }
grep -Eq -- "--repeat 3: proofs took [0-9.]+ [0-9.]+ [0-9.]+ s; first [0-9.]+ s, warm median" err3 ||
  { cat err3 >&2; fail "no per-proof times for --repeat 3"; }
"$prestage" verify --vk vk.json --public pub3.json --proof p3.json || fail "the --repeat proof does not verify"
set +e
"$prestage" prove --repeat 0 --zkey k.zkey --wtns w.wtns -o p4.json --public pub4.json 2>/dev/null
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "--repeat 0 accepted"
[ ! -e p4.json ] || fail "--repeat 0 wrote a proof"
echo "prove --auto, --repeat: all checks passed"
