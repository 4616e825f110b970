# Run 7 (H200): stencil_sweep round 28 (--only plane_tiles3): the production 512 x 4 fp32 3d7pt tile with 32-40 items
# per block, the short last round's divisor 2 / 4 / 8 and streaming stores; fp64 3d7pt with 16-32 items and on 512
# threads. Each variant bit for bit against the first of its case.
# Usage: B=unpacked bundle OUT=dir bash run7.sh
set -u
W=/tmp/run7; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
t=$SECONDS; timeout 200 bin/stencil_sweep --only plane_tiles3 > $W/sweep_round28.log 2>&1
echo "stencil_sweep round 28 rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ratio|copy reference" $W/sweep_round28.log | sed -E 's/t=[^]]*\]//; s/GC\/s//; s/ +/ /g' | tee -a $S
tar -C $W -cJf $OUT/run7_logs.tar.xz .
