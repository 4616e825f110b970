// GPU solver benchmark: in ONE run on backend.type = "cuda", fp64 and fp32, 3D Poisson
// (problem.type = "poisson_random", vertex-centred, N^3 unknowns, N = 2^k - 1, default 255):
//
//   wu_7pt_sweep   the work unit WU: one fine-grid 7-point Laplacian sweep out = A in through
//                  CudaBackend<Real>::apply_stencil on two fields laid out like the solver's fine grid
//                  (N^3 owned, ghost 1, rows padded by grid_row_align as a run's grid fields in Real; PCG-MG's
//                  runs start their rows on whole lines, where this sweep is as fast or slower),
//                  ping-pong, cudaEvent-timed, median of --reps sweeps (after a
//                  warm-up of >= 3 sweeps and >= 0.2 s); measured before and again after the solves of
//                  its precision, WU = the smaller median (both are in the record)
//   cg_iteration   plain CG (no preconditioner), a fixed --cg-iterations iterations (rtol = 0, so no
//                  residual criterion): time_s = result.seconds / iterations, work_units = time_s / WU
//   mg_vcycle      multigrid solver, V(2,2) weighted Jacobi, coarse CG, a fixed --mg-cycles cycles:
//                  time_s = result.seconds / cycles (each cycle also computes the residual norm the solver
//                  checks after it), work_units = time_s / WU
//   mg_vcycle_direct  the same with the direct coarse solve (coarse.type = "direct")
//   pcg_mg_solve   CG preconditioned by one V(2,2) Jacobi cycle (inputs/solvers/pcg_mg_poisson3d.toml) to
//                  rtol 1e-10 (fp64; 1e-6 in fp32, whose resolution is ~1e-7): time_s = the whole solve,
//                  work_units = time_s / WU, plus time and WU per iteration
//   pcg_mg_solve_direct  the same with the direct coarse solve
//   pcg_mg_solve_chebyshev  the same (direct coarse solve) with Chebyshev smoothing of degree 2 on
//                  [0.2, 1.08] lambda_max (product form, the cost of two Jacobi sweeps)
//   pcg_mg_solve_float_cycle  (fp64 only) pcg_mg_solve_chebyshev with the cycle in float
//                  ([solver.preconditioner] precision = "float"): CG in double, half the cycle's traffic
//   case "explore" (fp64): pcg_mg_solve_explore_cheb<d>_lo<lower>_<run|float>: PCG-MG with Chebyshev smoothing of degree
//                  d = 1..4 (pre = post = d) on [lower, 1.08] lambda_max, lower = 0.1, 0.2, 0.3, the cycle in double
//                  or float, direct coarse solve (24 solves): which set-up reaches 1e-10 in the fewest work units
//   case "persistent": mg_vcycle_direct, pcg_mg_solve_direct and (fp64) pcg_mg_solve_float_cycle once per value P of
//                  --persistent-cells
//                  (default 0,4096,32768,262144): multigrid levels of at most P cells run as one persistent
//                  program (issue 6 item 4; 0 = every level kernel by kernel); the record's persistent_cells
//                  says which (-1 in the other cases: the deck default)
//
// Every solve goes through solve_deck<Real> (the production path: setup, halo exchange, Timers; monitor.phase_timers
// = auto: no per-phase fences on cuda) once untimed (warm-up: allocations, module loading) and then --solve-reps
// times timed; the solver's own clock (SolveResult::seconds: the initial residual, the first preconditioner
// application and the iteration loop, without set-up and without the multigrid hierarchy construction) is
// used, median over the timed runs. The deck text of
// every case is stored in the JSON record.
//
//   solver_bench [--out results.json] [--n 255] [--reps 50] [--solve-reps 3] [--precision both|f64|f32]
//                [--cases wu,cg,mg,pcg,persistent] [--cg-iterations 100] [--mg-cycles 10] [--warmup-s 0.2]
//                [--persistent-cells 0,4096,32768,262144] [--git-revision REV] [--print-decks]
// Without a usable CUDA device it prints "SKIPPED: no CUDA device (...)" and exits 0.
#include <cuda_runtime.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/backends/cuda/register_cuda.hpp"
#include "framework/backends/kokkos/kokkos_backend.hpp"
#include "framework/config/deck.hpp"
#include "framework/config/schema.hpp"
#include "framework/grid/decomposition.hpp"
#include "framework/runtime/run.hpp"
#include "solvers/multigrid/mg_config.hpp"

using namespace perksolve;

#define CK(x)                                                                                               \
  do {                                                                                                      \
    cudaError_t e_ = (x);                                                                                   \
    if (e_ != cudaSuccess)                                                                                  \
      throw std::runtime_error(std::string("CUDA error ") + #x + " at " + __FILE__ + ":" +                  \
                               std::to_string(__LINE__) + ": " + cudaGetErrorString(e_));                   \
  } while (0)

namespace {

struct Options {
  std::string out_path, git_rev = "unknown", precision = "both", cases = "wu,cg,mg,pcg";
  int n = 255, reps = 50, solve_reps = 3;
  long cg_iterations = 100, mg_cycles = 10;
  bool print_decks = false;
  double warmup_s = 0.2;
  std::vector<long> persistent_cells = {0, 4096, 32768, 262144};
};

void usage(std::FILE* f) {
  std::fprintf(f,
               "usage: solver_bench [--out FILE.json] [--n N] [--reps R] [--solve-reps S] [--precision both|f64|f32]\n"
               "                    [--cases wu,cg,mg,pcg,persistent,explore] [--cg-iterations I] [--mg-cycles C]\n"
               "                    [--persistent-cells P1,P2,...] [--git-revision REV] [--warmup-s T] [--print-decks]\n"
               "  --n N            unknowns per axis of the 3D Poisson grid (N = 2^k - 1, >= 7; default 255)\n"
               "  --reps R         timed 7-point sweeps for the work unit, median (default 50)\n"
               "  --solve-reps S   timed runs of every solve after the warm-up run, median (default 3)\n"
               "  --cg-iterations  fixed iteration count of the plain-CG case (default 100)\n"
               "  --mg-cycles      fixed cycle count of the multigrid case (default 10)\n"
               "  --persistent-cells  values of the multigrid persistent_cells key for the case persistent\n"
               "                   (default 0,4096,32768,262144; 0 = no persistent program)\n"
               "  --warmup-s T     warm-up time of the work-unit sweeps before the timed ones (default 0.2)\n"
               "  --print-decks    print the decks of the solve cases (both precisions) and exit\n");
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      case '\r': o += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          o += buf;
        } else {
          o += c;
        }
    }
  }
  return o;
}

std::string num(double v) {  // JSON number (null for NaN / inf)
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6e", v);
  return buf;
}

const char* path_name(CudaStencilPath p) {
  switch (p) {
    case CudaStencilPath::templated: return "templated";
    case CudaStencilPath::templated_symmetric: return "templated_sym_cse";
    case CudaStencilPath::generic: return "generic";
    default: return "none";
  }
}

struct Record {
  std::string name, precision, unit, reason, deck, kernel;
  int n = 0;
  double time_s = 0, work_units = 0, wu_time_s = 0;
  long iterations = 0;
  long persistent_cells = -1;  // multigrid persistent_cells of the deck (-1: not set, the default)
  double total_s = 0, per_iteration_s = 0, wu_per_iteration = 0;  // solves
  double rtol = 0, initial_residual = 0, final_residual = 0;
  double wu_before = 0, wu_after = 0;  // work unit: medians measured before / after the solves (0 = not measured)
  std::vector<double> runs;  // timed runs (solves: result.seconds; sweep: none)
};

// ---- decks ------------------------------------------------------------------------------------------
const char* prec_key(bool fp32) { return fp32 ? "float" : "double"; }

std::string deck_header(int n, bool fp32) {
  std::ostringstream d;
  d << "[grid]\ndimension = 3\nextents = [" << n << ", " << n << ", " << n << "]\n"
    << "[problem]\ntype = \"poisson_random\"\n"
    << "[backend]\ntype = \"cuda\"\nprecision = \"" << prec_key(fp32) << "\"\n";
  return d.str();
}
const char* kFooter = "[monitor]\nquiet = true\nevery = 0\nprogress_s = 0.0\n";

std::string cg_deck(int n, bool fp32, long iterations) {
  return deck_header(n, fp32) + "[solver]\ntype = \"cg\"\n[solver.stop]\nmax_iterations = " +
         std::to_string(iterations) + "\nrtol = 0.0\n" + kFooter;
}
// Coarse CG to 1e-10 in fp64 (inputs/solvers/mg_poisson3d.toml); fp32 cannot reach 1e-10, so its coarse
// solve would run to the iteration limit (1000) every cycle: 1e-5 there.
std::string coarse_tolerance(bool fp32) { return fp32 ? "1e-5" : "1e-10"; }
// Body of a [..coarse] table: "cg" (to coarse_tolerance) or "direct" (the dense inverse of the coarsest
// level applied as an SpMV, docs/solvers.md).
std::string coarse_body(bool fp32, const std::string& coarse) {
  return coarse == "direct" ? "type = \"direct\"\n" : "type = \"cg\"\ntolerance = " + coarse_tolerance(fp32) + "\n";
}

// The multigrid persistent_cells key line (nothing for -1: the default).
std::string persistent_line(long cells) {
  return cells < 0 ? "" : "persistent_cells = " + std::to_string(cells) + "\n";
}

std::string mg_deck(int n, bool fp32, long cycles, const std::string& coarse = "cg", long persistent_cells = -1) {
  return deck_header(n, fp32) +
         "[solver]\ntype = \"multigrid\"\ncycle = \"V\"\npre_smooth = 2\npost_smooth = 2\n" +
         persistent_line(persistent_cells) +
         "[solver.smoother]\ntype = \"jacobi\"\n[solver.coarse]\n" +
         coarse_body(fp32, coarse) + "[solver.stop]\nmax_iterations = " + std::to_string(cycles) + "\nrtol = 0.0\n" +
         kFooter;
}
double pcg_rtol(bool fp32) { return fp32 ? 1e-6 : 1e-10; }
// The PCG-MG smoothers: weighted Jacobi, and Chebyshev of degree 2 on [0.2, 1.08] lambda_max (product form: the
// cost of Jacobi; 9 instead of 11 PCG iterations at 255^3 on the Kokkos backend).
const char* const kJacobiSmoother = "type = \"jacobi\"\n";
const char* const kChebyshevSmoother = "type = \"chebyshev\"\nlower = 0.2\n";
std::string pcg_deck(int n, bool fp32, const std::string& coarse = "cg", long persistent_cells = -1,
                     const std::string& smoother = kJacobiSmoother, const char* cycle_precision = "run", int sweeps = 2) {
  char rtol[32];
  std::snprintf(rtol, sizeof rtol, "%g", pcg_rtol(fp32));
  const std::string k = std::to_string(sweeps);
  return deck_header(n, fp32) +
         "[solver]\ntype = \"cg\"\n[solver.preconditioner]\ntype = \"multigrid\"\ncycle = \"V\"\npre_smooth = " + k +
         "\npost_smooth = " + k + "\nprecision = \"" + cycle_precision + "\"\n" + persistent_line(persistent_cells) +
         "[solver.preconditioner.smoother]\n" + smoother +
         "[solver.preconditioner.coarse]\n" +
         coarse_body(fp32, coarse) + "[solver.stop]\nmax_iterations = 200\nrtol = " + rtol + "\n" + kFooter;
}

config::Deck make_deck(const std::string& text, const std::string& origin) {
  return config::load_deck_from_string(text, origin, {});
}

// ---- work unit --------------------------------------------------------------------------------------
template <class Real>
Record measure_wu(int n, int reps, double h, double warmup_s) {
  CudaBackend<Real> be(MPI_COMM_WORLD);
  FieldLayout l;
  l.n = {n, n, n};
  l.ghost = {1, 1, 1};
  // The solver's grid fields pad their rows (Decomposition::grid_layout). Until 2026-11-26 this sweep ran on packed rows,
  // which made the 255^3 fp64 sweep 1-4 % slower (8.5-8.8e-5 against 8.4e-5 s, H200) and every WU count as much
  // smaller.
  l.align = grid_fields_row_align(l.padded(0), sizeof(Real));
  FieldPtr<Real> a = be.create_field(l), b = be.create_field(l);
  {
    // Deterministic values in [0.5, 1.5) (never zero), ghosts included.
    std::vector<Real> host(static_cast<std::size_t>(l.size()));
    std::uint64_t s = 0x243F6A8885A308D3ull;
    for (auto& v : host) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      v = static_cast<Real>(0.5 + static_cast<double>(s >> 11) * (1.0 / 9007199254740992.0));
    }
    be.upload(*a, host);
    be.upload(*b, host);
  }
  const Stencil s = laplacian_7pt(h, h, h);
  cudaStream_t st = be.stream();
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  // Warm-up: at least 3 sweeps and --warmup-s seconds.
  const auto w0 = std::chrono::steady_clock::now();
  for (int warm = 0; warm < 3 || std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() < warmup_s;
       ++warm) {
    be.apply_stencil(s, warm % 2 ? *b : *a, warm % 2 ? *a : *b);
    be.fence();
  }
  std::vector<double> t;
  for (int rep = 0; rep < reps; ++rep) {
    // Ping-pong so that every sweep reads what the previous one wrote (no cache-resident input).
    const Field<Real>& src = rep % 2 ? *b : *a;
    Field<Real>& dst = rep % 2 ? *a : *b;
    CK(cudaEventRecord(e0, st));
    be.apply_stencil(s, src, dst);
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms * 1e-3);
  }
  CK(cudaGetLastError());
  be.fence();
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  Record r;
  r.name = "wu_7pt_sweep";
  r.precision = sizeof(Real) == 8 ? "fp64" : "fp32";
  r.unit = "per sweep";
  r.n = n;
  r.time_s = median(t);
  r.wu_time_s = r.time_s;
  r.runs = {*std::min_element(t.begin(), t.end()), *std::max_element(t.begin(), t.end())};
  r.work_units = 1.0;
  r.iterations = reps;
  r.kernel = std::string(path_name(be.last_stencil_path())) + (be.wide_tiles() ? "/wide" : "/two_load");
  return r;
}

// ---- solves -----------------------------------------------------------------------------------------
template <class Real>
RunOutcome run_solve(const std::string& text, const std::string& origin) {
  return solve_deck<Real>(make_deck(text, origin), MPI_COMM_WORLD, false);
}

template <class Real>
Record measure_solve(const std::string& name, const std::string& text, int n, int solve_reps) {
  const std::string prec = sizeof(Real) == 8 ? "fp64" : "fp32";
  std::printf("  %s %s: warm-up run\n", name.c_str(), prec.c_str());
  std::fflush(stdout);
  (void)run_solve<Real>(text, "solver_bench:" + name + ":" + prec + ":warmup");
  Record r;
  r.name = name;
  r.precision = prec;
  r.n = n;
  r.deck = text;
  RunOutcome last;
  for (int k = 0; k < solve_reps; ++k) {
    std::printf("  %s %s: timed run %d/%d\n", name.c_str(), prec.c_str(), k + 1, solve_reps);
    std::fflush(stdout);
    last = run_solve<Real>(text, "solver_bench:" + name + ":" + prec);
    r.runs.push_back(last.result.seconds);
  }
  const double seconds = median(r.runs);
  r.iterations = last.result.iterations;
  r.reason = to_string(last.result.reason);
  r.initial_residual = last.result.initial_residual;
  r.final_residual = last.result.final_residual;
  r.total_s = seconds;
  r.per_iteration_s = r.iterations > 0 ? seconds / static_cast<double>(r.iterations) : 0.0;
  if (name.starts_with("pcg_mg_solve")) {
    r.unit = "per solve";
    r.time_s = seconds;
  } else {
    r.unit = name.starts_with("mg_vcycle") ? "per cycle" : "per iteration";
    r.time_s = r.per_iteration_s;
  }
  return r;
}

void set_work_units(Record& r, double wu) {
  r.wu_time_s = wu;
  r.work_units = wu > 0 ? r.time_s / wu : 0.0;
  r.wu_per_iteration = wu > 0 ? r.per_iteration_s / wu : 0.0;
}

template <class Real>
void run_precision(const Options& o, std::vector<Record>& recs, double h) {
  const bool fp32 = sizeof(Real) == 4;
  const auto want = [&](const char* c) { return ("," + o.cases + ",").find(std::string(",") + c + ",") != std::string::npos; };
  // The work unit is always measured (every other case is expressed in it), before and, when solves ran,
  // again after the solves; WU = the smaller of the two medians (a disturbed phase only slows down).
  Record wu = measure_wu<Real>(o.n, o.reps, h, o.warmup_s);
  wu.wu_before = wu.time_s;
  std::vector<Record> solves;
  if (want("cg")) solves.push_back(measure_solve<Real>("cg_iteration", cg_deck(o.n, fp32, o.cg_iterations), o.n, o.solve_reps));
  if (want("mg")) {
    solves.push_back(measure_solve<Real>("mg_vcycle", mg_deck(o.n, fp32, o.mg_cycles), o.n, o.solve_reps));
    solves.push_back(
        measure_solve<Real>("mg_vcycle_direct", mg_deck(o.n, fp32, o.mg_cycles, "direct"), o.n, o.solve_reps));
  }
  if (want("pcg")) {
    solves.push_back(measure_solve<Real>("pcg_mg_solve", pcg_deck(o.n, fp32), o.n, o.solve_reps));
    solves.back().rtol = pcg_rtol(fp32);
    solves.push_back(measure_solve<Real>("pcg_mg_solve_direct", pcg_deck(o.n, fp32, "direct"), o.n, o.solve_reps));
    solves.back().rtol = pcg_rtol(fp32);
    solves.push_back(measure_solve<Real>("pcg_mg_solve_chebyshev", pcg_deck(o.n, fp32, "direct", -1, kChebyshevSmoother),
                                         o.n, o.solve_reps));
    solves.back().rtol = pcg_rtol(fp32);
    if (!fp32) {
      solves.push_back(measure_solve<Real>("pcg_mg_solve_float_cycle",
                                           pcg_deck(o.n, fp32, "direct", -1, kChebyshevSmoother, "float"), o.n,
                                           o.solve_reps));
      solves.back().rtol = pcg_rtol(fp32);
    }
  }
  if (want("explore") && !fp32) {
    // Chebyshev smoothing of degree d (pre = post = d sweeps, product form) on [lower, 1.08] lambda_max, cycle in
    // double or float, direct coarse solve: which set-up reaches 1e-10 in the fewest work units.
    for (const char* cp : {"run", "float"})
      for (int d : {1, 2, 3, 4})
        for (const char* lower : {"0.1", "0.2", "0.3"}) {
          const std::string sm = std::string("type = \"chebyshev\"\nlower = ") + lower + "\n";
          solves.push_back(measure_solve<Real>(std::string("pcg_mg_solve_explore_cheb") + std::to_string(d) + "_lo" + lower + "_" + cp,
                                               pcg_deck(o.n, fp32, "direct", -1, sm, cp, d), o.n, o.solve_reps));
          solves.back().rtol = pcg_rtol(fp32);
        }
  }
  if (want("persistent")) {
    for (long p : o.persistent_cells) {
      solves.push_back(measure_solve<Real>("mg_vcycle_direct", mg_deck(o.n, fp32, o.mg_cycles, "direct", p), o.n,
                                           o.solve_reps));
      solves.back().persistent_cells = p;
    }
    for (long p : o.persistent_cells) {
      solves.push_back(
          measure_solve<Real>("pcg_mg_solve_direct", pcg_deck(o.n, fp32, "direct", p), o.n, o.solve_reps));
      solves.back().rtol = pcg_rtol(fp32);
      solves.back().persistent_cells = p;
    }
    if (!fp32)
      for (long p : o.persistent_cells) {
        solves.push_back(measure_solve<Real>("pcg_mg_solve_float_cycle",
                                             pcg_deck(o.n, fp32, "direct", p, kChebyshevSmoother, "float"), o.n,
                                             o.solve_reps));
        solves.back().rtol = pcg_rtol(fp32);
        solves.back().persistent_cells = p;
      }
  }
  if (!solves.empty()) {
    const Record again = measure_wu<Real>(o.n, o.reps, h, o.warmup_s);
    wu.wu_after = again.time_s;
    wu.time_s = wu.wu_time_s = std::min(wu.wu_before, wu.wu_after);
    wu.runs = {std::min(wu.runs[0], again.runs[0]), std::max(wu.runs[1], again.runs[1])};
    if (std::max(wu.wu_before, wu.wu_after) > 1.1 * wu.time_s)
      std::fprintf(stderr, "WARNING: %s work unit before the solves %.4e s, after %.4e s (> 10 %% apart); using %.4e s\n",
                   wu.precision.c_str(), wu.wu_before, wu.wu_after, wu.time_s);
  }
  if (want("wu")) recs.push_back(wu);
  for (Record& r : solves) {
    set_work_units(r, wu.time_s);
    recs.push_back(r);
  }
}

bool parse_int(const std::string& s, long lo, long& out) {
  try {
    std::size_t pos = 0;
    const long v = std::stol(s, &pos);
    if (pos != s.size() || v < lo) return false;
    out = v;
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  int status = -1;
  for (int i = 1; i < argc && status < 0; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      usage(stdout);
      status = 0;
      break;
    }
    if (a == "--print-decks") {
      o.print_decks = true;
      continue;
    }
    const bool has_value = i + 1 < argc;
    const std::string v = has_value ? argv[i + 1] : "";
    long x = 0;
    auto bad = [&](const char* what) {
      std::fprintf(stderr, "solver_bench: %s %s\n", a.c_str(), what);
      usage(stderr);
      status = 2;
    };
    if (a == "--out" || a == "--git-revision" || a == "--precision" || a == "--cases" || a == "--n" || a == "--reps" ||
        a == "--solve-reps" || a == "--cg-iterations" || a == "--mg-cycles" || a == "--warmup-s" ||
        a == "--persistent-cells") {
      if (!has_value) {
        bad("needs a value");
        break;
      }
      ++i;
    }
    if (a == "--out") o.out_path = v;
    else if (a == "--git-revision") o.git_rev = v;
    else if (a == "--precision") {
      if (v != "both" && v != "f64" && v != "f32") bad("expects both, f64 or f32");
      o.precision = v;
    } else if (a == "--cases") {
      std::stringstream ss(v);
      std::string item;
      while (std::getline(ss, item, ','))
        if (item != "wu" && item != "cg" && item != "mg" && item != "pcg" && item != "persistent" && item != "explore")
          bad("expects a list of wu, cg, mg, pcg, persistent, explore");
      o.cases = v;
    } else if (a == "--n") {
      if (!parse_int(v, 7, x) || x > 2047) bad("expects an integer in [7, 2047]");
      else o.n = static_cast<int>(x);
    } else if (a == "--reps") {
      if (!parse_int(v, 1, x) || x > 100000) bad("expects a positive integer");
      else o.reps = static_cast<int>(x);
    } else if (a == "--warmup-s") {
      try {
        std::size_t pos = 0;
        o.warmup_s = std::stod(v, &pos);
        if (pos != v.size() || !(o.warmup_s >= 0 && o.warmup_s <= 60)) bad("expects seconds in [0, 60]");
      } catch (const std::exception&) {
        bad("expects seconds in [0, 60]");
      }
    } else if (a == "--solve-reps") {
      if (!parse_int(v, 1, x) || x > 1000) bad("expects a positive integer");
      else o.solve_reps = static_cast<int>(x);
    } else if (a == "--cg-iterations") {
      if (!parse_int(v, 1, x)) bad("expects a positive integer");
      else o.cg_iterations = x;
    } else if (a == "--persistent-cells") {
      std::stringstream ss(v);
      std::string item;
      o.persistent_cells.clear();
      while (std::getline(ss, item, ',')) {
        if (!parse_int(item, 0, x)) {
          bad("expects a comma-separated list of cell counts >= 0");
          break;
        }
        o.persistent_cells.push_back(x);
      }
      if (o.persistent_cells.empty()) bad("expects a comma-separated list of cell counts >= 0");
    } else if (a == "--mg-cycles") {
      if (!parse_int(v, 1, x)) bad("expects a positive integer");
      else o.mg_cycles = x;
    } else {
      std::fprintf(stderr, "solver_bench: unknown argument %s\n", a.c_str());
      usage(stderr);
      status = 2;
    }
  }
  if (status < 0 && size != 1) {
    if (rank == 0) std::fprintf(stderr, "solver_bench: runs on one MPI rank (got %d)\n", size);
    status = 2;
  }
  if (status >= 0) {
    MPI_Finalize();
    return status;
  }
  if (o.print_decks) {
    if (rank == 0)
      for (bool fp32 : {false, true})
        std::printf("# cg_iteration %s\n%s\n# mg_vcycle %s\n%s\n# mg_vcycle_direct %s\n%s\n# pcg_mg_solve %s\n%s\n"
                    "# pcg_mg_solve_direct %s\n%s\n# pcg_mg_solve_chebyshev %s\n%s\n# pcg_mg_solve_float_cycle %s\n%s\n",
                    prec_key(fp32), cg_deck(o.n, fp32, o.cg_iterations).c_str(), prec_key(fp32),
                    mg_deck(o.n, fp32, o.mg_cycles).c_str(), prec_key(fp32),
                    mg_deck(o.n, fp32, o.mg_cycles, "direct").c_str(), prec_key(fp32), pcg_deck(o.n, fp32).c_str(),
                    prec_key(fp32), pcg_deck(o.n, fp32, "direct").c_str(), prec_key(fp32),
                    pcg_deck(o.n, fp32, "direct", -1, kChebyshevSmoother).c_str(), prec_key(fp32),
                    pcg_deck(o.n, fp32, "direct", -1, kChebyshevSmoother, "float").c_str());
    MPI_Finalize();
    return 0;
  }
  if (((o.n + 1) & o.n) != 0)
    std::printf("note: N = %d is not of the form 2^k - 1; the multigrid hierarchy stops where N becomes even\n", o.n);
  std::string command;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) command += ' ';
    command += argv[i];
  }

  status = 0;
  {
    // Kokkos (the reference backend, used by parts of the run set-up) gets no benchmark arguments.
    char arg0[] = "solver_bench";
    char* kargv[] = {arg0, nullptr};
    int kargc = 1;
    Kokkos::ScopeGuard kokkos(kargc, kargv);
    try {
      config::register_core_schema();
      register_multigrid_tables();
      register_kokkos_backend();
      register_cuda_backend();
      std::string device;
      {
        CudaBackend<double> probe(MPI_COMM_WORLD);  // throws BackendUnavailable without a device
        device = probe.device_name();
      }
      std::printf("device: %s\n", device.c_str());
      // The fine grid's spacing, from the same deck path the solver uses.
      const double h = grid_from_deck(make_deck(cg_deck(o.n, false, o.cg_iterations), "solver_bench:grid")).spacing(0);
      std::printf("3D Poisson %d^3 (h = %.6e), cases %s, precision %s\n", o.n, h, o.cases.c_str(), o.precision.c_str());
      std::fflush(stdout);

      std::vector<Record> recs;
      if (o.precision != "f32") run_precision<double>(o, recs, h);
      if (o.precision != "f64") run_precision<float>(o, recs, h);

      std::printf("\n%-20s %-5s %-13s %8s %6s %12s %-14s %10s %12s %10s  %s\n", "case", "prec", "extents",
                  "persist", "its", "time [s]", "", "WU", "t_WU [s]", "WU/it", "reason / kernel");
      for (const Record& r : recs) {
        char ext[48];
        std::snprintf(ext, sizeof ext, "%dx%dx%d", r.n, r.n, r.n);
        const bool solve = r.name != "wu_7pt_sweep";
        const std::string persist = r.persistent_cells < 0 ? "default" : std::to_string(r.persistent_cells);
        std::printf("%-20s %-5s %-13s %8s %6ld %12.4e %-14s %10.2f %12.4e %10.2f  %s\n", r.name.c_str(),
                    r.precision.c_str(), ext, persist.c_str(), r.iterations, r.time_s, r.unit.c_str(), r.work_units, r.wu_time_s,
                    solve ? r.wu_per_iteration : 1.0, solve ? r.reason.c_str() : r.kernel.c_str());
      }
      for (const Record& r : recs)
        if (r.name == "pcg_mg_solve" && r.reason.rfind("CONVERGED", 0) != 0)
          std::fprintf(stderr, "WARNING: pcg_mg_solve %s did not converge (%s)\n", r.precision.c_str(), r.reason.c_str());

      if (!o.out_path.empty()) {
        char date[64];
        std::time_t now = std::time(nullptr);
        std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
        int drv = 0, rt = 0;
        cudaDriverGetVersion(&drv);
        cudaRuntimeGetVersion(&rt);
        std::ofstream f(o.out_path);
        if (!f) throw std::runtime_error("cannot write " + o.out_path);
        f << "{\n";
        f << "  \"benchmark\": \"solver_bench\",\n";
        f << "  \"device\": \"" << json_escape(device) << "\",\n";
        f << "  \"date\": \"" << date << "\",\n";
        f << "  \"git_revision\": \"" << json_escape(o.git_rev) << "\",\n";
        f << "  \"command\": \"" << json_escape(command) << "\",\n";
        f << "  \"cuda_driver_version\": " << drv << ",\n  \"cuda_runtime_version\": " << rt << ",\n";
        f << "  \"problem\": \"poisson_random, vertex-centred, homogeneous Dirichlet, 7-point Laplacian\",\n";
        f << "  \"reps\": " << o.reps << ",\n  \"solve_reps\": " << o.solve_reps << ",\n";
        f << "  \"note\": \"WU = median time of one apply_stencil 7-point sweep on the fine-grid layout (N^3 owned, "
             "ghost 1), measured before and after the solves of its precision, the smaller of the two. Solves: solve_deck once untimed, then timed; SolveResult::seconds (initial residual, first preconditioner "
             "application and the iteration loop; no set-up) "
             "median over the timed runs. cg_iteration/mg_vcycle: time_s per iteration/cycle; pcg_mg_solve: time_s "
             "for the whole solve. work_units = time_s / wu_time_s of the same precision.\",\n";
        f << "  \"records\": [\n";
        for (std::size_t i = 0; i < recs.size(); ++i) {
          const Record& r = recs[i];
          f << "    {\"case\": \"" << r.name << "\", \"precision\": \"" << r.precision << "\", \"extents\": [" << r.n
            << ", " << r.n << ", " << r.n << "], \"time_s\": " << num(r.time_s) << ", \"time_unit\": \"" << r.unit
            << "\", \"work_units\": " << num(r.work_units) << ", \"iterations\": " << r.iterations
            << ", \"wu_time_s\": " << num(r.wu_time_s) << ", \"persistent_cells\": " << r.persistent_cells;
          if (r.name == "wu_7pt_sweep") {
            const double cells = static_cast<double>(r.n) * r.n * r.n;
            f << ", \"gcells_per_s\": " << num(cells / r.time_s * 1e-9) << ", \"time_min_s\": " << num(r.runs[0])
              << ", \"time_max_s\": " << num(r.runs[1]) << ", \"time_before_solves_s\": " << num(r.wu_before)
              << ", \"time_after_solves_s\": " << (r.wu_after > 0 ? num(r.wu_after) : "null") << ", \"warmup_s\": " << num(o.warmup_s) << ", \"kernel\": \"" << r.kernel
              << "\", \"deck\": null";
          } else {
            f << ", \"total_s\": " << num(r.total_s) << ", \"time_per_iteration_s\": " << num(r.per_iteration_s)
              << ", \"work_units_per_iteration\": " << num(r.wu_per_iteration) << ", \"reason\": \""
              << json_escape(r.reason) << "\", \"initial_residual\": " << num(r.initial_residual)
              << ", \"final_residual\": " << num(r.final_residual) << ", \"relative_residual\": "
              << num(r.initial_residual > 0 ? r.final_residual / r.initial_residual : 0.0);
            if (r.rtol > 0) f << ", \"rtol\": " << num(r.rtol);
            f << ", \"timed_runs_s\": [";
            for (std::size_t k = 0; k < r.runs.size(); ++k) f << (k ? ", " : "") << num(r.runs[k]);
            f << "], \"deck\": \"" << json_escape(r.deck) << "\"";
          }
          f << "}" << (i + 1 < recs.size() ? "," : "") << "\n";
        }
        f << "  ]\n}\n";
        std::printf("wrote %s\n", o.out_path.c_str());
      }
    } catch (const BackendUnavailable& e) {
      std::printf("SKIPPED: no CUDA device (%s)\n", e.what());
      status = 0;
    } catch (const config::DeckError& e) {
      std::fprintf(stderr, "solver_bench: deck error: %s\n", e.what());
      status = 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "solver_bench: error: %s\n", e.what());
      status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
