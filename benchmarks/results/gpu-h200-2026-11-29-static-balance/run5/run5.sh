# Run 5 (H200): the launch's one-time costs in perks_bench's ratios. perks_bench times K sweeps per launch (default 20):
# the persistent kernel's first sweep loads the whole domain and its last stores it, and a cooperative launch costs
# more than a graph replay, once per launch. Run 4's trace put the resident kernel's steady sweep of 2d5pt fp64 Jacobi
# at 789^2 at ~6.7 us against 8.6 us per sweep measured at K = 20. Library K of runs 2-4 (the bundle's).
# perks_bench jacobi and apply with --sweeps 20 (the default) and --sweeps 200, one run each.
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for mode in jacobi apply; do
  for k in 200 20; do
    t=$SECONDS
    LD_LIBRARY_PATH=$FB timeout 280 bin/perks_bench --sweep $mode --sweeps $k --git-revision "$R" \
      --out $W/pb_${mode}_$k.json > $W/pb_${mode}_$k.log 2>&1
    echo "perks_bench $mode --sweeps $k rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "geometric" $W/pb_${mode}_$k.log | sed "s/^/$mode K=$k /" | tee -a $S
  done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
for mode in ("jacobi", "apply"):
    recs = {}
    for k in (20, 200):
        for r in json.load(open(f"{w}/pb_{mode}_{k}.json"))["records"]:
            recs.setdefault((r["case"], r["precision"], r["class"]), {})[k] = r
    print(f"== {mode}: case precision class extents | K=20 per-step/persistent us speed-up | K=200 the same")
    for key, d in recs.items():
        cells = []
        for k in (20, 200):
            r = d.get(k)
            cells.append("-" if r is None else "%s %.2f/%.2f %.3f" % ("x".join(map(str, r["extents"])),
                         1e6 * r["per_step_s_per_sweep"], 1e6 * r["persistent_s_per_sweep"], r["speedup"]))
        print(" ".join(key), "|", " | ".join(cells))
PY
tar -C $W -cJf $OUT/run5_logs.tar.xz .
