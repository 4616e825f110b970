# Run 1 (H200): the persistent CSR CG's staged walk with its p gathers issued by cp.async (all of a tile's gathers in
# flight at once). A/B against the previous revision's lib (lib_old/, loaded first through LD_LIBRARY_PATH; the
# binaries are this revision's). The GPU suite, cg_bench on the matrices larger than L2 (alternating new / old, twice),
# the whole cg_bench once, and the 3D 7-point tile sweep (round 17) again after the twelfth round's output addressing.
# Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R (old lib: $(cat lib_old/REVISION))" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
OLD=$PWD/lib_old
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -1 $W/tests_all.log | tee -a $W/summary.txt; grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for k in 1 2; do
  for v in new old; do
    L=; [[ $v == old ]] && L=$OLD
    t=$SECONDS; LD_LIBRARY_PATH=$L timeout 100 bin/cg_bench --reps 9 --precision both --only laplace7_192,laplace27_96,laplace7_128 --large-7 192 --large-27 96 --git-revision "$R-$v" --out $W/cg_large_${v}_$k.json > $W/cg_large_${v}_$k.log 2>&1
    echo "cg_bench large $v $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "^laplace" $W/cg_large_${v}_$k.log | cut -c1-120 | sed "s/^/$v /" | tee -a $W/summary.txt
  done
done
t=$SECONDS; timeout 100 bin/cg_bench --reps 9 --stencil-sizes 32 --large-7 192 --large-27 96 --git-revision "$R" --out $W/cg_bench.json > $W/cg_bench.log 2>&1
echo "cg_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "over the" $W/cg_bench.log | tee -a $W/summary.txt
t=$SECONDS; timeout 150 bin/stencil_sweep --reps 15 --only 3d7pt_blocks > $W/sweep_round17.log 2>&1; echo "stencil_sweep round 17 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round17.log | awk '{print $1,$2,$3,$4,$(NF-3),$(NF-2),$(NF-1),$NF}' | tee -a $W/summary.txt
cd $OUT && gzip -f w/tests_*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
