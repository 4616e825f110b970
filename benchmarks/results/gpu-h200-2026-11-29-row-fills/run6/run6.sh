# Run 6 (H200): ncu of the pipelined 2d17pt fp32 Jacobi kernel at 6144^2 (4 sweeps), F (run 3's library) against the
# traced build of F with tracing off (T), which run 5 measured 3.5 % faster per sweep (179-182 against 185-188 us):
# registers, local memory (spills), instructions, stall reasons.
# Usage: B=unpacked bundle (F) LT=dir with F's traced libperksolve_cuda.so.0 OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for v in F T; do
  lp=$FB; [[ $v == T ]] && lp=$LT:$PWD/lib:$FB
  m=pipelined_2d17pt_f32_jacobi_$v; t=$SECONDS
  LD_LIBRARY_PATH=$lp timeout 150 $NCU --clock-control none -k regex:perks_pipelined_kernel -c 1 --section SpeedOfLight \
    --section Occupancy --section LaunchStats --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis \
    --metrics smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_global_ld.sum \
    -o $W/$m -f bin/perks_bench --cases 2d17pt --precision f32 --side 6144 --sweeps 4 --reps 1 --kernel pipelined --sweep jacobi > $W/$m.ncu.log 2>&1
  echo "ncu $m rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU -i $W/$m.ncu-rep --page details --csv > $W/$m.details.csv 2>&1
  $NCU -i $W/$m.ncu-rep --page raw --csv > $W/$m.raw.csv 2>&1
  grep -E '"(Duration|Registers Per Thread|Achieved Occupancy|DRAM Throughput|Executed Instructions|Local Memory Spilling Requests|Stall Barrier|Warp Cycles Per Issued Instruction|Issue Slots Busy|Theoretical Occupancy)"' $W/$m.details.csv | awk -F'","' -v m=$v '{print m, $(NF-2), $(NF-1), $NF}' | tee -a $S
  python3 - $W/$m.raw.csv $v >> $S <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[0]
for r in rows[2:3]:
    for name in ("smsp__inst_executed.sum", "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
                 "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_global_ld.sum", "launch__registers_per_thread",
                 "gpu__time_duration.sum"):
        if name in hdr: print(sys.argv[2], name, r[hdr.index(name)])
    stalls = [(h, r[i]) for i, h in enumerate(hdr) if h.startswith("smsp__average_warp_latency_issue_stalled_") or h.startswith("smsp__average_warps_issue_stalled_")]
    for h, x in stalls:
        try:
            if float(x) > 0.05: print(sys.argv[2], h, x)
        except ValueError: pass
PY
done
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/run6_logs.tar.xz .
