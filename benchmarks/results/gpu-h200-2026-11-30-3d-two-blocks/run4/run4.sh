# Run 4 (H200, diagnostic after run 3): the per-sweep path of 2d5pt / 2d9pt fp64 apply sweeps with and without
# programmatic dependent launch (PERKSOLVE_CUDA_PDL=1 / 0), perks_bench --side 8192 and 16384, twice each,
# alternating; Jacobi sweeps at 8192 as well. The library of run 3.
# Usage: B=unpacked bundle OUT=dir bash run4.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
FB=$B/lib/fallback
for k in 1 2; do
  for n in 8192 16384; do
    for pdl in 1 0; do
      PERKSOLVE_CUDA_PDL=$pdl LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --sweep apply --cases 2d5pt,2d9pt,2d13pt \
        --precision f64 --side $n --out $W/pb_apply_${n}_pdl${pdl}_$k.json > $W/pb_apply_${n}_pdl${pdl}_$k.log 2>&1
      echo "apply side $n pdl $pdl run $k rc=$?" >> $S
    done
  done
  for pdl in 1 0; do
    PERKSOLVE_CUDA_PDL=$pdl LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --sweep jacobi --cases 2d5pt,2d9pt,2d13pt \
      --precision f64 --side 8192 --out $W/pb_jacobi_8192_pdl${pdl}_$k.json > $W/pb_jacobi_8192_pdl${pdl}_$k.log 2>&1
    echo "jacobi side 8192 pdl $pdl run $k rc=$?" >> $S
  done
done
python3 - $W >> $S <<'PY'
import json, sys, glob, os
w = sys.argv[1]
print("file case: per-sweep path us, persistent us, speed-up")
for f in sorted(glob.glob(f"{w}/pb_*.json")):
    for r in json.load(open(f))["records"]:
        print(os.path.basename(f)[3:-5], r["case"], "%.1f %.1f %.3f" % (1e6 * r["per_step_s_per_sweep"],
              1e6 * r["persistent_s_per_sweep"], r["speedup"]))
PY
tar -C $W -cJf $OUT/run4_logs.tar.xz .
