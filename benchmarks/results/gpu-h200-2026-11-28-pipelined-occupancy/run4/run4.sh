# Run 4 (H200): the final rule, three blocks per SM promised for the pipelined kernel on the 256-thread row tile only
# for 2d25pt (run 1 measured 2d13pt slower with three). NEW = this bundle's library, PROD = the library of 4542fe5.
# perks_bench twice each way, alternating; the GPU suite with NEW (automatic tiers); compute-sanitizer racecheck,
# synccheck and memcheck on CudaPerks.PipelinedSanitizerCaseRowTileFloat (2d13pt and 2d25pt on 5000 x 40 rows); ncu
# of NEW's pipelined kernel on 2d25pt and 2d13pt at 6898^2 as in run 2.
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
for k in 1 2; do
  for v in prod new; do
    t=$SECONDS; run_v $v timeout 60 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $8, $11, $(i+1)}' $W/perks_bench_prod_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $8, $11, $(i+1)}' $W/perks_bench_new_$k.log) \
        | sed "s/^/prod new, $k (per-sweep s, persistent s, speed-up): /" >> $S
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
for v in ("prod", "new"):
    for r in json.load(open(f"{w}/perks_bench_{v}_1.json"))["records"]:
        if r["case"] in ("2d13pt", "2d25pt") and r["precision"] == "fp32":
            print(v, "blocks", r["case"], r["precision"], r["class"], r["kernel"], r["blocks"])
PY
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 100 bin/test_gpu_backend > $W/tests_new_default.log 2>&1
echo "test_gpu_backend new default rc=$? $((SECONDS-t)) s" | tee -a $S
tail -1 $W/tests_new_default.log | tee -a $S; grep -E "^\[  FAILED|SKIPPED \]" $W/tests_new_default.log | head -20 | tee -a $S
grep -E "^\[       OK \] (CudaBackendStencil.RowTileByWidth|CudaPerks.Pipelined)" $W/tests_new_default.log | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tl in racecheck:200 synccheck:100 memcheck:70; do
  tool=${tl%%:*}; lim=${tl##*:}
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout $lim $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseRowTileFloat' > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -3 | tee -a $S
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
SECS="--section LaunchStats --section Occupancy --section WarpStateStats --section InstructionStats --section SpeedOfLight"
for c in 2d25pt 2d13pt; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 100 $NCU --clock-control none -k regex:perks_pipelined_kernel -c 1 $SECS -o $W/pp_${c}_new -f \
    bin/perks_bench --cases $c --precision f32 --side 6898 --sweeps 4 --reps 1 --kernel pipelined > $W/pp_${c}_new.ncu.log 2>&1
  echo "ncu pp_${c}_new rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU -i $W/pp_${c}_new.ncu-rep --page details --print-details all > $W/pp_${c}_new.details.txt 2>&1
  grep -E "Duration|Executed Instructions  |Registers Per Thread  |Achieved Occupancy  |Warp Cycles Per Issued" $W/pp_${c}_new.details.txt | sed "s/^/pp_${c}_new: /" | cut -c1-160 | tee -a $S
done
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/run4_logs.tar.xz .
cp $W/perks_bench_new_1.json $W/perks_bench_new_1.log $OUT/
