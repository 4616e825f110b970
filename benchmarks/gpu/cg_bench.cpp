// Persistent CG vs non-persistent CG vs the vendor's CG (issue 6; docs/perf/persistent-cg.md), in one run,
// unpreconditioned, per iteration, fp64 and fp32, on
//   the test matrices (bench_matrices.hpp test_matrices(): each fits the L2 cache many times over), and
//   laplace7_<n> / laplace27_<n> (--large-7 / --large-27; defaults 128 and 96: several times the L2 size).
// Three CGs on the same matrix, right-hand side and start (x = 0, r = p = b):
//   vendor      cuSPARSE SpMV + cuBLAS dot/axpy/scal with device scalars (vendor_cg.hpp; 9 launches per
//               iteration, no host synchronisation)
//   operations  this project's CG loop through the CUDA backend, one operation at a time (spmv, dot,
//               cg_update, axpby; the two reductions return to the host, as in the cg solver)
//   persistent  CudaBackend::persistent_cg: the whole loop in one cooperative kernel
// A timed sample is a run of L iterations from the start (L = --iterations, or fewer where CG would reach
// 1e-20 of the initial residual before: no run near breakdown); the restart is not timed. Median over
// --reps samples. Also reported: the iterations each CG needs to reach --rtol (with checks every
// iteration), which must agree, and the persistent kernel's blocks and on-chip fractions.
// Classes: "fits_l2" when A + 5 vectors <= the L2 size, "larger_than_l2" when >= 3x, else "between".
// Matrix-free: the laplace7_<n> / laplace27_<n> operators are also constant stencils on an n^3 grid (vertex-
// centred, homogeneous Dirichlet ghosts: the same matrix), for n in --stencil-sizes and the two large sizes.
// There the operation-by-operation CG applies the stencil (ghost fill + apply_stencil, dot, cg_update, axpby),
// the persistent one is CudaBackend::persistent_stencil_cg, and the vendor CG runs on the assembled matrix.
// Classes by the 5 vectors alone (the stencil has no matrix to read).
//
//   cg_bench [--out results.json] [--iterations 100] [--reps 15] [--rtol 1e-8] [--precision both|f64|f32]
//            [--large-7 128] [--large-27 96] [--stencil-sizes 32,64] [--only NAME,NAME] [--git-revision REV]
//   --only: just these matrices and matrix-free operators (names as printed, e.g. laplace7_128; profiling)
// Without a usable CUDA device: "SKIPPED: no CUDA device", exit 0.
#include <cuda_runtime.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/gpu/bench_common.hpp"
#include "benchmarks/gpu/bench_matrices.hpp"
#include "benchmarks/gpu/vendor_cg.hpp"
#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/operators/csr_operator.hpp"
#include "framework/stencil/stencil.hpp"

using namespace perksolve;
using namespace perksolve::bench;

namespace {

struct Options {
  std::string out, git_rev = "unknown", precision = "both";
  long iterations = 100;
  int reps = 15, large7 = 128, large27 = 96;
  std::vector<int> stencil_sizes{32, 64};
  double rtol = 1e-8;
  std::vector<std::string> only;  // --only: these matrices / operators by name (empty: all)
  bool wanted(const std::string& name) const {
    return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
  }
};

struct Record {
  std::string matrix, precision, cls;
  long rows = 0, nnz = 0, iterations_timed = 0;
  double bytes = 0;  // A + 5 vectors
  double vendor_s = 0, operations_s = 0, persistent_s = 0;
  long it_vendor = 0, it_operations = 0, it_persistent = 0;
  int blocks = 0;
  double cached_r = 0, cached_q = 0, cached_x = 0;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The vectors and the start of an unpreconditioned CG from x = 0 on this project's backend, with the loop run
// operation by operation (q = A p by the operator's apply_a()) and the persistent kernel's request.
template <class Real>
struct CgRun {
  CudaBackend<Real>& be;
  FieldPtr<Real> b, x, r, p, q;
  double rr0 = 0;

  explicit CgRun(CudaBackend<Real>& backend) : be(backend) {}
  void create(const FieldLayout& l) {
    for (FieldPtr<Real>* f : {&b, &x, &r, &p, &q}) *f = be.create_field(l);
  }
  void start() {
    be.fill(*x, Real(0));
    be.copy(*b, *r);
    be.copy(*b, *p);
    be.fill(*q, Real(0));
    rr0 = be.dot(*r, *r);
  }
  // `n` iterations operation by operation; stops early when `until` (> 0) is reached at a check. Returns
  // the iterations done (the check at the top of an iteration, like the solver).
  template <class ApplyA>
  long operations(long n, double until, std::vector<double>* history, ApplyA&& apply_a) {
    double rr = rr0;
    for (long k = 0; k < n; ++k) {
      if (until > 0 && std::sqrt(rr) <= until) return k;
      apply_a();
      const double pq = be.dot(*p, *q);
      const double rr_new = be.cg_update(static_cast<Real>(rr / pq), *p, *q, *x, *r);
      be.axpby(Real(1), *r, static_cast<Real>(rr_new / rr), *p);
      rr = rr_new;
      if (history) history->push_back(rr);
    }
    return n;
  }
  PersistentCgRequest request(long n, double until) const {
    PersistentCgRequest req;
    req.iterations = n;
    req.rr = rr0;
    req.check_every = until > 0 ? 1 : 0;
    req.stop_abs = until;
    return req;
  }
};

// CG on an assembled matrix (CSR).
template <class Real>
struct ProjectCg : CgRun<Real> {
  using CgRun<Real>::be;
  std::unique_ptr<SparseMatrix<Real>> A;

  ProjectCg(CudaBackend<Real>& backend, const CsrMatrix& M, const std::vector<Real>& rhs) : CgRun<Real>(backend) {
    A = be.create_sparse_matrix(to_csr_block(CsrMatrix(M)));
    this->create(vector_layout(M.n));
    be.upload(*this->b, rhs);
    restart();
  }
  void restart() { this->start(); }
  long operations(long n, double until = -1.0, std::vector<double>* history = nullptr) {
    return CgRun<Real>::operations(n, until, history, [&] { be.spmv(*A, *this->p, nullptr, *this->q); });
  }
  PersistentCg persistent(long n, double until = -1.0) {
    return be.persistent_cg(*A, *this->x, *this->r, *this->p, *this->q, this->request(n, until));
  }
};

// The same CG on a constant stencil (matrix-free): laplace7 / laplace27 as grid operators.
template <class Real>
struct StencilCg : CgRun<Real> {
  using CgRun<Real>::be;
  Stencil A;
  FieldLayout l;
  std::vector<BoundaryFace> faces;

  StencilCg(CudaBackend<Real>& backend, int n, bool box, const std::vector<Real>& rhs) : CgRun<Real>(backend) {
    A = make_stencil(box ? "laplace27" : "laplace7", {3, box ? ShapeKind::box : ShapeKind::star, 1});
    for (int i = 0; i < A.size(); ++i) {
      const Offset o = A.offsets[i];
      A.coeffs[i] = (o.dx | o.dy | o.dz) == 0 ? (box ? 26.0 : 6.0) : -1.0;
    }
    l.n = {n, n, n};
    l.ghost = {1, 1, 1};
    l.align = grid_row_align<Real>(l);
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side)
        faces.push_back(BoundaryFace{a, side, FaceBoundary{BoundaryType::dirichlet, 0.0}, Centering::vertex, 1.0});
    std::vector<Real> hb(static_cast<std::size_t>(l.size()), Real(0));
    long row = 0;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) hb[static_cast<std::size_t>(l.index(i, j, k))] = rhs[static_cast<std::size_t>(row++)];
    this->create(l);
    be.upload(*this->b, hb);
    restart();
  }
  void restart() {
    this->start();
    be.fill_boundary_faces(*this->p, faces, true);
  }
  long operations(long n, double until = -1.0) {
    return CgRun<Real>::operations(n, until, nullptr, [&] {
      be.fill_boundary_faces(*this->p, faces, true);
      be.apply_stencil(A, *this->p, *this->q);
    });
  }
  PersistentCg persistent(long n, double until = -1.0) {
    return be.persistent_stencil_cg(A, faces, *this->x, *this->r, *this->p, *this->q, this->request(n, until));
  }
};

// Median over o.reps samples of (wall time of L iterations after reset()) / L.
template <class Real>
double time_per_iteration(CudaBackend<Real>& be, const Options& o, long L, const std::function<void()>& reset,
                          const std::function<void()>& run) {
  std::vector<double> t;
  for (int i = 0; i < o.reps + 2; ++i) {
    reset();
    be.fence();
    const auto t0 = std::chrono::steady_clock::now();
    run();
    be.fence();
    if (i >= 2) t.push_back(seconds_since(t0) / static_cast<double>(L));
  }
  return median(t);
}

// The right-hand side every CG of a matrix starts from (x = 0, r = p = b).
template <class Real>
std::vector<Real> rhs_values(long n) {
  std::vector<Real> rhs(static_cast<std::size_t>(n));
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> d(0.5, 1.5);
  for (auto& v : rhs) v = static_cast<Real>(d(rng));
  return rhs;
}

struct StencilRecord {
  std::string matrix, precision, cls;
  long rows = 0, iterations_timed = 0;
  double vector_bytes = 0;  // 5 vectors
  double vendor_s = 0, operations_s = 0, persistent_s = 0;
  long it_vendor = 0, it_operations = 0, it_persistent = 0;
  int blocks = 0, threads = 0;
  double cached_r = 0, cached_x = 0;
};

template <class Real>
StencilRecord run_stencil(CudaBackend<Real>& be, int n, bool box, const Options& o, double l2_bytes) {
  StencilRecord rec;
  const CsrMatrix M = box ? laplace27(n) : laplace7(n);
  rec.matrix = box ? laplace27_name(n) : laplace7_name(n);
  rec.precision = sizeof(Real) == 8 ? "f64" : "f32";
  rec.rows = M.n;
  rec.vector_bytes = 5.0 * sizeof(Real) * static_cast<double>(M.n);
  rec.cls = rec.vector_bytes <= l2_bytes ? "fits_l2" : rec.vector_bytes >= 3 * l2_bytes ? "larger_than_l2" : "between";
  const std::vector<Real> rhs = rhs_values<Real>(M.n);
  StencilCg<Real> cg(be, n, box, rhs);
  VendorCg<Real> vendor(M, be.stream());
  const double until = o.rtol * std::sqrt(cg.rr0);
  const long cap = 20 * M.n + 100;
  rec.it_operations = cg.operations(cap, until);
  cg.restart();
  const PersistentCg pr = cg.persistent(cap, until);
  if (!pr.ran) throw std::runtime_error(rec.matrix + ": the matrix-free persistent CG did not run");
  rec.it_persistent = pr.iterations;
  std::vector<Real> xs;
  rec.it_vendor = vendor.solve(rhs, xs, o.rtol, cap, 1).iterations;
  rec.blocks = pr.blocks;
  rec.threads = pr.threads;
  rec.cached_r = pr.cached_r;
  rec.cached_x = pr.cached_x;
  const long L = o.iterations;
  rec.iterations_timed = L;
  rec.operations_s = time_per_iteration(be, o, L, [&] { cg.restart(); }, [&] { cg.operations(L); });
  rec.persistent_s = time_per_iteration(be, o, L, [&] { cg.restart(); }, [&] { cg.persistent(L); });
  std::vector<double> vt;
  for (int i = 0; i < std::max(3, o.reps / 3); ++i) vt.push_back(vendor.seconds_per_iteration(rhs, L));
  rec.vendor_s = median(vt);
  return rec;
}

template <class Real>
Record run_matrix(CudaBackend<Real>& be, const std::string& name, const CsrMatrix& M, const Options& o, double l2_bytes) {
  Record rec;
  rec.matrix = name;
  rec.precision = sizeof(Real) == 8 ? "f64" : "f32";
  rec.rows = M.n;
  rec.nnz = M.nnz();
  rec.bytes = static_cast<double>(M.nnz()) * (sizeof(Real) + 4) + 4.0 * static_cast<double>(M.n + 1) +
              5.0 * sizeof(Real) * static_cast<double>(M.n);
  rec.cls = rec.bytes <= l2_bytes ? "fits_l2" : rec.bytes >= 3 * l2_bytes ? "larger_than_l2" : "between";
  const std::vector<Real> rhs = rhs_values<Real>(M.n);
  ProjectCg<Real> pcg(be, M, rhs);
  VendorCg<Real> vendor(M, be.stream());
  // Iterations to --rtol, each CG with checks every iteration.
  const double until = o.rtol * std::sqrt(pcg.rr0);
  const long cap = 20 * M.n + 100;
  rec.it_operations = pcg.operations(cap, until);
  pcg.restart();
  const PersistentCg pr = pcg.persistent(cap, until);
  rec.it_persistent = pr.iterations;
  std::vector<Real> xs;
  rec.it_vendor = vendor.solve(rhs, xs, o.rtol, cap, 1).iterations;
  rec.blocks = pr.blocks;
  rec.cached_r = pr.cached_r;
  rec.cached_q = pr.cached_q;
  rec.cached_x = pr.cached_x;

  // Timed runs: L iterations from the start, L short of the residual falling to 1e-20 (1e-10 in fp32).
  pcg.restart();
  std::vector<double> hist;
  pcg.operations(o.iterations, -1.0, &hist);
  long L = o.iterations;
  const double floor_rr = pcg.rr0 * (sizeof(Real) == 8 ? 1e-40 : 1e-20);
  for (std::size_t i = 0; i < hist.size(); ++i)
    if (!(hist[i] > floor_rr)) {
      L = std::max<long>(2, static_cast<long>(i));
      break;
    }
  rec.iterations_timed = L;
  rec.operations_s = time_per_iteration(be, o, L, [&] { pcg.restart(); }, [&] { pcg.operations(L); });
  rec.persistent_s = time_per_iteration(be, o, L, [&] { pcg.restart(); }, [&] { pcg.persistent(L); });
  std::vector<double> vt;
  for (int i = 0; i < std::max(3, o.reps / 3); ++i) vt.push_back(vendor.seconds_per_iteration(rhs, L));
  rec.vendor_s = median(vt);
  return rec;
}

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  double s = 0.0;
  for (double x : v) s += std::log(x);
  return std::exp(s / static_cast<double>(v.size()));
}

struct Summary {
  std::string cls, precision;
  double over_vendor, over_operations;
  int count;
};

// Per class and precision, the geometric means of the persistent CG's speed-ups over the vendor CG and over the
// operation-by-operation CG of the records (Record or StencilRecord); printed a line each.
template <class R>
std::vector<Summary> summarize(const std::vector<R>& recs, const char* vendor, const char* operations,
                               const char* unit) {
  std::vector<Summary> sums;
  for (const std::string cls : {"fits_l2", "larger_than_l2", "between"})
    for (const std::string prec : {"f64", "f32"}) {
      std::vector<double> v, op;
      for (const R& r : recs)
        if (r.cls == cls && r.precision == prec) {
          v.push_back(r.vendor_s / r.persistent_s);
          op.push_back(r.operations_s / r.persistent_s);
        }
      if (v.empty()) continue;
      sums.push_back({cls, prec, geomean(v), geomean(op), static_cast<int>(v.size())});
      std::printf("  %-15s %s: %.2fx over %s, %.2fx over %s (%zu %s)\n", cls.c_str(), prec.c_str(), geomean(v),
                  vendor, geomean(op), operations, v.size(), unit);
    }
  return sums;
}

int usage(const char* msg) {
  std::fprintf(stderr, "cg_bench: %s\nusage: cg_bench [--out FILE.json] [--iterations L] [--reps R] [--rtol T] "
               "[--precision both|f64|f32] [--large-7 N] [--large-27 N] [--stencil-sizes N,N,...] "
               "[--only NAME,NAME,...] [--git-revision REV]\n", msg);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) { MPI_Finalize(); return usage(("missing value after " + a).c_str()); }
    const std::string v = argv[++i];
    try {
      if (a == "--out") o.out = v;
      else if (a == "--git-revision") o.git_rev = v;
      else if (a == "--precision") o.precision = v;
      else if (a == "--iterations") o.iterations = std::stol(v);
      else if (a == "--reps") o.reps = std::stoi(v);
      else if (a == "--rtol") o.rtol = std::stod(v);
      else if (a == "--large-7") o.large7 = std::stoi(v);
      else if (a == "--large-27") o.large27 = std::stoi(v);
      else if (a == "--only") {
        for (std::size_t pos = 0; pos <= v.size();) {
          const std::size_t end = std::min(v.find(',', pos), v.size());
          if (end == pos) throw std::invalid_argument("name");
          o.only.push_back(v.substr(pos, end - pos));
          pos = end + 1;
        }
      }
      else if (a == "--stencil-sizes") {
        o.stencil_sizes.clear();
        std::size_t pos = 0;
        while (pos < v.size()) {
          const std::size_t end = std::min(v.find(',', pos), v.size());
          const int n = std::stoi(v.substr(pos, end - pos));
          if (n < 2) throw std::invalid_argument("size");
          o.stencil_sizes.push_back(n);
          pos = end + 1;
        }
      }
      else { MPI_Finalize(); return usage(("unknown option " + a).c_str()); }
    } catch (const std::exception&) {
      MPI_Finalize();
      return usage(("bad value '" + v + "' for " + a).c_str());
    }
  }
  if (o.iterations < 2 || o.reps < 1 || !(o.rtol > 0) || (o.precision != "both" && o.precision != "f64" && o.precision != "f32")) {
    MPI_Finalize();
    return usage("--iterations >= 2, --reps >= 1, --rtol > 0, --precision both|f64|f32");
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    MPI_Finalize();
    return 0;
  }
  cudaDeviceProp prop{};
  PERKSOLVE_BENCH_CK(cudaGetDeviceProperties(&prop, 0));
  const double l2 = static_cast<double>(prop.l2CacheSize);
  std::printf("cg_bench on %s (L2 %.0f MB), L = %ld iterations per sample, %d samples\n", prop.name, l2 / 1e6,
              o.iterations, o.reps);
  // The persistent CSR CG's SpMV walk, as the backends of this run take it (PERKSOLVE_CUDA_CG_WALK).
  const CudaCgWalk walk = CudaBackend<double>(MPI_COMM_WORLD).cg_walk();
  const std::string cg_walk = walk == CudaCgWalk::automatic ? "auto (rows above the L2, else staged)"
                              : walk == CudaCgWalk::staged  ? "staged"
                              : walk == CudaCgWalk::rows    ? "rows"
                                                            : "per_thread";
  std::printf("persistent CSR CG walk: %s\n", cg_walk.c_str());

  std::vector<std::pair<std::string, CsrMatrix>> mats = test_matrices();
  if (o.large7 > 0) mats.emplace_back(laplace7_name(o.large7), laplace7(o.large7));
  if (o.large27 > 0) mats.emplace_back(laplace27_name(o.large27), laplace27(o.large27));
  std::erase_if(mats, [&](const auto& m) { return !o.wanted(m.first); });

  std::vector<Record> recs;
  std::printf("%-22s %-4s %-14s %9s %6s | %10s %10s %10s | %8s %8s | %5s %5s %5s | %5s %5s %5s %5s\n", "matrix", "prec",
              "class", "rows", "L", "vendor us", "ops us", "pers us", "x vendor", "x ops", "it_v", "it_o", "it_p",
              "blk", "r%", "q%", "x%");
  auto report = [&](const Record& r) {
    std::printf("%-22s %-4s %-14s %9ld %6ld | %10.2f %10.2f %10.2f | %8.2f %8.2f | %5ld %5ld %5ld | %5d %5.0f %5.0f %5.0f\n",
                r.matrix.c_str(), r.precision.c_str(), r.cls.c_str(), r.rows, r.iterations_timed, r.vendor_s * 1e6,
                r.operations_s * 1e6, r.persistent_s * 1e6, r.vendor_s / r.persistent_s, r.operations_s / r.persistent_s,
                r.it_vendor, r.it_operations, r.it_persistent, r.blocks, 100 * r.cached_r, 100 * r.cached_q,
                100 * r.cached_x);
    std::fflush(stdout);
    recs.push_back(r);
  };
  try {
    for (const auto& [name, M] : mats) {
      if (o.precision != "f32") {
        CudaBackend<double> be(MPI_COMM_WORLD);
        report(run_matrix<double>(be, name, M, o, l2));
      }
      if (o.precision != "f64") {
        CudaBackend<float> be(MPI_COMM_WORLD);
        report(run_matrix<float>(be, name, M, o, l2));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cg_bench: %s\n", e.what());
    MPI_Finalize();
    return 1;
  }

  // Geometric means of the speed-ups per class and precision.
  std::printf("\nspeed-up of the persistent CG per iteration (geometric mean):\n");
  const std::vector<Summary> sums =
      summarize(recs, "the vendor CG", "the operation-by-operation CG", "matrices");

  // Matrix-free: the same operators as constant stencils.
  std::vector<std::pair<int, bool>> stencil_cases;
  for (int n : o.stencil_sizes) stencil_cases.emplace_back(n, false);
  if (o.large7 > 0) stencil_cases.emplace_back(o.large7, false);
  if (o.large27 > 0) stencil_cases.emplace_back(o.large27, true);
  std::erase_if(stencil_cases, [&](const auto& c) { return !o.wanted(c.second ? laplace27_name(c.first) : laplace7_name(c.first)); });
  std::vector<StencilRecord> srecs;
  std::printf("\nmatrix-free (constant stencil on the grid; vendor = cuSPARSE/cuBLAS CG on the assembled matrix):\n");
  std::printf("%-16s %-4s %-14s %9s %6s | %10s %10s %10s | %8s %8s | %5s %5s %5s | %5s %5s %5s\n", "operator", "prec",
              "class", "rows", "L", "vendor us", "ops us", "pers us", "x vendor", "x ops", "it_v", "it_o", "it_p", "blk",
              "r%", "x%");
  try {
    for (const auto& [n, box] : stencil_cases)
      for (const std::string prec : {"f64", "f32"}) {
        if (o.precision != "both" && o.precision != prec) continue;
        StencilRecord r;
        if (prec == "f64") {
          CudaBackend<double> be(MPI_COMM_WORLD);
          r = run_stencil<double>(be, n, box, o, l2);
        } else {
          CudaBackend<float> be(MPI_COMM_WORLD);
          r = run_stencil<float>(be, n, box, o, l2);
        }
        std::printf("%-16s %-4s %-14s %9ld %6ld | %10.2f %10.2f %10.2f | %8.2f %8.2f | %5ld %5ld %5ld | %5d %5.0f %5.0f\n",
                    r.matrix.c_str(), r.precision.c_str(), r.cls.c_str(), r.rows, r.iterations_timed, r.vendor_s * 1e6,
                    r.operations_s * 1e6, r.persistent_s * 1e6, r.vendor_s / r.persistent_s,
                    r.operations_s / r.persistent_s, r.it_vendor, r.it_operations, r.it_persistent, r.blocks,
                    100 * r.cached_r, 100 * r.cached_x);
        std::fflush(stdout);
        srecs.push_back(r);
      }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cg_bench: %s\n", e.what());
    MPI_Finalize();
    return 1;
  }
  std::printf("\nspeed-up of the matrix-free persistent CG per iteration (geometric mean):\n");
  const std::vector<Summary> ssums = summarize(srecs, "the vendor CG (assembled)",
                                               "the operation-by-operation matrix-free CG", "operators");

  if (!o.out.empty()) {
    std::ofstream f(o.out);
    json_run_header(f, "cg_bench", prop.name, o.git_rev, command_line(argc, argv));
    f << ",\n  \"cg_walk\": \"" << json_escape(cg_walk) << "\"";
    f << ",\n  \"l2_bytes\": " << prop.l2CacheSize << ",\n  \"iterations_per_sample\": " << o.iterations
      << ",\n  \"reps\": " << o.reps << ",\n  \"rtol\": " << o.rtol
      << ",\n  \"time_model\": \"seconds per CG iteration: median over samples of (wall time of L iterations from "
         "x = 0) / L; vendor: cudaEvents around L iterations\",\n  \"records\": [\n";
    for (std::size_t i = 0; i < recs.size(); ++i) {
      const Record& r = recs[i];
      f << "    {\"case\": \"" << json_escape(r.matrix) << "\", \"precision\": \"" << r.precision << "\", \"class\": \""
        << r.cls << "\", \"rows\": " << r.rows << ", \"nnz\": " << r.nnz << ", \"bytes_a_plus_5_vectors\": " << r.bytes
        << ", \"iterations_timed\": " << r.iterations_timed << ", \"vendor_s_per_iteration\": " << r.vendor_s
        << ", \"operations_s_per_iteration\": " << r.operations_s << ", \"persistent_s_per_iteration\": "
        << r.persistent_s << ", \"persistent_over_vendor\": " << r.vendor_s / r.persistent_s
        << ", \"persistent_over_operations\": " << r.operations_s / r.persistent_s
        << ", \"iterations_to_rtol\": {\"vendor\": " << r.it_vendor << ", \"operations\": " << r.it_operations
        << ", \"persistent\": " << r.it_persistent << "}, \"blocks\": " << r.blocks
        << ", \"on_chip_fraction\": {\"r\": " << r.cached_r << ", \"q\": " << r.cached_q << ", \"x\": " << r.cached_x
        << "}}" << (i + 1 < recs.size() ? "," : "") << "\n";
    }
    f << "  ],\n  \"summary\": [\n";
    for (std::size_t i = 0; i < sums.size(); ++i)
      f << "    {\"class\": \"" << sums[i].cls << "\", \"precision\": \"" << sums[i].precision
        << "\", \"geomean_persistent_over_vendor\": " << sums[i].over_vendor
        << ", \"geomean_persistent_over_operations\": " << sums[i].over_operations << ", \"matrices\": " << sums[i].count
        << "}" << (i + 1 < sums.size() ? "," : "") << "\n";
    f << "  ],\n  \"matrix_free_records\": [\n";
    for (std::size_t i = 0; i < srecs.size(); ++i) {
      const StencilRecord& r = srecs[i];
      f << "    {\"case\": \"" << json_escape(r.matrix) << "\", \"operator\": \"constant stencil\", \"precision\": \""
        << r.precision << "\", \"class\": \"" << r.cls << "\", \"rows\": " << r.rows
        << ", \"bytes_5_vectors\": " << r.vector_bytes << ", \"iterations_timed\": " << r.iterations_timed
        << ", \"vendor_s_per_iteration\": " << r.vendor_s << ", \"operations_s_per_iteration\": " << r.operations_s
        << ", \"persistent_s_per_iteration\": " << r.persistent_s
        << ", \"persistent_over_vendor\": " << r.vendor_s / r.persistent_s
        << ", \"persistent_over_operations\": " << r.operations_s / r.persistent_s
        << ", \"iterations_to_rtol\": {\"vendor\": " << r.it_vendor << ", \"operations\": " << r.it_operations
        << ", \"persistent\": " << r.it_persistent << "}, \"blocks\": " << r.blocks << ", \"threads\": " << r.threads
        << ", \"on_chip_fraction\": {\"r\": " << r.cached_r << ", \"x\": " << r.cached_x << "}}"
        << (i + 1 < srecs.size() ? "," : "") << "\n";
    }
    f << "  ],\n  \"matrix_free_summary\": [\n";
    for (std::size_t i = 0; i < ssums.size(); ++i)
      f << "    {\"class\": \"" << ssums[i].cls << "\", \"precision\": \"" << ssums[i].precision
        << "\", \"geomean_persistent_over_vendor\": " << ssums[i].over_vendor
        << ", \"geomean_persistent_over_operations\": " << ssums[i].over_operations << ", \"operators\": "
        << ssums[i].count << "}" << (i + 1 < ssums.size() ? "," : "") << "\n";
    f << "  ]\n}\n";
    std::printf("wrote %s\n", o.out.c_str());
  }
  MPI_Finalize();
  return 0;
}
