# Run 3 (H200): the library as committed (F: run 2's Z with the switch PERKSOLVE_PERKS_SPARSE_PLANE_SYNC and the kernel
# argument it set removed; the same kernel code). Q = session 39's final library (revision 0067987), V = F with every 2D
# resident tile on shifted partial sums (ROT off: fp64 apply and Jacobi and fp32 apply of radius >= 3 rotated in F);
# perks_bench and both libraries of each in $LA/libQ, $LA/libV. The resident kernels' registers and stack by name
# (cuobjdump) in F and V; the GPU suite with F, the CudaPerks tests with V; perks_bench jacobi and apply Q / F / V
# alternating, twice each; racecheck on the resident sanitizer cases, synccheck and memcheck on those and
# ResidentShortChunksDouble, with F. Then ncu (as in ../gpu-h200-2026-11-29-neighbour-sync/run5)
# of one launch of 20 sweeps of the two weakest apply cases of the small class, 2d25pt fp64 at 1577^2 and 3d13pt fp64 at
# 126^3, with F: warp states, scheduler, occupancy, memory, and the per-instruction stall samples (SASS csv).
# Usage: B=unpacked bundle LA=dir with libQ/ and libV/ OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
regs() {  # $1 library, $2 tag
  $OBJ --dump-resource-usage $1 2>&1 | grep -A1 "perks_resident_kernel" | grep -v "^--" \
    | paste - - | sed -E 's/.*Function ([^:]*):.*(REG:[0-9]+) (STACK:[0-9]+).*/\2 \3 \1/' | sort -k3 > $OUT/resident_kernels_regs_$2.txt
  echo "resident kernels $2 (count REG STACK):" $(awk '{print $1, $2}' $OUT/resident_kernels_regs_$2.txt | sort | uniq -c | tr '\n' ';') | tee -a $S
}
regs lib/libperksolve_cuda.so.0 F
regs $LA/libV/libperksolve_cuda.so.0 V
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (F) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$LA/libV:$PWD/lib:$FB timeout 150 bin/test_gpu_backend --gtest_filter='CudaPerks*' > $W/tests_perks_V.log 2>&1
echo "test_gpu_backend CudaPerks* (V) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks_V.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_perks_V.log | head | tee -a $S
bench() {  # $1 Q|F|V, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = F ]; then
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    LD_LIBRARY_PATH=$LA/lib$v:$PWD/lib:$FB timeout 60 $LA/lib$v/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in Q F V; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [(v, k) for v in "QFV" for k in (1, 2)]
for mode in ("jacobi", "apply"):
    runs = {a: recs(f"{w}/pb_{mode}{a[1]}_{a[0]}.json") for a in arms}
    for cls in ("small", "large"):
        print(f"== {mode}, {cls}: extents, us per sweep persistent Q1 Q2 F1 F2 V1 V2, speed-up Q1 Q2 F1 F2 V1 V2")
        for key in runs[("F", 1)]:
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
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for cs in 2d25pt:f64:1577 3d13pt:f64:126; do
  IFS=: read -r c p n <<< "$cs"
  t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 150 $NCU --clock-control none --kernel-name regex:perks_resident_kernel --launch-skip 3 \
    --launch-count 1 --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis --section SpeedOfLight --section SourceCounters --section InstructionStats \
    --export $W/ncu_$c bin/perks_bench --cases $c --precision $p --side $n --sweeps 20 --reps 3 --kernel resident \
    --sweep apply > $W/ncu_$c.log 2>&1
  echo "ncu $c rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU --import $W/ncu_$c.ncu-rep --print-details all > $W/ncu_${c}_details.txt 2>&1
  grep -E "Duration|Warp Cycles Per Issued|Issued Warp Per Scheduler|No Eligible|Active Warps Per Scheduler|Eligible Warps|Achieved Occupancy|Stall|Registers Per|Block Size|Dynamic Shared|Executed Ipc|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit" \
    $W/ncu_${c}_details.txt | sed "s/^/$c /" | tee -a $S
  $NCU --import $W/ncu_$c.ncu-rep --page source --csv --print-source sass > $W/ncu_${c}_sass.csv 2>&1
  echo "$c sass rows: $(wc -l < $W/ncu_${c}_sass.csv)" | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run3_logs.tar.xz .
