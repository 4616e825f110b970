# Run 4 (H200): where the resident kernel's Jacobi sweeps spend their time on the small domains where it gains least
# (fp64 2d5pt and 2d9pt at 789^2, 3d13pt at 87^3, 3d7pt at 95^3; fp32 2d21pt at 1496^2, 2d17pt at 1296^2):
# PERKSOLVE_PERKS_TRACE with LT (a build of this session's tree configured with -DPERKSOLVE_PERKS_TRACE=ON), and the
# same cases untraced with the bundle's library (K of runs 2-3) for the times.
# Usage: B=unpacked bundle LT=dir with the traced libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for cs in 2d5pt:f64:789 2d9pt:f64:789 3d13pt:f64:87 3d7pt:f64:95 2d21pt:f32:1496 2d17pt:f32:1296; do
  IFS=: read -r c p n <<< "$cs"
  t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --cases $c --precision $p --side $n --sweeps 20 --kernel resident \
    --sweep jacobi > $W/plain_${c}_$p.log 2>&1
  echo "untraced resident $c $p $n jacobi rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "^$c " $W/plain_${c}_$p.log | tee -a $S
  t=$SECONDS
  LD_LIBRARY_PATH=$LT:$PWD/lib:$FB PERKSOLVE_PERKS_TRACE=$W/trace.txt timeout 60 bin/perks_bench --cases $c --precision $p \
    --side $n --sweeps 20 --reps 1 --kernel resident --sweep jacobi > $W/trace_${c}_$p.log 2>&1
  echo "traced resident $c $p $n jacobi rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "^$c " $W/trace_${c}_$p.log | tee -a $S
done
grep -E "^perks trace|mean of sweeps|blocks by mean" $W/trace.txt | tee -a $S
cp $W/trace.txt $OUT/
tar -C $W -cJf $OUT/run4_logs.tar.xz .
