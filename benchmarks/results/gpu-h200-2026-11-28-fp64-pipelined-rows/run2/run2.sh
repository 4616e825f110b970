# Run 2 (H200): a tail for the one-round row schedules (plan_round_tail in stream_schedule.hpp; off by default in this
# bundle, PERKSOLVE_CUDA_ROW_TAIL=share and PERKSOLVE_CUDA_ROW_TAIL_PIECE=rows switch it on). Run 1 found the pipelined
# kernel's warps 10 % of their time at the device barrier at the end of a sweep, and the per-sweep launch 7 % of its
# SM cycles idle: the blocks of a 2D row schedule get one long item each and finish at different times. Same binaries,
# the tail by environment: stencil_bench (every shape, default variant) and perks_bench, off / 1/8 / 1/16 of the rows,
# twice each, alternating; then the GPU suite with the tail off and at 1/8, and memcheck on the round-tail test.
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
VARS="off t8 t16"
run_v() { local s=0; case $1 in t8) s=8 ;; t16) s=16 ;; esac; LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_ROW_TAIL=$s "${@:2}"; }
for k in 1 2; do
  for v in $VARS; do
    t=$SECONDS; run_v $v timeout 70 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R-$v" --out $W/sb_${v}_$k.json > $W/sb_${v}_$k.log 2>&1
    echo "stencil_bench $v $k rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
python3 - $W "$VARS" >> $S <<'PY'
import json, sys
w, vs = sys.argv[1], sys.argv[2].split()
rows = {}
for v in vs:
    for k in (1, 2):
        try:
            recs = json.load(open(f"{w}/sb_{v}_{k}.json"))["records"]
        except Exception as e:
            print("missing", v, k, e); continue
        for r in recs:
            if "ratio_to_copy_bound" in r:
                rows.setdefault((r["case"], r["precision"]), {}).setdefault(v, []).append(r["ratio_to_copy_bound"])
for (c, p), d in sorted(rows.items()):
    f = lambda x: f"{min(x):.3f}-{max(x):.3f}" if x else "-"
    print(f"stencil_bench {c:12s} {p}: " + " ".join(f"{v} {f(d.get(v, []))}" for v in vs))
PY
for k in 1 2; do
  for v in $VARS; do
    t=$SECONDS; run_v $v timeout 60 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $8, $11, $(i+1)}' $W/perks_bench_off_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $4, $8, $11, $(i+1)}' $W/perks_bench_t8_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $4, $8, $11, $(i+1)}' $W/perks_bench_t16_$k.log) \
        | sed "s/^/off t8 t16, $k (extents, per-sweep s, persistent s, speed-up): /" >> $S
done
for mode in off t8; do
  t=$SECONDS; run_v $mode timeout 110 bin/test_gpu_backend > $W/tests_$mode.log 2>&1
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_$mode.log | head -20 | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaBackendStencil.RoundTail*' > $W/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck.log | head -3 | tee -a $S
tar -C $W -cJf $OUT/run2_logs.tar.xz .
cp $W/sb_off_1.json $W/perks_bench_off_1.json $OUT/
