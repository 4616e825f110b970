# Run 3 (H200): the resident brick as a ring of plane slots. The plane loop writes the new iterate one slot down (into
# the slot of the plane last read R_s + 1 steps before; the ring turns by one slot per sweep), so its block barriers
# come every R_s + 1 steps, at compile-time positions, and none before the first step that writes. G = this bundle;
# O = session 38's final library (perks_bench and both libraries in $LA/libO); P = run 2's library (a barrier every
# R_s steps by a run-time count, in $LA/libP). The resident kernels' registers and stack by name (cuobjdump) in G and O;
# the GPU suite with G; perks_bench jacobi and apply O / G alternating, twice each, and P once; racecheck on the
# resident sanitizer cases, synccheck and memcheck on those and ResidentShortChunksDouble, with G.
# Usage: B=unpacked bundle LA=dir with libO/ and libP/ OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for v in O G; do
  lib=lib/libperksolve_cuda.so.0; [ "$v" = O ] && lib=$LA/libO/libperksolve_cuda.so.0
  $OBJ --dump-resource-usage $lib 2>&1 | grep -A1 "perks_resident_kernel" | grep -v "^--" \
    | paste - - | sed -E 's/.*Function ([^:]*):.*(REG:[0-9]+) (STACK:[0-9]+).*/\2 \3 \1/' | sort -k3 > $OUT/resident_kernels_regs_$v.txt
  echo "resident kernels $v (count REG STACK):" $(awk '{print $1, $2}' $OUT/resident_kernels_regs_$v.txt | sort | uniq -c | tr '\n' ';') | tee -a $S
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (G) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
bench() {  # $1 O|P|G, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = G ]; then
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    LD_LIBRARY_PATH=$LA/lib$v:$PWD/lib:$FB timeout 60 $LA/lib$v/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in O G; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
bench P jacobi1 --sweep jacobi; bench P apply1 --sweep apply
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [("O", 1), ("O", 2), ("P", 1), ("G", 1), ("G", 2)]
for mode in ("jacobi", "apply"):
    runs = {(v, k): recs(f"{w}/pb_{mode}{k}_{v}.json") for v, k in arms}
    print(f"== {mode}, small class: extents O / G, G's barrier steps, us per sweep persistent O1 O2 P1 G1 G2, speed-up O1 O2 P1 G1 G2")
    for key in runs[("G", 1)]:
        if key[2] != "small": continue
        rs = [runs[a].get(key) for a in arms]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0], rs[3]["extents"][0], rs[3].get("plane_sync_steps"),
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
tar -C $W -cJf $OUT/run3_logs.tar.xz .
