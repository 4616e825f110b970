cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
timeout 200 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "tests rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head
