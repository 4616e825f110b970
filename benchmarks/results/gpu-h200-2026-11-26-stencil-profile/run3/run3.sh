# Run 3 (H200): the L2 partition of every SM (l2_partition_probe, reference SMs 0 and one from the other group).
# Usage: OUT=dir bash run3.sh (in the bundle)
cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
echo "revision $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 60 bin/l2_partition_probe --ref 0 --out $W/probe_ref0.json > $W/probe_ref0.log 2>&1; echo "probe ref 0 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^group|^min" $W/probe_ref0.log | tee -a $W/summary.txt
OTHER=$(grep "^group 1" $W/probe_ref0.log | awk '{print $8}')
t=$SECONDS; timeout 60 bin/l2_partition_probe --ref ${OTHER:-1} --out $W/probe_ref_other.json > $W/probe_ref_other.log 2>&1; echo "probe ref ${OTHER:-1} rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^group|^min" $W/probe_ref_other.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
