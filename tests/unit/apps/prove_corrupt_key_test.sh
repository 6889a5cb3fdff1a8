#!/usr/bin/env bash
# System: `prestage prove` (PRESTAGE, this build's binary) on a synthetic circuit's key made by
# `prestage setup`, with one bit flipped in a QAP coefficient's value (section 4) -- the first
# A coefficient of signal 0 (the constant 1, so every witness feels it). The flip stays below r,
# so the key loads and the proof is made; it fails the self-verification.
# Expectations: the unflipped key proves (exit 0); the flipped key with --r1cs exits 2 and the
# message names the .zkey, "section 4 (coefficients)", the record's byte offset and index, and
# not the witness as the file at fault; without --r1cs it exits 2 naming both files and --r1cs.
# Tolerance: exact (exit codes, substrings).
set -euo pipefail
# shellcheck source=small_key.sh
source "$(dirname "$0")/small_key.sh"
"$prestage" prove --zkey k.zkey --wtns w.wtns --r1cs c.r1cs -o p.json --public pub.json -q ||
  fail "the unflipped key does not prove"
u32() { od -An -t u4 -j "$1" -N 4 k.zkey | tr -d ' '; }
u64() { od -An -t u8 -j "$1" -N 8 k.zkey | tr -d ' '; }
[ "$(head -c 4 k.zkey)" = zkey ] || fail "not a .zkey"
pos=12 rec= idx=
for ((s = 0; s < $(u32 8); ++s)); do  # section table: type u32, size u64, then the data
  if [ "$(u32 $pos)" = 4 ]; then
    base=$((pos + 16))  # after the section header and nCoef
    for ((i = 0; i < $(u32 $((pos + 12))); ++i)); do
      r=$((base + 44 * i))
      if [ "$(u32 $r)" = 0 ] && [ "$(u32 $((r + 8)))" = 0 ]; then rec=$r idx=$i; break; fi
    done
    break
  fi
  pos=$((pos + 12 + $(u64 $((pos + 4)))))
done
[ -n "$rec" ] || fail "no A coefficient of signal 0 in section 4"
cp k.zkey bad.zkey
byte=$(od -An -t u1 -j $((rec + 12)) -N 1 k.zkey | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of=bad.zkey bs=1 seek=$((rec + 12)) conv=notrunc status=none
set +e
"$prestage" prove --zkey bad.zkey --wtns w.wtns --r1cs c.r1cs -o p.json --public pub.json -q 2>err1
rc1=$?
"$prestage" prove --zkey bad.zkey --wtns w.wtns -o p.json --public pub.json -q 2>err2
rc2=$?
set -e
cat err1 err2
[ $rc1 = 2 ] || fail "with --r1cs: exit $rc1, expected 2"
for want in "bad.zkey:$rec: key 'section 4 (coefficients)'" "at byte $rec:" "coefficient $idx (A, " \
  "satisfies every constraint of c.r1cs"; do
  grep -qF "$want" err1 || fail "with --r1cs: message lacks '$want'"
done
grep -qF "w.wtns:" err1 && fail "with --r1cs: the witness is blamed"
[ $rc2 = 2 ] || fail "without --r1cs: exit $rc2, expected 2"
for want in w.wtns bad.zkey --r1cs; do grep -qF -- "$want" err2 || fail "without --r1cs: lacks $want"; done
echo "PASS: record $idx at byte $rec"
