#!/usr/bin/env bash
# Installs the Debian 12 packages perksolve needs, and nothing else. Idempotent: packages already
# installed are left alone. As root it runs apt-get; otherwise it prints the exact command and
# exits 1 when something is missing.
#   scripts/setup.sh            build + test dependencies
#   scripts/setup.sh --print    only print the package list
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git python3
  libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev
  libopenmpi-dev openmpi-bin
  libhdf5-openmpi-dev
  libgtest-dev libgmock-dev
  libtomlplusplus-dev libcli11-dev libfmt-dev nlohmann-json3-dev
  # output layer tests and tools: h5dump, h5py + matplotlib (scripts/plot_output.py), headless ParaView
  hdf5-tools python3-h5py python3-numpy python3-matplotlib paraview python3-paraview xvfb xauth
)

if [[ "${1:-}" == "--print" ]]; then
  printf '%s\n' "${PACKAGES[@]}"
  exit 0
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: run as root:  apt-get update && $cmd" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
$cmd
