# Run 5 (H200): run 3's bundle. Where PCG-MG loses on rows of one sector (run 4: fp32 PCG-MG 5 % slower than on rows of
# 32 elements, while the V-cycle and plain CG are not): solver_bench fp32 pcg with the grid rows by the rule and forced
# to 32 elements, with PERKSOLVE_PCG_DOTS_IN_PASSES on and off (r.r and r.z from CG's update and the cycle's last pass,
# or dot passes), two runs each, alternating; and with PERKSOLVE_CUDA_PDL=0 once.
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
for k in 1 2; do
  for d in 1 0; do
    for a in auto 32; do
      t=$SECONDS; PERKSOLVE_PCG_DOTS_IN_PASSES=$d PERKSOLVE_GRID_ROW_ALIGN=$a timeout 100 bin/solver_bench --precision f32 \
        --cases wu,pcg --git-revision "$R" --out $W/solver_d${d}_a${a}_$k.json > $W/solver_d${d}_a${a}_$k.log 2>&1
      echo "solver_bench fp32 dots-in-passes $d rows $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
    done
  done
done
for a in auto 32; do
  t=$SECONDS; PERKSOLVE_CUDA_PDL=0 PERKSOLVE_GRID_ROW_ALIGN=$a timeout 100 bin/solver_bench --precision f32 \
    --cases wu,pcg --git-revision "$R" --out $W/solver_pdl0_a${a}.json > $W/solver_pdl0_a${a}.log 2>&1
  echo "solver_bench fp32 PDL 0 rows $a rc=$? $((SECONDS-t)) s" | tee -a $S
done
tar -C $W -cJf $OUT/run5_logs.tar.xz .
python3 - $W >> $S <<'PY'
import json, sys, glob, os
w = sys.argv[1]
print("== solver_bench fp32 seconds per solve: file | case: time (WU) ...")
for f in sorted(glob.glob(w + "/solver_*.json")):
    recs = json.load(open(f))["records"]
    print(os.path.basename(f), "|", "; ".join(f'{r["case"]} {r["time_s"]:.4e} ({r["work_units"]:.2f})' for r in recs))
PY
