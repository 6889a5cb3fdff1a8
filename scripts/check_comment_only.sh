#!/usr/bin/env bash
# Checks that every C++/CUDA source changed against a base ref (default: main) differs from it
# only in comments and whitespace: both versions go through the preprocessor's comment
# stripping (g++ -fpreprocessed, no macro expansion, no includes), whitespace is collapsed to
# one token-ish unit per line, and the two streams must be identical. String literals are code.
# `#pragma` lines are renamed before stripping, since g++ drops `#pragma once` in a main file.
# Usage: scripts/check_comment_only.sh [BASE_REF]   (exit 1 on any code change)
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-main}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

strip() {  # $1: input file, $2: output file
  sed 's/^\([[:space:]]*\)#[[:space:]]*pragma/\1__check_pragma__/' "$1" >"$tmp/in"
  if ! g++ -fpreprocessed -dD -E -P -x c++ "$tmp/in" 2>"$tmp/err" >"$tmp/pp"; then
    echo "check: g++ failed on $1:"; cat "$tmp/err"; return 1
  fi
  tr -s '[:space:]' '\n' <"$tmp/pp" >"$2"
  [ -s "$2" ] || { echo "check: empty token stream for $1"; return 1; }
}

mapfile -t files < <(git diff --name-only "$base" -- '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' '*.c')
fail=0
n=0
for f in "${files[@]}"; do
  if [ ! -e "$f" ]; then echo "DELETED  $f"; fail=1; continue; fi
  if ! git cat-file -e "$base:$f" 2>/dev/null; then echo "NEW      $f"; fail=1; continue; fi
  git show "$base:$f" >"$tmp/a.src"
  strip "$tmp/a.src" "$tmp/a.tok" || { fail=1; continue; }
  strip "$f" "$tmp/b.tok" || { fail=1; continue; }
  n=$((n + 1))
  if ! diff -q "$tmp/a.tok" "$tmp/b.tok" >/dev/null; then
    echo "CODE     $f"; diff "$tmp/a.tok" "$tmp/b.tok" | head -20; fail=1
  else
    echo "ok       $f"
  fi
done
echo "check: $n file(s) compared against $base, $([ $fail = 0 ] && echo 'comments only' || echo 'FAILED')"
exit $fail
