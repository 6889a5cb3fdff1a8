#!/usr/bin/env bash
# Checks the paper's numbers against fresh results: reruns the simulated experiments
# (experiments/run_all.sh, experiments/05_validation/run.sh) into a temporary folder, regenerates
# the numbers and tables there (papers/gen_numbers.sh), and compares them with the committed
# papers/prestage/numbers.tex and papers/prestage/generated/*.tex.
#   - each number by its tolerance (numbers.tex, 4th field): `rel1e-6`: |fresh - committed| <=
#     1e-6 x max(|committed|, 1e-12) (numbers of the simulator, which is deterministic: a drift is a
#     change of the model or its inputs); `exact`: the same raw text (measured numbers read from
#     data/, and words such as verdicts);
#   - a number only on one side, and any difference in the generated tables' text (they cite
#     numbers only through \N{KEY}, so this catches rows added or removed);
#   - every \N{KEY} of paper.tex is defined (numbers.tex or story_numbers.tex).
# On failure it prints one line per number, `KEY: committed C, fresh F (tolerance T; SOURCE)`, and
# exits 1; to accept the fresh numbers, run papers/build.sh (or gen_numbers.sh) and commit.
# usage: papers/check.sh [BUILD_DIR]   (default build/sim; needs prestage and prestage-plot, jq)
# Measured: see papers/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build/sim}
case $build in /*) ;; *) build=$PWD/$build ;; esac
for b in "$build/apps/prestage/prestage" "$build/experiments/plot/prestage-plot"; do
  [ -x "$b" ] || { echo "papers/check.sh: missing $b (build the 'sim' preset)" >&2; exit 2; }
done
command -v jq >/dev/null || { echo "papers/check.sh: jq is required" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$root/experiments/run_all.sh" "$build" "$work/exp" >"$work/run_all.log" 2>&1 \
  || { cat "$work/run_all.log" >&2; echo "papers/check.sh: experiments/run_all.sh failed" >&2; exit 1; }
bash "$root/experiments/05_validation/run.sh" "$work/val" "$build" >"$work/val.log" 2>&1 \
  || { cat "$work/val.log" >&2; echo "papers/check.sh: experiments/05_validation/run.sh failed" >&2; exit 1; }
bash "$here/gen_numbers.sh" "$work/exp" "$work/val" "$work/fresh" >/dev/null

committed=$here/prestage/numbers.tex
fails=0
# KEY<TAB>TEXT<TAB>RAW<TAB>TOL<TAB>SOURCE of each \pnum line.
fields() {
  sed -n 's/^\\pnum{\([^}]*\)}{\([^}]*\)}{\([^}]*\)}{\([^}]*\)}% \(.*\)$/\1\t\2\t\3\t\4\t\5/p' "$1"
}
fields "$committed" | sort >"$work/a.tsv"
fields "$work/fresh/numbers.tex" | sort >"$work/b.tsv"
if ! awk -F'\t' '
  NR == FNR { ct[$1] = $2; cr[$1] = $3; tol[$1] = $4; src[$1] = $5; next }
  { seen[$1] = 1
    if (!($1 in cr)) { printf "%s: not in the committed numbers.tex, fresh %s (%s)\n", $1, $3, $5; bad++; next }
    t = tol[$1]; ok = 0
    if (t == "exact") ok = (cr[$1] == $3)
    else if (t ~ /^rel/) {
      r = substr(t, 4) + 0; a = cr[$1] + 0; b = $3 + 0
      d = a - b; if (d < 0) d = -d; m = a < 0 ? -a : a; if (m < 1e-12) m = 1e-12
      ok = (d <= r * m)
    } else { printf "%s: unknown tolerance %s\n", $1, t; bad++; next }
    if (!ok) { printf "%s: committed %s, fresh %s (tolerance %s; %s)\n", $1, cr[$1], $3, t, src[$1]; bad++ }
    else if (ct[$1] != $2) printf "note: %s prints %s, fresh %s (within tolerance)\n", $1, ct[$1], $2 > "/dev/stderr" }
  END { for (k in cr) if (!(k in seen)) { printf "%s: committed %s, not in the fresh results (%s)\n", k, cr[k], src[k]; bad++ }
        exit bad > 0 }' "$work/a.tsv" "$work/b.tsv" >"$work/diff.txt"; then
  cat "$work/diff.txt" >&2
  fails=$((fails + $(wc -l <"$work/diff.txt")))
fi
n=$(wc -l <"$work/a.tsv")
for g in $( { ls "$work/fresh/generated"; ls "$here/prestage/generated"; } | sort -u); do
  if [ ! -f "$here/prestage/generated/$g" ] || [ ! -f "$work/fresh/generated/$g" ]; then
    echo "generated/$g: only on one side (committed or fresh)" >&2; fails=$((fails + 1)); continue
  fi
  if ! cmp -s "$here/prestage/generated/$g" "$work/fresh/generated/$g"; then
    echo "generated/$g differs from the fresh one:" >&2
    diff "$here/prestage/generated/$g" "$work/fresh/generated/$g" | head -10 >&2 || true
    fails=$((fails + 1))
  fi
done
# Every \N{KEY} the paper and its tables use is defined.
cat "$here/prestage/paper.tex" "$here"/prestage/generated/*.tex | sed -e 's/^%.*//' -e 's/\([^\\]\)%.*/\1/' \
  | grep -o '\\N{[^}]*}' | sed 's/^\\N{//; s/}$//' | sort -u >"$work/used"
{ cut -f1 "$work/a.tsv"; sed -n 's/^\\pnum{\([^}]*\)}.*/\1/p' "$here/prestage/story_numbers.tex"; } | sort -u >"$work/defined"
undef=$(comm -23 "$work/used" "$work/defined")
if [ -n "$undef" ]; then
  echo "$undef" | sed 's/$/: used in paper.tex or generated\/ but not defined/' >&2
  fails=$((fails + $(echo "$undef" | wc -l)))
fi
if [ "$fails" -gt 0 ]; then
  echo "papers/check.sh: FAILED: $fails difference(s) between the paper's numbers and fresh results" >&2
  exit 1
fi
echo "papers/check.sh: all $n numbers of papers/prestage/numbers.tex match fresh results; $(wc -l <"$work/used") used by the paper"
