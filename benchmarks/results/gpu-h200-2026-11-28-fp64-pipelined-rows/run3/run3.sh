# Run 3 (H200): stencil_sweep round 24, the partial sums of the streamed axis rotated by index instead of shifted (Tune's
# ROT, the plane loop unrolled by 2R + 1): the production tile of each 2D shape of radius >= 2 against the same tile
# with ROT (apply; Jacobi for 2d13pt fp64 and 2d21pt fp32) at 16384^2, and the 3D 13- and 7-point stars at 512^3. Each
# variant twice, alternating with the production tile, bit for bit against it (the sweep's bad / small columns).
# Usage: B=unpacked bundle (built with --with-sweep) OUT=dir bash run3.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 300 bin/stencil_sweep --only rot > $OUT/sweep_round24.log 2>&1
echo "stencil_sweep --only rot rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ratio" $OUT/sweep_round24.log | awk '{r=""; for (i=1;i<=NF;++i) if ($i=="ratio") r=$(i+1); printf "%-8s %-4s %-10s %-8s regs %s ratio %s %s %s\n", $1, $2, $3, $4, $6, r, $(NF-1), $NF}' | tee -a $S
