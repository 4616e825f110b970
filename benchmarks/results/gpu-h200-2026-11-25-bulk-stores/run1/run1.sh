# Run 1 (H200): stencil_sweep round 15 (bulk (TMA) stores of the output plane, VEC 5; the ring without a block
# barrier, VEC 4) around the production fast-memory 3D tiles at 512^3, the same on an unaligned layout (plain-store
# fallback, bit checks only matter there), stencil_bench 3d7pt, and the GPU tests. Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION 2>/dev/null || grep -m1 revision MANIFEST)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/stencil_sweep --only 3d7pt_store > $W/sweep_round15.log 2>&1; echo "sweep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "copy reference|ratio" $W/sweep_round15.log | awk '{print $1,$2,$3,$4,$(NF-4),$(NF-3),$(NF-1),$NF}' | tee -a $W/summary.txt
t=$SECONDS; timeout 120 bin/stencil_sweep --only 3d7pt_store --n3d 203 --row-align 1 --reps 3 > $W/sweep_round15_unaligned.log 2>&1; echo "sweep unaligned rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round15_unaligned.log | awk '{print $1,$2,$3,$(NF-1),$NF}' | tee -a $W/summary.txt
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|PASSED" $W/tests_all.log | tail -5 | tee -a $W/summary.txt
