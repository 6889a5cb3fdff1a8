#!/usr/bin/env bash
# PTX of the project's CUDA sources, for checking that a refactor changed no kernel: compiles each
# .cu file of compile_commands.json (a configured CUDA build, preset ci or gpu) to PTX with the
# build's own flags (-ptx for -c, no -lineinfo: line numbers move with any edit), then writes a
# normalised copy in which every mangled symbol (_Z...) is replaced by its order of first
# appearance (so a renamed namespace or type leaves the file unchanged, a changed instruction
# does not).
# usage: scripts/ptx_snapshot.sh BUILD_DIR OUT_DIR [FILTER_REGEX]
#   OUT_DIR/<path with / as _>.ptx (raw) and .norm.ptx (normalised); compare two snapshots with
#   diff -r -x '*[^m].ptx' A B  (or: for f in A/*.norm.ptx; do cmp "$f" "B/${f##*/}"; done).
# The sources compiled are those under the build's source directory at the moment of the call.
set -euo pipefail
build=${1:?build dir}; out=${2:?out dir}; filter=${3:-.}
mkdir -p "$out"
command -v jq >/dev/null || { echo "ptx_snapshot.sh: jq is required" >&2; exit 2; }
jq -r '.[] | select(.file | endswith(".cu")) | [.directory, .file, .command] | @tsv' \
  "$build/compile_commands.json" | while IFS=$'\t' read -r dir file cmd; do
  [[ $file =~ $filter ]] || continue
  rel=$(realpath --relative-to="$(git -C "$(dirname "$file")" rev-parse --show-toplevel)" "$file")
  name=${rel//\//_}
  # -c X -o Y.o -> -ptx X -o OUT.ptx; drop -lineinfo (line numbers are not code)
  ptx_cmd=$(sed -E -e 's/ -c / -ptx /' -e "s# -o [^ ]+# -o $(realpath "$out")/$name.ptx#" \
    -e 's/ -lineinfo//' -e 's/--generate-code=arch=compute_([0-9]+),code=\[[^]]*\]/-arch=compute_\1/' <<<"$cmd")
  (cd "$dir" && eval "$ptx_cmd") || { echo "ptx_snapshot.sh: $rel failed" >&2; exit 1; }
  # Normalise: each distinct mangled name -> S<k> in order of first appearance; drop comments.
  perl -ne 'BEGIN{%m=();$k=0} next if m{^\s*//}; s/(_Z[A-Za-z0-9_\$]+)/exists $m{$1} ? $m{$1} : ($m{$1}="S".$k++)/ge; print' \
    "$out/$name.ptx" >"$out/$name.norm.ptx"
  echo "ptx: $rel ($(wc -l <"$out/$name.norm.ptx") lines)"
done
