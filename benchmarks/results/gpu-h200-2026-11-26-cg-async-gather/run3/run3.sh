# Run 3 (H200): round 19 of the tile sweep, the 3D radius-2 star (3d13pt) at 512^3, fp32 and fp64, each variant
# twice, checked bit for bit against the generic kernel (stencil_sweep's "bad" column). Usage: OUT=dir bash run3.sh
cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
echo "revision $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 300 bin/stencil_sweep --reps 15 --only 3d13pt > $W/sweep_round19_3d13pt.log 2>&1; echo "stencil_sweep round 19 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round19_3d13pt.log | awk '{print $1,$2,$3,$4,$5,$6,$9,$(NF-3),$(NF-2),$(NF-1)}' | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
