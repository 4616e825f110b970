# Run 6 (H200): fp64 rows at other alignments than run 2's (32, 16, 8 elements): 4 (32 bytes: a row's high ghost and the
# next row's low ghost in one sector, reads ~ the cells) and 64 (512 bytes), against 32 (production); stencil_bench
# fp64 3D radius-1 cases, alternating, three runs each; ncu of fp64 3d7pt at each (DRAM bytes per sweep, caches kept).
# Usage: B=unpacked bundle OUT=dir bash run6.sh
set -u
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
C=3d7pt,3d27pt,3d27pt_sym,poisson,3d17pt
for k in 1 2 3; do
  for a in 32 4 64; do
    t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --precision f64 --cases $C --row-align $a \
      --git-revision "$R" --out $W/stencil_a${a}_$k.json > $W/stencil_a${a}_$k.log 2>&1
    echo "stencil_bench align $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "^3d7pt |^3d27pt_sym" $W/stencil_a${a}_$k.log | cut -c1-100 | tee -a $S
  done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for a in 32 4 64; do
  t=$SECONDS; timeout 60 $NCU --clock-control none --cache-control none -k regex:stream_stencil -s 5 -c 2 --metrics $M \
    bin/stencil_bench --cases 3d7pt --precision f64 --default-variant-only --reps 3 --sequence 2 --row-align $a \
    > $W/ncu_3d7pt_f64_a$a.log 2>&1
  echo "ncu 3d7pt f64 align $a rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "gpu__time|dram__" $W/ncu_3d7pt_f64_a$a.log | sed -E 's/ +/ /g' | tee -a $S
done
tar -C $W -cJf $OUT/run6_logs.tar.xz .
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
print("== stencil_bench fp64 ratio (per call / in sequence): case | align 32 (1-3) | align 4 (1-3) | align 64 (1-3)")
runs = [json.load(open(f"{w}/stencil_a{a}_{k}.json")) for a in (32, 4, 64) for k in (1, 2, 3)]
tabs = [{r["case"]: r for r in j["records"]} for j in runs]
for c in tabs[0]:
    print(c, "|", " | ".join(f'{t[c]["ratio_to_copy_bound"]:.3f}/{t[c]["ratio_to_copy_bound_in_sequence"]:.3f}' for t in tabs if c in t))
PY
