# Run 5 (H200): the library as committed (two resident blocks per SM by the rule, and for a Jacobi sweep only where b
# fits beside their bricks). The GPU suite; perks_bench jacobi and apply, twice each.
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S
grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
grep -E "two blocks per SM" $W/tests_default.log | tee -a $S
for k in 1 2; do
  for m in jacobi apply; do
    t=$SECONDS
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --sweep $m --git-revision "$R" --out $OUT/perks_bench_${m}_$k.json \
      > $W/pb_${m}_$k.log 2>&1
    echo "perks_bench $m run $k rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "geometric" $W/pb_${m}_$k.log | sed "s/^/$m $k /" | tee -a $S
  done
done
python3 - $OUT >> $S <<'PY'
import json, sys
o = sys.argv[1]
for m in ("jacobi", "apply"):
    runs = [{(r["case"], r["precision"], r["class"]): r for r in json.load(open(f"{o}/perks_bench_{m}_{k}.json"))["records"]}
            for k in (1, 2)]
    print(f"== {m}, small: extents, threads, us per sweep persistent (two runs), speed-up (two runs)")
    for key, r in runs[0].items():
        if key[2] != "small": continue
        r2 = runs[1][key]
        print(" ".join(key[:2]), r["extents"][0], r["threads"], "%.2f %.2f" % (1e6 * r["persistent_s_per_sweep"],
              1e6 * r2["persistent_s_per_sweep"]), "%.3f %.3f" % (r["speedup"], r2["speedup"]))
PY
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run5_logs.tar.xz .
