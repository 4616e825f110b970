# Run 3 (H200): the row-block walk's vector phases with kVec rows per thread and step, their loads issued first
# (for_rows_strided), at six and at eight blocks per SM; four variants of one build, chosen by the measurement
# switches PERKSOLVE_CUDA_CG_ROWS_BLOCKS (6 | 8) and PERKSOLVE_CUDA_CG_ROWS_UNROLL (1 | 4). For each: the persistent
# CG tests (CudaPersistentCg.*), cg_bench with its defaults (auto walk) twice and on laplace7_192 / laplace27_128
# once, the variants alternating.
# Usage: B=unpacked bundle OUT=dir bash run3.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
VARIANTS="6:1 6:4 8:1 8:4"
for v in $VARIANTS; do
  b=${v%:*}; u=${v#*:}
  t=$SECONDS; PERKSOLVE_CUDA_CG_ROWS_BLOCKS=$b PERKSOLVE_CUDA_CG_ROWS_UNROLL=$u timeout 120 bin/test_gpu_backend \
    --gtest_filter='CudaPersistentCg.*' > $W/tests_b${b}u$u.log 2>&1
  echo "CudaPersistentCg.* blocks $b unroll $u rc=$? $((SECONDS-t)) s: $(tail -1 $W/tests_b${b}u$u.log)" | tee -a $S
done
cgb() {  # cgb NAME ENV... -- ARGS...: cg_bench with the environment given, output in $W/cg_NAME.{log,json}
  local name=$1; shift; local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local t=$SECONDS
  env "${envs[@]}" timeout 150 bin/cg_bench --git-revision "$R-$name" --out $W/cg_$name.json "$@" > $W/cg_$name.log 2>&1
  echo "cg_bench $name rc=$? $((SECONDS-t)) s" | tee -a $S
}
for k in 1 2; do
  for v in $VARIANTS; do
    b=${v%:*}; u=${v#*:}
    cgb b${b}u${u}_$k PERKSOLVE_CUDA_CG_ROWS_BLOCKS=$b PERKSOLVE_CUDA_CG_ROWS_UNROLL=$u --
  done
done
for v in $VARIANTS; do
  b=${v%:*}; u=${v#*:}
  cgb b${b}u${u}_big PERKSOLVE_CUDA_CG_ROWS_BLOCKS=$b PERKSOLVE_CUDA_CG_ROWS_UNROLL=$u -- --large-7 192 --large-27 128 \
    --only laplace7_192,laplace27_128
done
python3 - $W >> $S <<'PY'
import json, sys, glob, os, math
w = sys.argv[1]
print("== cg_bench above the L2 (persistent us per iteration, x vendor): run | case precision ...")
rows = {}
for f in sorted(glob.glob(f"{w}/cg_*.json")):
    for r in json.load(open(f)).get("records", []):
        if r["class"] == "fits_l2": continue
        rows.setdefault(os.path.basename(f)[3:-5], []).append(r)
for run, rs in rows.items():
    print(run, " ".join("%s:%s %.1f %.2f" % (r["case"], r["precision"], 1e6 * r["persistent_s_per_iteration"],
                                            r["persistent_over_vendor"]) for r in rs))
PY
tar -C $W -cJf $OUT/run3_logs.tar.xz .
