# Run 1b (2026-11-25, H200): stencil_sweep round 9 (a185234): shared-memory-free 7-point kernel vs the production
# tiles at 512^3 (fp64, fp32), and bulk 256-wide tiles vs the medium tier at 255^3 (fp64). Usage: OUT=dir bash sweep9.sh
cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
for c in "3d7pt_f64 512" "3d7pt_f32 512" "3d7pt_f64_medium 255"; do
  set -- $c
  t=$SECONDS; timeout 170 bin/stencil_sweep --reps 15 --only $1 --n3d $2 > $W/sweep_round9_$1.log 2>&1; echo "sweep $1 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ratio" $W/sweep_round9_$1.log | awk '{print $1,$2,$3,$4,$5,$(NF-3),$(NF-2),$(NF-1),$NF}' | sed 's/ratio //'
done
grep -hE "copy reference" $W/sweep_round9_*.log
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
