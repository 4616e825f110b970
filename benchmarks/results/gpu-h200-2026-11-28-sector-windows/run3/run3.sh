# Run 3 (H200): a narrow last tile column gets longer chunks (plan_narrow_column, 2D rows, one round of items). NEW =
# this bundle's library; its share of a plane's width-independent time is set with PERKSOLVE_CUDA_NARROW_FIXED (default
# 0.5; 1 = equal chunks, the previous plan). PROD = the library of a3c6a12. stencil_bench on the 2D shapes at 6898^2
# and 4651^2 (partial last tile columns), each variant twice, alternating; perks_bench PROD / NEW twice; the GPU suite
# with NEW (automatic and large tier forced); ncu's SM-active share of the per-sweep 2d13pt fp32 kernel at 6898^2.
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
C2=2d5pt,2ds9pt,2d9pt,2d13pt,2d17pt,2d21pt,2ds25pt,2d25pt
run_v() {  # variant: prod | new | new:<share>
  case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;;
    new:*) PERKSOLVE_CUDA_NARROW_FIXED=${1#new:} LD_LIBRARY_PATH=$FB "${@:2}" ;; esac
}
for n in 6898 4651; do
  for k in 1 2; do
    for v in prod new new:0 new:0.25 new:0.75 new:1; do
      t=$SECONDS; run_v $v timeout 90 bin/stencil_bench --cases $C2 --n2d $n --default-variant-only --git-revision "$R-$v" \
        --out $W/stencil_${n}_${v}_$k.json > $W/stencil_${n}_${v}_$k.log 2>&1
      echo "stencil_bench 2D $n $v $k rc=$? $((SECONDS-t)) s" >> $S
    done
  done
  for v in prod new new:0 new:0.25 new:0.75 new:1; do
    python3 - $W $n $v >> $S <<'PY'
import json, sys
w, n, v = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {}
for k in (1, 2):
    for r in json.load(open(f"{w}/stencil_{n}_{v}_{k}.json"))["records"]:
        rows.setdefault((r["case"], r["precision"]), []).append(r["ratio_to_copy_bound"])
print(n, v, " ".join(f"{c}/{p}={min(x):.3f}-{max(x):.3f}" for (c, p), x in sorted(rows.items())))
PY
  done
done
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
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 100 bin/test_gpu_backend > $W/tests_new_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 bin/test_gpu_backend > $W/tests_new_$mode.log 2>&1; fi
  echo "test_gpu_backend new $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_new_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_new_$mode.log | head -20 | tee -a $S
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for v in prod new; do
  run_v $v timeout 90 $NCU --clock-control none -k regex:stream_stencil_kernel -c 3 \
    --metrics sm__cycles_active.sum,sm__cycles_elapsed.max,gpu__time_duration.sum --csv \
    bin/perks_bench --cases 2d13pt --precision f32 --side 6898 --sweeps 4 --reps 1 --kernel pipelined > $W/sm_2d13pt_f32_6898_$v.csv 2>&1
  echo "ncu SM active $v rc=$?" | tee -a $S
done
tar -C $W -cJf $OUT/run3_logs.tar.xz .
cp $W/stencil_6898_new_1.json $W/perks_bench_new_1.json $W/perks_bench_new_1.log $OUT/
