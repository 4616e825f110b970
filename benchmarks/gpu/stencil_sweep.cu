// Tuning sweep of the streaming stencil kernel (framework/backends/cuda/stencil_kernels.cuh): one run
// on the GPU times many compile-time variants (Tune: threads, outputs per thread, ring depth, register
// cap, 16-byte loads, streaming stores) and run-time work splits (items per block) of the target cases
// (3d7pt fp64/fp32, symmetric 27-point fp64 through the CSE kernel, 2d5pt fp64/fp32), next to the copy
// bandwidth measured three ways (cudaMemcpy, a plain grid-stride double2 copy, an unrolled one).
//
// Every variant must reproduce the reference variant ("old" = the tile of the 2026-11-22 results)
// BIT FOR BIT (same summation order), on the benchmark grid and on two small odd-sized grids with
// uneven ghosts, ghost cells included (the output is poisoned before each run): columns bad/small.
//
//   stencil_sweep [--reps 15] [--n3d 512] [--n2d 16384] [--only CASE]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "framework/backends/cuda/stencil_kernels.cuh"
#include "framework/stencil/stencil.hpp"

using namespace perksolve;
using namespace perksolve::cuda_detail;

#define CK(x)                                                                                               \
  do {                                                                                                      \
    cudaError_t e_ = (x);                                                                                   \
    if (e_ != cudaSuccess) {                                                                                \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                                         \
    }                                                                                                       \
  } while (0)

namespace {

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

__global__ void copy_plain(const double2* __restrict__ a, double2* __restrict__ b, long n) {
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long>(gridDim.x) * blockDim.x)
    b[i] = a[i];
}
// 4 independent 16-byte loads in flight per thread before the stores.
__global__ void copy_unrolled(const double2* __restrict__ a, double2* __restrict__ b, long n) {
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

// One element of T per thread over a full grid (the 16-byte version is the copy reference's flat kernel): how much
// of the copy rate do 4- and 8-byte accesses per thread reach (the stencils store one Real per thread and output)?
template <class T>
__global__ void copy_flat(const T* __restrict__ a, T* __restrict__ b, long n) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) b[i] = a[i];
}

// 16 bytes per thread, loaded and stored either as one 16-byte access or as 16 / sizeof(N) narrow accesses. The narrow
// accesses are coalesced the way the stencils' are: access k of the threads of a block covers a contiguous run
// (element k * blockDim + t of the block's span). A load and a store of the same width touch the same elements (a
// copy); a wide load with narrow stores writes the block's span permuted, which moves the same bytes.
template <class N, bool WIDE_LD, bool WIDE_ST>
__global__ void copy_mixed(const double2* __restrict__ a, double2* __restrict__ b, long n4) {
  constexpr int K = 16 / sizeof(N);
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i >= n4) return;
  const long base = blockIdx.x * static_cast<long>(blockDim.x) * K;  // in N elements
  N v[K];
  if constexpr (WIDE_LD) {
    const double2 w = a[i];
    std::memcpy(v, &w, 16);
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = reinterpret_cast<const N*>(a)[base + k * blockDim.x + threadIdx.x];
  }
  if constexpr (WIDE_ST) {
    double2 w;
    std::memcpy(&w, v, 16);
    b[i] = w;
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) reinterpret_cast<N*>(b)[base + k * blockDim.x + threadIdx.x] = v[k];
  }
}

template <class T>
__global__ void count_diff(const T* a, const T* b, long n, unsigned long long* bad) {
  unsigned long long c = 0;
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long>(gridDim.x) * blockDim.x)
    c += a[i] != b[i];
  if (c) atomicAdd(bad, c);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

int g_sms = 0;
cudaStream_t g_st = nullptr;
unsigned* g_work = nullptr;  // zeroed work counters for the dynamic schedule
double* g_partials = nullptr;  // jacobi / apply_dot partial sums (kMaxPartials)
const void* g_b = nullptr;     // b of the benchmark grid (modes with b); null: b = x

template <class Real>
struct Var {
  std::string name;
  std::function<int(const StencilRequest<Real>&, int)> launch;
  std::function<cudaFuncAttributes()> attrs;
  std::function<int()> per_sm;
  std::vector<int> ipbs;
  int smem = 0;
};

// MODE: StencilMode (0 apply, 1 residual, 2 jacobi): the modes with b read it from g_b (the benchmark grid's own b
// buffer) or, where g_b is null (the small checks), from x.
template <class Real, ShapeSpec S, bool SYM, class T, int MODE = 0>
Var<Real> mk(const char* name, std::vector<int> ipbs = {T::IPB}, int tail_div = 0) {
  // (tail_div 0: equal chunks, the schedule before round 16; the production default is kStreamTailDiv)
  Var<Real> v;
  v.name = tail_div ? std::string(name) + "_tail" + std::to_string(tail_div) : std::string(name);
  // ipb < 0: one block per item of the |ipb| schedule (hardware block dispatch hands out the items).
  // tail_div: the last round of a dynamic schedule in chunks tail_div times shorter (plan_stream_tail).
  v.launch = [tail_div](const StencilRequest<Real>& r, int ipb) {
    StencilRequest<Real> q = r;
    q.schedule_tail = tail_div;
    return ipb < 0 ? launch_stream_stencil<Real, S, MODE, SYM, T>(q, -ipb, true)
                   : launch_stream_stencil<Real, S, MODE, SYM, T>(q, ipb);
  };
  v.attrs = [] {
    cudaFuncAttributes fa{};
    CK(cudaFuncGetAttributes(&fa, stream_stencil_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, MODE, SYM, T>));
    return fa;
  };
  using C = TileCfg<Real, S, T, stencil_mode_has_b(MODE)>;
  v.per_sm = [] {
    int b = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &b, stream_stencil_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, MODE, SYM, T>, C::NT, C::SMEM_BYTES));
    return b;
  };
  v.ipbs = std::move(ipbs);
  v.smem = C::SMEM_BYTES;
  return v;
}

// Round 24: tile T against the same tile with ROT (tune_rot), alternating, each twice after a first run of T. The
// variants are named <prefix>cur and <prefix>rot (and _tail<div> for a schedule tail, as mk names them).
template <class Real, ShapeSpec S, class T, int MODE = 0>
std::vector<Var<Real>> rot_variants(const std::string& prefix, std::vector<int> ipbs, int tail_div = 0) {
  const std::string cur = prefix + "cur", rot = prefix + "rot";
  std::vector<Var<Real>> v{mk<Real, S, false, T, MODE>(cur.c_str(), ipbs, tail_div)};
  for (int rep = 0; rep < 2; ++rep) {
    v.push_back(mk<Real, S, false, tune_rot<T, true>, MODE>(rot.c_str(), ipbs, tail_div));
    v.push_back(mk<Real, S, false, T, MODE>(cur.c_str(), ipbs, tail_div));
  }
  return v;
}

template <class Real>
struct Buf {
  Real* p = nullptr;
  long n = 0;
  explicit Buf(long n_) : n(n_) { CK(cudaMalloc(&p, n * sizeof(Real) + kFieldSlackBytes)); }
  ~Buf() { cudaFree(p); }
};

template <class Real>
unsigned long long diff(const Real* a, const Real* b, long n) {
  using U = std::conditional_t<sizeof(Real) == 8, unsigned long long, unsigned>;
  unsigned long long* d = nullptr;
  CK(cudaMalloc(&d, sizeof(unsigned long long)));
  CK(cudaMemsetAsync(d, 0, sizeof(unsigned long long), g_st));
  count_diff<U><<<1024, 256, 0, g_st>>>(reinterpret_cast<const U*>(a), reinterpret_cast<const U*>(b), n, d);
  CK(cudaGetLastError());
  unsigned long long h = 0;
  CK(cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, g_st));
  CK(cudaStreamSynchronize(g_st));
  cudaFree(d);
  return h;
}

template <class Real>
StencilRequest<Real> req(const Stencil& s, const FieldLayout& l, const Real* x, Real* out) {
  StencilRequest<Real> r;
  r.stencil = &s;
  r.layout = l;
  r.x = x;
  r.out = out;
  r.sm_count = g_sms;
  r.stream = g_st;
  r.work_counters = g_work;
  r.partials = g_partials;
  r.b = static_cast<const Real*>(g_b);
  r.scale = Real(0.15);
  return r;
}

// Small-grid bitwise check of a variant against the reference variant; returns mismatching words.
template <class Real>
unsigned long long small_check(const Stencil& s, const Var<Real>& ref, const Var<Real>& v, const FieldLayout& l, int ipb) {
  const void* b_keep = g_b;
  g_b = nullptr;  // b = x on the small grids
  Buf<Real> x(l.size()), o1(l.size()), o2(l.size());
  init_kernel<Real><<<256, 256, 0, g_st>>>(x.p, l.size(), 12345u);
  CK(cudaMemsetAsync(o1.p, 0xff, l.size() * sizeof(Real), g_st));
  CK(cudaMemsetAsync(o2.p, 0xff, l.size() * sizeof(Real), g_st));
  ref.launch(req<Real>(s, l, x.p, o1.p), ref.ipbs[0]);
  v.launch(req<Real>(s, l, x.p, o2.p), ipb);
  CK(cudaStreamSynchronize(g_st));
  g_b = b_keep;
  return diff(o1.p, o2.p, l.size());
}

int g_row_align = 0;  // --row-align: FieldLayout::align of every layout of the sweep (0: grid_row_align of each)

template <class Real>
void run_case(const char* cname, const Stencil& s, std::vector<Var<Real>> vars, int n3d, int n2d, int reps,
              double copy_gbs) {
  FieldLayout l, s1, s2;
  const int r = s.radius();
  if (s.dim() == 3) {
    l.n = {n3d, n3d, n3d};
    l.ghost = {r, r, r};
    s1.n = {37, 19, 23};
    s1.ghost = {r, r + 1, r};
    s2.n = {130, 67, 71};
    s2.ghost = {r, r, r};
  } else {
    l.n = {n2d, n2d, 1};
    l.ghost = {r, r, 0};
    s1.n = {301, 45, 3};
    s1.ghost = {r + 1, r, 0};
    s2.n = {1100, 513, 1};
    s2.ghost = {r, r, 0};
  }
  for (FieldLayout* x : {&l, &s1, &s2}) x->align = g_row_align > 0 ? g_row_align : grid_row_align<Real>(*x);
  const long n = l.size();
  Buf<Real> in(n), out(n), ref(n), bb(n);
  init_kernel<Real><<<2048, 256, 0, g_st>>>(bb.p, n, 99u);
  g_b = bb.p;
  init_kernel<Real><<<2048, 256, 0, g_st>>>(in.p, n, 7u + s.size());
  CK(cudaMemsetAsync(ref.p, 0xff, n * sizeof(Real), g_st));
  vars[0].launch(req<Real>(s, l, in.p, ref.p), vars[0].ipbs[0]);
  CK(cudaStreamSynchronize(g_st));
  CK(cudaGetLastError());
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (const auto& v : vars) {
    const cudaFuncAttributes fa = v.attrs();
    int bps = -1;
    for (int ipb : v.ipbs) {
      // Bitwise check on the benchmark grid (fresh input each variant: re-init, the timing loop overwrites it).
      init_kernel<Real><<<2048, 256, 0, g_st>>>(in.p, n, 7u + s.size());
      CK(cudaMemsetAsync(out.p, 0xff, n * sizeof(Real), g_st));
      v.launch(req<Real>(s, l, in.p, out.p), ipb);
      CK(cudaStreamSynchronize(g_st));
      CK(cudaGetLastError());
      const unsigned long long bad = diff(ref.p, out.p, n);
      if (bps < 0) bps = v.per_sm();
      const unsigned long long sb1 = small_check(s, vars[0], v, s1, ipb), sb2 = small_check(s, vars[0], v, s2, ipb);
      std::vector<double> t;
      for (int rep = 0; rep < reps + 3; ++rep) {
        const Real* src = rep % 2 ? out.p : in.p;
        Real* dst = rep % 2 ? in.p : out.p;
        CK(cudaEventRecord(e0, g_st));
        v.launch(req<Real>(s, l, src, dst), ipb);
        CK(cudaEventRecord(e1, g_st));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (rep >= 3) t.push_back(ms * 1e-3);
      }
      CK(cudaGetLastError());
      std::sort(t.begin(), t.end());
      const double tm = median(t);
      const double gc = static_cast<double>(l.owned_size()) / tm * 1e-9;
      const double ratio = gc / (copy_gbs / (2.0 * sizeof(Real)));
      std::printf("%-10s %-4s %-10s ipb=%-3d regs=%3d spill=%3d smem=%6zu b/SM=%d  t=%.4e [min %.4e max %.4e]  %7.2f GC/s  ratio %.3f  bad=%llu small=%llu/%llu\n",
                  cname, sizeof(Real) == 8 ? "f64" : "f32", v.name.c_str(), ipb, fa.numRegs,
                  static_cast<int>(fa.localSizeBytes), static_cast<std::size_t>(v.smem), bps, tm,
                  t.front(), t.back(), gc, ratio, bad, sb1, sb2);
      std::fflush(stdout);
    }
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  g_b = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 15, n3d = 512, n2d = 16384;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps") reps = std::stoi(argv[++i]);
    else if (a == "--n3d") n3d = std::stoi(argv[++i]);
    else if (a == "--n2d") n2d = std::stoi(argv[++i]);
    else if (a == "--only") only = argv[++i];
    else if (a == "--row-align") g_row_align = std::stoi(argv[++i]);
  }
  int dev = 0;
  CK(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, dev));
  g_sms = prop.multiProcessorCount;
  CK(cudaStreamCreate(&g_st));
  CK(cudaMalloc(&g_work, 2 * sizeof(unsigned)));
  CK(cudaMemset(g_work, 0, 2 * sizeof(unsigned)));
  CK(cudaMalloc(&g_partials, kMaxPartials * sizeof(double)));
  std::printf("device: %s, %d SMs, L2 %d MB\n", prop.name, g_sms, prop.l2CacheSize >> 20);

  // ---- copy bandwidth, three ways (bytes read + written), 1 GiB buffers ----
  const std::size_t bytes = 1ull << 30;
  double best = 0;
  {
    void *a = nullptr, *b = nullptr;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    init_kernel<double><<<1024, 256, 0, g_st>>>(static_cast<double*>(a), bytes / 8, 1);
    CK(cudaMemsetAsync(b, 0, bytes, g_st));
    const long n4 = static_cast<long>(bytes / 16);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    auto timeit = [&](const char* name, auto&& f) {
      std::vector<double> t;
      for (int r = 0; r < 23; ++r) {
        CK(cudaEventRecord(e0, g_st));
        f();
        CK(cudaEventRecord(e1, g_st));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 3) t.push_back(ms * 1e-3);
      }
      CK(cudaGetLastError());
      const double gbs = 2.0 * bytes / median(t) * 1e-9;
      std::printf("copy %-28s %8.1f GB/s\n", name, gbs);
      best = std::max(best, gbs);
    };
    timeit("cudaMemcpy D2D", [&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, g_st)); });
    timeit("plain double2 sms*8x256", [&] { copy_plain<<<g_sms * 8, 256, 0, g_st>>>(static_cast<const double2*>(a), static_cast<double2*>(b), n4); });
    timeit("unrolled4 double2 sms*8x256", [&] { copy_unrolled<<<g_sms * 8, 256, 0, g_st>>>(static_cast<const double2*>(a), static_cast<double2*>(b), n4); });
    timeit("unrolled4 double2 sms*4x512", [&] { copy_unrolled<<<g_sms * 4, 512, 0, g_st>>>(static_cast<const double2*>(a), static_cast<double2*>(b), n4); });
    timeit("plain double2 full grid", [&] { copy_plain<<<static_cast<unsigned>((n4 + 255) / 256), 256, 0, g_st>>>(static_cast<const double2*>(a), static_cast<double2*>(b), n4); });
    if (only == "copy_widths") {
      // Round 16: access width per thread (flat grids of 256 threads): 16, 8 and 4 bytes.
      for (int rep = 0; rep < 2; ++rep) {
        timeit("flat double2 (16 B/thread)", [&] { copy_flat<double2><<<static_cast<unsigned>((n4 + 255) / 256), 256, 0, g_st>>>(static_cast<const double2*>(a), static_cast<double2*>(b), n4); });
        timeit("flat double (8 B/thread)", [&] { copy_flat<double><<<static_cast<unsigned>((2 * n4 + 255) / 256), 256, 0, g_st>>>(static_cast<const double*>(a), static_cast<double*>(b), 2 * n4); });
        timeit("flat float (4 B/thread)", [&] { copy_flat<float><<<static_cast<unsigned>((4 * n4 + 255) / 256), 256, 0, g_st>>>(static_cast<const float*>(a), static_cast<float*>(b), 4 * n4); });
      }
      // 16 bytes per thread in every variant; which side is narrow.
      const unsigned g = static_cast<unsigned>((n4 + 255) / 256);
      const auto* a2 = static_cast<const double2*>(a);
      auto* b2 = static_cast<double2*>(b);
      for (int rep = 0; rep < 2; ++rep) {
        timeit("ld 16 st 16", [&] { copy_mixed<double, true, true><<<g, 256, 0, g_st>>>(a2, b2, n4); });
        timeit("ld 2x8 st 2x8", [&] { copy_mixed<double, false, false><<<g, 256, 0, g_st>>>(a2, b2, n4); });
        timeit("ld 16 st 2x8", [&] { copy_mixed<double, true, false><<<g, 256, 0, g_st>>>(a2, b2, n4); });
        timeit("ld 2x8 st 16", [&] { copy_mixed<double, false, true><<<g, 256, 0, g_st>>>(a2, b2, n4); });
        timeit("ld 4x4 st 4x4", [&] { copy_mixed<float, false, false><<<g, 256, 0, g_st>>>(a2, b2, n4); });
        timeit("ld 16 st 4x4", [&] { copy_mixed<float, true, false><<<g, 256, 0, g_st>>>(a2, b2, n4); });
        timeit("ld 4x4 st 16", [&] { copy_mixed<float, false, true><<<g, 256, 0, g_st>>>(a2, b2, n4); });
      }
    }
    cudaFree(a);
    cudaFree(b);
  }
  std::printf("copy reference (max): %.1f GB/s\n\n", best);

  constexpr ShapeSpec S7{3, ShapeKind::star, 1}, S27{3, ShapeKind::box, 1}, S5{2, ShapeKind::star, 1};
  const Stencil st7 = perks_stencil("3d7pt"), st5 = perks_stencil("2d5pt");
  Stencil sym = laplacian_27pt_fe(1.0 / 512);

  // Tune<BXT, BYT, MX, MY, NS, MINB, VEC (0 scalar, 1 16-byte .cg, 2 16-byte .ca, 3 bulk rows, 4 bulk rows
  // without block barrier), STCS, IPB, DYN>
  // Rounds 1-3 (2026-11-22): docs/perf/two-load-stencils.md. Round 4 (2026-11-23): the grid fields' rows are
  // now aligned (FieldLayout::align = 32, --row-align): the production kernels moved 3d7pt fp64 0.893 ->
  // 0.919 and fp32 0.783 -> 0.873; 16-byte loads no longer need the per-row shift, so they are tried again,
  // with dynamic items everywhere (interleaved, each variant twice).
  // Round 6 (2026-11-25, H200: 4.25 TB/s copy, 1.27x the H100's with the same 132 SMs): the production
  // kernels fell to 0.80 (3d7pt fp64), 0.64 (fp32), 0.79 (27-point CSE fp64) of the copy bound. Little's law
  // asks for ~1.3x the bytes in flight of the H100, so deeper rings, bulk copies and taller tiles are tried
  // again (each variant twice, interleaved). Earlier rounds: docs/perf/two-load-stencils.md.
  // Round 6 results (benchmarks/results/gpu-h200-2026-11-25-stencils/run2): bulk (TMA) row copies win on the
  // H200: 3d7pt fp64 512 x 2 bulk NS 4 0.877-0.879 (scalar NS 3 0.80), 27-point CSE bulk NS 4 0.867-0.872
  // (0.78), fp32 256 x 16 two blocks per SM bulk NS 6 0.79 (0.64). Round 7: around those.
  // Round 7 results (run3): fp64 3d7pt bulk NS 4 0.883-0.890 (NS 3 / 5: 0.79 / 0.78), 27-point bulk NS 4
  // 0.872-0.881, fp32 256 x 16 two blocks per SM bulk NS 4-6 0.80; these are now the fast-memory large tiles
  // (LargeFastMemTuneSel). Round 8 (run5): around them (wider rows, streaming stores, other row counts): fp64
  // nothing better (0.888-0.893; 1024 x 2 0.63, streaming stores 0.88), fp32 6 rows per thread 0.826-0.833 vs 8 rows
  // 0.795-0.809 (now the production tile).
  // Round 9 (2026-11-25, H200, benchmarks/results/gpu-h200-2026-11-25-row-kernels/run1): a 7-point kernel without
  // shared memory (a register queue of the next planes, the x neighbours through L1, no block barrier) reached only
  // 0.66 (fp64) / 0.52 (fp32) of the copy bound against 0.89 / 0.83 for the production tiles (and was removed); at
  // 255^3 (the PCG-MG fine grid) the medium tier's scalar 256 x 8 tile reached 0.62-0.65 and bulk 256-wide tiles
  // 0.73-0.76. Round 10: the modes with b (residual, Jacobi: the multigrid smoother), which no fast-memory tile
  // covered, at 255^3 and 512^3 (run with --n3d 255 / 512 --only 3d7pt_f64_b / 3d7pt_f32_b / 3d7pt_f64_medium).
  using M7 = Tune<256, 4, 1, 2, 3, 1, 0, false, 8, true>;   // production fp64 medium tier (255^3)
  constexpr int kJac = static_cast<int>(StencilMode::jacobi);
  if (only == "3d7pt_f64_medium") {
    std::vector<Var<double>> v{mk<double, S7, false, M7>("medium", {8})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 4, 4, 1, 3, false, 4, true>>("256x2x4_bulk", {2, 4, 8}));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 2, 4, 2, 3, false, 4, true>>("256x4_2blk_bulk", {2, 4, 8}));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 4, 4, 2, 3, false, 4, true>>("256x2x4_2blk_bulk", {4}));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 6, 4, 1, 3, false, 4, true>>("256x2x6_bulk", {4}));
      v.push_back(mk<double, S7, false, M7>("medium", {8}));
    }
    run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
  }
  using MB7 = Tune<256, 2, 1, 2, 3, 1, 0, false, 8, true>;  // production fp64 with b (every tier)
  if (only == "3d7pt_f64_b") {
    std::vector<Var<double>> v{mk<double, S7, false, MB7, kJac>("jac_cur", {8})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 2, 4, 1, 3, false, 4, true>, kJac>("jac_256x4_bulk", {4, 8}));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 4, 4, 1, 3, false, 4, true>, kJac>("jac_256x8_bulk", {4, 8}));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 2, 4, 2, 3, false, 4, true>, kJac>("jac_256x4_2blk_bulk", {4, 8}));
      v.push_back(mk<double, S7, false, Tune<512, 2, 1, 2, 4, 1, 3, false, 8, true>, kJac>("jac_512x4_bulk", {8, 16}));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 4, 4, 1, 3, false, 4, true>, kJac>("jac_256x8_bulk_ipb2", {2}));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 6, 4, 1, 3, false, 4, true>, kJac>("jac_256x12_bulk", {2, 4}));
      v.push_back(mk<double, S7, false, Tune<256, 1, 1, 4, 4, 2, 3, false, 4, true>, kJac>("jac_256x4_2blk_256t", {2, 4}));
      v.push_back(mk<double, S7, false, MB7, kJac>("jac_cur", {8}));
    }
    run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
  }
  // Round 11 (run 5): the float multigrid cycle's fine grid, 255^3 fp32: apply and Jacobi around the production tiles,
  // and fp64 Jacobi with taller tiles (--n3d 255 --only 3d7pt_f32_255 / 3d7pt_f64_b).
  using F7 = Tune<256, 2, 1, 6, 4, 2, 3, false, 8, true>;  // production fp32 apply (fast memory) = Jacobi (medium fast)
  if (only == "3d7pt_f32_255") {
    std::vector<Var<float>> v{mk<float, S7, false, F7>("apply_cur", {8})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<float, S7, false, F7>("apply_cur", {2, 4, 16}));
      v.push_back(mk<float, S7, false, Tune<256, 2, 1, 4, 4, 2, 3, false, 4, true>>("apply_256x8_2blk", {2, 4, 8}));
      v.push_back(mk<float, S7, false, Tune<256, 1, 1, 8, 4, 3, 3, false, 4, true>>("apply_256x8_3blk", {2, 4, 8}));
      v.push_back(mk<float, S7, false, Tune<256, 2, 1, 6, 5, 2, 3, false, 4, true>>("apply_256x12_2blk_ns5", {4}));
    }
    run_case<float>("3d7pt", st7, v, n3d, n2d, reps, best);
  }
  using MB7F = Tune<256, 4, 1, 2, 3, 1, 0, false, 8, true>;  // fp32 with b before round 10 (normal memory)
  if (only == "3d7pt_f32_b") {
    std::vector<Var<float>> v{mk<float, S7, false, F7, kJac>("jac_cur", {8})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<float, S7, false, MB7F, kJac>("jac_normal", {8}));
      v.push_back(mk<float, S7, false, F7, kJac>("jac_cur", {2, 4, 16}));
      v.push_back(mk<float, S7, false, Tune<256, 2, 1, 4, 4, 2, 3, false, 4, true>, kJac>("jac_256x8_2blk", {2, 4}));
      v.push_back(mk<float, S7, false, Tune<256, 1, 1, 8, 4, 3, 3, false, 4, true>, kJac>("jac_256x8_3blk", {2, 4}));
      v.push_back(mk<float, S7, false, Tune<256, 1, 1, 6, 4, 4, 3, false, 4, true>, kJac>("jac_256x6_4blk", {2, 4}));
      v.push_back(mk<float, S7, false, Tune<256, 2, 1, 6, 5, 2, 3, false, 4, true>, kJac>("jac_256x12_2blk_ns5", {4}));
    }
    run_case<float>("3d7pt", st7, v, n3d, n2d, reps, best);
  }
  // Round 12 (run 6): 2d5pt fp64 at 16384^2 (0.89-0.90 of the copy bound, the target 0.90): bulk (TMA) rows, ring
  // depths, dynamic items, around the production 1024-wide tile (--only 2d5pt_f64).
  using P5 = Tune<512, 1, 2, 1, 8, 1, 0, false, 0>;  // production 2D fp64 R <= 4 (medium and large)
  // Round 13 (run 8): at 255^3 the items-per-block target of the fp32 tiles asks for chunks shorter than the 8-plane
  // floor; one or two long items per block instead (--n3d 255 --only 3d7pt_f32_ipb).
  if (only == "3d7pt_f32_ipb") {
    std::vector<Var<float>> v{mk<float, S7, false, F7>("apply_cur", {8})};
    for (int rep = 0; rep < 2; ++rep) v.push_back(mk<float, S7, false, F7>("apply_cur", {1, 2, 8}));
    run_case<float>("3d7pt", st7, v, n3d, n2d, reps, best);
    std::vector<Var<float>> w{mk<float, S7, false, F7, kJac>("jac_cur", {8})};
    for (int rep = 0; rep < 2; ++rep) w.push_back(mk<float, S7, false, F7, kJac>("jac_cur", {1, 2, 8}));
    run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
  }
  if (only == "2d5pt_f64") {
    std::vector<Var<double>> v{mk<double, S5, false, P5>("cur", {0})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S5, false, Tune<512, 1, 2, 1, 8, 1, 3, false, 0>>("bulk_ns8", {0}));
      v.push_back(mk<double, S5, false, Tune<512, 1, 2, 1, 4, 1, 3, false, 0>>("bulk_ns4", {0}));
      v.push_back(mk<double, S5, false, Tune<512, 1, 4, 1, 6, 1, 3, false, 0>>("2048_bulk_ns6", {0}));
      v.push_back(mk<double, S5, false, Tune<512, 1, 2, 1, 12, 1, 0, false, 0>>("ns12", {0}));
      v.push_back(mk<double, S5, false, Tune<512, 1, 2, 1, 8, 1, 0, false, 0, true>>("dyn", {0}));
      v.push_back(mk<double, S5, false, Tune<512, 1, 2, 1, 8, 1, 3, false, 0, true>>("bulk_ns8_dyn", {0}));
      v.push_back(mk<double, S5, false, Tune<256, 1, 4, 1, 8, 2, 3, false, 0>>("256x4_2blk_bulk", {0}));
      v.push_back(mk<double, S5, false, P5>("cur", {0}));
    }
    run_case<double>("2d5pt", st5, v, n3d, n2d, reps, best);
  }
  // Round 15 (2026-11-25, H200, benchmarks/results/gpu-h200-2026-11-25-bulk-stores/run1): what is left of 3d7pt's gap
  // to the copy bound. (a) The output plane staged in shared memory and written by one bulk (TMA) store per tile row
  // (a VEC 5 of the kernel, removed again; reproducible at commit feceaf1): fp64 0.67-0.71, fp32 0.59, 27-point CSE
  // 0.55 against 0.888-0.893 / 0.834-0.835 / 0.873-0.885 for the production tiles in the same run. (b) No block
  // barrier per plane (VEC 4, static items), below: fp64 0.76-0.82, fp32 0.60-0.66 (--only 3d7pt_empty).
  using L7 = Tune<512, 2, 1, 2, 4, 1, 3, false, 16, true>;  // production fp64 3d7pt, large tier, fast memory (24 items
                                                           // per block since session 48)
  // Large fast-memory tiles that several rounds name (LargeFastMemTuneSel; rounds 25-27 replaced Q27 by D512, F7C
  // by P10; on the fp32 grid rows of 8 elements, session 47, P8 replaced P10):
  using Q27 = Tune<256, 4, 1, 2, 4, 1, 3, false, 4, true>;              // fp64 3D radius-1 non-stars until 2026-11-30
  using D512 = Tune<256, 2, 2, 2, 4, 1, 3, false, 16, true, 1, true>;  // the same since: 512 x 4, 512 threads
  using F7C = Tune<64, 4, 4, 3, 4, 2, 3, false, 8, true, 0, true>;     // fp32 3d7pt apply, rounds 20-27: 256 x 12
  using P8 = Tune<128, 2, 4, 2, 8, 1, 3, false, 32, true, 1, true>;    // 512 x 4, 256 threads, one block per SM: fp32 3d7pt
                                                                       // since session 47
  using P10 = Tune<128, 2, 4, 2, 10, 1, 3, false, 32, true, 1, true>;  // the same, 10 stages: fp32 3d7pt in session 46
  if (only == "3d7pt_empty") {
    std::vector<Var<double>> v{mk<double, S7, false, L7>("cur", {16})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S7, false, Tune<512, 2, 1, 2, 4, 1, 4, false, 16, false>>("empty", {8, 16, 32}));
      v.push_back(mk<double, S7, false, Tune<512, 2, 1, 2, 5, 1, 4, false, 16, false>>("empty_ns5", {16}));
      v.push_back(mk<double, S7, false, L7>("cur", {16}));
    }
    run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
    std::vector<Var<float>> w{mk<float, S7, false, F7>("cur", {8})};
    for (int rep = 0; rep < 2; ++rep) {
      w.push_back(mk<float, S7, false, Tune<256, 2, 1, 6, 4, 2, 4, false, 8, false>>("empty", {4, 8}));
      w.push_back(mk<float, S7, false, Tune<256, 4, 1, 4, 4, 1, 4, false, 8, false>>("empty_1024t", {8}));
      w.push_back(mk<float, S7, false, F7>("cur", {8}));
    }
    run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
  }
  // Round 16 (2026-11-25, H200): the end of a sweep. With equal items a dynamic schedule ends with a partial round (fp64
  // 3d7pt at 512^3: 2048 items on 132 blocks = 15.5 rounds; fp32: 2150 items on 264 blocks = 8.1 rounds), during which
  // part of the SMs idle. A short last round (plan_stream_tail: the last chunks tail_div times shorter) should let the
  // blocks finish together (--only 3d7pt_tail; the copy rate by access width: --only copy_widths).
  if (only == "3d7pt_tail") {
    std::vector<Var<double>> v{mk<double, S7, false, L7>("cur", {16})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S7, false, L7>("cur", {16}, 2));
      v.push_back(mk<double, S7, false, L7>("cur", {8, 16, 32}, 4));
      v.push_back(mk<double, S7, false, L7>("cur", {8, 16}));
      v.push_back(mk<double, S7, false, L7>("cur", {8, 12}, 8));
    }
    run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
    std::vector<Var<float>> w{mk<float, S7, false, F7>("cur", {8})};
    for (int rep = 0; rep < 2; ++rep) {
      w.push_back(mk<float, S7, false, F7>("cur", {8}, 2));
      w.push_back(mk<float, S7, false, F7>("cur", {4, 8, 16}, 4));
      w.push_back(mk<float, S7, false, F7>("cur", {4, 8}));
    }
    run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
    std::vector<Var<double>> q{mk<double, S27, true, Q27>("cur", {4})};
    for (int rep = 0; rep < 2; ++rep) {
      q.push_back(mk<double, S27, true, Q27>("cur", {4, 8}, 4));
      q.push_back(mk<double, S27, true, Q27>("cur", {4}));
    }
    run_case<double>("3d27pt_sym", sym, q, n3d, n2d, reps, best);
    using D5 = Tune<512, 1, 2, 1, 8, 1, 0, false, 0, true>;  // production 2D fp64 (dynamic rows)
    std::vector<Var<double>> d{mk<double, S5, false, D5>("cur", {0})};
    for (int rep = 0; rep < 2; ++rep) {
      d.push_back(mk<double, S5, false, D5>("cur", {0}, 4));
      d.push_back(mk<double, S5, false, D5>("cur", {0}));
    }
    run_case<double>("2d5pt", st5, d, n3d, n2d, reps, best);
  }
  // Round 17 (2026-11-25, H200): with the tail (round 16: fp64 0.896-0.901, fp32 0.832-0.836), more blocks per SM for
  // fp64 (each with its own bulk ring; two blocks per SM is what lifted fp32 from 0.64 to 0.80 in round 7) and three or
  // four for fp32 (--only 3d7pt_blocks).
  if (only == "3d7pt_blocks") {
    std::vector<Var<double>> v{mk<double, S7, false, L7>("cur", {16}, 4)};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S7, false, Tune<512, 1, 1, 4, 4, 2, 3, false, 16, true>>("512x4_2blk", {8, 16}, 4));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 4, 4, 2, 3, false, 16, true>>("256x8_2blk", {8, 16}, 4));
      v.push_back(mk<double, S7, false, Tune<512, 1, 1, 6, 3, 2, 3, false, 16, true>>("512x6_2blk_ns3", {8, 16}, 4));
      v.push_back(mk<double, S7, false, Tune<512, 1, 1, 4, 3, 2, 3, false, 16, true>>("512x4_2blk_ns3", {8}, 4));
      v.push_back(mk<double, S7, false, L7>("cur", {16}, 4));
    }
    run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
    std::vector<Var<float>> w{mk<float, S7, false, F7>("cur", {8}, 4)};
    for (int rep = 0; rep < 2; ++rep) {
      w.push_back(mk<float, S7, false, Tune<256, 1, 1, 8, 4, 3, 3, false, 8, true>>("256x8_3blk", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<256, 1, 1, 6, 4, 4, 3, false, 8, true>>("256x6_4blk", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<512, 1, 1, 6, 4, 2, 3, false, 8, true>>("512x6_2blk", {8}, 4));
      w.push_back(mk<float, S7, false, F7>("cur", {8}, 4));
    }
    run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
  }
  // Round 19 (2026-11-26, H200): the 3D radius-2 star (3d13pt). Every tier takes the small tile there, which for fp32
  // (128 x 2 threads x 8 rows, 151 registers) runs one block of 8 warps per SM at 33 % of the DRAM peak (0.36 of the
  // copy bound; benchmarks/results/gpu-h200-2026-11-26-cg-async-gather/run2). Fewer rows per thread for two or three
  // blocks per SM, dynamic items, and bulk row copies (--only 3d13pt).
  if (only == "3d13pt") {
    constexpr ShapeSpec S13{3, ShapeKind::star, 2};
    const Stencil st13 = perks_stencil("3d13pt");
    using C13F = Tune<128, 2, 1, 8, 0, 1, 0, false, 0>;      // production fp32 (every tier)
    using C13D = Tune<64, 4, 1, 4, 3, 1, 0, false, 16>;      // production fp64 (every tier)
    std::vector<Var<float>> w{mk<float, S13, false, C13F>("cur", {0})};
    for (int rep = 0; rep < 2; ++rep) {
      w.push_back(mk<float, S13, false, Tune<128, 2, 1, 8, 0, 1, 0, false, 8, true>>("128x16_dyn", {4, 8}, 4));
      w.push_back(mk<float, S13, false, Tune<128, 2, 1, 4, 0, 2, 0, false, 0>>("128x8_2blk", {0}));
      w.push_back(mk<float, S13, false, Tune<128, 2, 1, 4, 0, 2, 0, false, 8, true>>("128x8_2blk_dyn", {4, 8}, 4));
      w.push_back(mk<float, S13, false, Tune<128, 2, 1, 4, 0, 3, 0, false, 8, true>>("128x8_3blk_dyn", {4, 8}, 4));
      w.push_back(mk<float, S13, false, Tune<256, 1, 1, 8, 4, 2, 3, false, 8, true>>("256x8_2blk_bulk", {4, 8}, 4));
      w.push_back(mk<float, S13, false, Tune<256, 1, 1, 6, 4, 2, 3, false, 8, true>>("256x6_2blk_bulk", {4, 8}, 4));
      w.push_back(mk<float, S13, false, Tune<128, 2, 1, 4, 4, 2, 3, false, 8, true>>("128x8_2blk_bulk", {4, 8}, 4));
      w.push_back(mk<float, S13, false, C13F>("cur", {0}));
    }
    run_case<float>("3d13pt", st13, w, n3d, n2d, reps, best);
    std::vector<Var<double>> v{mk<double, S13, false, C13D>("cur", {16})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S13, false, Tune<64, 4, 1, 4, 3, 1, 0, false, 16, true>>("64x16_dyn", {8, 16}, 4));
      v.push_back(mk<double, S13, false, Tune<128, 2, 1, 4, 3, 2, 0, false, 16, true>>("128x8_2blk_dyn", {8, 16}, 4));
      v.push_back(mk<double, S13, false, Tune<256, 2, 1, 2, 4, 1, 3, false, 8, true>>("256x4_bulk", {4, 8}, 4));
      v.push_back(mk<double, S13, false, Tune<256, 1, 1, 4, 4, 2, 3, false, 8, true>>("256x4_2blk_bulk", {4, 8}, 4));
      v.push_back(mk<double, S13, false, C13D>("cur", {16}));
    }
    run_case<double>("3d13pt", st13, v, n3d, n2d, reps, best);
  }
  // Round 20 (2026-11-28, H200): consecutive columns (Tune's CONSEC, the last flag). A thread's MX outputs are adjacent,
  // read from shared memory as MX-element vectors and stored as one vector per row: per output about half the shared
  // loads and stores of the interleaved tile (fp32 3d7pt, MX 2: 20 8-byte loads and 6 8-byte stores per 12 outputs
  // instead of 40 + 12), and the plane's fixed cost (wait, barrier, ring issue) over twice the outputs per thread. fp32
  // 3d7pt is the open target (0.83 of the copy bound; issue slots 65 % busy); fp64 for comparison (--only 3d7pt_consec).
  if (only == "3d7pt_consec") {
    std::vector<Var<float>> w{mk<float, S7, false, F7>("cur", {8}, 4)};
    for (int rep = 0; rep < 2; ++rep) {
      w.push_back(mk<float, S7, false, Tune<128, 4, 2, 3, 4, 2, 3, false, 8, true, 0, true>>("c2_128x4x3", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<128, 2, 2, 6, 4, 2, 3, false, 8, true, 0, true>>("c2_128x2x6", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<128, 2, 2, 6, 4, 3, 3, false, 8, true, 0, true>>("c2_128x2x6_3blk", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<128, 4, 2, 4, 4, 2, 3, false, 8, true, 0, true>>("c2_128x4x4", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<256, 1, 2, 6, 4, 2, 3, false, 8, true, 0, true>>("c2_256x1x6", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<64, 4, 4, 3, 4, 2, 3, false, 8, true, 0, true>>("c4_64x4x3", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<64, 4, 4, 3, 4, 3, 3, false, 8, true, 0, true>>("c4_64x4x3_3blk", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<64, 8, 4, 2, 4, 2, 3, false, 8, true, 0, true>>("c4_64x8x2", {4, 8}, 4));
      w.push_back(mk<float, S7, false, F7>("cur", {8}, 4));
    }
    run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
    std::vector<Var<double>> v{mk<double, S7, false, L7>("cur", {16}, 4)};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S7, false, Tune<256, 2, 2, 2, 4, 1, 3, false, 16, true, 0, true>>("c2_256x2x2", {8, 16}, 4));
      v.push_back(mk<double, S7, false, Tune<256, 4, 2, 1, 4, 1, 3, false, 16, true, 0, true>>("c2_256x4x1", {8, 16}, 4));
      v.push_back(mk<double, S7, false, Tune<128, 4, 2, 2, 4, 2, 3, false, 16, true, 0, true>>("c2_128x4x2_2blk", {8, 16}, 4));
      v.push_back(mk<double, S7, false, L7>("cur", {16}, 4));
    }
    run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
  }
  // Round 21 (2026-11-28, H200): consecutive columns where the interleaved tiles leave the most: the 2D fp32 rows (2d5pt
  // 0.78, 2d9pt 0.74 of the copy bound against 0.92 for 2d5pt fp64, with almost no halo: the gap is on the SM side),
  // 2d5pt fp64, and the 3D fp32 boxes (27-point 0.54, its CSE form 0.60), with bulk rows (--only consec_shapes).
  if (only == "consec_shapes") {
    const Stencil st9 = perks_stencil("2d9pt"), st27 = perks_stencil("3d27pt");
    constexpr ShapeSpec S9{2, ShapeKind::box, 1};
    using P5F = Tune<512, 1, 4, 1, 6, 1, 0, false, 0>;              // production 2D fp32 R <= 4 (medium, large)
    using D5 = Tune<512, 1, 2, 1, 8, 1, 0, false, 0, true, 1>;      // production 2D fp64 R <= 4
    using B27F = Tune<256, 4, 1, 4, 3, 1, 0, false, 8, true>;       // production 3D fp32 box (medium, large)
    for (const auto& [name, st] : {std::pair<const char*, const Stencil*>{"2d5pt", &st5}, {"2d9pt", &st9}}) {
      const bool five = std::string(name) == "2d5pt";
      auto add = [&](std::vector<Var<float>>& w, auto spec) {
        constexpr ShapeSpec SS = decltype(spec)::value;
        w.push_back(mk<float, SS, false, Tune<512, 1, 4, 1, 6, 1, 0, false, 0, false, 0, true>>("c4_512", {0}));
        w.push_back(mk<float, SS, false, Tune<512, 1, 4, 1, 6, 1, 0, false, 0, true, 0, true>>("c4_512_dyn", {0}));
        w.push_back(mk<float, SS, false, Tune<256, 1, 4, 1, 8, 2, 0, false, 0, true, 0, true>>("c4_256_2blk_dyn", {0}));
        w.push_back(mk<float, SS, false, Tune<512, 1, 4, 1, 6, 1, 1, false, 0, true, 0, true>>("c4_512_vec_dyn", {0}));
        w.push_back(mk<float, SS, false, Tune<512, 1, 2, 1, 8, 1, 0, false, 0, true, 0, true>>("c2_512_dyn", {0}));
        w.push_back(mk<float, SS, false, P5F>("cur", {0}));
      };
      std::vector<Var<float>> w;
      if (five) w.push_back(mk<float, S5, false, P5F>("cur", {0}));
      else w.push_back(mk<float, S9, false, P5F>("cur", {0}));
      for (int rep = 0; rep < 2; ++rep) {
        if (five) add(w, std::integral_constant<ShapeSpec, S5>{});
        else add(w, std::integral_constant<ShapeSpec, S9>{});
      }
      run_case<float>(name, *st, w, n3d, n2d, reps, best);
    }
    std::vector<Var<double>> d{mk<double, S5, false, D5>("cur", {0})};
    for (int rep = 0; rep < 2; ++rep) {
      d.push_back(mk<double, S5, false, Tune<512, 1, 2, 1, 8, 1, 0, false, 0, true, 1, true>>("c2_512_dyn", {0}));
      d.push_back(mk<double, S5, false, Tune<256, 1, 2, 1, 8, 2, 0, false, 0, true, 0, true>>("c2_256_2blk_dyn", {0}));
      d.push_back(mk<double, S5, false, D5>("cur", {0}));
    }
    run_case<double>("2d5pt", st5, d, n3d, n2d, reps, best);
    for (const bool cse : {false, true}) {
      auto variants = [&](auto symc) {
        constexpr bool SY = decltype(symc)::value;
        std::vector<Var<float>> w{mk<float, S27, SY, B27F>("cur", {8})};
        for (int rep = 0; rep < 2; ++rep) {
          w.push_back(mk<float, S27, SY, Tune<64, 4, 4, 3, 4, 2, 3, false, 8, true, 0, true>>("c4_64x4x3_bulk", {4, 8}, 4));
          w.push_back(mk<float, S27, SY, Tune<64, 4, 4, 2, 4, 2, 3, false, 8, true, 0, true>>("c4_64x4x2_bulk", {4, 8}, 4));
          w.push_back(mk<float, S27, SY, Tune<128, 2, 2, 4, 4, 2, 3, false, 8, true, 0, true>>("c2_128x2x4_bulk", {4, 8}, 4));
          w.push_back(mk<float, S27, SY, Tune<256, 2, 1, 4, 4, 2, 3, false, 8, true>>("i_256x2x4_bulk", {4, 8}, 4));
          w.push_back(mk<float, S27, SY, B27F>("cur", {8}));
        }
        return w;
      };
      if (cse) run_case<float>("3d27pt_sym", sym, variants(std::true_type{}), n3d, n2d, reps, best);
      else run_case<float>("3d27pt", st27, variants(std::false_type{}), n3d, n2d, reps, best);
    }
  }
  // Round 22 (2026-11-28, H200): consecutive columns for the fp32 3D 7-point Jacobi sweep (b read too: the float
  // multigrid smoother), at the PCG-MG fine grid 255^3 and at 512^3 (--n3d 255 / 512 --only 3d7pt_f32_jacobi_consec).
  if (only == "3d7pt_f32_jacobi_consec") {
    std::vector<Var<float>> w{mk<float, S7, false, F7, kJac>("jac_cur", {8}, 4)};
    for (int rep = 0; rep < 2; ++rep) {
      w.push_back(mk<float, S7, false, Tune<64, 4, 4, 3, 4, 2, 3, false, 8, true, 0, true>, kJac>("jac_c4_64x4x3", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<64, 4, 4, 2, 4, 2, 3, false, 8, true, 0, true>, kJac>("jac_c4_64x4x2", {4, 8}, 4));
      w.push_back(mk<float, S7, false, Tune<128, 4, 2, 3, 4, 2, 3, false, 8, true, 0, true>, kJac>("jac_c2_128x4x3", {4, 8}, 4));
      w.push_back(mk<float, S7, false, F7, kJac>("jac_cur", {8}, 4));
    }
    run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
  }
  // Round 23 (2026-11-28, H200): the 2D stars of radius 5 and 6 (2d21pt, 2ds25pt), which take the small 256-thread tile
  // (the 512-thread interleaved tile spilled): with consecutive columns a row's window needs 2 ceil(R / MX) + 1 vectors,
  // fewer registers than (2R + 1) MX interleaved values (--only 2d_r56_consec).
  if (only == "2d_r56_consec") {
    constexpr ShapeSpec S21{2, ShapeKind::star, 5}, S25{2, ShapeKind::star, 6};
    const Stencil st21 = perks_stencil("2d21pt"), st25 = perks_stencil("2ds25pt");
    auto f32 = [&](auto spec, const char* name, const Stencil& st) {
      constexpr ShapeSpec SS = decltype(spec)::value;
      using Cur = Tune<256, 1, 4, 1, 0, 1, 0, false, 0>;  // production (small tile, every tier)
      std::vector<Var<float>> w{mk<float, SS, false, Cur>("cur", {0})};
      for (int rep = 0; rep < 2; ++rep) {
        w.push_back(mk<float, SS, false, Tune<512, 1, 4, 1, 6, 1, 1, false, 0, true, 0, true>>("c4_512_vec_dyn", {0}));
        w.push_back(mk<float, SS, false, Tune<256, 1, 4, 1, 8, 2, 1, false, 0, true, 0, true>>("c4_256_vec_dyn_2blk", {0}));
        w.push_back(mk<float, SS, false, Cur>("cur", {0}));
      }
      run_case<float>(name, st, w, n3d, n2d, reps, best);
    };
    auto f64 = [&](auto spec, const char* name, const Stencil& st) {
      constexpr ShapeSpec SS = decltype(spec)::value;
      using Cur = Tune<256, 1, 2, 1, 0, 1, 0, false, 0>;
      std::vector<Var<double>> v{mk<double, SS, false, Cur>("cur", {0})};
      for (int rep = 0; rep < 2; ++rep) {
        v.push_back(mk<double, SS, false, Tune<512, 1, 2, 1, 8, 1, 1, false, 0, true, 1, true>>("c2_512_vec_dyn", {0}));
        v.push_back(mk<double, SS, false, Tune<256, 1, 2, 1, 8, 2, 1, false, 0, true, 0, true>>("c2_256_vec_dyn_2blk", {0}));
        v.push_back(mk<double, SS, false, Cur>("cur", {0}));
      }
      run_case<double>(name, st, v, n3d, n2d, reps, best);
    };
    f32(std::integral_constant<ShapeSpec, S21>{}, "2d21pt", st21);
    f32(std::integral_constant<ShapeSpec, S25>{}, "2ds25pt", st25);
    f64(std::integral_constant<ShapeSpec, S21>{}, "2d21pt", st21);
    f64(std::integral_constant<ShapeSpec, S25>{}, "2ds25pt", st25);
  }
  // Round 24 (2026-11-28, H200): the partial sums of the streamed axis rotated by index instead of shifted (Tune's ROT:
  // the plane loop unrolled by 2R + 1). ncu of the 2d21pt fp64 kernels (benchmarks/results/
  // gpu-h200-2026-11-28-fp64-pipelined-rows/run1): ~30 of the ~160 instructions per warp and plane are register moves
  // of the shift register (11 planes x 2 columns of doubles). The production tile of each shape against the same tile
  // with ROT, apply (and Jacobi for two shapes), 16384^2 and 512^3 (--only rot).
  if (only == "rot") {
    using D2 = Tune<512, 1, 2, 1, 8, 1, 0, false, 0, true, 1>;         // 2D fp64, radius <= 4
    using N2D = Tune<256, 1, 2, 1, 8, 2, 1, false, 0, true, 0, true>;  // 2D fp64, radius >= 5
    using W2F = Tune<512, 1, 4, 1, 6, 1, 1, false, 0, true, 0, true>;  // 2D fp32, radius <= 4
    using N2F = Tune<256, 1, 4, 1, 8, 2, 1, false, 0, true, 0, true>;  // 2D fp32, radius >= 5
    auto pair2 = [&](auto spec, const char* name, auto tag64, auto tag32) {
      constexpr ShapeSpec SS = decltype(spec)::value;
      const Stencil st = perks_stencil(name);
      run_case<double>(name, st, rot_variants<double, SS, typename decltype(tag64)::type>("", {0}), n3d, n2d, reps, best);
      run_case<float>(name, st, rot_variants<float, SS, typename decltype(tag32)::type>("", {0}), n3d, n2d, reps, best);
    };
    pair2(std::integral_constant<ShapeSpec, ShapeSpec{2, ShapeKind::star, 2}>{}, "2ds9pt", TuneTag<D2>{}, TuneTag<W2F>{});
    pair2(std::integral_constant<ShapeSpec, ShapeSpec{2, ShapeKind::star, 3}>{}, "2d13pt", TuneTag<D2>{}, TuneTag<W2F>{});
    pair2(std::integral_constant<ShapeSpec, ShapeSpec{2, ShapeKind::star, 4}>{}, "2d17pt", TuneTag<D2>{}, TuneTag<W2F>{});
    pair2(std::integral_constant<ShapeSpec, ShapeSpec{2, ShapeKind::star, 5}>{}, "2d21pt", TuneTag<N2D>{},
          TuneTag<N2F>{});
    pair2(std::integral_constant<ShapeSpec, ShapeSpec{2, ShapeKind::star, 6}>{}, "2ds25pt", TuneTag<N2D>{},
          TuneTag<N2F>{});
    pair2(std::integral_constant<ShapeSpec, ShapeSpec{2, ShapeKind::box, 2}>{}, "2d25pt", TuneTag<D2>{}, TuneTag<W2F>{});
    // Jacobi (b read; the centre queue): 2d13pt fp64, 2d21pt fp32.
    constexpr ShapeSpec S13{2, ShapeKind::star, 3}, S21{2, ShapeKind::star, 5};
    run_case<double>("2d13pt", perks_stencil("2d13pt"), rot_variants<double, S13, D2, kJac>("jac_", {0}), n3d, n2d,
                     reps, best);
    run_case<float>("2d21pt", perks_stencil("2d21pt"), rot_variants<float, S21, N2F, kJac>("jac_", {0}), n3d, n2d,
                    reps, best);
    // 3D: the 13-point star (radius 2, 5 output planes) and the 7-point star, both precisions.
    constexpr ShapeSpec S13_3{3, ShapeKind::star, 2};
    const Stencil st13 = perks_stencil("3d13pt");
    using C13D = Tune<64, 4, 1, 4, 3, 1, 0, false, 8, true>;
    using C13F = Tune<256, 1, 1, 6, 4, 2, 3, false, 4, true>;
    run_case<double>("3d13pt", st13, rot_variants<double, S13_3, C13D>("", {8}, 4), n3d, n2d, reps, best);
    run_case<float>("3d13pt", st13, rot_variants<float, S13_3, C13F>("", {4}, 4), n3d, n2d, reps, best);
    run_case<double>("3d7pt", st7, rot_variants<double, S7, L7>("", {16}, 4), n3d, n2d, reps, best);
    run_case<float>("3d7pt", st7, rot_variants<float, S7, F7C>("", {8}, 4), n3d, n2d, reps, best);
  }
  // Round 25 (2026-11-30, H200): as many fp32 3d7pt tiles per plane as resident blocks. The fp64 tile (512 x 4, one block
  // per SM) makes 128 tiles per plane on 132 blocks, so the concurrently streamed items cover whole planes, one after the
  // other, like a copy; it reaches 0.90 of the copy bound. The fp32 tiles measured so far (256 x 12 and 512 x 6 on two
  // blocks per SM: 86 tiles on 264 blocks; 256 x 8 on three, 256 x 6 on four) run three or more z-slabs at once and
  // stop at 0.81-0.84; the fp64 512 x 4 tile on two blocks per SM (two slabs) fell to 0.84-0.85. Here: 512 x 4 on one
  // block per SM (512 or 256 threads, at most one block per SM: MAXB; rings of 6-8 stages for the bytes in flight) and 512 x 2 on two (256 tiles on 264
  // blocks; twice the halo rows), consecutive columns, bulk rows, dynamic items (--only 3d7pt_f32_plane_tiles).
  if (only == "3d7pt_f32_plane_tiles") {
    std::vector<Var<float>> w{mk<float, S7, false, F7C>("cur", {8}, 4)};
    for (int rep = 0; rep < 2; ++rep) {
      using A6 = Tune<128, 4, 4, 1, 6, 1, 3, false, 16, true, 1, true>;
      using A8 = Tune<128, 4, 4, 1, 8, 1, 3, false, 16, true, 1, true>;
      using H8 = Tune<128, 2, 4, 2, 8, 1, 3, false, 16, true, 1, true>;
      using T6 = Tune<128, 2, 4, 1, 6, 2, 3, false, 16, true, 0, true>;
      w.push_back(mk<float, S7, false, A6>("p512x4_512t_ns6", {8, 16, 32}, 4));
      w.push_back(mk<float, S7, false, A8>("p512x4_512t_ns8", {16, 32}, 4));
      w.push_back(mk<float, S7, false, H8>("p512x4_256t_ns8", {16, 32}, 4));
      w.push_back(mk<float, S7, false, T6>("p512x2_2blk_ns6", {8, 16}, 4));
      w.push_back(mk<float, S7, false, F7C>("cur", {8, 16}, 4));
    }
    run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
  }
  // Round 26 (2026-11-30, H200): round 25 (benchmarks/results/gpu-h200-2026-11-30-stencil-sequence/run1) confirmed the
  // model for fp32 3d7pt: 512 x 4 tiles on one block of 256 threads per SM, 8 stages, ~32 items per block, 0.880 of the
  // copy bound against 0.835 for the production tile (512 threads 0.866-0.871; 512 x 2 on two blocks 0.81-0.82). Around
  // it (deeper rings, more items) and the same tile for the other 3D shapes whose tiles run two or more z-slabs at once:
  // the fp32 boxes (3d27pt, its CSE form: 256 x 8 on two blocks per SM), 3d13pt fp32 (256 x 6 on two), 3d27pt fp64
  // (256 x 8 on one block of 1024 threads: 64 tiles), the fp32 / fp64 3d7pt Jacobi sweeps (256 x 12 on two blocks, 256 x
  // 8 on one), and fp64 3d7pt with 512 threads and deeper rings (--only plane_tiles).
  if (only == "plane_tiles") {
    using P12 = Tune<128, 2, 4, 2, 12, 1, 3, false, 32, true, 1, true>;
    using B27F = Tune<64, 4, 4, 2, 4, 2, 3, false, 8, true, 0, true>;     // production fp32 3D boxes
    using C13F = Tune<256, 1, 1, 6, 4, 2, 3, false, 4, true>;             // production fp32 3d13pt
    using D512N6 = Tune<256, 2, 2, 2, 6, 1, 3, false, 16, true, 1, true>;
    using JF = Tune<256, 2, 1, 6, 4, 2, 3, false, 8, true>;               // production fp32 3d7pt Jacobi
    using JD = Tune<256, 2, 1, 4, 4, 1, 3, false, 4, true>;               // production fp64 3d7pt Jacobi
    {
      std::vector<Var<float>> w{mk<float, S7, false, F7C>("cur", {8}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        w.push_back(mk<float, S7, false, P8>("p8", {32, 48, 64}, 4));
        w.push_back(mk<float, S7, false, P10>("p10", {32, 64}, 4));
        w.push_back(mk<float, S7, false, P12>("p12", {32, 64}, 4));
        w.push_back(mk<float, S7, false, F7C>("cur", {8}, 4));
      }
      run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
    }
    auto boxes = [&](auto symc) {
      constexpr bool SY = decltype(symc)::value;
      std::vector<Var<float>> w{mk<float, S27, SY, B27F>("cur", {8}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        w.push_back(mk<float, S27, SY, P8>("p8", {32, 64}, 4));
        w.push_back(mk<float, S27, SY, P10>("p10", {32}, 4));
        w.push_back(mk<float, S27, SY, B27F>("cur", {8}, 4));
      }
      return w;
    };
    run_case<float>("3d27pt", perks_stencil("3d27pt"), boxes(std::false_type{}), n3d, n2d, reps, best);
    run_case<float>("3d27pt_sym", sym, boxes(std::true_type{}), n3d, n2d, reps, best);
    {
      constexpr ShapeSpec S13{3, ShapeKind::star, 2};
      std::vector<Var<float>> w{mk<float, S13, false, C13F>("cur", {4}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        w.push_back(mk<float, S13, false, P8>("p8", {32, 64}, 4));
        w.push_back(mk<float, S13, false, C13F>("cur", {4}, 4));
      }
      run_case<float>("3d13pt", perks_stencil("3d13pt"), w, n3d, n2d, reps, best);
    }
    {
      std::vector<Var<double>> v{mk<double, S27, false, Q27>("cur", {4}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        v.push_back(mk<double, S27, false, D512>("d512", {8, 16}, 4));
        v.push_back(mk<double, S27, false, D512N6>("d512_ns6", {16}, 4));
        v.push_back(mk<double, S27, false, Q27>("cur", {4}, 4));
      }
      run_case<double>("3d27pt", perks_stencil("3d27pt"), v, n3d, n2d, reps, best);
    }
    {
      std::vector<Var<double>> v{mk<double, S7, false, L7>("cur", {16}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        v.push_back(mk<double, S7, false, D512>("d512", {16, 32}, 4));
        v.push_back(mk<double, S7, false, D512N6>("d512_ns6", {16, 32}, 4));
        v.push_back(mk<double, S7, false, L7>("cur", {16}, 4));
      }
      run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
    }
    {
      std::vector<Var<float>> w{mk<float, S7, false, JF, kJac>("jac_cur", {8}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        w.push_back(mk<float, S7, false, P8, kJac>("jac_p8", {32, 64}, 4));
        w.push_back(mk<float, S7, false, JF, kJac>("jac_cur", {8}, 4));
      }
      run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
      std::vector<Var<double>> v{mk<double, S7, false, JD, kJac>("jac_cur", {4}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        v.push_back(mk<double, S7, false, D512, kJac>("jac_d512", {16, 32}, 4));
        v.push_back(mk<double, S7, false, JD, kJac>("jac_cur", {4}, 4));
      }
      run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
    }
  }
  // Round 27 (2026-11-30, H200): round 26 (run2 of the results above): fp32 3d7pt 512 x 4 on one block of 256 threads
  // 0.882-0.887 (8-12 stages, 32 items per block; 64 items 0.84) against 0.846; fp64 3d27pt 512 x 4 on 512 threads
  // 0.899-0.900 against 0.880-0.888; fp32 boxes and 3d13pt slower, fp64 3d7pt the same. Here: the fp32 3d7pt tile's
  // items per block (20-32), 128 threads x 4 rows, 6 stages; the fp64 512 x 4 tile on the other fp64 radius-1 shapes
  // that share 3d27pt's tile (poisson, 3d17pt, the CSE 27-point) (--only plane_tiles2).
  if (only == "plane_tiles2") {
    using P6 = Tune<128, 2, 4, 2, 6, 1, 3, false, 32, true, 1, true>;
    using P8T128 = Tune<128, 1, 4, 4, 8, 1, 3, false, 32, true, 1, true>;
    {
      std::vector<Var<float>> w{mk<float, S7, false, F7C>("cur", {8}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        w.push_back(mk<float, S7, false, P8>("p8", {20, 24, 28, 32}, 4));
        w.push_back(mk<float, S7, false, P10>("p10", {24, 32}, 4));
        w.push_back(mk<float, S7, false, P6>("p6", {24, 32}, 4));
        w.push_back(mk<float, S7, false, P8T128>("p8_128t", {24, 32}, 4));
        w.push_back(mk<float, S7, false, F7C>("cur", {8}, 4));
      }
      run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
    }
    auto fp64_boxes = [&](auto spec, auto symc, const char* name, const Stencil& st) {
      constexpr ShapeSpec SS = decltype(spec)::value;
      constexpr bool SY = decltype(symc)::value;
      std::vector<Var<double>> v{mk<double, SS, SY, Q27>("cur", {4}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        v.push_back(mk<double, SS, SY, D512>("d512", {8, 16}, 4));
        v.push_back(mk<double, SS, SY, Q27>("cur", {4}, 4));
      }
      run_case<double>(name, st, v, n3d, n2d, reps, best);
    };
    fp64_boxes(std::integral_constant<ShapeSpec, ShapeSpec{3, ShapeKind::box_no_corners, 1}>{}, std::false_type{},
               "poisson", perks_stencil("poisson"));
    fp64_boxes(std::integral_constant<ShapeSpec, ShapeSpec{3, ShapeKind::plane_and_corners, 1}>{}, std::false_type{},
               "3d17pt", perks_stencil("3d17pt"));
    fp64_boxes(std::integral_constant<ShapeSpec, S27>{}, std::true_type{}, "3d27pt_sym", sym);
    fp64_boxes(std::integral_constant<ShapeSpec, S27>{}, std::false_type{}, "3d27pt", perks_stencil("3d27pt"));
  }
  // Round 28 (2026-11-30, H200): the production 512 x 4 fp32 3d7pt tile (0.872-0.887 of the copy bound) around its
  // schedule: items per block 32-40, the short last round's divisor (2, 4, 8), streaming stores; and the fp64 3d7pt
  // tile (at the 0.90 line) with 24-32 items and its 512-thread form (--only plane_tiles3).
  if (only == "plane_tiles3") {
    using P10S = Tune<128, 2, 4, 2, 10, 1, 3, true, 32, true, 1, true>;   // the same with streaming stores
    {
      std::vector<Var<float>> w{mk<float, S7, false, P10>("cur", {32}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        w.push_back(mk<float, S7, false, P10>("cur", {36, 40}, 4));
        w.push_back(mk<float, S7, false, P10>("cur", {32}, 2));
        w.push_back(mk<float, S7, false, P10>("cur", {32}, 8));
        w.push_back(mk<float, S7, false, P10S>("stcs", {32}, 4));
        w.push_back(mk<float, S7, false, P10>("cur", {32}, 4));
      }
      run_case<float>("3d7pt", st7, w, n3d, n2d, reps, best);
    }
    {
      std::vector<Var<double>> v{mk<double, S7, false, L7>("cur", {16}, 4)};
      for (int rep = 0; rep < 2; ++rep) {
        v.push_back(mk<double, S7, false, L7>("cur", {24, 32}, 4));
        v.push_back(mk<double, S7, false, D512>("d512", {24, 32}, 4));
        v.push_back(mk<double, S7, false, L7>("cur", {16}, 8));
        v.push_back(mk<double, S7, false, L7>("cur", {16}, 4));
      }
      run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
    }
  }
  // Round 29 (2026-11-30, H200): the fp64 3d7pt tile on fp64 grid rows of 4 elements (32 bytes; grid_row_align since
  // session 48, 1.10 GB read per 512^3 sweep against 1.13 on rows of 32). The fp32 tile had taken 8 stages instead of
  // 10 once its rows were one sector; here the production 512 x 4 tile on 1024 threads (L7: 4 stages, 16 items per
  // block) with 3, 5 and 6 stages and 24 / 32 items, its 512-thread (D512) and 256-thread forms (--only plane_tiles4;
  // run with --row-align 0, the grid rows).
  if (only == "plane_tiles4") {
    using L7N3 = Tune<512, 2, 1, 2, 3, 1, 3, false, 16, true>;
    using L7N5 = Tune<512, 2, 1, 2, 5, 1, 3, false, 16, true>;
    using L7N6 = Tune<512, 2, 1, 2, 6, 1, 3, false, 16, true>;
    using D256 = Tune<256, 1, 2, 4, 4, 1, 3, false, 16, true, 1, true>;
    using D256N6 = Tune<256, 1, 2, 4, 6, 1, 3, false, 16, true, 1, true>;
    std::vector<Var<double>> v{mk<double, S7, false, L7>("cur", {16}, 4)};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S7, false, L7>("cur", {24, 32}, 4));
      v.push_back(mk<double, S7, false, L7N3>("ns3", {16, 32}, 4));
      v.push_back(mk<double, S7, false, L7N5>("ns5", {16, 32}, 4));
      v.push_back(mk<double, S7, false, L7N6>("ns6", {16, 32}, 4));
      v.push_back(mk<double, S7, false, D512>("d512", {16, 32}, 4));
      v.push_back(mk<double, S7, false, D256>("d256", {16, 32}, 4));
      v.push_back(mk<double, S7, false, D256N6>("d256_ns6", {16, 32}, 4));
      v.push_back(mk<double, S7, false, L7>("cur", {16}, 4));
    }
    run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
  }
  (void)st5;
  (void)S27;
  (void)sym;
  (void)S5;
  CK(cudaDeviceSynchronize());
  std::printf("sweep done\n");
  return 0;
}
