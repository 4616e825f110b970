cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
timeout 200 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "tests rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head
timeout 200 bin/stencil_bench --git-revision $R --out $OUT/stencil_bench.json > $OUT/stencil_bench.log 2>&1; echo "stencil_bench rc=$?"
timeout 150 bin/perks_bench --cases 3d7pt,2d5pt --git-revision $R --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1; echo "perks_bench rc=$?"
grep -E "^(case|3d7pt|3d27pt|2d5pt|3d13pt|poisson)" $OUT/stencil_bench.log | cut -c1-140 | head -40
grep -iE "geo|mean" $OUT/perks_bench.log | head
