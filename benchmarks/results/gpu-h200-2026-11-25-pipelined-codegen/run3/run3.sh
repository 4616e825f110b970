# Run 3 (H200): the pipelined kernel with the sweep loop written out for even and odd sweeps (6b3105a) against
# the base 60438e2 (base/libperksolve_cuda.so.0 via LD_LIBRARY_PATH), interleaved, on the large fp64 cases that
# were below 0.98; ncu instruction counts of the new pipelined kernel; the PERKS GPU tests.
# Usage: OUT=dir bash run3.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
NCU=/usr/local/cuda/bin/ncu
for rep in 1 2; do
for c in "2d21pt 6144" "2ds25pt 5095" "2d25pt 4651" "2d9pt 6144" "3d27pt 512" "poisson 512" "3d17pt 512" "3d7pt 448" "3d13pt 256"; do
  set -- $c
  for v in new base; do
    if [ $v = base ]; then LP=$PWD/base; else LP=; fi
    LD_LIBRARY_PATH=$LP timeout 90 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 5 > $W/perks_$1_$v.log 2>&1
    echo "$v $(grep -E "^$1 " $W/perks_$1_$v.log)" | tee -a $W/summary.txt
  done
done
done
for c in "2d21pt 6144" "3d27pt 512"; do
  set -- $c
  timeout 150 $NCU --clock-control none -k regex:perks_pipelined -c 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters -o $W/pip_$1 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 1 --sweeps 10 --kernel pipelined > $W/ncu_pip_$1.out 2>&1; echo "ncu pip $1 rc=$?" | tee -a $W/summary.txt
  $NCU --import $W/pip_$1.ncu-rep --page source --csv --print-source sass > $W/sass_pip_$1.csv 2>&1; gzip $W/sass_pip_$1.csv
  $NCU --import $W/pip_$1.ncu-rep --page details > $W/details_pip_$1.txt 2>&1
  grep -E "Duration|DRAM Throughput|Issued Warp" $W/details_pip_$1.txt | tee -a $W/summary.txt
done
timeout 250 bin/test_gpu_backend --gtest_filter='*Perks*:*PERKS*' > $W/tests_perks.log 2>&1; echo "tests rc=$?" | tee -a $W/summary.txt
tail -3 $W/tests_perks.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
