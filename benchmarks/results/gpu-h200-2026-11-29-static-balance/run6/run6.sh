# Run 6 (H200): where a persistent_sweeps call's fixed cost goes (run 5: ~45-50 us per call on the small domains).
# perks_bench (times fill + persistent_sweeps per call with events; the call ends with a 24-byte copy of the result and a
# stream synchronisation) on 2d5pt fp64 Jacobi at 789^2 and 3d7pt fp32 apply at 159^3, resident kernel, with 1, 2, 20
# and 200 sweeps per call; ncu's gpu__time_duration of the resident kernel at 1 and 20 sweeps (the GPU's part).
# Usage: B=unpacked bundle OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for cs in 2d5pt:f64:789:jacobi 3d7pt:f32:159:apply; do
  IFS=: read -r c p n m <<< "$cs"
  for k in 1 2 20 200; do
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --cases $c --precision $p --side $n --sweeps $k --kernel resident \
      --sweep $m --out $W/pb_${c}_$k.json > $W/pb_${c}_$k.log 2>&1
    echo "$c $p $n $m K=$k rc=$? $(grep -E "^$c " $W/pb_${c}_$k.log | awk '{print "per-sweep", $7, "persistent", $10}')" | tee -a $S
  done
  for k in 1 20; do
    LD_LIBRARY_PATH=$FB timeout 120 $NCU --clock-control none --kernel-name regex:perks_resident_kernel \
      --launch-skip 3 --launch-count 3 --metrics gpu__time_duration.sum bin/perks_bench --cases $c --precision $p \
      --side $n --sweeps $k --reps 3 --kernel resident --sweep $m > $W/ncu_${c}_$k.log 2>&1
    echo "ncu $c K=$k rc=$? $(grep -E "gpu__time_duration" $W/ncu_${c}_$k.log | awk '{print $NF, $(NF-1)}' | tr '\n' ' ')" | tee -a $S
  done
done
tar -C $W -cJf $OUT/run6_logs.tar.xz .
