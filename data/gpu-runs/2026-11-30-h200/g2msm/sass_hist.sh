#!/usr/bin/env bash
# sass_hist.sh OBJ PATTERN: per function whose (mangled) name contains PATTERN, the count of each
# SASS opcode family (predicates and modifiers after the first dot dropped), largest first.
obj=$1 pat=$2
cuobjdump -sass "$obj" | awk -v pat="$pat" '
  /Function :/ { fn = $3; on = index(fn, pat) > 0; if (on) print "== " fn; next }
  on && /\/\*[0-9a-f]+\*\// {
    line = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line); sub(/^@!?U?P[0-9T]+[ \t]+/, "", line);
    split(line, w, /[ \t;]/); op = w[1]; base = op; sub(/\..*/, "", base);
    if (base != "") { cnt[fn, base]++; tot[fn]++ }
  }
  END { for (k in cnt) { split(k, p, SUBSEP); printf "%s %s %d\n", p[1], p[2], cnt[k] }
        for (f in tot) printf "%s TOTAL %d\n", f, tot[f] }' | sort -k1,1 -k3,3nr | awk '{ if ($1 != last) { print "== " $1; last = $1 } printf "  %-10s %d\n", $2, $3 }'
