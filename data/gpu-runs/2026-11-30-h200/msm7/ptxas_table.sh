#!/usr/bin/env bash
# Table of the batch-affine kernels' registers / stack / spills from `nvcc -Xptxas -v` output
# (ptxas_affine.cu): kernel, curve (G1 or G2), template arguments (min blocks, block size, Fermat).
awk '/Compiling entry function/ {f=$0; next}
/stack frame/ {st=$1; ss=$5; sl=$9; next}
/Used [0-9]+ registers/ {
  if (!match(f, /affine_[a-z_]+_kernel/)) next; k=substr(f, RSTART, RLENGTH);
  c = (f ~ /G2Config|Fq2/) ? "G2" : "G1";
  a = ""; s = f; while (match(s, /Li[0-9]+E/)) { a = a " " substr(s, RSTART+2, RLENGTH-3); s = substr(s, RSTART+RLENGTH) }
  if (f ~ /Lb1E/) a = a " fermat";
  match($0, /Used [0-9]+ registers/); r = substr($0, RSTART+5, RLENGTH-15);
  printf "%-23s %s %-10s regs %4s  stack %4s B  spill stores/loads %s/%s B\n", k, c, a, r, st, ss, sl }' "$1"
