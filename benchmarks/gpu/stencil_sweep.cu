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

template <class Real>
struct Var {
  std::string name;
  std::function<int(const StencilRequest<Real>&, int)> launch;
  std::function<cudaFuncAttributes()> attrs;
  std::function<int()> per_sm;
  std::vector<int> ipbs;
  int smem = 0;
};

template <class Real, ShapeSpec S, bool SYM, class T>
Var<Real> mk(const char* name, std::vector<int> ipbs = {T::IPB}) {
  Var<Real> v;
  v.name = name;
  // ipb < 0: one block per item of the |ipb| schedule (hardware block dispatch hands out the items).
  v.launch = [](const StencilRequest<Real>& r, int ipb) {
    return ipb < 0 ? launch_stream_stencil<Real, S, 0, SYM, T>(r, -ipb, true) : launch_stream_stencil<Real, S, 0, SYM, T>(r, ipb);
  };
  v.attrs = [] {
    cudaFuncAttributes fa{};
    CK(cudaFuncGetAttributes(&fa, stream_stencil_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, 0, SYM, T>));
    return fa;
  };
  v.per_sm = [] {
    using C = TileCfg<Real, S, T, false>;
    int b = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &b, stream_stencil_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, 0, SYM, T>, C::NT, C::SMEM_BYTES));
    return b;
  };
  v.ipbs = std::move(ipbs);
  v.smem = TileCfg<Real, S, T, false>::SMEM_BYTES;
  return v;
}

// Experimental: 7-point star without shared memory. Thread (tx, ty) owns column x and MY consecutive rows,
// streams z; the in-plane values of plane z + PF (centres, x +- 1 neighbours, the y halo rows) are loaded
// into a register queue PF planes ahead (L1 serves the neighbours' overlapping lines); no block barrier.
// Same summation order as the streaming kernel (bit-identical results).
template <class Real, int MY>
struct PlaneRec {
  Real c[MY], xm[MY], xp[MY], ym, yp;
};
template <class Real, int BXT, int BYT, int MY, int PF>
__global__ void __launch_bounds__(BXT* BYT) l1_7pt_kernel(const StreamArgs<Real, kMaxTemplatedPoints> a) {
  const int tx = threadIdx.x % BXT, ty = threadIdx.x / BXT;
  const Real c0 = a.c[0], c1 = a.c[1], c2 = a.c[2], c3 = a.c[3], c4 = a.c[4], c5 = a.c[5], c6 = a.c[6];
  for (long u = blockIdx.x; u < a.items; u += gridDim.x) {
    const long q = u / a.tiles, t = u - q * a.tiles;
    const int s0 = static_cast<int>(q) * a.chunk, s1 = min(a.ns, s0 + a.chunk);
    const int x = static_cast<int>(t % a.tiles_x) * BXT + tx;
    const int y0 = static_cast<int>(t / a.tiles_x) * (BYT * MY) + ty * MY;
    const int xc = min(x, a.nx - 1);
    long roff[MY];
#pragma unroll
    for (int j = 0; j < MY; ++j) roff[j] = xc + static_cast<long>(min(y0 + j, a.ny - 1)) * a.row_stride;
    const long ymoff = xc + static_cast<long>(min(y0, a.ny) - 1) * a.row_stride;
    const long ypoff = xc + static_cast<long>(min(y0 + MY, a.ny)) * a.row_stride;
    auto load = [&](int z, PlaneRec<Real, MY>& r) {
      const Real* p = a.x + static_cast<long>(z) * a.step;
#pragma unroll
      for (int j = 0; j < MY; ++j) {
        r.c[j] = __ldg(p + roff[j]);
        r.xm[j] = __ldg(p + roff[j] - 1);
        r.xp[j] = __ldg(p + roff[j] + 1);
      }
      r.ym = __ldg(p + ymoff);
      r.yp = __ldg(p + ypoff);
    };
    PlaneRec<Real, MY> qq[PF + 1];  // qq[0] = plane z, qq[k] = plane z + k
    Real below[MY];
    {
      const Real* p = a.x + static_cast<long>(s0 - 1) * a.step;
#pragma unroll
      for (int j = 0; j < MY; ++j) below[j] = __ldg(p + roff[j]);
    }
#pragma unroll
    for (int k = 0; k <= PF; ++k) load(min(s0 + k, a.ns), qq[k]);  // planes past ns + 1: clamped, unused
    for (int z = s0; z < s1; ++z) {
#pragma unroll
      for (int j = 0; j < MY; ++j) {
        const PlaneRec<Real, MY>& c = qq[0];
        Real acc = c0 * below[j];
        acc = fma(c1, j == 0 ? c.ym : c.c[j - 1], acc);
        acc = fma(c2, c.xm[j], acc);
        acc = fma(c3, c.c[j], acc);
        acc = fma(c4, c.xp[j], acc);
        acc = fma(c5, j == MY - 1 ? c.yp : c.c[j + 1], acc);
        acc = fma(c6, qq[1].c[j], acc);
        if (x < a.nx && y0 + j < a.ny) a.out[roff[j] + static_cast<long>(z) * a.step] = acc;
        below[j] = c.c[j];
      }
#pragma unroll
      for (int k = 0; k < PF; ++k) qq[k] = qq[k + 1];
      load(min(z + PF + 1, a.ns), qq[PF]);
    }
  }
}

template <class Real, int BXT, int BYT, int MY, int PF>
int launch_l1_7pt(const StencilRequest<Real>& r, int ipb) {
  auto kernel = l1_7pt_kernel<Real, BXT, BYT, MY, PF>;
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BXT * BYT, 0));
  const FieldLayout& l = r.layout;
  StreamArgs<Real, kMaxTemplatedPoints> a{};
  const long origin = l.index(0, 0, 0);
  a.x = r.x + origin;
  a.out = r.out + origin;
  a.nx = l.n[0];
  a.ny = l.n[1];
  a.ns = l.n[2];
  a.row_stride = l.stride_y();
  a.step = l.stride_z();
  for (int p = 0; p < 7; ++p) a.c[p] = static_cast<Real>(r.stencil->coeffs[p]);
  a.tiles_x = (a.nx + BXT - 1) / BXT;
  a.tiles = static_cast<long>(a.tiles_x) * ((a.ny + BYT * MY - 1) / (BYT * MY));
  const long resident = static_cast<long>(std::max(per_sm, 1)) * r.sm_count;
  long c0 = ipb > 0 ? (static_cast<long>(a.ns) * a.tiles + resident * ipb - 1) / (resident * ipb) : a.ns;
  c0 = std::min<long>(std::max(c0, 8L), a.ns);
  const long nchunks = (a.ns + c0 - 1) / c0;
  a.chunk = static_cast<int>((a.ns + nchunks - 1) / nchunks);
  a.items = a.tiles * nchunks;
  const long rounds = (a.items + resident - 1) / resident;
  const long blocks = (a.items + rounds - 1) / rounds;
  kernel<<<static_cast<unsigned>(blocks), BXT * BYT, 0, r.stream>>>(a);
  CK(cudaGetLastError());
  return 0;
}

template <class Real, int BXT, int BYT, int MY, int PF>
Var<Real> mk_l1(const char* name, std::vector<int> ipbs) {
  Var<Real> v;
  v.name = name;
  v.launch = [](const StencilRequest<Real>& r, int ipb) { return launch_l1_7pt<Real, BXT, BYT, MY, PF>(r, ipb); };
  v.attrs = [] {
    cudaFuncAttributes fa{};
    CK(cudaFuncGetAttributes(&fa, l1_7pt_kernel<Real, BXT, BYT, MY, PF>));
    return fa;
  };
  v.per_sm = [] {
    int b = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, l1_7pt_kernel<Real, BXT, BYT, MY, PF>, BXT * BYT, 0));
    return b;
  };
  v.ipbs = std::move(ipbs);
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
  return r;
}

// Small-grid bitwise check of a variant against the reference variant; returns mismatching words.
template <class Real>
unsigned long long small_check(const Stencil& s, const Var<Real>& ref, const Var<Real>& v, const FieldLayout& l, int ipb) {
  Buf<Real> x(l.size()), o1(l.size()), o2(l.size());
  init_kernel<Real><<<256, 256, 0, g_st>>>(x.p, l.size(), 12345u);
  CK(cudaMemsetAsync(o1.p, 0xff, l.size() * sizeof(Real), g_st));
  CK(cudaMemsetAsync(o2.p, 0xff, l.size() * sizeof(Real), g_st));
  ref.launch(req<Real>(s, l, x.p, o1.p), ref.ipbs[0]);
  v.launch(req<Real>(s, l, x.p, o2.p), ipb);
  CK(cudaStreamSynchronize(g_st));
  return diff(o1.p, o2.p, l.size());
}

int g_row_align = kGridRowAlign;  // --row-align: FieldLayout::align of every layout of the sweep

template <class Real>
void run_case(const char* cname, const Stencil& s, std::vector<Var<Real>> vars, int n3d, int n2d, int reps,
              double copy_gbs) {
  FieldLayout l, s1, s2;
  l.align = s1.align = s2.align = g_row_align;
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
  const long n = l.size();
  Buf<Real> in(n), out(n), ref(n);
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
  // Round 9 (2026-11-25, H200): the shared-memory-free 7-point kernel (l1_7pt_kernel: register queue of the next
  // planes, L1 for the x neighbours, no block barrier), never measured before, against the production tiles; and
  // the medium tier at 255^3 (the PCG-MG fine grid: its 7-point fp64 sweep takes the H100's scalar 256 x 8 tile,
  // not a bulk one) against the bulk 256-wide tiles (run with --n3d 255 --only 3d7pt_f64_medium).
  using D7 = Tune<512, 2, 1, 2, 4, 1, 3, false, 16, true>;  // production fp64, fast memory
  if (only.empty() || only == "3d7pt_f64") {
    std::vector<Var<double>> v{mk<double, S7, false, D7>("cur", {16})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk_l1<double, 128, 4, 4, 2>("l1_128x16_pf2", {4, 16}));
      v.push_back(mk_l1<double, 256, 2, 4, 2>("l1_256x8_pf2", {4, 16}));
      v.push_back(mk_l1<double, 256, 4, 2, 3>("l1_256x8_pf3", {4, 16}));
      v.push_back(mk_l1<double, 64, 8, 4, 2>("l1_64x32_pf2", {4, 16}));
      v.push_back(mk<double, S7, false, D7>("cur", {16}));
    }
    run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
  }
  using M7 = Tune<256, 4, 1, 2, 3, 1, 0, false, 8, true>;  // production fp64 medium tier (255^3)
  if (only == "3d7pt_f64_medium") {
    std::vector<Var<double>> v{mk<double, S7, false, M7>("medium", {8})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk<double, S7, false, Tune<256, 4, 1, 2, 4, 1, 3, false, 4, true>>("256x8_bulk_ns4", {4, 8, 16}));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 4, 4, 1, 3, false, 8, true>>("256x2x4_bulk_ns4", {4, 8, 16}));
      v.push_back(mk<double, S7, false, Tune<256, 2, 1, 2, 4, 2, 3, false, 8, true>>("256x4_2blk_bulk", {8}));
      v.push_back(mk_l1<double, 256, 2, 4, 2>("l1_256x8_pf2", {4, 16}));
      v.push_back(mk<double, S7, false, M7>("medium", {8}));
    }
    run_case<double>("3d7pt", st7, v, n3d, n2d, reps, best);
  }
  using F7 = Tune<256, 2, 1, 6, 4, 2, 3, false, 8, true>;  // production fp32 (round 8)
  if (only.empty() || only == "3d7pt_f32") {
    std::vector<Var<float>> v{mk<float, S7, false, F7>("cur", {8})};
    for (int rep = 0; rep < 2; ++rep) {
      v.push_back(mk_l1<float, 128, 4, 4, 2>("l1_128x16_pf2", {4, 16}));
      v.push_back(mk_l1<float, 256, 4, 4, 2>("l1_256x16_pf2", {4, 16}));
      v.push_back(mk_l1<float, 256, 2, 8, 2>("l1_256x16_my8", {4, 16}));
      v.push_back(mk_l1<float, 128, 8, 4, 3>("l1_128x32_pf3", {4, 16}));
      v.push_back(mk<float, S7, false, F7>("cur", {8}));
    }
    run_case<float>("3d7pt", st7, v, n3d, n2d, reps, best);
  }
  (void)st5;
  (void)S27;
  (void)sym;
  (void)S5;
  CK(cudaDeviceSynchronize());
  std::printf("sweep done\n");
  return 0;
}
