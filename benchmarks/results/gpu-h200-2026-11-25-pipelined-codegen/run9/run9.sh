# Run 9 (H200): the revision kept (face phase for 3D radius 1 and 2D radius >= 5, per-item fill elsewhere).
# PERKS GPU tests, the full GPU suite, perks_bench (all shapes and classes, JSON) twice, base 60438e2 once in
# between (LD_LIBRARY_PATH=base). Usage: OUT=dir bash run9.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -3 $W/tests_all.log | tee -a $W/summary.txt
for v in new1 base new2; do
  if [ $v = base ]; then LP=$PWD/base; R=60438e2; else LP=; R=$(cat REVISION); fi
  t=$SECONDS; LD_LIBRARY_PATH=$LP timeout 100 bin/perks_bench --git-revision "$R" --out $W/perks_bench_$v.json > $W/perks_bench_$v.log 2>&1; echo "perks_bench $v rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep geometric $W/perks_bench_$v.log | sed "s/^/$v /" | tee -a $W/summary.txt
  grep ' large ' $W/perks_bench_$v.log | awk -v v=$v '{for(i=1;i<=NF;i++) if($i=="speed-up" && $(i+1)<0.98) print v, "below 0.98:", $1, $2, $(i+1)}' | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
