# Run 3 (H200): how the dynamic schedule's tail (PERKSOLVE_CUDA_STREAM_TAIL, the tail items' shortening factor; default 4)
# moves the per-sweep and the pipelined Jacobi sweeps (the switch sets both). Library K of run 2, same bundle.
# perks_bench jacobi with tail 4, 8, 16, 4, 8, 2.
# Usage: B=unpacked bundle OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
k=0
for v in 4 8 16 4 8 2; do
  k=$((k + 1)); t=$SECONDS
  PERKSOLVE_CUDA_STREAM_TAIL=$v LD_LIBRARY_PATH=$FB timeout 90 bin/perks_bench --sweep jacobi --git-revision "$R-tail$v" \
    --out $W/pb_jacobi_${v}_$k.json > $W/pb_jacobi_${v}_$k.log 2>&1
  echo "perks_bench jacobi tail=$v ($k) rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_jacobi_${v}_$k.log | sed "s/^/tail $v ($k) /" | tee -a $S
done
python3 - $W >> $S <<'PY'
import json, sys, glob, re
w = sys.argv[1]
runs = sorted(glob.glob(w + "/pb_jacobi_*_*.json"), key=lambda f: int(re.findall(r"_(\d+)\.json$", f)[0]))
rows = {}
for f in runs:
    v, k = re.findall(r"pb_jacobi_(\d+)_(\d+)\.json$", f)[0]
    for r in json.load(open(f))["records"]:
        if r["class"] == "small": continue
        rows.setdefault((r["case"], r["precision"], r["class"]), []).append(
            f"t{v}: {1e6 * r['per_step_s_per_sweep']:.1f}/{1e6 * r['persistent_s_per_sweep']:.1f} {r['speedup']:.3f}")
print("== jacobi, per tail (run order): per-sweep/persistent us, speed-up")
for key, v in rows.items(): print(" ".join(key), "|", " | ".join(v))
PY
tar -C $W -cJf $OUT/run3_logs.tar.xz .
