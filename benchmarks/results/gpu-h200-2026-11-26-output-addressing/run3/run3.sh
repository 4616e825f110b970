# Run 3 (H200): the output addressing as committed (no experiment switches), solver_bench's WU sweep on the solver's
# padded rows; A/B against the previous revision's lib (lib_old/, loaded first through LD_LIBRARY_PATH; the binaries
# are this revision's). GPU suite in the automatic mode and with the wide tiers forced. Usage: OUT=dir bash run3.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R (old lib: $(cat lib_old/REVISION))" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
OLD=$PWD/lib_old
for mode in default large_fast medium_fast large_normal; do
  t=$SECONDS
  if [[ $mode == default ]]; then timeout 200 bin/test_gpu_backend > $W/tests_$mode.log 2>&1
  else PERKSOLVE_CUDA_WIDE_TILE=${mode%_*} PERKSOLVE_CUDA_MEMORY=${mode#*_} timeout 200 bin/test_gpu_backend > $W/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  tail -1 $W/tests_$mode.log | tee -a $W/summary.txt; grep -E "^\[  FAILED" $W/tests_$mode.log | head -20 | tee -a $W/summary.txt
done
bench() {  # name lib args...
  local name=$1 lib=$2; shift 2
  LD_LIBRARY_PATH=$lib timeout 120 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R-$name" --out $W/sb_$name.json "$@" > $W/sb_$name.log 2>&1
  echo "stencil_bench $name rc=$?" >> $W/summary.txt
}
for k in 1 2; do
  bench new_$k ""; bench old_$k $OLD
  bench new_255_$k "" --n3d 255 --cases 3d7pt,3d27pt_sym; bench old_255_$k $OLD --n3d 255 --cases 3d7pt,3d27pt_sym
done
python3 - $W >> $W/summary.txt <<'PY'
import sys,glob,re,collections
w=sys.argv[1]; tab=collections.defaultdict(dict)
for f in sorted(glob.glob(w+'/sb_*.log')):
    name=re.sub(r'^sb_|\.log$','',f.split('/')[-1]).replace('_255','')
    for l in open(f):
        t=l.split()
        if len(t)>8 and re.match(r'^(2d|3d)',t[0]): tab[t[0]+'-'+t[1]+'-'+t[2].split('x')[0]][name]=t[6]
cols=['new_1','new_2','old_1','old_2']
print('ratio to the copy bound'.ljust(26)+' '.join(c.rjust(7) for c in cols))
for k in tab: print(k.ljust(26)+' '.join(tab[k].get(c,'').rjust(7) for c in cols))
PY
k=0
for v in new old new old; do
  L=; [[ $v == old ]] && L=$OLD; k=$((k+1))
  LD_LIBRARY_PATH=$L timeout 90 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R-$v" --out $W/solver_bench_${v}_$k.json > $W/solver_bench_${v}_$k.log 2>&1; echo "solver_bench $v rc=$?" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench_${v}_$k.log | cut -c1-120 | tee -a $W/summary.txt
done
for v in new old; do
  L=; [[ $v == old ]] && L=$OLD
  t=$SECONDS; LD_LIBRARY_PATH=$L timeout 100 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_$v.json > $W/perks_bench_$v.log 2>&1; echo "perks_bench $v rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep geometric $W/perks_bench_$v.log | sed "s/^/$v /" | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/tests_*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
