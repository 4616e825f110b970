#!/usr/bin/env bash
# Writing a 256^3 double field (128 MiB) from 4 ranks through perksolve's HDF5 writer vs dd writing
# the same bytes to the same disk, page-cache (buffered) and durable (fsync / conv=fdatasync).
#   benchmarks/io/run_io_bench.sh [BUILD_DIR=build/cpu] [DIR=a directory on the disk to test] [NP=4] [REPS=5]
# Prints a table and writes benchmarks/results/io_write_256.json.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build/cpu}
dir=${2:-$root/build/io_bench_tmp}
np=${NP:-4}
reps=${REPS:-5}
n=${N:-256}
exe=$build/benchmarks/io/io_write_bench
[[ -x $exe ]] || { echo "build first: cmake --build $build --target io_write_bench" >&2; exit 1; }
mkdir -p "$dir" "$root/benchmarks/results"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bytes=$((n * n * n * 8))
mib=$((bytes / 1048576))

calc() { awk "BEGIN { printf \"%.6f\", $* }"; }

dd_time() {  # median seconds of dd writing $bytes ($1: extra dd flags)
  local t=()
  for ((r = 0; r < reps; r++)); do
    rm -f "$dir/dd.bin"
    local s e
    s=$(date +%s.%N)
    dd if=/dev/zero of="$dir/dd.bin" bs=1M count="$mib" $1 status=none
    e=$(date +%s.%N)
    t+=("$(calc "$e - $s")")
  done
  rm -f "$dir/dd.bin"
  printf '%s\n' "${t[@]}" | sort -g | sed -n "$((reps / 2 + 1))p"
}

results=()
printf '%-34s %10s %10s %8s\n' "writer" "median [s]" "GB/s" "vs dd"
for sync in no yes; do
  if [[ $sync == yes ]]; then ddflags="conv=fdatasync"; syncflag=--sync; else ddflags=""; syncflag=""; fi
  tdd=$(dd_time "$ddflags")
  printf '%-34s %10.4f %10.3f %8s\n' "dd bs=1M $ddflags" "$tdd" "$(calc "$bytes / $tdd / 1e9")" "1.00"
  results+=("{\"what\": \"dd\", \"sync\": $([[ $sync == yes ]] && echo true || echo false), \"bytes\": $bytes, \"median_s\": $tdd}")
  for mode in collective gather; do
    line=$(mpirun -n "$np" --oversubscribe "$exe" --n "$n" --reps "$reps" --mode "$mode" --dir "$dir" $syncflag)
    t=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['median_s'])" "$line")
    printf '%-34s %10.4f %10.3f %8.2f\n' "perksolve HDF5 $mode np=$np $syncflag" "$t" "$(calc "$bytes / $t / 1e9")" \
      "$(calc "$t / $tdd")"
    results+=("$line")
  done
done
{
  echo "{\"benchmark\": \"io_write_${n}\", \"host\": \"$(hostname)\", \"date\": \"$(date -Iseconds)\", \"dir\": \"$dir\", \"results\": ["
  for ((i = 0; i < ${#results[@]}; i++)); do echo "  ${results[$i]}$([[ $i -lt $((${#results[@]} - 1)) ]] && echo ,)"; done
  echo "]}"
} > "$root/benchmarks/results/io_write_${n}.json"
echo "wrote benchmarks/results/io_write_${n}.json"
