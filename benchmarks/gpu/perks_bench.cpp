// PERKS stencil iteration vs the best per-sweep kernel of this project (issue 6; docs/perf/perks.md), in
// one run, for every PERKS shape, fp64 and fp32, apply sweeps x <- S x (or with --sweep jacobi weighted Jacobi
// sweeps x <- x + omega / a_c (b - S x)) with Dirichlet faces refilled between sweeps, on three domain classes:
//   small       every array of the iteration stays on chip: the largest side at which the resident kernel
//               (perks_resident.cuh) runs, with b on chip as well for Jacobi sweeps (there the same domain is
//               also timed with b streamed from global memory: "b streamed" in the table)
//   saturating  the smallest domain at which the per-sweep kernel reaches 90 % of its rate on the largest, among
//               those larger than the small one
//   large       at least 8x the on-chip cache
// per-sweep: K sweeps as a CUDA graph (boundary fill + streaming stencil kernel per sweep);
// persistent: CudaBackend::persistent_sweeps(K) with the automatic choice of kernel (resident where the domain
// fits, else pipelined; --kernel forces one); where that is not the streaming kernel, the cached streaming
// kernel is timed on the same domain too (its speed-up and cached fraction in the table and the JSON, so that
// the automatic choice can be checked). Reported: time per sweep, GCells/s, speed-up, the cached
// fraction f, the launcher's concurrency-model prediction (framework/backends/cuda/perks_model.hpp: the
// bandwidth share of the occupancy and the traffic left with a cached fraction f, boundary rings included),
// the bound 1 / (1 - f), and the bytes in flight per SM against what Little's law asks for.
//
//   perks_bench [--out results.json] [--sweeps 20] [--reps 5] [--cases 3d7pt,2d5pt] [--precision both|f64|f32]
//               [--kernel auto|resident|pipelined|streaming] [--side N  (one domain, no class search)]
//               [--sweep apply|jacobi]
#include <cuda_runtime.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/gpu/bench_common.hpp"
#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/stencil/stencil.hpp"

using namespace perksolve;

namespace {

struct Options {
  std::string out, git_rev = "unknown", cases, precision = "both";
  PerksKernel kernel = PerksKernel::automatic;
  int sweeps = 20, reps = 5;
  int side = 0;  // > 0: only this side (class "side"), no class search (profiling, experiments)
  SweepKind kind = SweepKind::apply;
};
constexpr double kOmega = 0.8;  // Jacobi sweeps

struct Record {
  std::string shape, precision, cls, kernel;
  std::vector<int> extents;
  double cells = 0, per_step_s = 0, persistent_s = 0, cached_fraction = 0, model = 0, bound = 0;
  double streaming_s = 0, streaming_f = 0;  // the cached streaming kernel on the same domain (0: not run)
  bool rhs_on_chip = false;                  // Jacobi: b kept on chip by the persistent kernel
  bool neighbour_sync = false;               // resident: sweeps synchronised with the neighbouring bricks only
  int tile_x = 0;                            // resident: the columns of a brick's tile
  int plane_sync_steps = 0;                  // resident: the most plane steps from one block barrier to the next
  int chunk_lead = 0;                        // resident: planes the first chunk gave to the last (face bricks)
  double rhs_streamed_s = 0;                 // ... and the same kernel with b streamed (0: not run)
  double inflight_per_sm = 0, needed_per_sm = 0;
  int cache_planes = 0, blocks = 0, threads = 0;
};

template <class Real>
struct Domain {
  FieldLayout l;
  FieldPtr<Real> x, y, b;  // b: Jacobi sweeps only
  std::vector<BoundaryFace> faces;
};

template <class Real>
Domain<Real> make_domain(CudaBackend<Real>& be, const Stencil& s, int n, SweepKind kind) {
  Domain<Real> d;
  const int r = s.radius();
  if (s.dim() == 3) {
    d.l.n = {n, n, n};
    d.l.ghost = {r, r, r};
  } else {
    d.l.n = {n, n, 1};
    d.l.ghost = {r, r, 0};
  }
  d.l.align = grid_row_align<Real>(d.l);
  d.x = be.create_field(d.l);
  d.y = be.create_field(d.l);
  be.fill(*d.x, Real(0.001));
  be.fill(*d.y, Real(0.001));
  if (kind == SweepKind::jacobi) {
    d.b = be.create_field(d.l);
    be.fill(*d.b, Real(0.002));
  }
  for (int a = 0; a < s.dim(); ++a)
    for (int side = 0; side < 2; ++side)
      d.faces.push_back(BoundaryFace{a, side, FaceBoundary{BoundaryType::dirichlet, 0.0}, Centering::vertex, 1.0});
  return d;
}

// Seconds per sweep of the per-sweep path (K sweeps replayed as a CUDA graph).
template <class Real>
double per_step(CudaBackend<Real>& be, const Stencil& s, Domain<Real>& d, int sweeps, int reps) {
  auto run = [&] {
    for (int t = 0; t < sweeps; ++t) {
      Field<Real>& src = t % 2 ? *d.y : *d.x;
      Field<Real>& dst = t % 2 ? *d.x : *d.y;
      be.fill_boundary_faces(src, d.faces, true);
      if (d.b) be.jacobi_update(s, kOmega, *d.b, src, dst);
      else be.apply_stencil(s, src, dst);
    }
  };
  run();  // first use: kernel set-up outside the recording
  std::unique_ptr<RecordedWork> g = be.record(run);
  if (!g) throw std::runtime_error("per-sweep sequence could not be recorded");
  return bench::time_per_call(be.stream(), 2, reps, [&] { g->replay(); }) / sweeps;
}

// The persistent request for the domain's sweeps: Jacobi where the domain has b, else apply.
template <class Real>
PersistentSweepsRequest sweep_request(const Domain<Real>& d, long sweeps, PerksKernel kernel, bool rhs_on_chip = true) {
  PersistentSweepsRequest q;
  q.kind = d.b ? SweepKind::jacobi : SweepKind::apply;
  q.omega = kOmega;
  q.sweeps = sweeps;
  q.kernel = kernel;
  q.rhs_on_chip = rhs_on_chip;
  return q;
}

template <class Real>
PersistentSweeps persistent(CudaBackend<Real>& be, const Stencil& s, Domain<Real>& d, int sweeps, int reps, double* t,
                            PerksKernel kernel, bool rhs_on_chip = true) {
  const PersistentSweepsRequest q = sweep_request(d, sweeps, kernel, rhs_on_chip);
  PersistentSweeps last;
  *t = bench::time_per_call(be.stream(), 2, reps, [&] {
         be.fill_boundary_faces(*d.x, d.faces, true);
         last = be.persistent_sweeps(s, q, d.b.get(), *d.x, *d.y, d.faces, true);
       }) /
       sweeps;
  if (!last.ran) throw std::runtime_error(s.name + ": persistent sweeps did not run");
  return last;
}

template <class Real>
void time_class(CudaBackend<Real>& be, const Stencil& s, const Options& o, const char* cls, int n,
                std::vector<Record>& out);

template <class Real>
void run_shape(CudaBackend<Real>& be, const Stencil& s, const Options& o, std::vector<Record>& out) {
  if (o.side > 0) {
    time_class(be, s, o, "side", o.side, out);
    return;
  }
  const bool d3 = s.dim() == 3;
  // On-chip capacity: the cached planes of a launch on a domain much larger than the cache.
  double capacity = 0;
  {
    Domain<Real> big = make_domain(be, s, d3 ? 384 : 12288, o.kind);
    double t = 0;
    const PersistentSweeps p = persistent(be, s, big, 2, 1, &t, PerksKernel::streaming);
    capacity = p.cached_fraction * static_cast<double>(big.l.owned_size());
  }
  auto side_for = [&](double cells) { return static_cast<int>(d3 ? std::cbrt(cells) : std::sqrt(cells)); };
  // Small: the largest side (down in steps of ~2 %) at which the resident kernel keeps the whole domain on
  // chip, b included for Jacobi; 95 % of the streaming kernel's cache where it never fits.
  int small = 0;
  for (int n = side_for(2.0 * capacity); n >= 8 && small == 0; n = std::min(n - 1, static_cast<int>(n * 0.98))) {
    Domain<Real> d = make_domain(be, s, n, o.kind);
    const PersistentSweepsRequest q = sweep_request(d, 1, PerksKernel::resident);
    be.fill_boundary_faces(*d.x, d.faces, true);
    const PersistentSweeps p = be.persistent_sweeps(s, q, d.b.get(), *d.x, *d.y, d.faces, true);
    if (p.ran && (!d.b || p.rhs_on_chip)) small = n;
  }
  if (small == 0) small = std::max(8, side_for(0.95 * capacity));
  // Saturating: the smallest side whose per-sweep rate is >= 90 % of the rate at the largest side, among the sides
  // larger than the small one. (A domain that fits on chip also fits in the L2, where the per-sweep kernel can run as
  // fast as on the largest domain: 2d5pt fp64 apply at 1536^2, which the resident kernel holds, was found saturating
  // in one run and 12288^2 in the next; the classes are disjoint.)
  const std::vector<int> sides = d3 ? std::vector<int>{48, 64, 96, 128, 160, 192, 256, 320, 384, 448, 512}
                                    : std::vector<int>{1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384};
  std::vector<double> rate(sides.size(), 0.0);
  for (std::size_t i = 0; i < sides.size(); ++i) {
    if (sides[i] <= small && i + 1 < sides.size()) continue;
    Domain<Real> d = make_domain(be, s, sides[i], o.kind);
    rate[i] = static_cast<double>(d.l.owned_size()) / per_step(be, s, d, 10, 3);
  }
  int saturating = sides.back();
  for (std::size_t i = 0; i < sides.size(); ++i)
    if (sides[i] > small && rate[i] >= 0.9 * rate.back()) {
      saturating = sides[i];
      break;
    }
  const int large = std::max(side_for(8.0 * capacity) + 1, saturating);
  for (auto [cls, n] : {std::pair<const char*, int>{"small", small}, {"saturating", saturating}, {"large", large}})
    time_class(be, s, o, cls, n, out);
}

// Per-sweep and persistent timings of one domain of side n (class cls).
template <class Real>
void time_class(CudaBackend<Real>& be, const Stencil& s, const Options& o, const char* cls, int n,
                std::vector<Record>& out) {
  Domain<Real> d = make_domain(be, s, n, o.kind);
  Record r;
  r.shape = s.name;
  r.precision = sizeof(Real) == 8 ? "fp64" : "fp32";
  r.cls = cls;
  r.extents = {d.l.n[0], d.l.n[1], d.l.n[2]};
  r.cells = static_cast<double>(d.l.owned_size());
  r.per_step_s = per_step(be, s, d, o.sweeps, o.reps);
  const PersistentSweeps p = persistent(be, s, d, o.sweeps, o.reps, &r.persistent_s, o.kernel);
  r.kernel = perks_kernel_name(p.kernel);
  if (p.kernel != PerksKernel::streaming && std::string(cls) != "small") {
    const PersistentSweeps ps = persistent(be, s, d, o.sweeps, o.reps, &r.streaming_s, PerksKernel::streaming);
    r.streaming_f = ps.cached_fraction;
  }
  r.rhs_on_chip = p.rhs_on_chip;
  r.neighbour_sync = p.neighbour_sync;
  r.tile_x = p.tile_x;
  r.plane_sync_steps = p.plane_sync_steps;
  r.chunk_lead = p.chunk_lead;
  if (p.rhs_on_chip) persistent(be, s, d, o.sweeps, o.reps, &r.rhs_streamed_s, p.kernel, false);
  r.cached_fraction = p.cached_fraction;
  r.cache_planes = p.cache_planes;
  r.blocks = p.blocks;
  r.threads = p.threads;
  // model: the launcher's concurrency model (perks_model.hpp: bandwidth share of the occupancy, cached
  // fraction, the tile's remaining boundary traffic); bound: the 1 / (1 - f) (0 where f = 1).
  r.model = p.model_speedup;
  r.bound = p.cached_fraction < 1.0 ? 1.0 / (1.0 - p.cached_fraction) : 0.0;
  r.inflight_per_sm = p.inflight_bytes_per_sm;
  r.needed_per_sm = p.needed_bytes_per_sm;
  out.push_back(r);
  char ext[48], bound[24] = "-";
  std::snprintf(ext, sizeof ext, "%dx%dx%d", r.extents[0], r.extents[1], r.extents[2]);
  if (r.bound > 0) std::snprintf(bound, sizeof bound, "%.3f", r.bound);
  char streaming[64] = "";
  if (r.streaming_s > 0)
    std::snprintf(streaming, sizeof streaming, "  streaming (f=%.3f) %.3f", r.streaming_f, r.per_step_s / r.streaming_s);
  if (r.rhs_streamed_s > 0)
    std::snprintf(streaming, sizeof streaming, "  b on chip; b streamed %.3f", r.per_step_s / r.rhs_streamed_s);
  std::printf("%-10s %-4s %-10s %-16s %-9s f=%.3f  per-sweep %.3e s  persistent %.3e s  speed-up %.3f  model %.3f  "
              "1/(1-f) %s  in flight %.1f of %.1f KB/SM%s\n",
              r.shape.c_str(), r.precision.c_str(), cls, ext, r.kernel.c_str(), r.cached_fraction, r.per_step_s, r.persistent_s,
              r.per_step_s / r.persistent_s, r.model, bound, r.inflight_per_sm / 1024.0, r.needed_per_sm / 1024.0, streaming);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--out") o.out = next();
    else if (a == "--sweeps") o.sweeps = std::stoi(next());
    else if (a == "--side") o.side = std::stoi(next());
    else if (a == "--reps") o.reps = std::stoi(next());
    else if (a == "--cases") o.cases = next();
    else if (a == "--precision") o.precision = next();
    else if (a == "--git-revision") o.git_rev = next();
    else if (a == "--sweep") {
      const std::string k = next();
      if (k != "apply" && k != "jacobi") {
        std::fprintf(stderr, "perks_bench: --sweep expects apply or jacobi, got '%s'\n", k.c_str());
        MPI_Finalize();
        return 2;
      }
      o.kind = k == "jacobi" ? SweepKind::jacobi : SweepKind::apply;
    }
    else if (a == "--kernel") {
      const std::string k = next();
      const std::optional<PerksKernel> kernel = parse_perks_kernel(k);
      if (!kernel) {
        std::fprintf(stderr, "perks_bench: --kernel expects auto, resident, pipelined or streaming, got '%s'\n", k.c_str());
        MPI_Finalize();
        return 2;
      }
      o.kernel = *kernel;
    }
    else {
      std::fprintf(stderr, "unknown argument %s\nusage: perks_bench [--out FILE.json] [--sweeps K] [--reps R] "
                           "[--cases a,b] [--precision both|f64|f32] [--kernel auto|resident|pipelined|streaming] [--side N] "
                           "[--sweep apply|jacobi]\n", a.c_str());
      MPI_Finalize();
      return 2;
    }
  }
  const std::string command = bench::command_line(argc, argv);
  int status = 0;
  try {
    CudaBackend<double> bd(MPI_COMM_WORLD);
    CudaBackend<float> bf(MPI_COMM_WORLD);
    std::vector<std::string> names = perks_shape_names();
    if (!o.cases.empty()) {
      names.clear();
      std::stringstream ss(o.cases);
      for (std::string item; std::getline(ss, item, ',');) names.push_back(item);
    }
    std::vector<Record> recs;
    std::printf("device: %s\n", bd.device_name().c_str());
    for (const std::string& name : names) {
      const Stencil s = perks_stencil(name);
      if (o.precision != "f32") run_shape(bd, s, o, recs);
      if (o.precision != "f64") run_shape(bf, s, o, recs);
    }
    double logsum[3] = {0, 0, 0};
    int count[3] = {0, 0, 0};
    for (const Record& r : recs) {
      if (r.cls != "small" && r.cls != "saturating" && r.cls != "large") continue;
      const int c = r.cls == "small" ? 0 : r.cls == "saturating" ? 1 : 2;
      logsum[c] += std::log(r.per_step_s / r.persistent_s);
      ++count[c];
    }
    std::printf("\ngeometric mean speed-up: small %.3f  saturating %.3f  large %.3f\n",
                count[0] ? std::exp(logsum[0] / count[0]) : 0.0, count[1] ? std::exp(logsum[1] / count[1]) : 0.0,
                count[2] ? std::exp(logsum[2] / count[2]) : 0.0);
    if (!o.out.empty()) {
      std::ofstream f(o.out);
      bench::json_run_header(f, "perks_bench", bd.device_name(), o.git_rev, command);
      f << ",\n  \"sweeps\": " << o.sweeps
        << ",\n  \"sweep\": \"" << (o.kind == SweepKind::jacobi ? "jacobi" : "apply") << "\""
        << ",\n  \"records\": [\n";
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const Record& r = recs[i];
        char buf[1024];
        std::snprintf(buf, sizeof buf,
                      "    {\"case\": \"%s\", \"precision\": \"%s\", \"class\": \"%s\", \"kernel\": \"%s\", "
                      "\"extents\": [%d, %d, %d], "
                      "\"cells\": %.0f, \"per_step_s_per_sweep\": %.4e, \"persistent_s_per_sweep\": %.4e, "
                      "\"speedup\": %.4f, \"cached_fraction\": %.4f, \"model_speedup\": %.4f, "
                      "\"bound_1_over_1_minus_f\": %.4f, \"inflight_bytes_per_sm\": %.0f, \"needed_bytes_per_sm\": %.0f, "
                      "\"cache_planes\": %d, \"blocks\": %d, \"threads\": %d, \"streaming_s_per_sweep\": %.4e, "
                      "\"streaming_cached_fraction\": %.4f, \"rhs_on_chip\": %s, \"rhs_streamed_s_per_sweep\": %.4e, \"neighbour_sync\": %s, \"tile_x\": %d, "
                      "\"plane_sync_steps\": %d, \"chunk_lead\": %d}%s\n",
                      r.shape.c_str(), r.precision.c_str(), r.cls.c_str(), r.kernel.c_str(), r.extents[0], r.extents[1], r.extents[2],
                      r.cells, r.per_step_s, r.persistent_s, r.per_step_s / r.persistent_s, r.cached_fraction, r.model,
                      r.bound, r.inflight_per_sm, r.needed_per_sm, r.cache_planes, r.blocks, r.threads, r.streaming_s, r.streaming_f,
                      r.rhs_on_chip ? "true" : "false", r.rhs_streamed_s, r.neighbour_sync ? "true" : "false",
                      r.tile_x, r.plane_sync_steps, r.chunk_lead, i + 1 < recs.size() ? "," : "");
        f << buf;
      }
      f << "  ]\n}\n";
      std::printf("wrote %s\n", o.out.c_str());
    }
  } catch (const BackendUnavailable& e) {
    std::printf("SKIPPED: no CUDA device (%s)\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perks_bench: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
