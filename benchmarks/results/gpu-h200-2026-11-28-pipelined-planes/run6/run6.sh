# Run 6 (H200): the face phase with 8 ghost cells per thread and step (C: a local edit of 96cc224,
# pipelined_face_phase_batch) against the production library (A, 96cc224's bundle, 4 per step) on the fp32 shapes that
# run the face phase (3D radius 1, 3d13pt on bulk rows, 2D radius 5-6), perks_bench twice each; the GPU suite with C
# (automatic and large tier forced); ncu source-level warp sampling of A's pipelined kernel on 3d13pt fp32 at 448^3.
# Usage: B=unpacked bundle LIBC=folder with C's libperksolve_cuda.so.0 OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
libpath() { case $1 in c) echo $LIBC:$FB ;; *) echo $FB ;; esac; }
CASES=3d7pt,3d13pt,3d17pt,3d27pt,poisson,2d21pt,2ds25pt
for k in 1 2; do
  for v in a c; do
    t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 80 bin/perks_bench --precision f32 --cases $CASES --git-revision "$R-$v" --out $W/perks_f32_${v}_$k.json > $W/perks_f32_${v}_$k.log 2>&1
    echo "perks_bench fp32 face-phase shapes $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_f32_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
  done
  paste <(awk '/speed-up/ && $3 != "small" {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_f32_a_$k.log) \
        <(awk '/speed-up/ && $3 != "small" {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_f32_c_$k.log) | sed "s/^/a c $k: /" | tee -a $S
done
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$(libpath c) timeout 110 bin/test_gpu_backend > $W/tests_c_$mode.log 2>&1
  else LD_LIBRARY_PATH=$(libpath c) PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 110 bin/test_gpu_backend > $W/tests_c_$mode.log 2>&1; fi
  echo "test_gpu_backend c $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_c_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_c_$mode.log | head -20 | tee -a $S
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 90 $NCU --clock-control none -k regex:perks_pipelined_kernel -c 1 --section SourceCounters --section WarpStateStats \
  -o $W/pp_3d13pt_a -f bin/perks_bench --cases 3d13pt --precision f32 --side 448 --sweeps 4 --reps 1 --kernel pipelined > $W/pp_3d13pt_a.ncu.log 2>&1
echo "ncu pp_3d13pt_a rc=$? $((SECONDS-t)) s" | tee -a $S
$NCU -i $W/pp_3d13pt_a.ncu-rep --page source --csv --print-source sass > $W/pp_3d13pt_a.sass.csv 2>&1
$NCU -i $W/pp_3d13pt_a.ncu-rep --page details > $W/pp_3d13pt_a.details.txt 2>&1
grep -E "Duration|Registers Per|Warp Cycles Per Issued" $W/pp_3d13pt_a.details.txt | tee -a $S
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/logs.tar.xz .
