# Run 6 (H200): a diagnostic for the next session: PERKSOLVE_PERKS_TRACE on the kept kernels (a library built with
# -DPERKSOLVE_PERKS_TRACE=ON from the commit of run 4's library, LT, loaded with the bundle's perks_bench). Per-block
# sweep timing of the resident kernel on small domains, 20 sweeps: 2d17pt, 2d13pt and 2d5pt fp32 apply at 2031^2,
# 2d13pt fp64 apply at 1423^2, 3d13pt fp64 apply at 111^3 and Jacobi at 87^3.
# Usage: B=unpacked bundle LT=dir with the traced libperksolve_cuda.so.0 OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for cs in 2d17pt:f32:2031:apply 2d13pt:f32:2031:apply 2d5pt:f32:2031:apply 2d13pt:f64:1423:apply \
          3d13pt:f64:111:apply 3d13pt:f64:87:jacobi; do
  IFS=: read -r c p n sw <<< "$cs"
  t=$SECONDS
  LD_LIBRARY_PATH=$LT:$PWD/lib:$FB PERKSOLVE_PERKS_TRACE=$W/trace.txt timeout 60 bin/perks_bench --cases $c --precision $p --side $n \
    --sweeps 20 --reps 1 --kernel resident --sweep $sw > $W/trace_${c}_${p}_$sw.log 2>&1
  echo "traced resident $c $p $n $sw rc=$? $((SECONDS-t)) s" | tee -a $S
done
grep -E "^perks trace|mean of sweeps" $W/trace.txt | tee -a $S
cp $W/trace.txt $OUT/
tar -C $W -cJf $OUT/run6_logs.tar.xz .
