# Run 2 (H200): stencil_sweep round 26 (--only plane_tiles): 512 x 4 tiles on one block of 256 threads per SM (as many
# tiles per plane as SMs) against the production tiles, for fp32 3d7pt (deeper rings, more items), the fp32 boxes,
# 3d13pt fp32, 3d27pt fp64, fp64 3d7pt with 512 threads, and the 3d7pt Jacobi sweeps. Each variant bit for bit against
# the production tile (columns bad / small).
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
t=$SECONDS; timeout 500 bin/stencil_sweep --only plane_tiles > $W/sweep_round26.log 2>&1
echo "stencil_sweep round 26 rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ratio|^==|copy reference" $W/sweep_round26.log | sed -E 's/t=[^]]*\]//; s/GC\/s//; s/ +/ /g' | tee -a $S
tar -C $W -cJf $OUT/run2_logs.tar.xz .
