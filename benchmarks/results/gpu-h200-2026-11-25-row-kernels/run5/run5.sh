# Run 5 (2026-11-25, H200): stencil_sweep round 11 at 255^3 (fp32 apply and Jacobi, fp64 Jacobi), and multigrid
# persistent coarse levels on and off (solver_bench case persistent) at 255^3 and 511^3 (issue 6 item 4).
# Usage: OUT=dir bash run5.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
for c in "3d7pt_f32_255 255" "3d7pt_f32_b 255" "3d7pt_f64_b 255"; do
  set -- $c
  timeout 170 bin/stencil_sweep --reps 15 --only $1 --n3d $2 > $W/sweep_round11_$1_$2.log 2>&1; echo "sweep $1 $2 rc=$?" | tee -a $W/summary.txt
  grep -E "ratio" $W/sweep_round11_$1_$2.log | awk '{print $1,$2,$3,$4,$(NF-3),$(NF-2),$(NF-1),$NF}' | sed 's/ratio //'
done
for n in 255 511; do
  t=$SECONDS; timeout 240 bin/solver_bench --n $n --precision f64 --cases persistent --persistent-cells 0,32768 --solve-reps 5 --git-revision "$R" --out $W/solver_bench_persistent_$n.json > $W/solver_bench_persistent_$n.log 2>&1; echo "solver_bench persistent $n rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(mg_|pcg|wu_7pt)" $W/solver_bench_persistent_$n.log | awk '{print $1,$3,$4,$5,$6,$9}'
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
