# Run 5 (H200): why run 4's trace (device span 178 us per sweep) and run 3's perks_bench (186-188 us) differ for the
# pipelined 2d17pt fp32 Jacobi kernel at 6144^2: F untraced and the traced build of F (LT) with tracing off, each with
# 20 and 100 sweeps per launch, three times; then the same for 2d13pt fp32 and 3d13pt fp32 Jacobi.
# Usage: B=unpacked bundle (F) LT=dir with F's traced libperksolve_cuda.so.0 OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for cs in 2d17pt:f32:6144 2d13pt:f32:6144 3d13pt:f32:384; do
  IFS=: read -r c p n <<< "$cs"
  for k in 1 2 3; do
    for sw in 20 100; do
      for v in F T; do
        lp=$FB; [[ $v == T ]] && lp=$LT:$PWD/lib:$FB
        LD_LIBRARY_PATH=$lp timeout 60 bin/perks_bench --cases $c --precision $p --side $n --sweeps $sw --kernel pipelined \
          --sweep jacobi > $W/pb_${c}_${v}_${sw}_$k.log 2>&1
        echo "$c $p $n sweeps $sw $v run $k rc=$?: $(grep -o 'per-sweep [0-9.e-]* s  persistent [0-9.e-]* s  speed-up [0-9.]*' $W/pb_${c}_${v}_${sw}_$k.log)" | tee -a $S
      done
    done
  done
done
tar -C $W -cJf $OUT/run5_logs.tar.xz .
