# Run 3 (H200): stencil_sweep round 27 (--only plane_tiles2: the fp32 3d7pt 512 x 4 tile's items per block, 6 stages,
# 128 threads; the fp64 512 x 4 tile on poisson, 3d17pt, the CSE 27-point and 3d27pt); stencil_bench with the single
# calls and the sequences interleaved (all shapes twice, and once with PERKSOLVE_CUDA_PDL=0); the GPU suite, cg_bench and
# the sanitizers on the persistent CG walks with the block sums as committed (block_total with a separate result slot).
# Usage: B=unpacked bundle OUT=dir bash run3.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 200 bin/stencil_sweep --only plane_tiles2 > $W/sweep_round27.log 2>&1
echo "stencil_sweep round 27 rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ratio|copy reference" $W/sweep_round27.log | sed -E 's/t=[^]]*\]//; s/GC\/s//; s/ +/ /g' | tee -a $S
for k in 1 2; do
  t=$SECONDS; timeout 120 bin/stencil_bench --default-variant-only --sequence 10 --git-revision "$R" \
    --out $W/stencil_$k.json > $W/stencil_$k.log 2>&1
  echo "stencil_bench $k rc=$? $((SECONDS-t)) s" | tee -a $S
done
t=$SECONDS; PERKSOLVE_CUDA_PDL=0 timeout 120 bin/stencil_bench --default-variant-only --sequence 10 \
  --git-revision "$R-nopdl" --out $W/stencil_nopdl.json > $W/stencil_nopdl.log 2>&1
echo "stencil_bench PDL off rc=$? $((SECONDS-t)) s" | tee -a $S
t=$SECONDS; timeout 240 bin/test_gpu_backend > $W/tests.log 2>&1
echo "GPU suite rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests.log | head -20 | tee -a $S
timeout 150 bin/cg_bench --git-revision "$R" --out $W/cg.json > $W/cg.log 2>&1; echo "cg_bench rc=$?" | tee -a $S
timeout 150 bin/cg_bench --git-revision "$R" --out $W/cg_big.json --large-7 192 --large-27 128 \
  --only laplace7_192,laplace27_128 > $W/cg_big.log 2>&1; echo "cg_bench big rc=$?" | tee -a $S
python3 - $W >> $S <<'PY'
import json, sys, glob, os
w = sys.argv[1]
for f in sorted(glob.glob(f"{w}/stencil_*.json")):
    d = json.load(open(f))
    print("==", os.path.basename(f), "copy per call %.1f GB/s, in sequence (%d calls) %.1f GB/s" % (
        d["copy"]["copy_gbs"], d["copy_in_sequence"]["calls"], d["copy_in_sequence"]["copy_gbs"]))
    print("case prec | per call: us, ratio | in sequence: us, ratio | host us per call")
    for r in d["records"]:
        print("%s %s | %.1f %.3f | %.1f %.3f | %.1f" % (r["case"], r["precision"], 1e6 * r["time_per_sweep_s"],
              r["ratio_to_copy_bound"], 1e6 * r["time_per_sweep_in_sequence_s"], r["ratio_to_copy_bound_in_sequence"],
              r["host_us_per_call"]))
print("== cg_bench (persistent us per iteration, x vendor)")
for f in sorted(glob.glob(f"{w}/cg*.json")):
    rs = json.load(open(f)).get("records", [])
    print(os.path.basename(f), " ".join("%s:%s %.1f %.2f" % (r["case"], r["precision"],
          1e6 * r["persistent_s_per_iteration"], r["persistent_over_vendor"]) for r in rs))
PY
tar -C $W -cJf $OUT/run3_logs.tar.xz .  # (before the sanitizers, whose logs go to $OUT)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
f='CudaPersistentCg.RowsWalkSpmv*:CudaPersistentCg.RowsWalkMatchesOperationLoopFloat:CudaPersistentCg.StagedWalkMatchesPerThreadWalkBitForBitFloat'
for tool in racecheck synccheck; do
  t=$SECONDS; timeout 170 $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
