#!/usr/bin/env bash
# The README's two commands:
#   scripts/quickstart.sh run    install what is missing, build (preset cpu), run inputs/poisson3d.toml
#   scripts/quickstart.sh test   install what is missing, build (preset cpu), run the whole test suite
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-}"
if [[ "$mode" != "run" && "$mode" != "test" ]]; then
  echo "usage: $0 run|test" >&2
  exit 1
fi

bash scripts/setup.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cmake --preset cpu
cmake --build --preset cpu

if [[ "$mode" == "run" ]]; then
  exec build/cpu/framework/app/perksolve inputs/poisson3d.toml
else
  exec ctest --preset cpu
fi
