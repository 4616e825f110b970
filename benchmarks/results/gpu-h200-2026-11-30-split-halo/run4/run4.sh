# Run 4 (H200, run 3's bundle): at the sides where two blocks per SM cannot keep b on chip but one block can (2D fp32
# Jacobi: 2d13pt at 1625, 2d17pt at 1560, the one-block small sides of run 3), which is faster: two blocks with b
# streamed through its ring (the default) or one block with every array on chip (PERKSOLVE_PERKS_TWO_BLOCKS=0)?
# perks_bench --side, 0 / 1 alternating, three times each.
# Usage: B=unpacked bundle OUT=dir bash run4.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for k in 1 2 3; do
  for v in 0 1; do
    for c in "2d13pt 1625" "2d17pt 1560" "2d17pt 1528"; do
      set -- $c
      PERKSOLVE_PERKS_TWO_BLOCKS=$v LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --cases $1 --precision fp32 \
        --sweep jacobi --side $2 --git-revision "$R-t$v" --out $W/pb_$1_$2_t${v}_$k.json > $W/pb_$1_$2_t${v}_$k.log 2>&1
      echo "rc=$? two-blocks $v run $k" >> $S
      python3 -c "
import json,sys
for r in json.load(open(sys.argv[1]))['records']:
    print(r['case'], r['precision'], r['extents'][0], 'threads', r['threads'], 'rhs_on_chip', r['rhs_on_chip'],
          'us/sweep %.2f' % (1e6 * r['persistent_s_per_sweep']), 'speed-up %.3f' % r['speedup'])" $W/pb_$1_$2_t${v}_$k.json >> $S
    done
  done
done
tar -C $W -cJf $OUT/run4_logs.tar.xz .
