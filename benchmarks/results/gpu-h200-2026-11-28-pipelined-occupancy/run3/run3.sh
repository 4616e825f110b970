# Run 3 (GPU machine's cuobjdump; no GPU time needed): the SASS of the per-sweep and the pipelined kernels of 2d25pt and
# 2d13pt fp32 on the 256-thread row tile, from the production library (PROD) and this bundle's (NEW), to compare the
# instructions of their plane loops (run 2: the pipelined kernel executes 3-10 % more instructions per sweep).
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run3.sh
set -u
D=$(dirname "$0")
CO=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for v in prod new; do
  L=$B/lib/libperksolve_cuda.so.0; [[ $v == prod ]] && L=$LPROD/libperksolve_cuda.so.0
  i=0
  while read -r f; do
    i=$((i+1)); $CO -sass -fun "$f" "$L" > $OUT/sass_${v}_$i.txt 2>&1; echo "$v $i rc=$? $(wc -l < $OUT/sass_${v}_$i.txt) lines"
  done < $D/functions.txt
done
for f in $OUT/sass_*.txt; do xz -9 $f; done
