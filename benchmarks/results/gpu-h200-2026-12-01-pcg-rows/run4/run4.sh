# Run 4 (H200): the row walks cover a segment with as many batches as unshifted, starting on the line below the
# segment's start; the lanes whose first cell would lie before the start take the cell one span further (run 3: the
# shift that added a batch made the fp64 r update 2.3x slower). Rows by grid_row_align for every solver. GPU suite;
# memcheck on the solver-operation tests; solver_bench fp32 (wu, mg, pcg) and fp64 (wu, cg, mg, pcg) with the rows by the rule (auto) and forced to 32 elements (session 48's PCG-MG rows),
# alternating, two runs each.
# Usage: B=unpacked bundle OUT=dir bash run4.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests.log 2>&1
echo "GPU suite rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests.log | head -20 | tee -a $S
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; timeout 200 $SAN --tool memcheck bin/test_gpu_backend --gtest_filter='CudaSolverOps.*' > $OUT/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck CudaSolverOps.* rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E '^\[  (PASSED|FAILED)|ERROR SUMMARY' $OUT/sanitizer_memcheck.log | tee -a $S
for k in 1 2; do
  for a in auto 32; do
    t=$SECONDS; PERKSOLVE_GRID_ROW_ALIGN=$a timeout 100 bin/solver_bench --precision f32 --cases wu,mg,pcg \
      --git-revision "$R" --out $W/solver_f32_a${a}_$k.json > $W/solver_f32_a${a}_$k.log 2>&1
    echo "solver_bench fp32 rows $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
    t=$SECONDS; PERKSOLVE_GRID_ROW_ALIGN=$a timeout 100 bin/solver_bench --precision f64 --cases wu,cg,mg,pcg \
      --git-revision "$R" --out $W/solver_f64_a${a}_$k.json > $W/solver_f64_a${a}_$k.log 2>&1
    echo "solver_bench fp64 rows $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
tar -C $W -cJf $OUT/run4_logs.tar.xz .
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
for p in ("f32", "f64"):
    print(f"== solver_bench {p}: case | rows auto (runs 1, 2) | rows 32 (runs 1, 2): seconds (WU)")
    tabs = {a: [{r["case"]: r for r in json.load(open(f"{w}/solver_{p}_a{a}_{k}.json"))["records"]} for k in (1, 2)]
            for a in ("auto", "32")}
    for c in tabs["auto"][0]:
        print(c, "|", " | ".join(" ".join(f'{t[c]["time_s"]:.4e} ({t[c]["work_units"]:.2f})' for t in tabs[a] if c in t)
                                  for a in ("auto", "32")))
PY
