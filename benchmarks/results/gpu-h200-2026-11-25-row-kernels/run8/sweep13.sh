# Run 8 (2026-11-25, H200): stencil_sweep round 13: items per block 1 / 2 / 8 for the fp32 7-point tile at 255^3
# (apply and Jacobi). Usage: OUT=dir bash sweep13.sh
cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
timeout 120 bin/stencil_sweep --reps 15 --only 3d7pt_f32_ipb --n3d 255 > $W/sweep_round13_3d7pt_f32_ipb_255.log 2>&1; echo "sweep rc=$?" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round13_3d7pt_f32_ipb_255.log | awk '{print $1,$2,$3,$4,$(NF-3),$(NF-2),$(NF-1),$NF}' | sed 's/ratio //'
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
