# Run 4 (H200): the 2D row tiles of radius >= 2 rotate the partial sums of the streamed axis (Tune's ROT, apply mode;
# kRot2d in stencil_kernels.cuh), in the per-sweep kernels and, in fp64, in the pipelined PERKS kernel (pipelined_tune).
# NEW = this bundle's library, PROD = the library of run 3's bundle (46fea6c's kernels; ROT compiled but unused).
# stencil_bench (every shape, both precisions, the default variant) and perks_bench, twice each way, alternating; the
# GPU suite with NEW (automatic, and the large tier forced on fast memory: every 2D shape on the rotating tiles);
# compute-sanitizer memcheck on the row-tile stencil tests and the pipelined sanitizer cases (large tier forced),
# racecheck on the fp64 pipelined sanitizer case (large tier forced).
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
    t=$SECONDS; run_v $v timeout 70 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R-$v" --out $W/sb_${v}_$k.json > $W/sb_${v}_$k.log 2>&1
    echo "stencil_bench $v $k rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
rows = {}
for v in ("prod", "new"):
    for k in (1, 2):
        try:
            recs = json.load(open(f"{w}/sb_{v}_{k}.json"))["records"]
        except Exception as e:
            print("missing", v, k, e); continue
        for r in recs:
            if "ratio_to_copy_bound" in r:
                rows.setdefault((r["case"], r["precision"]), {}).setdefault(v, []).append(r["ratio_to_copy_bound"])
for (c, p), d in sorted(rows.items()):
    f = lambda x: f"{min(x):.3f}-{max(x):.3f}" if x else "-"
    print(f"stencil_bench {c:12s} {p}: prod {f(d.get('prod', []))} new {f(d.get('new', []))}")
PY
for k in 1 2; do
  for v in prod new; do
    t=$SECONDS; run_v $v timeout 60 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $8, $11, $(i+1)}' $W/perks_bench_prod_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $4, $8, $11, $(i+1)}' $W/perks_bench_new_$k.log) \
        | sed "s/^/prod new, $k (per-sweep s, persistent s, speed-up): /" >> $S
done
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 150 bin/test_gpu_backend > $W/tests_new_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend > $W/tests_new_$mode.log 2>&1; fi
  echo "test_gpu_backend new $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_new_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_new_$mode.log | head -20 | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaBackendStencil.RowTileByWidth*:CudaPerks.PipelinedSanitizerCase*' > $W/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck.log | head -3 | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 120 $CS --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseDouble' > $W/sanitizer_racecheck.log 2>&1
echo "compute-sanitizer racecheck rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_racecheck.log | head -3 | tee -a $S
tar -C $W -cJf $OUT/run4_logs.tar.xz .
cp $W/sb_new_1.json $W/perks_bench_new_1.json $W/perks_bench_new_1.log $OUT/
