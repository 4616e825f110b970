# Run 2 (H200): per-SASS counts of the per-sweep stencil kernels (3d27pt 512^3, 2d21pt 6144^2 fp64) to compare with
# the pipelined kernel's (run 1). Usage: OUT=dir bash run2.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
NCU=/usr/local/cuda/bin/ncu
ls /usr/local/cuda/bin > $W/cuda_bin.txt
for c in "2d21pt 6144" "3d27pt 512"; do
  set -- $c
  t=$SECONDS; timeout 150 $NCU --clock-control none -k regex:stream_stencil_kernel -s 4 -c 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters -o $W/sw_$1 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 1 --sweeps 10 --kernel pipelined > $W/ncu_sw_$1.out 2>&1; echo "ncu sweep $1 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU --import $W/sw_$1.ncu-rep --page source --csv --print-source sass > $W/sass_sw_$1.csv 2>&1; gzip $W/sass_sw_$1.csv
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
