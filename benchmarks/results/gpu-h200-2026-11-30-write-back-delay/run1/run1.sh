# Run 1 (H200): the resident plane loop writes its outputs back into the brick one step late (held in registers), so
# that its block barriers may sit R_s + 1 steps apart (Z = this bundle). B = the library of revision 3d02222 (the
# kernels of HEAD 5c342fb; perks_bench and both libraries in $LA/libB). The
# resident kernels' registers and stack by name (cuobjdump) in Z; the GPU suite with Z; perks_bench jacobi and apply
# B / Z alternating, twice each; racecheck on the resident sanitizer cases, synccheck and memcheck on those and
# ResidentShortChunksDouble, with Z.
# Usage: B=unpacked bundle LA=dir with libB/ OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
regs() {  # $1 library, $2 tag
  $OBJ --dump-resource-usage $1 2>&1 | grep -A1 "perks_resident_kernel" | grep -v "^--" \
    | paste - - | sed -E 's/.*Function ([^:]*):.*(REG:[0-9]+) (STACK:[0-9]+).*/\2 \3 \1/' | sort -k3 > $OUT/resident_kernels_regs_$2.txt
  echo "resident kernels $2 (count REG STACK):" $(awk '{print $1, $2}' $OUT/resident_kernels_regs_$2.txt | sort | uniq -c | tr '\n' ';') | tee -a $S
}
regs lib/libperksolve_cuda.so.0 Z
regs $LA/libB/libperksolve_cuda.so.0 B
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (Z) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
bench() {  # $1 B|Z, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = Z ]; then
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    LD_LIBRARY_PATH=$LA/lib$v:$PWD/lib:$FB timeout 60 $LA/lib$v/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in B Z; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [(v, k) for v in "BZ" for k in (1, 2)]
for mode in ("jacobi", "apply"):
    runs = {a: recs(f"{w}/pb_{mode}{a[1]}_{a[0]}.json") for a in arms}
    for cls in ("small", "large"):
        print(f"== {mode}, {cls}: extents, us per sweep persistent B1 B2 Z1 Z2, speed-up B1 B2 Z1 Z2")
        for key in runs[("Z", 1)]:
            if key[2] != cls: continue
            rs = [runs[a].get(key) for a in arms]
            if any(r is None for r in rs): continue
            print(" ".join(key[:2]), rs[0]["extents"][0],
                  " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs),
                  " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPerks.ResidentSanitizerCase*'; [ $tool = racecheck ] || f="$f:CudaPerks.ResidentShortChunksDouble"
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run1_logs.tar.xz .
