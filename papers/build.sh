#!/usr/bin/env bash
# Builds papers/build/prestage.pdf from the committed results:
#   1. installs the missing Debian packages (jq, LaTeX: texlive-latex-base and
#      texlive-latex-recommended, lmodern; poppler-utils for looking at the pages) and builds the `sim`
#      preset's prestage and prestage-plot unless BUILD_DIR holds them;
#   2. reruns the simulated experiments (experiments/run_all.sh, experiments/05_validation/run.sh:
#      deterministic, from the committed scenario files, calibrations and measured runs) into
#      papers/build/exp and papers/build/val;
#   3. regenerates papers/prestage/numbers.tex and papers/prestage/generated/*.tex
#      (papers/gen_numbers.sh; commit them when they change);
#      (experiments/05_validation/figures.sh adds experiment 05's figures);
#   4. runs pdflatex twice (references) in papers/prestage, output in papers/build/.
# usage: papers/build.sh [BUILD_DIR]     (default: build/sim, built here when missing)
# With PAPER_PAGES=1 it also renders every page to papers/build/pages/page-N.png (pdftoppm).
# Measured here (2-core VM shared with other jobs, packages and build present): see papers/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build/sim}
case $build in /*) ;; *) build=$PWD/$build ;; esac
out=$here/build

pkgs=(jq texlive-latex-base texlive-latex-recommended lmodern poppler-utils)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO=sudo
  echo "papers/build.sh: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -x "$build/apps/prestage/prestage" ] || [ ! -x "$build/experiments/plot/prestage-plot" ]; then
  [ "$build" = "$root/build/sim" ] || { echo "papers/build.sh: $build lacks prestage or prestage-plot" >&2; exit 2; }
  (cd "$root" && bash scripts/install_deps.sh && cmake --preset sim >/dev/null && cmake --build --preset sim -j2)
fi

mkdir -p "$out"
# The experiment scripts refuse folders they did not write; these are theirs (stamped) or new.
bash "$root/experiments/run_all.sh" "$build" "$out/exp" >"$out/run_all.log"
bash "$root/experiments/05_validation/run.sh" "$out/val" "$build" >"$out/validation.log"
bash "$root/experiments/05_validation/figures.sh" "$out/val" "$build" >>"$out/validation.log"
bash "$here/gen_numbers.sh" "$out/exp" "$out/val" "$here/prestage"

cd "$here/prestage"
for pass in 1 2; do
  if ! pdflatex -interaction=nonstopmode -halt-on-error -output-directory "$out" paper.tex >"$out/pdflatex.log" 2>&1; then
    grep -E '^!|^l\.[0-9]+|Error' "$out/pdflatex.log" | head -20 >&2
    echo "papers/build.sh: pdflatex failed (pass $pass), log: $out/pdflatex.log" >&2
    exit 3
  fi
done
if grep -qE 'Warning: (Reference|Citation).*undefined|Overfull \\hbox' "$out/pdflatex.log"; then
  echo "papers/build.sh: warnings in $out/pdflatex.log:" >&2
  grep -E 'Warning: (Reference|Citation).*undefined|Overfull \\hbox' "$out/pdflatex.log" >&2
fi
mv "$out/paper.pdf" "$out/prestage.pdf"
echo "papers/build.sh: $out/prestage.pdf ($(pdfinfo "$out/prestage.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }') pages)"
if [ "${PAPER_PAGES:-0}" = 1 ]; then
  rm -rf "$out/pages"; mkdir -p "$out/pages"
  pdftoppm -r 80 -png "$out/prestage.pdf" "$out/pages/page"
  echo "papers/build.sh: pages in $out/pages/"
fi
