# Run 1 (H200): the resident kernel's plane loop with a block barrier every R_s + 1 steps instead of every step (each
# thread holds its outputs for one step before writing them back into the brick in place). One new library (this
# bundle): N = PERKSOLVE_PERKS_SPARSE_PLANE_SYNC=1 (the default), E = 0 (a barrier every step, the outputs still held);
# O = the previous library (session 38's final code: perks_bench and both libraries in $LA). The registers and stack of
# the resident kernels in both libraries (cuobjdump); the GPU suite with N, the CudaPerks tests with E; perks_bench
# jacobi and apply O / E / N alternating, twice each; racecheck on the resident sanitizer cases, synccheck and memcheck
# on those and ResidentShortChunksDouble, with N.
# Usage: B=unpacked bundle LA=dir with O's perks_bench, libperksolve.so.0 and libperksolve_cuda.so.0 OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for v in O N; do
  lib=lib/libperksolve_cuda.so.0; [ "$v" = O ] && lib=$LA/libperksolve_cuda.so.0
  $OBJ --dump-resource-usage $lib 2>&1 | grep -A1 "perks_resident_kernel" | grep -o "REG:[0-9]* STACK:[0-9]*" \
    | sort | uniq -c > $W/resident_regs_$v.txt
  echo "resident kernels $v (count REG STACK):" $(cat $W/resident_regs_$v.txt | tr '\n' ';') | tee -a $S
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (N) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
t=$SECONDS; PERKSOLVE_PERKS_SPARSE_PLANE_SYNC=0 LD_LIBRARY_PATH=$FB timeout 150 bin/test_gpu_backend --gtest_filter='CudaPerks*' > $W/tests_every_step.log 2>&1
echo "test_gpu_backend CudaPerks* (E) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_every_step.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_every_step.log | head | tee -a $S
bench() {  # $1 O|E|N, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = O ]; then
    LD_LIBRARY_PATH=$LA:$PWD/lib:$FB timeout 60 $LA/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    local sv=1; [ "$v" = E ] && sv=0
    PERKSOLVE_PERKS_SPARSE_PLANE_SYNC=$sv LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in O E N; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
V = "OEN"
for mode in ("jacobi", "apply"):
    runs = {(v, k): recs(f"{w}/pb_{mode}{k}_{v}.json") for v in V for k in (1, 2)}
    print(f"== {mode}, small class: extents, N's barrier steps, us per sweep persistent O1 O2 | E1 E2 | N1 N2, speed-up O1 O2 | E1 E2 | N1 N2")
    for key in runs[("N", 1)]:
        if key[2] != "small": continue
        rs = [runs[(v, k)].get(key) for v in V for k in (1, 2)]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0], rs[4].get("plane_sync_steps"),
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
