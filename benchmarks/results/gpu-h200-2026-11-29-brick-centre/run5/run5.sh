# Run 5 (H200): perks_bench with run 4's library M (this bundle, commit 3d02222) against run 3's F (the same kernels before
# the final review's loop mend; its perks_bench and both libraries in $LA/libF), alternating, twice each: does the mend
# move the ratios? (Run 4 had read apply small 1.707 with M in one run; F read 1.734-1.736 in runs 2-3.)
# Usage: B=unpacked bundle LA=dir with libF/ OUT=dir bash run5.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
bench() {  # $1 F|M, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = M ]; then
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    LD_LIBRARY_PATH=$LA/lib$v:$PWD/lib:$FB timeout 60 $LA/lib$v/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in F M; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
tar -C $W -cJf $OUT/run5_logs.tar.xz .
