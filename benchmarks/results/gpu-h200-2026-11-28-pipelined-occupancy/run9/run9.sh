# Run 9 (H200): run 8's stencil_bench comparison again, three times each way, alternating and starting with NEW (run 8
# ran PROD first, once; even the unchanged generic kernel read 1 % lower in the second run).
# Usage: B=unpacked bundle LPROD=dir holding the previous libperksolve_cuda.so.0 OUT=dir bash run9.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run9; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
for k in 1 2 3; do
  for v in new prod; do
    run_v $v timeout 70 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R-$v" --out $W/sb_${v}_$k.json > $W/sb_${v}_$k.log 2>&1
    echo "stencil_bench $v $k rc=$?" | tee -a $S
  done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
rows = {}
for v in ("prod", "new"):
    for k in (1, 2, 3):
        for x in json.load(open(f"{w}/sb_{v}_{k}.json"))["records"]:
            if "ratio_to_copy_bound" in x:
                rows.setdefault((x["case"], x["precision"]), {}).setdefault(v, []).append(x["ratio_to_copy_bound"])
for (c, p), d in sorted(rows.items()):
    f = lambda x: f"{min(x):.3f}-{max(x):.3f}"
    print(f"stencil_bench {c:14s} {p}: prod {f(d['prod'])} new {f(d['new'])}")
PY
tar -C $W -cJf $OUT/run9_logs.tar.xz .
