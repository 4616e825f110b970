# Run 4 (H200): compute-sanitizer racecheck on the pipelined row-tile sanitizer cases (40 rows; fp32 2d13pt takes the
# row-segment per-item fill, 2d21pt the row-segment face phase, 2d25pt the cell-by-cell fill at 80 registers; fp64
# 2d13pt the row-segment inline fill); then PERKSOLVE_PERKS_TRACE with the traced build of run 3's library F (LT):
# per-block sweep times of the pipelined kernels still below 0.98 on large domains.
# Usage: B=unpacked bundle (F) LT=dir with F's traced libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for f in CudaPerks.PipelinedSanitizerCaseRowTileFloat CudaPerks.PipelinedSanitizerCaseRowTileDouble; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 $CS --tool racecheck bin/test_gpu_backend --gtest_filter="$f" > $W/racecheck_$f.log 2>&1
  echo "compute-sanitizer racecheck $f rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "RACECHECK SUMMARY|PASSED|FAILED" $W/racecheck_$f.log | head -4 | tee -a $S
done
for cs in 2d17pt:f32:6144:jacobi 2d17pt:f64:4096:jacobi 3d13pt:f32:384:jacobi 3d13pt:f64:384:jacobi \
          2ds25pt:f64:6144:apply 2d21pt:f64:6144:apply 2d25pt:f32:6898:apply; do
  IFS=: read -r c p n sw <<< "$cs"
  t=$SECONDS
  LD_LIBRARY_PATH=$LT:$PWD/lib:$FB PERKSOLVE_PERKS_TRACE=$W/trace.txt timeout 60 bin/perks_bench --cases $c --precision $p \
    --side $n --sweeps 20 --reps 1 --kernel pipelined --sweep $sw > $W/trace_${c}_${p}_$sw.log 2>&1
  echo "traced pipelined $c $p $n $sw rc=$? $((SECONDS-t)) s" | tee -a $S
done
grep -E "^perks trace|mean of sweeps|blocks by mean" $W/trace.txt | tee -a $S
cp $W/trace.txt $OUT/
tar -C $W -cJf $OUT/run4_logs.tar.xz .
