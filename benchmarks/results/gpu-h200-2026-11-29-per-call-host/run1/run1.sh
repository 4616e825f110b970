# Run 1 (H200): the host side of a persistent_sweeps call. N = this library (the bundle's): the Jacobi residual history
# written by the kernel into the mapped pinned staging buffer (no copy; PERKSOLVE_CUDA_SUMS_TO_HOST=0 restores the
# copies of the result and the history), the occupancy answers memoised per device, kernel, threads and shared memory
# (no cudaFuncSetAttribute and occupancy query at every launch), and the review's mends of the pipelined launcher.
# M = the previous library (LA; session 36's final code).
# 0. cuobjdump -res-usage of M and N by demangled name; 1. the GPU suite with N; 2. perks_bench jacobi and apply at 20 sweeps per call, M / N alternating, twice each;
# 3. jacobi with PERKSOLVE_CUDA_SUMS_TO_HOST=0 on M and on N (the memo alone); 4. one call's time at 1 sweep on
# 2d5pt fp64 Jacobi at 789^2 and 3d7pt fp32 apply at 159^3 (resident), M / N twice each; 5. compute-sanitizer memcheck
# on the tests that return a history with N.
# Usage: B=unpacked bundle (N in lib/) LA=dir with M's libperksolve_cuda.so.0 OUT=dir bash run1.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CO=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CO -res-usage $LA/libperksolve_cuda.so.0 > $W/res_M.txt 2>&1
$CO -res-usage lib/libperksolve_cuda.so.0 > $W/res_N.txt 2>&1
python3 $HERE/../../gpu-h200-2026-11-29-static-balance/run1/res_usage_by_name.py $W/res_M.txt $W/res_N.txt 2>&1 | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
libpath() { if [ "$1" = M ]; then echo "$LA:$FB"; else echo "$FB"; fi; }
bench() {  # $1 library M|N, $2 PERKSOLVE_CUDA_SUMS_TO_HOST, $3 tag, rest: perks_bench options
  local lib=$1 v=$2 tag=$3; shift 3
  local t=$SECONDS
  PERKSOLVE_CUDA_SUMS_TO_HOST=$v LD_LIBRARY_PATH=$(libpath $lib) timeout 90 bin/perks_bench "$@" --git-revision "$R-$lib$v" \
    --out $W/pb_${tag}_${lib}$v.json > $W/pb_${tag}_${lib}$v.log 2>&1
  echo "perks_bench $tag lib=$lib mapped=$v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_${lib}$v.log | sed "s/^/$tag $lib$v /" | tee -a $S
}
for k in 1 2; do
  for lib in M N; do bench $lib 1 jacobi$k --sweep jacobi; done
done
for k in 1 2; do
  for lib in M N; do bench $lib 1 apply$k --sweep apply; done
done
for lib in M N; do bench $lib 0 jacobi3 --sweep jacobi; done
for k in 1 2; do
  for lib in M N; do
    bench $lib 1 call1_2d5pt_$k --cases 2d5pt --precision f64 --side 789 --sweeps 1 --kernel resident --sweep jacobi
    bench $lib 1 call1_3d7pt_$k --cases 3d7pt --precision f32 --side 159 --sweeps 1 --kernel resident --sweep apply
  done
done
python3 - $W >> $S <<'PY'
import json, sys, glob
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
for tag in ("jacobi1", "jacobi2", "apply1", "apply2", "jacobi3"):
    v = "0" if tag == "jacobi3" else "1"
    a, b = recs(f"{w}/pb_{tag}_M{v}.json"), recs(f"{w}/pb_{tag}_N{v}.json")
    print(f"== {tag} (mapped={v}), small class: persistent us per sweep M -> N, speed-up M -> N, blocks M / N")
    for key in a:
        if key[2] != "small": continue
        print(" ".join(key), "%.2f -> %.2f" % (1e6 * a[key]["persistent_s_per_sweep"], 1e6 * b[key]["persistent_s_per_sweep"]),
              "%.3f -> %.3f" % (a[key]["speedup"], b[key]["speedup"]), a[key]["blocks"], b[key]["blocks"])
    diff = [k for k in a if a[k]["blocks"] != b[k]["blocks"]]
    print(f"{tag}: cases whose blocks differ M / N: {len(diff)}", diff[:8])
print("== one sweep per call: us per call (persistent), M / N")
for f in sorted(glob.glob(w + "/pb_call1_*.json")):
    for r in json.load(open(f))["records"]:
        print(f.split("/")[-1][:-5], r["case"], r["precision"], r["class"], "%.2f us per call" % (1e6 * r["persistent_s_per_sweep"]),
              "per-step %.2f" % (1e6 * r["per_step_s_per_sweep"]))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
f='CudaPerks.JacobiStops*:CudaPerks.ResidentSanitizerCase*:CudaPerksSolvers.JacobiWithHistoryRows:CudaPerksSolvers.JacobiWithOutputEveryN'
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 $CS --tool memcheck bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ERROR SUMMARY|PASSED|FAILED|tests ran" $OUT/sanitizer_memcheck.log | head -6 | tee -a $S
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run1_logs.tar.xz .
