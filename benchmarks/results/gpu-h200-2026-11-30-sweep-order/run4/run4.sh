# Run 4 (H200): the 3D tiles again on the fp32 grid rows of 7d71b58 (8 elements; the sweep's default row alignment is
# now grid_row_align of each precision): stencil_sweep rounds 26-28 (--only plane_tiles, plane_tiles2, plane_tiles3:
# the fp32 3d7pt 512 x 4 tile's rings and items, the fp32 boxes, 3d13pt and Jacobi on 512 x 4 tiles, the fp64 3d7pt
# variants), then stencil_bench twice.
# Usage: B=unpacked bundle OUT=dir bash run4.sh
set -u
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
for r in plane_tiles plane_tiles2 plane_tiles3; do
  t=$SECONDS; timeout 150 bin/stencil_sweep --only $r > $W/sweep_$r.log 2>&1
  echo "stencil_sweep $r rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -vE "^\s*$" $W/sweep_$r.log | grep -E "ratio|^ |3d|cur|p[0-9]|jac|d512|stcs" | cut -c1-130 | tee -a $S
done
for k in 1 2; do
  t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --git-revision "$R" --out $W/stencil_$k.json \
    > $W/stencil_$k.log 2>&1
  echo "stencil_bench $k rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "^copy|^in seq|^3d|^2d5pt |^2d9pt " $W/stencil_$k.log | cut -c1-110 | tee -a $S
done
tar -C $W -cJf $OUT/run4_logs.tar.xz .
