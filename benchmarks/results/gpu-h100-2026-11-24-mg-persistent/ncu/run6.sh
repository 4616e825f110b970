cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
D=inputs/solvers/pcg_mg_poisson3d.toml
for pc in 0 262144; do
  timeout 200 $NCU --clock-control none --metrics gpu__time_duration.sum --csv --print-units base bin/perksolve $D 'grid.extents=[255,255,255]' 'backend.type="cuda"' 'solver.preconditioner.coarse.type="direct"' "solver.preconditioner.persistent_cells=$pc" 'solver.preconditioner.replay="off"' 'solver.stop.max_iterations=3' 'monitor.every=0' > $OUT/ncu_pc$pc.csv 2>&1; echo "ncu pc=$pc rc=$?"
done
python3 - <<'PY'
import csv, os, collections
out=os.environ['OUT']
for pc in (0, 262144):
    rows=[r for r in csv.reader(open(f"{out}/ncu_pc{pc}.csv")) if len(r) > 10]
    h=rows[0]; rows=rows[1:]
    ki=h.index('Kernel Name'); vi=h.index('Metric Value'); gi=h.index('Grid Size')
    tot=collections.Counter(); cnt=collections.Counter()
    for r in rows:
        try: v=float(r[vi])
        except: continue
        k=r[ki][:60]+' '+r[gi]
        tot[k]+=v; cnt[k]+=1
    s=sum(tot.values())
    print(f"== persistent_cells={pc}: {len(rows)} kernels, total {s*1e-3:.1f} us")
    for k,v in sorted(tot.items(), key=lambda x:-x[1])[:40]:
        print(f"{v*1e-3:10.1f} us {cnt[k]:5d}  {k}")
PY
