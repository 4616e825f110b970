# Run 2 (2026-11-25, H200): stencil_sweep round 10: tiles for the modes with b (Jacobi) at 255^3 and 512^3, fp64 and
# fp32, and bulk 256-wide tiles for the 7-point apply at 255^3. Usage: OUT=dir bash sweep10.sh
cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
for c in "3d7pt_f64_medium 255" "3d7pt_f64_b 255" "3d7pt_f64_b 512" "3d7pt_f32_b 255" "3d7pt_f32_b 512"; do
  set -- $c
  timeout 170 bin/stencil_sweep --reps 15 --only $1 --n3d $2 > $W/sweep_round10_$1_$2.log 2>&1; echo "sweep $1 $2 rc=$?" | tee -a $W/summary.txt
  grep -E "ratio" $W/sweep_round10_$1_$2.log | awk '{print $1,$2,$3,$4,$5,$6,$(NF-3),$(NF-2),$(NF-1),$NF}' | sed 's/ratio //'
done
grep -hE "copy reference" $W/sweep_round10_*.log
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
