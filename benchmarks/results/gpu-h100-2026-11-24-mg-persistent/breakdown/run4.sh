cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout 120 bin/program_bench --breakdown --git-revision $(cat REVISION) --out $OUT/program_bench_breakdown.json > $OUT/program_bench_breakdown.log 2>&1; echo "rc=$?"
cat $OUT/program_bench_breakdown.log
