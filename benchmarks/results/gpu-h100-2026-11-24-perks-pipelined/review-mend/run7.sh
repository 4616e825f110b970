cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/env.log 2>&1; cat REVISION >> $OUT/env.log
timeout 200 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "gpu tests rc=$?" >> $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head
timeout 60 bin/perks_bench --cases 3d7pt,3d13pt,2d5pt --side 384 --precision f64 > $OUT/perks_side.log 2>&1
timeout 60 bin/perks_bench --cases 3d7pt,2d5pt --side 126 --precision f64 >> $OUT/perks_side.log 2>&1
grep side $OUT/perks_side.log | cut -c1-150
cat $OUT/summary.txt
