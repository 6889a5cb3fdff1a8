#!/usr/bin/env bash
# System: experiments/run_all.sh and lib.sh's exp_init (issue 16), run as a user runs them, with
# stub prestage / prestage-plot executables (every refusal happens before any is called).
# Expectation: a folder is written into only when it is new, empty or stamped by these scripts,
# and files are removed only when the folder is stamped (.prestage-experiment) and each is on the
# list the experiment wrote of its own files (.prestage-experiment-files); anything else exits 2
# and every file of the user's is still there, byte for byte. Tolerance: none.
# usage: experiment_scripts_test.sh SOURCE_ROOT
set -uo pipefail
root=$(cd "${1:?usage: experiment_scripts_test.sh SOURCE_ROOT}" && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
snap() { (cd "$1" && find . -print0 | sort -z | xargs -0 -I{} sh -c 'if [ -f "{}" ]; then echo "{} $(sha256sum < "{}")"; else echo "{}/"; fi'); }
expect_rc() {  # RC DESC CMD...
  local want=$1 desc=$2
  shift 2
  "$@" >"$work/log" 2>&1
  local rc=$?
  [ "$rc" -eq "$want" ] || { fail "$desc: exit $rc, expected $want"; cat "$work/log" >&2; }
}

# Stubs: they fail, so a script that got past its checks stops at its first run.
build=$work/build
mkdir -p "$build/apps/prestage" "$build/experiments/plot"
printf '#!/bin/sh\necho stub "$@" >&2\nexit 1\n' >"$build/apps/prestage/prestage"
cp "$build/apps/prestage/prestage" "$build/experiments/plot/prestage-plot"
chmod +x "$build/apps/prestage/prestage" "$build/experiments/plot/prestage-plot"

user=$work/user
mkdir -p "$user/data"
echo mine >"$user/notes.txt"
echo "a,b" >"$user/data/keep.csv"
before=$(snap "$work/user")

# 1. run_all.sh into a folder of the user's (also as ".", and with a trailing slash).
expect_rc 2 "run_all.sh into a user folder" bash "$root/experiments/run_all.sh" "$build" "$user"
expect_rc 2 "run_all.sh into a user folder/" bash "$root/experiments/run_all.sh" "$build" "$user/"
expect_rc 2 "run_all.sh into ." sh -c "cd '$user' && bash '$root/experiments/run_all.sh' '$build' ."
# 2. run.sh into a folder of the user's.
expect_rc 2 "run.sh into a user folder" bash "$root/experiments/01_prestage_one_worker/run.sh" "$user" "$build"
grep -q "refusing" "$work/log" || fail "run.sh: no refusal message"
[ "$(snap "$work/user")" = "$before" ] || fail "the user's files changed"

# 3. A run_all.sh output whose experiment folder is the user's (no stamp), or a symlink to it:
#    refused before anything is removed.
out=$work/out
mkdir -p "$out"
echo "experiments/run_all.sh: this folder is its output" >"$out/.prestage-run-all"
mkdir -p "$out/02_two_workers_naive_16g"
echo "mine" >"$out/02_two_workers_naive_16g/mine.txt"
mkdir -p "$out/01_prestage_one_worker"
echo stamp >"$out/01_prestage_one_worker/.prestage-experiment"
echo old >"$out/01_prestage_one_worker/REPORT.md"
expect_rc 2 "run_all.sh over an unstamped experiment folder" bash "$root/experiments/run_all.sh" "$build" "$out"
[ -f "$out/02_two_workers_naive_16g/mine.txt" ] || fail "unstamped experiment folder removed"
[ -f "$out/01_prestage_one_worker/REPORT.md" ] || fail "removed a folder before refusing"
rm -rf "${out:?}/02_two_workers_naive_16g"
ln -s "$user" "$out/02_two_workers_naive_16g"
expect_rc 2 "run_all.sh over a symlinked experiment folder" bash "$root/experiments/run_all.sh" "$build" "$out"
rm "$out/02_two_workers_naive_16g"
[ "$(snap "$work/user")" = "$before" ] || fail "the user's files changed"

# 4. A stamped folder with a user's file beside the files the experiment listed as its own:
#    refused (exit 2) before anything is removed, the user's file kept.
printf '%s\n' .prestage-experiment .prestage-experiment-files REPORT.md \
  >"$out/01_prestage_one_worker/.prestage-experiment-files"
echo "my analysis" >"$out/01_prestage_one_worker/analysis.md"
expect_rc 2 "run_all.sh over a stamped folder holding a user's file" \
  bash "$root/experiments/run_all.sh" "$build" "$out"
grep -q "analysis.md" "$work/log" || fail "the refusal does not name the user's file"
[ -f "$out/01_prestage_one_worker/analysis.md" ] || fail "the user's file in a stamped folder removed"
[ -f "$out/01_prestage_one_worker/REPORT.md" ] || fail "removed a listed file before refusing"
rm "$out/01_prestage_one_worker/analysis.md"

# 5. Its own stamped and listed folder: its listed files are removed and it is regenerated (the
#    stub then fails the run: exit != 0).
"$root/experiments/run_all.sh" "$build" "$out" >"$work/log" 2>&1 && fail "stub run succeeded"
[ -f "$out/01_prestage_one_worker/REPORT.md" ] && fail "stamped experiment folder not regenerated"
[ -f "$out/01_prestage_one_worker/.prestage-experiment" ] || fail "exp_init wrote no stamp"
[ "$(snap "$work/user")" = "$before" ] || fail "the user's files changed"

# 6. A stamped folder without the list (an interrupted run): regenerated in place, nothing removed.
echo old >"$out/01_prestage_one_worker/REPORT.md"
"$root/experiments/run_all.sh" "$build" "$out" >"$work/log" 2>&1 && fail "stub run succeeded"
[ -f "$out/01_prestage_one_worker/REPORT.md" ] || fail "an unlisted stamped folder had files removed"

[ "$fails" -eq 0 ] && echo "experiment scripts: all checks passed"
exit $((fails > 0))
