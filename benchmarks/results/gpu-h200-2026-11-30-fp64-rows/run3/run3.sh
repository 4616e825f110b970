# Run 3 (H200): run 2's grid rows plus the fp64 3d7pt large tile with ~24 items per block (round 29) and the switch
# PERKSOLVE_GRID_ROW_ALIGN. The GPU suite, automatic and with the large tier forced; stencil_bench twice; solver_bench
# fp64 (wu, pcg) with the grid rows by the rule, forced to 32 elements (session 47's fp64 rows) and to 8, alternating,
# three runs each (run 2's PCG-MG solves were 1-4 % slower than session 47's); ncu kernel times per kernel name of one
# solver_bench fp64 pcg pass at the rule and at 32; perks_bench apply and jacobi once.
# Usage: B=unpacked bundle OUT=dir bash run3.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests.log 2>&1
echo "GPU suite rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests.log | head -20 | tee -a $S
for k in 1 2; do
  t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --git-revision "$R" --out $W/stencil_$k.json \
    > $W/stencil_$k.log 2>&1
  echo "stencil_bench $k rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "^copy|^in seq|^3d7pt |^3d27pt|^2d5pt " $W/stencil_$k.log | cut -c1-110 | tee -a $S
done
for k in 1 2 3; do
  for a in auto 32 8; do
    t=$SECONDS; PERKSOLVE_GRID_ROW_ALIGN=$a timeout 100 bin/solver_bench --precision f64 --cases wu,pcg \
      --git-revision "$R" --out $W/solver_a${a}_$k.json > $W/solver_a${a}_$k.log 2>&1
    echo "solver_bench fp64 rows $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "^(wu_7pt|pcg_mg)" $W/solver_a${a}_$k.log | cut -c1-120 | tee -a $S
  done
done
for m in apply jacobi; do
  t=$SECONDS; timeout 60 bin/perks_bench --sweep $m --git-revision "$R" --out $W/perks_$m.json > $W/perks_$m.log 2>&1
  echo "perks_bench $m rc=$? $((SECONDS-t)) s: $(grep geometric $W/perks_$m.log)" | tee -a $S
done
t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend \
  > $W/tests_large.log 2>&1
echo "GPU suite, large tier forced rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests_large.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests_large.log | head -20 | tee -a $S
tar -C $W -cJf $OUT/run3_logs.tar.xz .
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for a in auto 32; do
  t=$SECONDS; PERKSOLVE_GRID_ROW_ALIGN=$a timeout 110 $NCU --clock-control none --metrics gpu__time_duration.sum \
    --print-summary per-kernel bin/solver_bench --precision f64 --cases pcg --solve-reps 1 --reps 5 --warmup-s 0 \
    > $OUT/ncu_pcg_a$a.log 2>&1
  echo "ncu solver_bench fp64 pcg rows $a rc=$? $((SECONDS-t)) s" | tee -a $S
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
print("== solver_bench fp64 seconds per solve (WU): case | rows auto (1-3) | 32 (1-3) | 8 (1-3)")
tabs = {a: [{r["case"]: r for r in json.load(open(f"{w}/solver_a{a}_{k}.json"))["records"]} for k in (1, 2, 3)]
        for a in ("auto", "32", "8")}
for c in tabs["auto"][0]:
    print(c, "|", " | ".join(" ".join(f'{t[c]["time_s"]:.4e} ({t[c]["work_units"]:.2f})' for t in tabs[a] if c in t)
                              for a in ("auto", "32", "8")))
PY
