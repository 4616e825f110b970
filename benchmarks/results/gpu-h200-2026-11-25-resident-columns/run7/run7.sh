# Run 7 (H200): perks_bench after its request helper (benchmark code only), a few cases in both sweep kinds.
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
for k in apply jacobi; do
  timeout 120 bin/perks_bench --git-revision "$(cat REVISION)" --cases 2d5pt,2d17pt,3d7pt --sweep $k --out $W/perks_bench_$k.json > $W/perks_bench_$k.log 2>&1; echo "perks_bench $k rc=$?" | tee -a $W/summary.txt
  grep -E "small|geometric" $W/perks_bench_$k.log | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
