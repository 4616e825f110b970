# Run 1 (H200): fp64 grid rows aligned to 4 elements (32 bytes), 8 (64 bytes) and 32 (256 bytes, production) in one
# run, alternating, four runs each: stencil_bench fp64 3D radius-1 cases and 2d5pt (16384^2); ncu DRAM bytes of fp64
# 3d7pt at each. Decides between 4 and 8 (8 would keep the float cycle's rows on 32 bytes when it shares the layout).
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
C=3d7pt,3d27pt,3d27pt_sym,poisson,3d17pt,2d5pt
for k in 1 2 3 4; do
  for a in 32 4 8; do
    t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --precision f64 --cases $C --row-align $a \
      --git-revision "$R" --out $W/stencil_a${a}_$k.json > $W/stencil_a${a}_$k.log 2>&1
    echo "stencil_bench align $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "^3d7pt |^2d5pt " $W/stencil_a${a}_$k.log | cut -c1-100 | tee -a $S
  done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for a in 32 4 8; do
  t=$SECONDS; timeout 60 $NCU --clock-control none --cache-control none -k regex:stream_stencil -s 5 -c 2 --metrics $M \
    bin/stencil_bench --cases 3d7pt --precision f64 --default-variant-only --reps 3 --sequence 2 --row-align $a \
    > $W/ncu_3d7pt_f64_a$a.log 2>&1
  echo "ncu 3d7pt f64 align $a rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "gpu__time|dram__" $W/ncu_3d7pt_f64_a$a.log | sed -E 's/ +/ /g' | tee -a $S
done
tar -C $W -cJf $OUT/run1_logs.tar.xz .
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
print("== stencil_bench fp64 ratio (per call / in sequence): case | align 32 (1-4) | align 4 (1-4) | align 8 (1-4)")
tabs = {a: [{r["case"]: r for r in json.load(open(f"{w}/stencil_a{a}_{k}.json"))["records"]} for k in (1, 2, 3, 4)]
        for a in (32, 4, 8)}
for c in tabs[32][0]:
    print(c, "|", " | ".join(" ".join(f'{t[c]["ratio_to_copy_bound"]:.3f}/{t[c]["ratio_to_copy_bound_in_sequence"]:.3f}'
                                      for t in tabs[a] if c in t) for a in (32, 4, 8)))
PY
