cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
t=$SECONDS; timeout 300 bin/stencil_sweep --reps 15 > $W/sweep_round8.log 2>&1; echo "sweep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round8.log | awk '{print $1,$2,$3,$4,$5,$(NF-3),$(NF-2),$(NF-1),$NF}' | sed 's/ratio //'
grep -E "copy reference" $W/sweep_round8.log
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
