# Run 3 (H200): does the face fill cost the pipelined kernel its rate? The whole perks_bench, twice, with three
# libraries: OLD (run 1's, one ghost cell per thread and step), this revision's (8 per step, run 2), and NOFILL (this
# revision with the pipelined kernel's face fills left out: wrong ghosts, timing only; built from a local edit that
# was not committed: `if (false && pipelined_runs_face_phase...)` and stream_sweep without the item hook).
# Usage: B=unpacked bundle OLD=folder with the old libperksolve_cuda.so.0 NOFILL=folder with the timing-only one
#        OUT=dir bash run3.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for k in 1 2; do
  for v in old new nofill; do
    L=$FB; [[ $v == old ]] && L=$OLD:$FB; [[ $v == nofill ]] && L=$NOFILL:$FB
    t=$SECONDS; LD_LIBRARY_PATH=$L timeout 100 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_old_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_new_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_nofill_$k.log) | sed "s/^/old new nofill $k: /" >> $S
done
tar -C $W -cJf $OUT/run3_logs.tar.xz .
