cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/env.log 2>&1
timeout 240 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "tests rc=$?" >> $OUT/summary.txt
timeout 200 bin/perks_bench --cases 3d7pt,2d5pt --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1; echo "perks_bench rc=$?" >> $OUT/summary.txt
cat $OUT/summary.txt; grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head; cut -c1-130 $OUT/perks_bench.log
