# Run 4 (H200), diagnostic only (a build whose pipelined kernel skips the per-item ghost fill; results of the
# benchmark's faces, vertex Dirichlet, are all constant ghosts, so its output is unchanged there): does the item
# hook cost the plane loop its uniform registers? ncu instruction counts and perks_bench vs base 60438e2.
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log
NCU=/usr/local/cuda/bin/ncu
for c in "2d21pt 6144" "2ds25pt 5095" "3d27pt 512" "poisson 512" "3d13pt 256"; do
  set -- $c
  for v in new base; do
    if [ $v = base ]; then LP=$PWD/base; else LP=; fi
    LD_LIBRARY_PATH=$LP timeout 90 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 5 > $W/perks_$1_$v.log 2>&1
    echo "$v $(grep -E "^$1 " $W/perks_$1_$v.log)" | tee -a $W/summary.txt
  done
done
for c in "2d21pt 6144" "3d27pt 512"; do
  set -- $c
  timeout 150 $NCU --clock-control none -k regex:perks_pipelined -c 1 --section SpeedOfLight --section SourceCounters -o $W/pip_$1 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 1 --sweeps 10 --kernel pipelined > $W/ncu_pip_$1.out 2>&1; echo "ncu pip $1 rc=$?" | tee -a $W/summary.txt
  $NCU --import $W/pip_$1.ncu-rep --page source --csv --print-source sass > $W/sass_pip_$1.csv 2>&1; gzip $W/sass_pip_$1.csv
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
