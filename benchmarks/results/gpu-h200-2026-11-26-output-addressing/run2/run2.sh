# Run 2 (H200): the output addressing with the bulk rows precomputed per item and the 2D fp64 medium tile held at one
# block per SM; A/B against the previous revision's lib (lib_old/) and two experiment switches of this build
# (PERKSOLVE_CUDA_STREAM_EXP: bit 0 = bulk rows all issued by warp 0 as before, bit 1 = branched stores as before).
# Usage: OUT=dir bash run2.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R (old lib: $(cat lib_old/REVISION))" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
OLD=$PWD/lib_old
for tier in default large medium; do
  t=$SECONDS
  if [[ $tier == default ]]; then timeout 200 bin/test_gpu_backend > $W/tests_$tier.log 2>&1
  else PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=fast timeout 200 bin/test_gpu_backend > $W/tests_$tier.log 2>&1; fi
  echo "test_gpu_backend $tier rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  tail -1 $W/tests_$tier.log | tee -a $W/summary.txt; grep -E "^\[  FAILED" $W/tests_$tier.log | head -20 | tee -a $W/summary.txt
done
bench() {  # name lib exp args...
  local name=$1 lib=$2 exp=$3; shift 3
  LD_LIBRARY_PATH=$lib PERKSOLVE_CUDA_STREAM_EXP=$exp timeout 120 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R-$name" --out $W/sb_$name.json "$@" > $W/sb_$name.log 2>&1
  echo "stencil_bench $name rc=$?" >> $W/summary.txt
}
for k in 1 2; do
  bench new0_$k "" 0
  bench old_$k $OLD 0
  for e in 1 2 3; do bench new${e}_$k "" $e --cases 3d7pt,3d27pt_sym,3d27pt,2d5pt,2d9pt; done
  for v in new0 new1 new2 new3 old; do
    L=; [[ $v == old ]] && L=$OLD
    bench ${v}_255_$k "$L" ${v#new} --n3d 255 --cases 3d7pt,3d27pt_sym --precision f64
  done
done
python3 - $W >> $W/summary.txt <<'PY'
import sys,glob,re,collections
w=sys.argv[1]; tab=collections.defaultdict(dict)
for f in sorted(glob.glob(w+'/sb_*.log')):
    name=re.sub(r'^sb_|\.log$','',f.split('/')[-1])
    for l in open(f):
        t=l.split()
        if len(t)>8 and re.match(r'^(2d|3d)',t[0]): tab[t[0]+'-'+t[1]+'-'+t[2]][name]=t[7]
cols=sorted({c for r in tab.values() for c in r})
print('case'.ljust(34)+' '.join(c.rjust(10) for c in cols))
for k in tab: print(k.ljust(34)+' '.join(tab[k].get(c,'').rjust(10) for c in cols))
PY
k=0
for v in new old new old; do
  L=; [[ $v == old ]] && L=$OLD; k=$((k+1))
  LD_LIBRARY_PATH=$L timeout 90 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R-$v" --out $W/solver_bench_${v}_$k.json > $W/solver_bench_${v}_$k.log 2>&1; echo "solver_bench $v rc=$?" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench_${v}_$k.log | cut -c1-120 | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/tests_*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
