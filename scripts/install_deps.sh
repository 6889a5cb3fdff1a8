#!/usr/bin/env bash
# Installs the Debian packages prestage needs (build, tests, figures) and, when asked with
# --interop, the pinned npm packages used as the external reference (snarkjs, circom2).
# Idempotent: installs only what is missing. Runs as root (or with sudo when available).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pkgs=(cmake g++ make ninja-build pkg-config git
      libboost-test-dev libboost-iostreams-dev libboost-filesystem-dev
      libeigen3-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libgmp-dev libssl-dev
      gnuplot-nox libgnuplot-iostream-dev jq python3)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO=sudo
if [ ${#missing[@]} -gt 0 ]; then
  echo "install_deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [[ " $* " == *" --interop "* ]]; then
  if ! command -v node >/dev/null; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm
  fi
  # Pinned versions: see tests/interop/package.json.
  (cd "$here/tests/interop" && [ -f package.json ] && npm ci --no-audit --no-fund --silent)
fi
