# Run 4 (H200): where a resident Jacobi sweep's extra time goes. The bundle of run 3 (879fe46), unpacked at $B.
# Apply and Jacobi sweeps on the same domains (2d5pt fp64 789^2, 3d7pt fp64 95^3), then ncu (warp-state samples
# per SASS line) of the resident kernel in both sweep kinds on 2d5pt fp64 789^2.
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
for c in "2d5pt 789" "3d7pt 95" "2d17pt 1013"; do set -- $c
  for k in apply jacobi; do
    timeout 60 bin/perks_bench --cases $1 --precision f64 --side $2 --kernel resident --sweep $k --out $W/side_$1_$k.json > $W/side_$1_$k.log 2>&1
    echo "$1 $2 $k rc=$? $(grep -o 'persistent [0-9.e-]* s' $W/side_$1_$k.log)" | tee -a $W/summary.txt
  done
done
for k in apply jacobi; do
  t=$SECONDS; timeout 120 /usr/local/cuda/bin/ncu --clock-control none -k regex:perks_resident -c 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters -o $W/ncu_$k bin/perks_bench --cases 2d5pt --precision f64 --side 789 --reps 1 --kernel resident --sweep $k > $W/ncu_$k.log 2>&1
  /usr/local/cuda/bin/ncu -i $W/ncu_$k.ncu-rep --page source --csv --print-source sass > $W/ncu_${k}_sass.csv 2>/dev/null
  /usr/local/cuda/bin/ncu -i $W/ncu_$k.ncu-rep --page details > $W/ncu_${k}_details.txt 2>/dev/null
  rm -f $W/ncu_$k.ncu-rep; echo "ncu $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
