# Run 8 (H200): the review's kernel edits, which should change nothing measurable: the bulk row copies take the window
# start issue_setup already computes (icx0), and pipelined_min_blocks names the narrow row tile by type. NEW = this
# bundle's library, PROD = run 6's NEW (e49a533). The GPU suite (automatic, large tier forced); stencil_bench and
# perks_bench once each way; racecheck on the row-tile pipelined case, memcheck on the pipelined sanitizer cases.
# Usage: B=unpacked bundle LPROD=dir holding the previous libperksolve_cuda.so.0 OUT=dir bash run8.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run8; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 100 bin/test_gpu_backend > $W/tests_new_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 bin/test_gpu_backend > $W/tests_new_$mode.log 2>&1; fi
  echo "test_gpu_backend new $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_new_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_new_$mode.log | head -20 | tee -a $S
done
for v in prod new; do
  t=$SECONDS; run_v $v timeout 70 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R-$v" --out $W/sb_$v.json > $W/sb_$v.log 2>&1
  echo "stencil_bench $v rc=$? $((SECONDS-t)) s" | tee -a $S
  t=$SECONDS; run_v $v timeout 60 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_$v.json > $W/perks_bench_$v.log 2>&1
  echo "perks_bench $v rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_$v.log | sed "s/^/$v /" | tee -a $S
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
r = {v: {(x["case"], x["precision"]): x["ratio_to_copy_bound"] for x in json.load(open(f"{w}/sb_{v}.json"))["records"]
         if "ratio_to_copy_bound" in x} for v in ("prod", "new")}
for k in sorted(r["prod"]):
    print(f"stencil_bench {k[0]:14s} {k[1]}: prod {r['prod'][k]:.3f} new {r['new'].get(k, float('nan')):.3f}")
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 90 $CS --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseRowTileFloat' > $W/sanitizer_racecheck.log 2>&1
echo "compute-sanitizer racecheck rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_racecheck.log | head -3 | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 90 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCase*' > $W/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck.log | head -3 | tee -a $S
tar -C $W -cJf $OUT/run8_logs.tar.xz .
