# Run 5 (H200): per-SASS-instruction execution counts and warp-stall samples (ncu source page) of the production 3d7pt
# kernels at 512^3, fp32 and fp64, plus their SASS. Question: what are the ~44 (fp32) / ~69 (fp64) warp instructions
# per output that run 1 counted, against ~12 that the arithmetic and the loads need. Usage: OUT=dir bash run5.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
t=$SECONDS; timeout 60 bin/stencil_bench --cases 3d7pt --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^3d7pt" $W/stencil_bench.log | tee -a $W/summary.txt
for p in f32 f64; do
  t=$SECONDS; timeout 150 $NCU --clock-control none --section SourceCounters --section WarpStateStats --section InstructionStats --section LaunchStats --import-source no -k regex:stream_stencil -s 3 -c 1 -o $W/src_$p bin/stencil_bench --cases 3d7pt --precision $p --default-variant-only --reps 3 > $W/ncu_src_$p.log 2>&1; echo "ncu $p rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU --import $W/src_$p.ncu-rep --page source --csv --print-source sass > $W/src_${p}_sass.csv 2> $W/src_${p}_sass.err
  $NCU --import $W/src_$p.ncu-rep --page details > $W/src_${p}_details.txt 2>&1
  head -c 600 $W/src_${p}_sass.csv >> $W/summary.txt; echo >> $W/summary.txt; wc -l $W/src_${p}_sass.csv >> $W/summary.txt
  rm -f $W/src_$p.ncu-rep
done
$CUOBJ -sass lib/libperksolve_cuda.so.0.1.0 > $W/all.sass 2>&1
python3 - "$W" <<'PY' >> $W/summary.txt 2>&1
import sys,re
w=sys.argv[1]; txt=open(w+'/all.sass').read()
for tag,k,t in (('f32','stream_stencil_kernelIfLi3ELi0ELi1ELi0ELb0E','TuneILi256ELi2ELi1ELi6ELi4ELi2ELi3ELb0ELi8ELb1E'),('f64','stream_stencil_kernelIdLi3ELi0ELi1ELi0ELb0E','TuneILi512ELi2ELi1ELi2ELi4ELi1ELi3ELb0ELi16ELb1E')):
    parts=txt.split('\n\t\tFunction : ')
    hit=[q for q in parts if q.split('\n',1)[0].find(k)>=0 and q.split('\n',1)[0].find(t)>=0]
    if not hit: print(tag,'kernel not found'); continue
    open(w+'/kernel_%s.sass'%tag,'w').write(hit[0]); print(tag,'sass lines',hit[0].count('\n'))
PY
rm -f $W/all.sass
cd $OUT && gzip -f w/*.csv w/*.sass; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
