# Run 7 (H200): the host side of a persistent_sweeps call. D = K with a diagnostic patch (call_times.patch, not
# committed): with PERKSOLVE_PERKS_CALL_TIMES set, every call prints its host times (request: the request and face set;
# launch: the launcher's planning and the cooperative launch; check: the launch check; wait: the result's copy and
# the stream synchronisation, i.e. the kernel; history: the Jacobi residual history's copy).
# F = D with one synchronisation per call (the Jacobi residual history copied into pinned memory behind the result's
# copy, instead of a second, synchronous cudaMemcpy after it).
# perks_bench --side on 2d5pt fp64 Jacobi at 789^2 and 3d7pt fp32 apply at 159^3 (resident), K = 1 and 20, D then F.
# Usage: B=unpacked bundle LD=dir with D's libperksolve_cuda.so.0 LF=dir with F's OUT=dir bash run7.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run7; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for v in D F; do
for cs in 2d5pt:f64:789:jacobi 3d7pt:f32:159:apply; do
  IFS=: read -r c p n m <<< "$cs"
  for k in 1 20; do
    case $v in D) L=$LD ;; F) L=$LF ;; esac
    PERKSOLVE_PERKS_CALL_TIMES=1 LD_LIBRARY_PATH=$L:$FB timeout 60 bin/perks_bench --cases $c --precision $p --side $n \
      --sweeps $k --reps 5 --kernel resident --sweep $m > $W/pb_${v}_${c}_$k.log 2> $W/times_${v}_${c}_$k.txt
    echo "$v $c $p $n $m K=$k rc=$?" | tee -a $S
    grep -E "^$c " $W/pb_${v}_${c}_$k.log | tee -a $S
    python3 - $W/times_${v}_${c}_$k.txt >> $S <<'PY'
import re, statistics, sys
rows = [list(map(float, re.findall(r"[0-9.]+", l))) for l in open(sys.argv[1]) if l.startswith("perks call times")]
names = ["request", "launch", "check", "wait", "history", "total"]
if rows:
    tail = rows[len(rows) // 2:]  # the timed calls come last; the first ones are set-up and warm-up
    print("  calls", len(rows), "median of the last", len(tail), ":",
          "  ".join(f"{n} {statistics.median(r[i] for r in tail):.1f}" for i, n in enumerate(names)))
PY
  done
done
done
tar -C $W -cJf $OUT/run7_logs.tar.xz .
