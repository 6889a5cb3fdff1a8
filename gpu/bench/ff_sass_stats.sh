#!/usr/bin/env bash
# Instruction counts per kernel of a CUDA executable's SASS (cuobjdump -sass): for each kernel
# (demangled when c++filt is there) the total and the count of every opcode (with modifiers,
# e.g. IMAD.WIDE.U32.X), most frequent first. For ff_bench the step loop is not unrolled, so a
# kernel's total is one step of its candidate (x chains) plus a fixed prologue/epilogue.
# Usage: gpu/bench/ff_sass_stats.sh EXECUTABLE [FILTER-REGEX]  (output on stdout)
set -euo pipefail
exe=${1:?usage: ff_sass_stats.sh EXECUTABLE [FILTER-REGEX]}
filter=${2:-.}
demangle=cat
command -v c++filt >/dev/null && demangle=c++filt
cuobjdump -sass "$exe" | awk -v filter="$filter" '
  function report(   k, line) {
    if (fn == "" || fn !~ filter) return
    printf "%s\n  total %d:", fn, n
    for (k in h) printf " %s=%d", k, h[k]
    printf "\n"
  }
  /Function :/ { report(); fn = $3; n = 0; split("", h); next }
  /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]*\*\// {
    line = $0
    sub(/^[^*]*\*[0-9a-f]*\*\/[ \t]*/, "", line)
    sub(/^@!?U?P[0-9T]+[ \t]+/, "", line)
    split(line, tok, /[ \t;]+/)
    if (tok[1] == "") next
    h[tok[1]]++
    n++
  }
  END { report() }' | "$demangle" | awk '
  /^  total/ {
    # sort the op=count pairs by count, descending
    printf "  %s %s", $1, $2
    m = 0
    for (i = 3; i <= NF; i++) { split($i, kv, "="); op[++m] = kv[1]; cnt[m] = kv[2] + 0 }
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (cnt[j] > cnt[i]) {
      t = cnt[i]; cnt[i] = cnt[j]; cnt[j] = t; s = op[i]; op[i] = op[j]; op[j] = s }
    for (i = 1; i <= m; i++) printf " %s=%d", op[i], cnt[i]
    printf "\n"
    next
  }
  { print }'
