# Run 5 (H200): run 4's bundle plus lib_old/ = libperksolve_cuda of 829dda9's row walks (each warp's batches start at
# the segment's first cell), built from the same tree otherwise. solver_bench fp64 (wu, cg, mg, pcg) and fp32 (pcg)
# with the rows by the rule (fp64 4 elements, fp32 8, for every solver at c2c2478), the wrapped walks (lib) against the
# old ones (LD_LIBRARY_PATH=lib_old), alternating, two runs each in fp64 and one in fp32.
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
for k in 1 2; do
  for v in new old; do
    L=$B/lib/fallback; [ $v = old ] && L=$B/lib_old:$B/lib/fallback
    t=$SECONDS; LD_LIBRARY_PATH=$L timeout 60 bin/solver_bench --precision f64 --cases wu,cg,mg,pcg \
      --git-revision "$R" --out $W/solver_f64_${v}_$k.json > $W/solver_f64_${v}_$k.log 2>&1
    echo "solver_bench fp64 walks $v run $k rc=$? $((SECONDS-t)) s" | tee -a $S
    if [ $k = 1 ]; then
      t=$SECONDS; LD_LIBRARY_PATH=$L timeout 60 bin/solver_bench --precision f32 --cases wu,pcg \
        --git-revision "$R" --out $W/solver_f32_${v}_$k.json > $W/solver_f32_${v}_$k.log 2>&1
      echo "solver_bench fp32 walks $v run $k rc=$? $((SECONDS-t)) s" | tee -a $S
    fi
  done
done
tar -C $W -cJf $OUT/run5_logs.tar.xz .
python3 - $W >> $S <<'PY'
import json, sys, os
w = sys.argv[1]
for p, runs in (("f64", (1, 2)), ("f32", (1,))):
    print(f"== solver_bench {p}: case | wrapped walks (runs) | old walks (runs): seconds (WU)")
    tabs = {v: [{r["case"]: r for r in json.load(open(f"{w}/solver_{p}_{v}_{k}.json"))["records"]} for k in runs
                if os.path.exists(f"{w}/solver_{p}_{v}_{k}.json")] for v in ("new", "old")}
    for c in tabs["new"][0]:
        print(c, "|", " | ".join(" ".join(f'{t[c]["time_s"]:.4e} ({t[c]["work_units"]:.2f})' for t in tabs[v] if c in t)
                                  for v in ("new", "old")))
PY
