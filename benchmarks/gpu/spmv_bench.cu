// GPU CSR SpMV benchmark: the CUDA backend's native vector-CSR kernel against its cuSPARSE path, both
// through the backend API (CudaBackend<Real>::create_sparse_matrix, set_spmv_path, spmv(A, x, nullptr, y);
// one rank: ghost_cols = 0, no send list), fp64 and fp32, on
//   laplace27_<n>       3D 27-point box Laplacian (diagonal 26, the 26 neighbours -1, Dirichlet truncation
//                       at the boundary) on an n^3 grid, default n = 216: 10,077,696 rows, 269,586,136 nnz
//   laplace2d_12, laplace3d_7, laplace3d_24, anisotropic2d_16, graph_laplacian_150
//                       the matrix families tests/solvers/check_solvers.py writes as Matrix Market files
//                       (generated in memory by benchmarks/gpu/bench_matrices.hpp, same construction)
//   laplace2d_20        inputs/solvers/laplace2d_20.mtx when found (--inputs DIR, else next to the binary)
//   any --mtx FILE      read with read_matrix_market (framework/operators/csr_operator.hpp)
// For each matrix, precision and path: median time of one SpMV over --reps samples (at least 200 for the
// launch-bound small matrices), cudaEvents on the backend's stream, after >= 3 warm-up samples and >= 0.2 s;
// a sample of a small matrix is a batch of back-to-back calls (`calls_per_sample`), divided. GB/s by the model
//   bytes = nnz (sizeof(Real) + 4) + (rows + 1) 8 + 2 rows sizeof(Real)
// (values + int32 columns + row pointers counted as 8 bytes + x read once + y written once), GFlop/s =
// 2 nnz / t, and the agreement of the two paths on a random non-zero x (max |y_native - y_cusparse| /
// max |y_cusparse|; each path is also checked against a host fp64 product). A summary record per matrix
// and precision holds native_over_cusparse = t_cusparse / t_native (>= 0.9: native within 10 %).
// Diagnostic path "cusparse_direct": the same cusparseSpMV (CSR_ALG2) called directly on device copies of
// the matrix with x and y as they are (the backend's cuSPARSE path first copies x into its [x; ghosts]
// staging vector on every call); not a backend path, reported for comparison only.
//
//   spmv_bench [--out results.json] [--reps 50] [--n27 216] [--precision both|f64|f32] [--mtx a.mtx,b.mtx]
//              [--inputs DIR] [--no-direct] [--git-revision REV]
// --n27 0 leaves the 27-point matrix out. Without a usable CUDA device: "SKIPPED: no CUDA device", exit 0.
#include <cuda_runtime.h>
#include <cusparse.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#include "benchmarks/gpu/bench_matrices.hpp"
#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/config/deck.hpp"
#include "framework/operators/csr_operator.hpp"

using namespace perksolve;

#define CK(x)                                                                                               \
  do {                                                                                                      \
    cudaError_t e_ = (x);                                                                                   \
    if (e_ != cudaSuccess)                                                                                  \
      throw std::runtime_error(std::string("CUDA error ") + #x + " at " + __FILE__ + ":" +                  \
                               std::to_string(__LINE__) + ": " + cudaGetErrorString(e_));                   \
  } while (0)
#define CKS(x)                                                                                              \
  do {                                                                                                      \
    cusparseStatus_t s_ = (x);                                                                              \
    if (s_ != CUSPARSE_STATUS_SUCCESS)                                                                      \
      throw std::runtime_error(std::string("cuSPARSE error ") + #x + ": " + cusparseGetErrorString(s_));    \
  } while (0)

namespace {

using bench::parallel_for;
using bench::splitmix;

const char* const kBytesModel =
    "nnz*(sizeof(Real)+4) + (rows+1)*8 + 2*rows*sizeof(Real): values + int32 column indices + row pointers "
    "counted as 8 bytes (the device stores them as int32) + x read once + y written once";

// ---- helpers --------------------------------------------------------------------------------------------
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      o += buf;
      continue;
    }
    o += c;
  }
  return o;
}

std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6e", v);
  return buf;
}

// ---- matrices ---------------------------------------------------------------------------------------------
struct Matrix {
  std::string name, source;
  CsrBlock blk;
  long nnz() const { return static_cast<long>(blk.val.size()); }
};

// Matrix from a generated or read CsrMatrix (int32 columns for the backend's CsrBlock); `A` is consumed.
Matrix to_matrix(std::string name, CsrMatrix&& A) {
  Matrix m;
  m.name = std::move(name);
  m.source = A.source;
  m.blk = bench::to_csr_block(std::move(A));
  return m;
}

Matrix from_market(const std::string& path) {
  CsrMatrix A = read_matrix_market(path);
  A.source = path;
  std::string base = path.substr(path.find_last_of('/') + 1);
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".mtx") == 0) base.resize(base.size() - 4);
  return to_matrix(base, std::move(A));
}

// ---- direct cuSPARSE (diagnostic) ---------------------------------------------------------------------------
template <class Real>
struct DirectCusparse {
  static constexpr cudaDataType_t T = std::is_same_v<Real, double> ? CUDA_R_64F : CUDA_R_32F;
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  int* rp = nullptr;
  int* col = nullptr;
  Real* val = nullptr;
  void* work = nullptr;

  DirectCusparse(const CsrBlock& b, Real* x, Real* y, cudaStream_t s) {
    std::vector<int> hrp(b.row_ptr.begin(), b.row_ptr.end());
    std::vector<Real> hv(b.val.size());
    for (std::size_t e = 0; e < hv.size(); ++e) hv[e] = static_cast<Real>(b.val[e]);
    const std::size_t nnz = std::max<std::size_t>(1, b.val.size());
    CK(cudaMalloc(reinterpret_cast<void**>(&rp), hrp.size() * sizeof(int)));
    CK(cudaMalloc(reinterpret_cast<void**>(&col), nnz * sizeof(int)));
    CK(cudaMalloc(reinterpret_cast<void**>(&val), nnz * sizeof(Real)));
    CK(cudaMemcpy(rp, hrp.data(), hrp.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(col, b.col.data(), b.col.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(val, hv.data(), hv.size() * sizeof(Real), cudaMemcpyHostToDevice));
    CKS(cusparseCreate(&handle));
    CKS(cusparseSetStream(handle, s));
    CKS(cusparseCreateCsr(&mat, b.rows, b.rows, static_cast<long>(b.val.size()), rp, col, val, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, T));
    CKS(cusparseCreateDnVec(&vx, b.rows, x, T));
    CKS(cusparseCreateDnVec(&vy, b.rows, y, T));
    const Real one = 1, zero = 0;
    std::size_t bytes = 0;
    CKS(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, T,
                                CUSPARSE_SPMV_CSR_ALG2, &bytes));
    CK(cudaMalloc(&work, std::max<std::size_t>(bytes, 16)));
  }
  DirectCusparse(const DirectCusparse&) = delete;
  DirectCusparse& operator=(const DirectCusparse&) = delete;
  ~DirectCusparse() {
    if (vy) cusparseDestroyDnVec(vy);
    if (vx) cusparseDestroyDnVec(vx);
    if (mat) cusparseDestroySpMat(mat);
    if (handle) cusparseDestroy(handle);
    for (void* p : {static_cast<void*>(rp), static_cast<void*>(col), static_cast<void*>(val), work})
      if (p) cudaFree(p);
  }
  void spmv() {
    const Real one = 1, zero = 0;
    CKS(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, T, CUSPARSE_SPMV_CSR_ALG2,
                     work));
  }
};

// ---- measurement --------------------------------------------------------------------------------------------
struct Record {
  std::string matrix, precision, path;
  long rows = 0, nnz = 0;
  int calls = 1, samples = 0;
  double time_s = 0, gbs = 0, gflops = 0, check_host = 0, diff_vs_native = -1;
};
struct Summary {
  std::string matrix, source, precision;
  long rows = 0, nnz = 0;
  double ratio = 0, ratio_direct = -1, max_rel_diff = 0;
};

double model_bytes(long rows, long nnz, std::size_t real) {
  return static_cast<double>(nnz) * (real + 4) + static_cast<double>(rows + 1) * 8 + 2.0 * rows * real;
}

// max |a - b| / max |b|
template <class A, class B>
double rel_diff(const std::vector<A>& a, const std::vector<B>& b) {
  double err = 0, mx = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
    err = (d > err || d != d) ? d : err;
    mx = std::max(mx, std::fabs(static_cast<double>(b[i])));
  }
  return mx > 0 ? err / mx : err;
}

// Median seconds per call of `call` (one sample = `calls` back-to-back calls between two events). Warm-up:
// at least 3 samples and 0.2 s, so that a short case after a long host phase (matrix set-up) does not run at
// idle clocks.
template <class F>
double time_calls(F call, int reps, int calls, cudaStream_t st) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<double> t;
  const auto w0 = std::chrono::steady_clock::now();
  for (int warm = 0; warm < 3 || std::chrono::steady_clock::now() - w0 < std::chrono::milliseconds(200); ++warm) {
    for (int c = 0; c < calls; ++c) call();
    CK(cudaStreamSynchronize(st));
  }
  for (int rep = 0; rep < reps; ++rep) {
    CK(cudaEventRecord(e0, st));
    for (int c = 0; c < calls; ++c) call();
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms * 1e-3 / calls);
  }
  CK(cudaGetLastError());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return median(t);
}

template <class Real>
void run_matrix(CudaBackend<Real>& be, const Matrix& m, int reps, bool direct, std::vector<Record>& recs,
                std::vector<Summary>& sums) {
  const std::string prec = sizeof(Real) == 8 ? "fp64" : "fp32";
  const CsrBlock& blk = m.blk;
  const long rows = blk.rows, nnz = m.nnz();
  std::printf("  %s %s: %ld rows, %ld nnz\n", m.name.c_str(), prec.c_str(), rows, nnz);
  std::fflush(stdout);
  auto A = be.create_sparse_matrix(blk);
  const FieldLayout l = vector_layout(rows);
  FieldPtr<Real> x = be.create_field(l), y = be.create_field(l);
  std::vector<Real> hx(rows);
  for (long r = 0; r < rows; ++r) {  // random, non-zero: magnitude [0.5, 1.5), random sign
    const double u = splitmix(17, static_cast<std::uint64_t>(r));
    hx[r] = static_cast<Real>((0.5 + splitmix(18, static_cast<std::uint64_t>(r))) * (u < 0.5 ? -1.0 : 1.0));
  }
  be.upload(*x, hx);
  // Host reference in fp64 on the same (rounded) x.
  std::vector<double> ref(rows);
  parallel_for(rows, [&](long r0, long r1) {
    for (long r = r0; r < r1; ++r) {
      double s = 0;
      for (long e = blk.row_ptr[r]; e < blk.row_ptr[r + 1]; ++e) s += blk.val[e] * static_cast<double>(hx[blk.col[e]]);
      ref[r] = s;
    }
  });

  const double bytes = model_bytes(rows, nnz, sizeof(Real));
  const int calls = static_cast<int>(std::clamp(2e7 / bytes, 1.0, 100.0));
  // Launch-bound small matrices are sensitive to host jitter: at least 200 (cheap) samples for them.
  const int samples = calls > 1 ? std::max(reps, 200) : reps;
  cudaStream_t st = be.stream();
  const double tol = sizeof(Real) == 8 ? 1e-12 : 1e-5;
  std::vector<Real> y_native;
  double t_native = 0, t_cusparse = 0, t_direct = -1, diff = 0;

  auto make_record = [&](const std::string& path, double t, const std::vector<Real>& hy) {
    Record r;
    r.matrix = m.name;
    r.precision = prec;
    r.path = path;
    r.rows = rows;
    r.nnz = nnz;
    r.calls = calls;
    r.samples = samples;
    r.time_s = t;
    r.gbs = bytes / t * 1e-9;
    r.gflops = 2.0 * nnz / t * 1e-9;
    r.check_host = rel_diff(hy, ref);
    if (!(r.check_host <= tol))
      std::fprintf(stderr, "WARNING: %s %s %s deviates from the host product: %g\n", m.name.c_str(), prec.c_str(),
                   path.c_str(), r.check_host);
    if (!y_native.empty()) r.diff_vs_native = rel_diff(hy, y_native);
    return r;
  };

  // native = the default native kernel (stream CSR); native_vector = the vector-CSR kernel, recorded
  // for comparison only (the summary ratio is native vs cuSPARSE).
  for (CudaSpmvPath p : {CudaSpmvPath::native, CudaSpmvPath::native_vector, CudaSpmvPath::cusparse}) {
    const bool native = p == CudaSpmvPath::native;
    be.set_spmv_path(p);
    be.fill(*y, Real(0));
    const double t = time_calls([&] { be.spmv(*A, *x, nullptr, *y); }, samples, calls, st);
    std::vector<Real> hy(rows);
    be.download(*y, hy);
    Record r = make_record(native ? "native" : p == CudaSpmvPath::native_vector ? "native_vector" : "cusparse", t, hy);
    if (native) {
      y_native = hy;
      t_native = t;
    } else if (p == CudaSpmvPath::native_vector) {
      // recorded only
    } else {
      t_cusparse = t;
      diff = r.diff_vs_native;
      if (!(diff <= tol))
        std::fprintf(stderr, "WARNING: %s %s native and cuSPARSE differ: %g\n", m.name.c_str(), prec.c_str(), diff);
    }
    recs.push_back(r);
  }
  be.set_spmv_path(CudaSpmvPath::native);
  if (direct) {
    FieldPtr<Real> y2 = be.create_field(l);
    be.fill(*y2, Real(0));
    be.fence();
    DirectCusparse<Real> d(blk, x->data(), y2->data(), st);
    t_direct = time_calls([&] { d.spmv(); }, samples, calls, st);
    std::vector<Real> hy(rows);
    be.download(*y2, hy);
    recs.push_back(make_record("cusparse_direct", t_direct, hy));
  }
  Summary s;
  s.matrix = m.name;
  s.source = m.source;
  s.precision = prec;
  s.rows = rows;
  s.nnz = nnz;
  s.ratio = t_cusparse / t_native;
  s.ratio_direct = t_direct > 0 ? t_direct / t_native : -1;
  s.max_rel_diff = diff;
  sums.push_back(s);
  be.fence();
}

bool parse_int(const std::string& s, long lo, long hi, long& out) {
  try {
    std::size_t pos = 0;
    const long v = std::stol(s, &pos);
    if (pos != s.size() || v < lo || v > hi) return false;
    out = v;
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

bool file_exists(const std::string& p) { return std::ifstream(p).good(); }

std::string exe_dir() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  std::string s(buf);
  const auto slash = s.find_last_of('/');
  return slash == std::string::npos ? "." : s.substr(0, slash);
}

// laplace2d_20.mtx: DIR/solvers/ or DIR/ for --inputs DIR; otherwise the bundle's inputs/ (bin/../inputs),
// the source tree seen from build/<preset>/benchmarks/gpu, and the source tree this was configured from.
std::string find_default_mtx(const std::string& inputs) {
  std::vector<std::string> dirs;
  if (!inputs.empty()) dirs = {inputs + "/solvers", inputs};
  else {
    const std::string e = exe_dir();
    dirs = {e + "/../inputs/solvers", e + "/../../../../inputs/solvers"};
#ifdef PERKSOLVE_BENCH_INPUTS
    dirs.push_back(std::string(PERKSOLVE_BENCH_INPUTS) + "/solvers");
#endif
  }
  for (const auto& d : dirs)
    if (file_exists(d + "/laplace2d_20.mtx")) return d + "/laplace2d_20.mtx";
  return "";
}

void usage(std::FILE* f) {
  std::fprintf(f,
               "usage: spmv_bench [--out FILE.json] [--reps R] [--n27 N] [--precision both|f64|f32] [--mtx a.mtx,b.mtx]\n"
               "                  [--inputs DIR] [--no-direct] [--git-revision REV]\n"
               "  --n27 N      edge of the 27-point Laplacian grid (N^3 rows; default 216, 0 = leave it out)\n"
               "  --inputs DIR where laplace2d_20.mtx is looked for (DIR/solvers or DIR)\n"
               "  --no-direct  leave out the diagnostic direct-cuSPARSE path\n");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::string out_path, git_rev = "unknown", precision = "both", mtx_arg, inputs;
  long reps = 50, n27 = 216;
  bool direct = true;
  int status = -1;
  for (int i = 1; i < argc && status < 0; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      usage(stdout);
      status = 0;
      break;
    }
    auto bad = [&](const char* what) {
      std::fprintf(stderr, "spmv_bench: %s %s\n", a.c_str(), what);
      usage(stderr);
      status = 2;
    };
    if (a == "--no-direct") {
      direct = false;
      continue;
    }
    const bool known = a == "--out" || a == "--git-revision" || a == "--precision" || a == "--mtx" || a == "--inputs" ||
                       a == "--reps" || a == "--n27";
    if (!known) {
      std::fprintf(stderr, "spmv_bench: unknown argument %s\n", a.c_str());
      usage(stderr);
      status = 2;
      break;
    }
    if (i + 1 >= argc) {
      bad("needs a value");
      break;
    }
    const std::string v = argv[++i];
    if (a == "--out") out_path = v;
    else if (a == "--git-revision") git_rev = v;
    else if (a == "--mtx") mtx_arg = v;
    else if (a == "--inputs") inputs = v;
    else if (a == "--precision") {
      if (v != "both" && v != "f64" && v != "f32") bad("expects both, f64 or f32");
      precision = v;
    } else if (a == "--reps") {
      if (!parse_int(v, 1, 100000, reps)) bad("expects a positive integer");
    } else if (a == "--n27") {
      // nnz = (3n - 2)^3 must stay below 2^31 (int32 column indices / row pointers on the device).
      if (!parse_int(v, 0, 430, n27) || n27 == 1) bad("expects 0 (none) or an integer in [2, 430]");
    }
  }
  if (status < 0 && size != 1) {
    std::fprintf(stderr, "spmv_bench: runs on one MPI rank (got %d)\n", size);
    status = 2;
  }
  if (status >= 0) {
    MPI_Finalize();
    return status;
  }
  std::string command;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) command += ' ';
    command += argv[i];
  }

  status = 0;
  try {
    // Matrix Market files first: a bad path is an error with or without a device.
    std::vector<std::string> mtx_paths;
    {
      const std::string def = find_default_mtx(inputs);
      if (!def.empty()) mtx_paths.push_back(def);
      else std::printf("note: laplace2d_20.mtx not found%s; left out\n", inputs.empty() ? "" : (" under " + inputs).c_str());
      std::stringstream ss(mtx_arg);
      std::string item;
      while (std::getline(ss, item, ','))
        if (!item.empty()) mtx_paths.push_back(item);
      // The same file twice (e.g. --mtx naming the default laplace2d_20.mtx): once.
      std::vector<std::string> seen, unique;
      for (const auto& p : mtx_paths) {
        char buf[PATH_MAX];
        const std::string canon = realpath(p.c_str(), buf) ? std::string(buf) : p;
        if (std::find(seen.begin(), seen.end(), canon) != seen.end()) continue;
        seen.push_back(canon);
        unique.push_back(p);
      }
      mtx_paths = unique;
    }
    std::vector<Matrix> mats;
    for (const auto& p : mtx_paths) mats.push_back(from_market(p));

    std::string device;
    {
      CudaBackend<double> probe(MPI_COMM_WORLD);  // throws BackendUnavailable without a device
      device = probe.device_name();
    }
    std::printf("device: %s\n", device.c_str());
    std::fflush(stdout);

    std::vector<Matrix> small;
    for (auto& [name, A] : bench::test_matrices()) small.push_back(to_matrix(name, std::move(A)));
    mats.insert(mats.begin(), small.begin(), small.end());

    std::vector<Record> recs;
    std::vector<Summary> sums;
    {
      std::vector<const Matrix*> order;
      Matrix big;
      if (n27 > 0) {
        std::printf("building the 27-point Laplacian %ld^3 ...\n", n27);
        std::fflush(stdout);
        big = to_matrix(bench::laplace27_name(static_cast<int>(n27)), bench::laplace27(static_cast<int>(n27)));
        order.push_back(&big);
      }
      for (const auto& m : mats) order.push_back(&m);
      if (precision != "f32") {
        CudaBackend<double> bd(MPI_COMM_WORLD);
        for (const Matrix* m : order) run_matrix<double>(bd, *m, static_cast<int>(reps), direct, recs, sums);
      }
      if (precision != "f64") {
        CudaBackend<float> bf(MPI_COMM_WORLD);
        for (const Matrix* m : order) run_matrix<float>(bf, *m, static_cast<int>(reps), direct, recs, sums);
      }
    }

    std::printf("\n%-20s %-5s %10s %11s %-16s %5s %11s %9s %9s %9s %9s\n", "matrix", "prec", "rows", "nnz", "path",
                "calls", "t/SpMV [s]", "GB/s", "GFlop/s", "vs host", "vs nat.");
    for (const Record& r : recs) {
      std::printf("%-20s %-5s %10ld %11ld %-16s %5d %11.4e %9.1f %9.1f %9.1e", r.matrix.c_str(), r.precision.c_str(),
                  r.rows, r.nnz, r.path.c_str(), r.calls, r.time_s, r.gbs, r.gflops, r.check_host);
      if (r.diff_vs_native >= 0) std::printf(" %9.1e\n", r.diff_vs_native);
      else std::printf(" %9s\n", "-");
    }
    std::printf("\n%-20s %-5s %22s %22s %16s\n", "matrix", "prec", "native_over_cusparse", "(vs cusparse_direct)",
                "max rel diff");
    for (const Summary& s : sums) {
      char rd[32] = "-";
      if (s.ratio_direct > 0) std::snprintf(rd, sizeof rd, "%.3f", s.ratio_direct);
      std::printf("%-20s %-5s %17.3f %4s %22s %16.1e\n", s.matrix.c_str(), s.precision.c_str(), s.ratio,
                  s.ratio >= 0.9 ? "ok" : "LOW", rd, s.max_rel_diff);
    }
    std::printf("(native_over_cusparse = t_cusparse / t_native; >= 0.9: native within 10 %% of cuSPARSE)\n");

    if (!out_path.empty()) {
      char date[64];
      std::time_t now = std::time(nullptr);
      std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
      int drv = 0, rt = 0;
      cudaDriverGetVersion(&drv);
      cudaRuntimeGetVersion(&rt);
      std::ofstream f(out_path);
      if (!f) throw std::runtime_error("cannot write " + out_path);
      f << "{\n";
      f << "  \"benchmark\": \"spmv_bench\",\n";
      f << "  \"device\": \"" << json_escape(device) << "\",\n";
      f << "  \"date\": \"" << date << "\",\n";
      f << "  \"git_revision\": \"" << json_escape(git_rev) << "\",\n";
      f << "  \"command\": \"" << json_escape(command) << "\",\n";
      f << "  \"cuda_driver_version\": " << drv << ",\n  \"cuda_runtime_version\": " << rt << ",\n";
      f << "  \"reps\": " << reps << ",\n";
      f << "  \"bytes_model\": \"" << json_escape(kBytesModel) << "\",\n";
      f << "  \"note\": \"time_s = median seconds per SpMV (cudaEvents on the backend stream; a sample is "
           "calls_per_sample back-to-back calls, after >= 3 warm-up samples and >= 0.2 s); gbs = bytes_model / time_s; gflops = 2 nnz / "
           "time_s; small matrices are L2-resident, so their gbs exceed DRAM bandwidth. Paths native and cusparse go "
           "through CudaBackend::spmv (the cusparse path includes its copy of x into the [x; ghosts] staging vector); "
           "cusparse_direct calls cusparseSpMV (CSR_ALG2) directly without that copy (diagnostic). check_vs_host = "
           "max|y - y_host| / max|y_host| with y_host the fp64 host product on the same x; diff_vs_native likewise "
           "against the native result. Summary records: native_over_cusparse = t_cusparse / t_native (>= 0.9 "
           "means native within 10 %).\",\n";
      f << "  \"records\": [\n";
      const std::size_t total = recs.size() + sums.size();
      std::size_t written = 0;
      for (const Record& r : recs) {
        f << "    {\"case\": \"" << json_escape(r.matrix) << "\", \"precision\": \"" << r.precision
          << "\", \"rows\": " << r.rows << ", \"nnz\": " << r.nnz << ", \"path\": \"" << r.path
          << "\", \"time_s\": " << num(r.time_s) << ", \"gbs\": " << num(r.gbs) << ", \"gflops\": " << num(r.gflops)
          << ", \"calls_per_sample\": " << r.calls << ", \"samples\": " << r.samples << ", \"check_vs_host\": " << num(r.check_host);
        if (r.diff_vs_native >= 0) f << ", \"diff_vs_native\": " << num(r.diff_vs_native);
        f << "}" << (++written < total ? "," : "") << "\n";
      }
      for (const Summary& s : sums) {
        f << "    {\"case\": \"" << json_escape(s.matrix) << "\", \"precision\": \"" << s.precision
          << "\", \"rows\": " << s.rows << ", \"nnz\": " << s.nnz << ", \"path\": \"summary\", \"source\": \""
          << json_escape(s.source) << "\", \"native_over_cusparse\": " << num(s.ratio)
          << ", \"within_10_percent\": " << (s.ratio >= 0.9 ? "true" : "false")
          << ", \"native_over_cusparse_direct\": " << (s.ratio_direct > 0 ? num(s.ratio_direct) : "null")
          << ", \"max_rel_diff_native_vs_cusparse\": " << num(s.max_rel_diff) << "}"
          << (++written < total ? "," : "") << "\n";
      }
      f << "  ]\n}\n";
      std::printf("wrote %s\n", out_path.c_str());
    }
  } catch (const BackendUnavailable& e) {
    std::printf("SKIPPED: no CUDA device (%s)\n", e.what());
    status = 0;
  } catch (const config::DeckError& e) {  // malformed Matrix Market file
    std::fprintf(stderr, "spmv_bench: %s\n", e.what());
    status = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmv_bench: error: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
