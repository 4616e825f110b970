# Run 4 (H200): run 2's plane barriers every R_s steps (a run-time count), now in the Jacobi sweeps only; the apply
# sweeps keep a barrier per step, as before (Q = this bundle). O = session 38's final library (perks_bench and both
# libraries in $LA/libO). The resident kernels' registers and stack by name (cuobjdump) in Q; the GPU suite with Q, the
# CudaPerks tests with PERKSOLVE_PERKS_SPARSE_PLANE_SYNC=0; perks_bench jacobi and apply O / Q alternating, twice each;
# racecheck on the resident sanitizer cases, synccheck and memcheck on those and ResidentShortChunksDouble, with Q.
# Usage: B=unpacked bundle LA=dir with libO/ OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$OBJ --dump-resource-usage lib/libperksolve_cuda.so.0 2>&1 | grep -A1 "perks_resident_kernel" | grep -v "^--" \
  | paste - - | sed -E 's/.*Function ([^:]*):.*(REG:[0-9]+) (STACK:[0-9]+).*/\2 \3 \1/' | sort -k3 > $OUT/resident_kernels_regs_Q.txt
echo "resident kernels Q (count REG STACK):" $(awk '{print $1, $2}' $OUT/resident_kernels_regs_Q.txt | sort | uniq -c | tr '\n' ';') | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (Q) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
t=$SECONDS; PERKSOLVE_PERKS_SPARSE_PLANE_SYNC=0 LD_LIBRARY_PATH=$FB timeout 150 bin/test_gpu_backend --gtest_filter='CudaPerks*' > $W/tests_every_step.log 2>&1
echo "test_gpu_backend CudaPerks* (SPARSE_PLANE_SYNC=0) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_every_step.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_every_step.log | head | tee -a $S
bench() {  # $1 O|Q, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = Q ]; then
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    LD_LIBRARY_PATH=$LA/lib$v:$PWD/lib:$FB timeout 60 $LA/lib$v/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in O Q; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [("O", 1), ("O", 2), ("Q", 1), ("Q", 2)]
for mode in ("jacobi", "apply"):
    runs = {(v, k): recs(f"{w}/pb_{mode}{k}_{v}.json") for v, k in arms}
    print(f"== {mode}, small class: extents, Q's barrier steps, us per sweep persistent O1 O2 Q1 Q2, speed-up O1 O2 Q1 Q2")
    for key in runs[("Q", 1)]:
        if key[2] != "small": continue
        rs = [runs[a].get(key) for a in arms]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0], rs[2].get("plane_sync_steps"),
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
tar -C $W -cJf $OUT/run4_logs.tar.xz .
