# Run 2 (H200): the row padding of the grid fields. Run 1's ncu counted 575.0 MB of DRAM reads per fp32 3d7pt sweep at
# 512^3: the whole padded allocation (544 x 514 x 514 x 4 bytes), not the 543 MB of cells. Model: rows padded to 32
# elements put x = 512 of row j and x = -1 of row j + 1 in the row's 17th 128-byte line (sectors 0 and 3); the DRAM
# fetches 64-byte halves, so every line is read. stencil_bench (run 1's library, ascending sweeps) with the benchmark
# fields' rows aligned to 32 (production), 16 and 8 elements, alternating, twice each; ncu of fp32 and fp64 3d7pt at
# each alignment (DRAM bytes per sweep, caches kept).
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
C=3d7pt,3d27pt,3d27pt_sym,poisson,3d17pt,3d13pt,2d5pt,2d9pt
for k in 1 2; do
  for a in 32 16 8; do
    t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --cases $C --row-align $a --git-revision "$R" \
      --out $W/stencil_a${a}_$k.json > $W/stencil_a${a}_$k.log 2>&1
    echo "stencil_bench align $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "^3d7pt |^3d27pt|^2d5pt " $W/stencil_a${a}_$k.log | cut -c1-100 | tee -a $S
  done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for c in "3d7pt f32" "3d7pt f64" "3d27pt f64"; do
  set -- $c
  for a in 32 16 8; do
    t=$SECONDS; timeout 60 $NCU --clock-control none --cache-control none -k regex:stream_stencil -s 5 -c 2 --metrics $M \
      bin/stencil_bench --cases $1 --precision $2 --default-variant-only --reps 3 --sequence 2 --row-align $a \
      > $W/ncu_$1_$2_a$a.log 2>&1
    echo "ncu $1 $2 align $a rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "gpu__time|dram__" $W/ncu_$1_$2_a$a.log | sed -E 's/ +/ /g' | tee -a $S
  done
done
tar -C $W -cJf $OUT/run2_logs.tar.xz .
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
print("== stencil_bench ratio (per call / in sequence): case prec | align 32 (1, 2) | align 16 (1, 2) | align 8 (1, 2)")
runs = [json.load(open(f"{w}/stencil_a{a}_{k}.json")) for a in (32, 16, 8) for k in (1, 2)]
key = lambda r: (r["case"], r["precision"])
tabs = [{key(r): r for r in j["records"]} for j in runs]
for k in tabs[0]:
    print(k[0], k[1], "|", " | ".join(f'{t[k]["ratio_to_copy_bound"]:.3f}/{t[k]["ratio_to_copy_bound_in_sequence"]:.3f}' for t in tabs if k in t))
PY
