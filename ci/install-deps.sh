#!/usr/bin/env bash
# Installs tbpeta's build and test dependencies from Debian 12 packages. Idempotent: packages already
# present are skipped by apt, and nothing is done when every package is installed.
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config
      libpetsc-complex3.18-dev libslepc-complex3.18-dev
      libhdf5-openmpi-dev openmpi-bin libopenmpi-dev
      libpetsc64-complex3.18-dev libslepc64-complex3.18-dev
      libgtest-dev libopenblas0-serial liblapack-dev
      python3-numpy python3-h5py python3-matplotlib
      clang libclang-rt-14-dev clang-format black)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "ci/install-deps.sh: all ${#pkgs[@]} packages already installed"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "ci/install-deps.sh: installed ${missing[*]}"
