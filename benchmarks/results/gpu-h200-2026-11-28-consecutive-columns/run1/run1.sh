# Run 1 (H200): stencil_sweep round 20 (consecutive columns, Tune's CONSEC) at 512^3, fp32 and fp64 3d7pt, each variant twice,
# interleaved with the production tile ("cur") and checked bit for bit against it (columns bad / small).
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
cd "$B"
export LD_LIBRARY_PATH=$PWD/lib/fallback
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
t=$SECONDS; timeout 420 bin/stencil_sweep --reps 15 --only 3d7pt_consec > $OUT/sweep_round20.log 2>&1
echo "stencil_sweep round 20 rc=$? $((SECONDS-t)) s" | tee $OUT/summary.txt
grep -E "^copy reference" $OUT/sweep_round20.log | tee -a $OUT/summary.txt
grep -E "ratio" $OUT/sweep_round20.log | awk '{print $1,$2,$3,$4,$5,$6,$9,$(NF-3),$(NF-2),$(NF-1),$NF}' | tee -a $OUT/summary.txt
