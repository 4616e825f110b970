# Run 3 (H200): where a resident sweep's time goes, by phase. A diagnostic build (cmake --preset cuda
# -DPERKSOLVE_PERKS_TRACE=ON) of this revision (LT: its perks_bench, libperksolve.so.0 and libperksolve_cuda.so.0);
# the other libraries from the bundle. Per sweep and block the resident kernel now stamps five times: the start, its
# loads done (face planes included), its plane loop done, the block done with its sweep, past the step between sweeps.
# Each case runs twice, untraced (the diagnostic build's own cost: more registers) and traced. The cases: run 1's
# weakest small cases of each kind, and the strongest for comparison.
# Usage: B=unpacked bundle LT=dir with the traced binaries OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for cs in 3d13pt:f64:126:apply 2d13pt:f64:1423:apply 2d25pt:f64:1577:apply 3d27pt:f64:126:apply 2d5pt:f64:1712:apply \
          2d5pt:f64:1013:jacobi 2d17pt:f64:1013:jacobi 3d27pt:f64:95:jacobi 3d13pt:f64:95:jacobi 2d21pt:f32:1658:jacobi; do
  IFS=: read -r c p n sw <<< "$cs"
  for tr in 0 1; do
    t=$SECONDS
    if [ $tr = 1 ]; then export PERKSOLVE_PERKS_TRACE=$W/trace.txt; else unset PERKSOLVE_PERKS_TRACE; fi
    LD_LIBRARY_PATH=$LT:$PWD/lib:$FB timeout 60 $LT/perks_bench --cases $c --precision $p \
      --side $n --sweeps 20 --reps 3 --kernel resident --sweep $sw > $W/trace${tr}_${c}_${p}_$sw.log 2>&1
    echo "resident $c $p $n $sw traced=$tr rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "^$c " $W/trace${tr}_${c}_${p}_$sw.log | tee -a $S
  done
done
unset PERKSOLVE_PERKS_TRACE
grep -E "^perks trace|mean of sweeps|blocks by mean|phases of" $W/trace.txt | tee -a $S
cp $W/trace.txt $OUT/
tar -C $W -cJf $OUT/run3_logs.tar.xz .
