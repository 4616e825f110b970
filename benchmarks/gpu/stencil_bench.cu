// GPU stencil benchmark: in ONE run, the device copy bandwidth (bytes read + written) and, for every
// PERKS shape (+ the symmetric 27-point Laplacian through the CSE kernel, + the generic kernel as a
// baseline) in fp64 and fp32, the time per apply_stencil sweep, GCells/s and the ratio to the
// copy-bound rate  ratio_to_copy_bound = GCells/s / (copy GB/s / (2 sizeof(T))).
// 3D shapes run at 512^3, 2D shapes at 16384^2 (both precisions). Every timed sweep goes through
// CudaBackend::apply_stencil (the production dispatch). Each case is also checked once against the
// generic kernel on the same data (column `check`, max |fast - generic| / max |generic|).
//
//   stencil_bench [--out results.json] [--reps 30] [--n3d 512] [--n2d 16384] [--cases 3d7pt,2d5pt]
//                 [--precision both|f64|f32] [--git-revision REV] [--default-variant-only] [--row-align N]
//                 [--sequence K]
// --row-align: row alignment of the benchmark fields in elements (FieldLayout::align; default: grid_row_align of each
// case's rows and precision, what the solvers' grid fields use; 1 = packed rows of n + 2 ghost elements).
// Cases run with the backend's default tile variant under their own name and, unless
// --default-variant-only, with the other variant as "<case>@two_load" / "<case>@wide".
// Two timings per case, each with the copies timed the same way:
//  * per call (column `ratio`, the issue's number): events around ONE apply_stencil call on an idle stream, so the
//    host's work for the call (request, plan, launch) is inside the time;
//  * in sequence (--sequence K, default 10; column `seq`): events around K ping-pong calls queued back to back, as a
//    solver's sweeps run, so the host's work overlaps the previous sweep (and PDL the kernels' ends and starts).
//    `host us` is the host's wall time per queued call.
// The two are interleaved (a sequence after every fifth single call), so that both run at the same clocks.
#include <cuda_runtime.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "framework/backends/cuda/cuda_backend.hpp"

using namespace perksolve;

#define CK(x)                                                                                     \
  do {                                                                                            \
    cudaError_t e_ = (x);                                                                         \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                               \
    }                                                                                             \
  } while (0)

namespace {

// Deterministic pseudo-random values in [0.5, 1.5) (never zero) written on the device.
template <class Real>
__global__ void init_kernel(Real* p, long n, unsigned seed) {
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long>(gridDim.x) * blockDim.x) {
    unsigned long long h = (static_cast<unsigned long long>(i) + 1) * 0x9E3779B97F4A7C15ull + seed;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    p[i] = static_cast<Real>(0.5 + static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0));
  }
}

// Best-effort copy: 16-byte accesses, grid-stride, four independent loads in flight per thread before
// the stores (streaming cache hints). The reference rate is the max of this and cudaMemcpy D2D.
__global__ void copy_kernel(const double2* __restrict__ a, double2* __restrict__ b, long n) {
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    const double2 v0 = __ldcs(a + i), v1 = __ldcs(a + i + stride), v2 = __ldcs(a + i + 2 * stride),
                  v3 = __ldcs(a + i + 3 * stride);
    __stcs(b + i, v0);
    __stcs(b + i + stride, v1);
    __stcs(b + i + 2 * stride, v2);
    __stcs(b + i + 3 * stride, v3);
  }
  for (; i < n; i += stride) b[i] = a[i];
}
// One 16-byte element per thread over a full grid (no loop): on the H100 the fastest copy kernel measured
// (benchmarks/results/gpu-h100-2026-11-22-b/stencil_sweep.log), a little above cudaMemcpy.
__global__ void copy_kernel_flat(const double2* __restrict__ a, double2* __restrict__ b, long n) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) b[i] = a[i];
}

// max |a-b| and max |b| over owned cells; non-negative doubles order like their int64 bit patterns.
template <class Real>
__global__ void diff_kernel(const Real* a, const Real* b, FieldLayout l, unsigned long long* out) {
  const long total = l.owned_size();
  double err = 0, mx = 0;
  for (long e = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; e < total; e += static_cast<long>(gridDim.x) * blockDim.x) {
    const long row = e / l.n[0];
    const int i = static_cast<int>(e - row * l.n[0]);
    const int j = static_cast<int>(row % l.n[1]);
    const int k = static_cast<int>(row / l.n[1]);
    const long n = l.index(i, j, k);
    const double d = fabs(static_cast<double>(a[n]) - static_cast<double>(b[n]));
    err = (d > err || d != d) ? d : err;
    mx = fmax(mx, fabs(static_cast<double>(b[n])));
  }
  atomicMax(&out[0], static_cast<unsigned long long>(__double_as_longlong(err)));
  atomicMax(&out[1], static_cast<unsigned long long>(__double_as_longlong(mx)));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

struct CopyResult {
  double kernel_gbs = 0, flat_gbs = 0, memcpy_gbs = 0;
  double best() const { return std::max({kernel_gbs, flat_gbs, memcpy_gbs}); }
};

// Times batches of back-to-back calls on one stream: events around the batch (seconds per call) and the host's wall time
// for enqueueing it (seconds per call).
class BatchTimer {
 public:
  explicit BatchTimer(cudaStream_t s) : s_(s) {
    CK(cudaEventCreate(&e0_));
    CK(cudaEventCreate(&e1_));
  }
  ~BatchTimer() {
    cudaEventDestroy(e0_);
    cudaEventDestroy(e1_);
  }
  BatchTimer(const BatchTimer&) = delete;
  BatchTimer& operator=(const BatchTimer&) = delete;
  template <class Enqueue>
  double operator()(int calls, Enqueue&& enqueue, double* host_s = nullptr) {
    CK(cudaEventRecord(e0_, s_));
    const auto w0 = std::chrono::steady_clock::now();
    for (int c = 0; c < calls; ++c) enqueue();
    const auto w1 = std::chrono::steady_clock::now();
    CK(cudaEventRecord(e1_, s_));
    CK(cudaEventSynchronize(e1_));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0_, e1_));
    if (host_s) *host_s = std::chrono::duration<double>(w1 - w0).count() / calls;
    return ms * 1e-3 / calls;
  }

 private:
  cudaStream_t s_;
  cudaEvent_t e0_, e1_;
};

// Whether repetition `rep` of the single-call timings is followed by a timed sequence (repetitions 2, 7, 12, ...): the
// two timings interleaved, so that both see the same clocks.
constexpr bool sequence_after(int rep) { return rep % 5 == 2; }

// The three copies, each timed one call at a time on an idle stream (`one`) and in batches of `calls` back to back
// (`seq`, sequence_after), interleaved; medians over `reps` repetitions after 3 warm-up ones.
void measure_copy(std::size_t bytes, int reps, int calls, cudaStream_t s, CopyResult& one, CopyResult& seq) {
  void *a = nullptr, *b = nullptr;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  init_kernel<double><<<1024, 256, 0, s>>>(static_cast<double*>(a), bytes / 8, 1);
  CK(cudaMemsetAsync(b, 0, bytes, s));
  int dev = 0, sms = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const long n4 = static_cast<long>(bytes / sizeof(double2));
  const auto* src = static_cast<const double2*>(a);
  auto* dst = static_cast<double2*>(b);
  BatchTimer timer(s);
  auto kernel = [&] { copy_kernel<<<sms * 8, 256, 0, s>>>(src, dst, n4); };
  auto flat = [&] { copy_kernel_flat<<<static_cast<unsigned>((n4 + 255) / 256), 256, 0, s>>>(src, dst, n4); };
  auto d2d = [&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s)); };
  std::vector<double> tk, tf, tm, sk, sf, sm;
  for (int r = 0; r < reps + 3; ++r) {
    const double k = timer(1, kernel), f = timer(1, flat), m = timer(1, d2d);
    if (r >= 3) {
      tk.push_back(k);
      tf.push_back(f);
      tm.push_back(m);
    }
    if (sequence_after(r)) {
      sk.push_back(timer(calls, kernel));
      sf.push_back(timer(calls, flat));
      sm.push_back(timer(calls, d2d));
    }
  }
  auto gbs = [bytes](const std::vector<double>& t) { return 2.0 * bytes / median(t) * 1e-9; };
  one = CopyResult{gbs(tk), gbs(tf), gbs(tm)};
  seq = CopyResult{gbs(sk), gbs(sf), gbs(sm)};
  cudaFree(a);
  cudaFree(b);
}

struct Record {
  std::string name, precision, path;
  std::vector<long> extents;
  double time = 0, gcells = 0, copy_gbs = 0, ratio = 0, check = 0;
  double seq_time = 0, seq_ratio = 0, host_us = 0;  // in sequence (batches of --sequence calls)
  int row_align = 1;
  int points = 0;
};

const char* path_name(CudaStencilPath p) {
  switch (p) {
    case CudaStencilPath::templated: return "templated";
    case CudaStencilPath::templated_symmetric: return "templated_sym_cse";
    case CudaStencilPath::generic: return "generic";
    default: return "none";
  }
}

template <class Real>
Record run_case(CudaBackend<Real>& be, const std::string& case_name, const Stencil& s, bool force_generic, int n3d,
                int n2d, int reps, double copy_gbs, int sequence, double seq_copy_gbs, bool wide, int row_align) {
  be.set_wide_tiles(wide);
  FieldLayout l;
  const int r = s.radius();
  if (s.dim() == 3) {
    l.n = {n3d, n3d, n3d};
    l.ghost = {r, r, r};
  } else {
    l.n = {n2d, n2d, 1};
    l.ghost = {r, r, 0};
  }
  l.align = row_align > 0 ? row_align : grid_row_align<Real>(l);
  auto in = be.create_field(l), out = be.create_field(l), ref = be.create_field(l);
  cudaStream_t st = be.stream();
  init_kernel<Real><<<2048, 256, 0, st>>>(in->data(), l.size(), 7u + s.size());
  init_kernel<Real><<<2048, 256, 0, st>>>(out->data(), l.size(), 3u);
  CK(cudaGetLastError());
  // Correctness vs the generic kernel (once, on the benchmark data).
  be.set_force_generic_stencil(true);
  be.apply_stencil(s, *in, *ref);
  be.set_force_generic_stencil(force_generic);
  be.apply_stencil(s, *in, *out);
  const CudaStencilPath path = be.last_stencil_path();
  be.fence();
  double check = 0;
  {
    unsigned long long* d = nullptr;
    CK(cudaMalloc(&d, 2 * sizeof(unsigned long long)));
    CK(cudaMemsetAsync(d, 0, 2 * sizeof(unsigned long long), st));
    diff_kernel<Real><<<1024, 256, 0, st>>>(out->data(), ref->data(), l, d);
    CK(cudaGetLastError());
    unsigned long long h[2];
    CK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    cudaFree(d);
    double err, mx;
    std::memcpy(&err, &h[0], 8);
    std::memcpy(&mx, &h[1], 8);
    check = err / mx;
    if (!(check <= (sizeof(Real) == 8 ? 1e-12 : 1e-5)))
      std::fprintf(stderr, "WARNING: %s %s deviates from the generic kernel: %g\n", case_name.c_str(),
                   sizeof(Real) == 8 ? "fp64" : "fp32", check);
  }
  // Ping-pong so that every sweep reads what the previous one wrote (no cache-resident input).
  int parity = 0;
  auto sweep = [&] {
    const Field<Real>& src = parity ? *out : *in;
    Field<Real>& dst = parity ? *in : *out;
    be.apply_stencil(s, src, dst);
    parity ^= 1;
  };
  // The two timings interleaved (sequence_after): timed one after the other, the in-sequence timings of the heavier fp64
  // shapes ran 8-12 % slower than the single calls before them (benchmarks/results/gpu-h200-2026-11-30-stencil-sequence/
  // run1).
  BatchTimer timer(st);
  std::vector<double> t, ts, th;
  for (int rep = 0; rep < reps + 3; ++rep) {
    const double one = timer(1, sweep);
    if (rep >= 3) t.push_back(one);
    if (sequence_after(rep)) {
      double host = 0;
      const double per = timer(sequence, sweep, &host);
      ts.push_back(per);
      th.push_back(host);
    }
  }
  be.set_force_generic_stencil(false);
  Record rec;
  rec.name = case_name;
  rec.precision = sizeof(Real) == 8 ? "fp64" : "fp32";
  rec.path = std::string(path_name(path)) + (path == CudaStencilPath::generic ? "" : wide ? "/wide" : "/two_load");
  rec.extents = {l.n[0], l.n[1], l.n[2]};
  rec.points = s.size();
  rec.time = median(t);
  rec.gcells = static_cast<double>(l.owned_size()) / rec.time * 1e-9;
  rec.copy_gbs = copy_gbs;
  rec.ratio = rec.gcells / (copy_gbs / (2.0 * sizeof(Real)));
  rec.seq_time = median(ts);
  rec.seq_ratio = static_cast<double>(l.owned_size()) / rec.seq_time * 1e-9 / (seq_copy_gbs / (2.0 * sizeof(Real)));
  rec.host_us = median(th) * 1e6;
  rec.check = check;
  rec.row_align = l.align;
  return rec;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::string out_path, git_rev = "unknown", cases_arg, precision = "both";
  int reps = 30, n3d = 512, n2d = 16384, sequence = 10;
  bool all_variants = true;
  int row_align = 0;  // 0: grid_row_align of each case's rows and precision
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--out") out_path = next();
    else if (a == "--reps") reps = std::stoi(next());
    else if (a == "--n3d") n3d = std::stoi(next());
    else if (a == "--n2d") n2d = std::stoi(next());
    else if (a == "--cases") cases_arg = next();
    else if (a == "--precision") precision = next();
    else if (a == "--git-revision") git_rev = next();
    else if (a == "--default-variant-only") all_variants = false;
    else if (a == "--row-align") row_align = std::stoi(next());
    else if (a == "--sequence") sequence = std::stoi(next());
    else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (sequence < 1) {
    std::fprintf(stderr, "--sequence: expected a number of calls >= 1, got %d\n", sequence);
    return 2;
  }
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);

  std::vector<std::pair<std::string, Stencil>> cases;
  for (const auto& name : perks_shape_names()) cases.emplace_back(name, perks_stencil(name));
  Stencil sym = laplacian_27pt_fe(1.0 / 512);
  sym.name = "3d27pt_sym";
  cases.emplace_back("3d27pt_sym", sym);
  cases.emplace_back("3d7pt_generic", perks_stencil("3d7pt"));
  if (!cases_arg.empty()) {
    std::vector<std::pair<std::string, Stencil>> keep;
    std::stringstream ss(cases_arg);
    std::string item;
    while (std::getline(ss, item, ','))
      for (auto& c : cases)
        if (c.first == item) keep.push_back(c);
    cases = keep;
  }

  int status = 0;
  try {
    CudaBackend<double> bd(MPI_COMM_WORLD);
    CudaBackend<float> bf(MPI_COMM_WORLD);
    const std::string device = bd.device_name();
    // Copy bandwidth: 2 GiB read + 2 GiB written... sized like one fp64 512^3 field (1 GiB) by default.
    const std::size_t copy_bytes = std::max<std::size_t>(256ull << 20, static_cast<std::size_t>(n3d) * n3d * n3d * 8);
    CopyResult cr, cs;
    measure_copy(copy_bytes, std::max(reps, 10), sequence, bd.stream(), cr, cs);
    const double copy_gbs = cr.best(), seq_copy_gbs = cs.best();
    std::printf("device: %s\n", device.c_str());
    std::printf("copy bandwidth (read+write, %.2f GiB buffers): kernel %.1f GB/s (grid-stride, 4 loads in flight), "
                "%.1f GB/s (flat grid), cudaMemcpy %.1f GB/s -> using %.1f GB/s\n",
                copy_bytes / double(1ull << 30), cr.kernel_gbs, cr.flat_gbs, cr.memcpy_gbs, copy_gbs);
    std::printf("in sequences of %d calls: kernel %.1f GB/s, %.1f GB/s (flat grid), cudaMemcpy %.1f GB/s -> using %.1f GB/s\n",
                sequence, cs.kernel_gbs, cs.flat_gbs, cs.memcpy_gbs, seq_copy_gbs);

    std::vector<Record> recs;
    const bool wide_default = bd.wide_tiles();
    for (const auto& [name, st] : cases) {
      const bool generic = name.find("_generic") != std::string::npos;
      // The default tile variant under the case name; the other variant as <case>@<variant>.
      for (bool wide : {wide_default, !wide_default}) {
        if (generic && wide != wide_default) continue;
        if (!all_variants && wide != wide_default) continue;
        const std::string cname = wide == wide_default ? name : name + (wide ? "@wide" : "@two_load");
        if (precision != "f32")
          recs.push_back(run_case<double>(bd, cname, st, generic, n3d, n2d, reps, copy_gbs, sequence, seq_copy_gbs, wide,
                                          row_align));
        if (precision != "f64")
          recs.push_back(run_case<float>(bf, cname, st, generic, n3d, n2d, reps, copy_gbs, sequence, seq_copy_gbs, wide,
                                          row_align));
      }
    }

    std::printf("\n%-18s %-5s %-20s %4s %12s %10s %8s %8s %8s %9s  %s\n", "case", "prec", "extents", "pts",
                "t/sweep [s]", "GCells/s", "ratio", "seq", "host us", "check", "kernel");
    for (const Record& r : recs) {
      char ext[64];
      std::snprintf(ext, sizeof ext, "%ldx%ldx%ld", r.extents[0], r.extents[1], r.extents[2]);
      std::printf("%-18s %-5s %-20s %4d %12.4e %10.2f %8.3f %8.3f %8.1f %9.1e  %s\n", r.name.c_str(),
                  r.precision.c_str(), ext, r.points, r.time, r.gcells, r.ratio, r.seq_ratio, r.host_us, r.check,
                  r.path.c_str());
    }

    if (!out_path.empty()) {
      char date[64];
      std::time_t now = std::time(nullptr);
      std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
      int drv = 0, rt = 0;
      cudaDriverGetVersion(&drv);
      cudaRuntimeGetVersion(&rt);
      std::ofstream f(out_path);
      f << "{\n";
      f << "  \"benchmark\": \"stencil_bench\",\n";
      f << "  \"device\": \"" << json_escape(device) << "\",\n";
      f << "  \"date\": \"" << date << "\",\n";
      f << "  \"git_revision\": \"" << json_escape(git_rev) << "\",\n";
      f << "  \"command\": \"" << json_escape(command) << "\",\n";
      f << "  \"cuda_driver_version\": " << drv << ",\n  \"cuda_runtime_version\": " << rt << ",\n";
      f << "  \"copy\": {\"bytes_per_buffer\": " << copy_bytes << ", \"kernel_gbs\": " << cr.kernel_gbs
        << ", \"flat_kernel_gbs\": " << cr.flat_gbs << ", \"memcpy_gbs\": " << cr.memcpy_gbs
        << ", \"copy_gbs\": " << copy_gbs
        << ", \"note\": \"bytes read + bytes written; copy_gbs = max of the grid-stride kernel, the flat-grid "
           "kernel and cudaMemcpy D2D, one call at a time\"},\n";
      f << "  \"copy_in_sequence\": {\"calls\": " << sequence << ", \"kernel_gbs\": " << cs.kernel_gbs
        << ", \"flat_kernel_gbs\": " << cs.flat_gbs << ", \"memcpy_gbs\": " << cs.memcpy_gbs
        << ", \"copy_gbs\": " << seq_copy_gbs << "},\n";
      f << "  \"reps\": " << reps << ",\n";
      // Run-time choices of the stencil launches (environment overrides included), for reproduction.
      f << "  \"schedule_tail\": " << bd.schedule_tail() << ",\n";
      f << "  \"records\": [\n";
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const Record& r = recs[i];
        char buf[1024];
        std::snprintf(buf, sizeof buf,
                      "    {\"case\": \"%s\", \"precision\": \"%s\", \"extents\": [%ld, %ld, %ld], \"points\": %d, "
                      "\"time_per_sweep_s\": %.6e, \"gcells_per_s\": %.4f, \"copy_gbs\": %.2f, "
                      "\"ratio_to_copy_bound\": %.4f, \"time_per_sweep_in_sequence_s\": %.6e, "
                      "\"ratio_to_copy_bound_in_sequence\": %.4f, \"host_us_per_call\": %.2f, \"kernel\": \"%s\", "
                      "\"check_vs_generic\": %.3e, \"row_align\": %d}%s\n",
                      r.name.c_str(), r.precision.c_str(), r.extents[0], r.extents[1], r.extents[2], r.points, r.time,
                      r.gcells, r.copy_gbs, r.ratio, r.seq_time, r.seq_ratio, r.host_us, r.path.c_str(), r.check,
                      r.row_align,
                      i + 1 < recs.size() ? "," : "");
        f << buf;
      }
      f << "  ]\n}\n";
      std::printf("wrote %s\n", out_path.c_str());
    }
  } catch (const BackendUnavailable& e) {
    std::printf("SKIPPED: no CUDA device (%s)\n", e.what());
    status = 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
