# Run 1 (H200): per-sweep stencils that start where their input's last write ended (PERKSOLVE_CUDA_SWEEP_ORDER=follow,
# the new default: StreamChunks::descending from CudaField::stream_end; the pipelined PERKS kernel alternates per sweep)
# against the previous ascending order (PERKSOLVE_CUDA_SWEEP_ORDER=ascending), one library: the GPU suite (with the new
# CudaBackendStencil.SweepOrder* tests); stencil_bench twice each way, alternating; ncu of fp32 3d7pt and fp64 3d7pt
# in a ping-pong with the caches kept (DRAM bytes read and written per sweep) each way (stencil_bench --sweep-order);
# perks_bench apply and jacobi each way and solver_bench fp64 (wu, mg, pcg) each way (PERKSOLVE_CUDA_SWEEP_ORDER).
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests.log 2>&1
echo "GPU suite rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests.log | head -20 | tee -a $S
grep -E 'SweepOrder' $W/tests.log | tee -a $S
for k in 1 2; do
  for o in follow ascending; do
    t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --sweep-order $o --git-revision "$R" \
      --out $W/stencil_${o}_$k.json > $W/stencil_${o}_$k.log 2>&1
    echo "stencil_bench $o $k rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "^copy|^in seq|^3d7pt |^3d27pt|^2d5pt " $W/stencil_${o}_$k.log | cut -c1-110 | tee -a $S
  done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum
for c in "3d7pt f32" "3d7pt f64"; do
  set -- $c
  for o in follow ascending; do
    t=$SECONDS; timeout 60 $NCU --clock-control none --cache-control none -k regex:stream_stencil \
      -s 5 -c 4 --metrics $M bin/stencil_bench --cases $1 --precision $2 --default-variant-only --reps 3 --sequence 2 \
      --sweep-order $o \
      > $W/ncu_$1_$2_$o.log 2>&1
    echo "ncu $1 $2 $o rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "gpu__time|dram__|lts__" $W/ncu_$1_$2_$o.log | sed -E 's/ +/ /g' | tee -a $S
  done
done
for m in apply jacobi; do
  for o in follow ascending; do
    t=$SECONDS; PERKSOLVE_CUDA_SWEEP_ORDER=$o timeout 60 bin/perks_bench --sweep $m --git-revision "$R-$o" \
      --out $W/perks_${m}_$o.json > $W/perks_${m}_$o.log 2>&1
    echo "perks_bench $m $o rc=$? $((SECONDS-t)) s: $(grep geometric $W/perks_${m}_$o.log)" | tee -a $S
  done
done
for o in follow ascending; do
  t=$SECONDS; PERKSOLVE_CUDA_SWEEP_ORDER=$o timeout 150 bin/solver_bench --precision f64 --cases wu,mg,pcg \
    --git-revision "$R-$o" --out $W/solver_$o.json > $W/solver_$o.log 2>&1
  echo "solver_bench $o rc=$? $((SECONDS-t)) s" | tee -a $S
done
tar -C $W -cJf $OUT/run1_logs.tar.xz .
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(p):
    try: return json.load(open(p))
    except Exception as e: return None
print("== stencil_bench ratio (per call / in sequence): case prec | follow 1 | follow 2 | ascending 1 | ascending 2")
runs = [recs(f"{w}/stencil_{o}_{k}.json") for o in ("follow", "ascending") for k in (1, 2)]
if all(runs):
    key = lambda r: (r["case"], r["precision"])
    tabs = [{key(r): r for r in j["records"]} for j in runs]
    for k in tabs[0]:
        print(k[0], k[1], "|", " | ".join(f'{t[k]["ratio_to_copy_bound"]:.3f}/{t[k].get("ratio_to_copy_bound_in_sequence", 0):.3f}' for t in tabs if k in t))
print("== perks_bench geometric means: see the perks_bench lines above")
print("== solver_bench: case precision | follow time_s work_units | ascending time_s work_units")
sv = [recs(f"{w}/solver_{o}.json") for o in ("follow", "ascending")]
if all(sv):
    a = {(r["case"], r["precision"]): r for r in sv[1]["records"]}
    for r in sv[0]["records"]:
        b = a.get((r["case"], r["precision"]), {})
        print(r["case"], r["precision"], "|", r.get("time_s"), r.get("work_units"), "|", b.get("time_s"), b.get("work_units"))
PY
