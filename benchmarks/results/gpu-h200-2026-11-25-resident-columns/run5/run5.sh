# Run 5 (H200): perks_bench with Jacobi sweeps (--sweep jacobi), kept revision twice and base 93b476a once;
# the Jacobi-mode check of the consecutive-column resident tiles.
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
for v in new1 base new2; do
  if [ $v = base ]; then LP=$PWD/base; R=93b476a; else LP=; R=$(cat REVISION); fi
  t=$SECONDS; LD_LIBRARY_PATH=$LP timeout 100 bin/perks_bench --git-revision "$R" --sweep jacobi --out $W/perks_bench_jacobi_$v.json > $W/perks_bench_jacobi_$v.log 2>&1; echo "perks_bench $v rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep geometric $W/perks_bench_jacobi_$v.log | sed "s/^/$v /" | tee -a $W/summary.txt
  grep ' large ' $W/perks_bench_jacobi_$v.log | awk -v v=$v '{for(i=1;i<=NF;i++) if($i=="speed-up" && $(i+1)<0.98) print v, "below 0.98:", $1, $2, $(i+1)}' | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
