# Run 1 (H200): per-block sweep times of the resident PERKS kernel on small domains (where issue 6's 2.5x is furthest),
# with PERKSOLVE_PERKS_TRACE and a diagnostic build (cmake --preset cuda -DPERKSOLVE_PERKS_TRACE=ON) of revision 6e9fc62
# (LT: its perks_bench, libperksolve.so.0 and libperksolve_cuda.so.0); the other libraries from the status run's bundle.
# Per sweep and block the trace has three stamps: the start, the block done with its sweep (work), past the wait for
# its neighbouring bricks (the step between sweeps). The cases: the weakest of each kind in the status run.
# Usage: B=unpacked bundle LT=dir with the traced binaries OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for cs in 3d13pt:f64:126:apply 2d13pt:f64:1423:apply 2d25pt:f64:1577:apply 3d27pt:f64:126:apply \
          2d5pt:f64:1013:jacobi 2d17pt:f64:1013:jacobi 3d27pt:f64:95:jacobi 3d13pt:f64:95:jacobi; do
  IFS=: read -r c p n sw <<< "$cs"
  t=$SECONDS
  LD_LIBRARY_PATH=$LT:$PWD/lib:$FB PERKSOLVE_PERKS_TRACE=$W/trace.txt timeout 60 $LT/perks_bench --cases $c --precision $p \
    --side $n --sweeps 20 --reps 1 --kernel resident --sweep $sw > $W/trace_${c}_${p}_$sw.log 2>&1
  echo "traced resident $c $p $n $sw rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "^$c " $W/trace_${c}_${p}_$sw.log | tee -a $S
done
grep -E "^perks trace|mean of sweeps|blocks by mean" $W/trace.txt | tee -a $S
cp $W/trace.txt $OUT/
tar -C $W -cJf $OUT/run1_logs.tar.xz .
