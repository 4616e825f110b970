cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
for n in 63 127 255; do
  timeout 120 bin/solver_bench --precision f64 --cases wu,persistent --n $n --mg-cycles 20 --persistent-cells 0,4096,32768,262144,2097152 --git-revision $R --out $OUT/solver_bench_$n.json > $OUT/solver_bench_$n.log 2>&1; echo "n=$n rc=$?"
  grep -A14 "^case" $OUT/solver_bench_$n.log | cut -c1-118
done
