# Run 3 (H200, diagnostic): why the pipelined PERKS kernel, which caches nothing, measured 1.16-1.30x the per-sweep path
# for 2d5pt and 2d9pt fp64 apply sweeps on large domains (model: at most 1.0). The library of run 2. At each side:
# perks_bench --side (per-sweep path = boundary faces + stencil kernel per sweep as a CUDA graph; persistent = the
# pipelined kernel), stencil_bench --n2d (the stencil kernel alone), twice each; 2d13pt fp64 as a control.
# Usage: B=unpacked bundle OUT=dir bash run3.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
FB=$B/lib/fallback
for k in 1 2; do
  for n in 4096 6144 8192 12288 16384; do
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --sweep apply --cases 2d5pt,2d9pt,2d13pt --precision f64 --side $n \
      --out $W/pb_${n}_$k.json > $W/pb_${n}_$k.log 2>&1
    echo "perks_bench side $n run $k rc=$?" >> $S
    LD_LIBRARY_PATH=$FB timeout 60 bin/stencil_bench --cases 2d5pt,2d9pt,2d13pt --precision f64 --n2d $n --n3d 64 \
      --default-variant-only --out $W/sb_${n}_$k.json > $W/sb_${n}_$k.log 2>&1
    echo "stencil_bench n2d $n run $k rc=$?" >> $S
  done
done
python3 - $W >> $S <<'PY'
import json, sys, glob, os
w = sys.argv[1]
print("side run case: per-sweep path us, pipelined us, speed-up | stencil kernel alone us, ratio to copy bound")
for n in (4096, 6144, 8192, 12288, 16384):
    for k in (1, 2):
        try:
            pb = {r["case"]: r for r in json.load(open(f"{w}/pb_{n}_{k}.json"))["records"]}
            sbj = json.load(open(f"{w}/sb_{n}_{k}.json"))
        except Exception as e:
            print(n, k, "missing", e); continue
        sb = {r["case"]: r for r in sbj["records"] if r.get("precision") == "fp64"}
        for c in ("2d5pt", "2d9pt", "2d13pt"):
            p, s = pb.get(c), sb.get(c)
            if not p or not s: continue
            print(n, k, c, "%.1f %.1f %.3f |" % (1e6 * p["per_step_s_per_sweep"], 1e6 * p["persistent_s_per_sweep"], p["speedup"]),
                  "%.1f %.3f" % (1e6 * s["time_per_sweep_s"], s["ratio_to_copy_bound"]))
PY
tar -C $W -cJf $OUT/run3_logs.tar.xz .
