# Run 4 (H200): run 3's bundle. Which solves lose on rows of one sector: solver_bench fp32 (wu, mg, pcg) and fp64
# (wu, cg, mg) with the grid rows by the rule (PERKSOLVE_GRID_ROW_ALIGN unset: 8 fp32 / 4 fp64 elements at 255^3)
# and forced to 32 elements, alternating, three and two runs each; stencil_bench fp64 3D radius-1 cases with the rule's
# rows and --row-align 32, alternating, three runs each (the 24-item fp64 3d7pt tile on either rows).
# Usage: B=unpacked bundle OUT=dir bash run4.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
for k in 1 2 3; do
  for a in auto 32; do
    t=$SECONDS; PERKSOLVE_GRID_ROW_ALIGN=$a timeout 100 bin/solver_bench --precision f32 --cases wu,mg,pcg \
      --git-revision "$R" --out $W/solver_f32_a${a}_$k.json > $W/solver_f32_a${a}_$k.log 2>&1
    echo "solver_bench fp32 rows $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
for k in 1 2; do
  for a in auto 32; do
    t=$SECONDS; PERKSOLVE_GRID_ROW_ALIGN=$a timeout 100 bin/solver_bench --precision f64 --cases wu,cg,mg \
      --git-revision "$R" --out $W/solver_f64_a${a}_$k.json > $W/solver_f64_a${a}_$k.log 2>&1
    echo "solver_bench fp64 rows $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
C=3d7pt,3d27pt,3d27pt_sym,poisson,3d17pt
for k in 1 2 3; do
  for a in 0 32; do
    t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --precision f64 --cases $C --row-align $a \
      --git-revision "$R" --out $W/stencil_a${a}_$k.json > $W/stencil_a${a}_$k.log 2>&1
    echo "stencil_bench fp64 align $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
tar -C $W -cJf $OUT/run4_logs.tar.xz .
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def table(title, pat, keys, runs, field, fmt):
    print(title)
    tabs = {a: [{r["case"]: r for r in json.load(open(pat.format(a=a, k=k)))["records"]} for k in runs] for a in keys}
    for c in tabs[keys[0]][0]:
        print(c, "|", " | ".join(" ".join(fmt(t[c]) for t in tabs[a] if c in t) for a in keys))
sol = lambda r: f'{r["time_s"]:.4e} ({r["work_units"]:.2f})'
table("== solver_bench fp32 time (WU): case | rows auto (1-3) | 32 (1-3)", w + "/solver_f32_a{a}_{k}.json",
      ("auto", "32"), (1, 2, 3), None, sol)
table("== solver_bench fp64 time (WU): case | rows auto (1-2) | 32 (1-2)", w + "/solver_f64_a{a}_{k}.json",
      ("auto", "32"), (1, 2), None, sol)
table("== stencil_bench fp64 ratio (per call / in sequence): case | rule (1-3) | align 32 (1-3)",
      w + "/stencil_a{a}_{k}.json", (0, 32), (1, 2, 3), None,
      lambda r: f'{r["ratio_to_copy_bound"]:.3f}/{r["ratio_to_copy_bound_in_sequence"]:.3f}')
PY
