# Run 4 (H200): the final review's mend of the resident plane loop (one unrolled loop for the rotating and the
# gap-phased shifted sums instead of two copies; the same template arguments per step). M = this bundle. The resident
# kernels' registers and stack by name (cuobjdump) in M, compared with run 3's F (the code before the mend); the GPU
# suite with M; perks_bench jacobi and apply once each; racecheck on the resident sanitizer cases, synccheck and memcheck
# on those and ResidentShortChunksDouble.
# Usage: B=unpacked bundle R3=this folder's ../run3 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$OBJ --dump-resource-usage lib/libperksolve_cuda.so.0 2>&1 | grep -A1 "perks_resident_kernel" | grep -v "^--" \
  | paste - - | sed -E 's/.*Function ([^:]*):.*(REG:[0-9]+) (STACK:[0-9]+).*/\2 \3 \1/' | sort -k3 > $OUT/resident_kernels_regs_M.txt
echo "resident kernels M (count REG STACK):" $(awk '{print $1, $2}' $OUT/resident_kernels_regs_M.txt | sort | uniq -c | tr '\n' ';') | tee -a $S
echo "kernels whose registers or stack differ from run 3's F: $(diff $R3/resident_kernels_regs_F.txt $OUT/resident_kernels_regs_M.txt | grep -c '^>')" | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (M) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
for m in jacobi apply; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --sweep $m --git-revision "$R-M" --out $W/pb_${m}_M.json > $W/pb_${m}_M.log 2>&1
  echo "perks_bench $m M rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${m}_M.log | sed "s/^/$m M /" | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPerks.ResidentSanitizerCase*'; [ $tool = racecheck ] || f="$f:CudaPerks.ResidentShortChunksDouble"
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
tar -C $W -cJf $OUT/run4_logs.tar.xz .
