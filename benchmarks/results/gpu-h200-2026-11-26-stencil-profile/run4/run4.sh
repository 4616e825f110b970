# Run 4 (H200): l2_partition_probe after its review mend (shared error check and JSON run header); the same groups as
# run 3 expected. Usage: OUT=dir bash run4.sh (in the bundle)
cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
R=$(cat REVISION)
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 60 bin/l2_partition_probe --ref 0 --git-revision "$R" --out $W/probe_ref0.json > $W/probe_ref0.log 2>&1; echo "probe rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^device|^group|^min" $W/probe_ref0.log | tee -a $W/summary.txt
head -c 400 $W/probe_ref0.json | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
