# Run 6 (H200): the host polls the kernel's result in mapped memory instead of synchronising the stream (the sweep
# count written last, behind a system-scope fence; CudaBackend::persistent_sweeps). One library; A/B by
# PERKSOLVE_CUDA_RESULT_POLL (S = 0: cudaStreamSynchronize as before, P = 1: the poll, the default). The GPU suite with P;
# the CudaPerks tests with S; perks_bench jacobi and apply S / P alternating, twice each; one sweep per call (2d5pt fp64
# Jacobi at 1013^2, 3d7pt fp32 apply at 159^3), S / P twice each; memcheck on the CudaPerks Jacobi tests with P.
# Usage: B=unpacked bundle OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (P) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
t=$SECONDS; PERKSOLVE_CUDA_RESULT_POLL=0 LD_LIBRARY_PATH=$FB timeout 150 bin/test_gpu_backend --gtest_filter='CudaPerks*' > $W/tests_sync.log 2>&1
echo "test_gpu_backend CudaPerks* (S) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_sync.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_sync.log | head | tee -a $S
bench() {  # $1 S|P, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  local pv=1; [ "$v" = S ] && pv=0
  PERKSOLVE_CUDA_RESULT_POLL=$pv LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" \
    --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in S P; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
for k in 1 2; do
  for v in S P; do
    bench $v one_jacobi$k --sweep jacobi --cases 2d5pt --precision f64 --side 1013 --sweeps 1 --reps 20
    bench $v one_apply$k --sweep apply --cases 3d7pt --precision f32 --side 159 --sweeps 1 --reps 20
  done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
for mode in ("jacobi", "apply"):
    runs = {(v, k): recs(f"{w}/pb_{mode}{k}_{v}.json") for v in "SP" for k in (1, 2)}
    print(f"== {mode}, small class: extents, us per sweep persistent (per-step) S1 S2 | P1 P2, speed-up S1 S2 | P1 P2")
    for key in runs[("S", 1)]:
        if key[2] != "small": continue
        rs = [runs[(v, k)].get(key) for v in "SP" for k in (1, 2)]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0],
              " ".join("%.2f(%.2f)" % (1e6 * r["persistent_s_per_sweep"], 1e6 * r["per_step_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
print("== one sweep per call: us per call persistent (per-step), S1 S2 | P1 P2")
for tag in ("one_jacobi", "one_apply"):
    rs = [json.load(open(f"{w}/pb_{tag}{k}_{v}.json"))["records"][0] for v in "SP" for k in (1, 2)]
    print(tag, " ".join("%.2f(%.2f)" % (1e6 * r["persistent_s_per_sweep"], 1e6 * r["per_step_s_per_sweep"]) for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaPerks.Jacobi*:CudaPerksSolvers.*' > $OUT/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizer_memcheck.log | head -4 | tee -a $S
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run6_logs.tar.xz .
