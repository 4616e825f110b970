// Native CUDA backend: storage, BLAS-1, reductions, stencil dispatch, halo pack/unpack, boundary
// ghosts. Semantics follow the reference Kokkos backend (framework/backends/kokkos/kokkos_backend.cpp).
#include "framework/backends/cuda/cuda_backend.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "framework/backends/cuda/cuda_common.cuh"
#include "framework/backends/cuda/cuda_ops.cuh"
#include "framework/backends/cuda/grid_point_ops.cuh"
#include "framework/backends/cuda/perks_request.cuh"
#include "framework/backends/cuda/perks_trace.hpp"
#include "framework/backends/cuda/persistent_program.cuh"
#include "framework/backends/cuda/stencil_cg_request.cuh"
#include "framework/backends/cuda/register_cuda.hpp"
#include "framework/util/env.hpp"

namespace perksolve {

using cuda_detail::kMaxPartials;
using cuda_detail::pdl_enter;
using cuda_detail::pdl_launch;
using cuda_detail::pdl_release_dependents;
using cuda_detail::pdl_wait;
using cuda_detail::StencilMode;
using cuda_detail::StencilRequest;
using cuda_ops::grid_for;
using cuda_ops::is_pinned;
using cuda_ops::kThreads;
using cuda_ops::owned_map;
using cuda_ops::FaceSet;
using cuda_ops::ProgramOp;
using cuda_ops::ProgramOpKind;
using cuda_ops::fill_face_ghost;
using cuda_ops::OwnedRows;
using cuda_ops::RowBatch;
using cuda_ops::for_live_cells;
using cuda_ops::for_owned_row_batches;
using cuda_ops::load_row_cells;
using cuda_ops::owned_rows;
using cuda_ops::row_batch;
using cuda_ops::rows_grid;

namespace {

__device__ __forceinline__ double nan_max(double a, double b) { return (b > a || b != b) ? b : a; }

// The persistent kernels decline periodic faces: their halos are the caller's copies.
bool has_periodic_face(std::span<const BoundaryFace> faces) {
  for (const BoundaryFace& f : faces)
    if (f.bc.type == BoundaryType::periodic) return true;
  return false;
}

template <class Real>
__global__ void fill_kernel(Real* p, long n, Real v) {
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long>(gridDim.x) * blockDim.x)
    p[i] = v;
}

// Block reduction of one double (sum or NaN-propagating max) written to out[blockIdx.x].
template <bool MAX>
__device__ __forceinline__ void block_reduce_store(double v, double* out) {
  for (int o = 16; o > 0; o >>= 1) {
    const double other = __shfl_down_sync(0xffffffffu, v, o);
    v = MAX ? nan_max(v, other) : v + other;
  }
  __shared__ double warp_vals[kThreads / 32];
  if ((threadIdx.x & 31) == 0) warp_vals[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    double s = warp_vals[0];
    for (int w = 1; w < static_cast<int>(blockDim.x) / 32; ++w) s = MAX ? nan_max(s, warp_vals[w]) : s + warp_vals[w];
    out[blockIdx.x] = s;
  }
}

template <class Real>
__global__ void __launch_bounds__(kThreads, cuda_ops::kRowBlocksPerSm)
    dot_kernel(const Real* __restrict__ x, const Real* __restrict__ y, OwnedRows m, double* partials) {
  pdl_enter();
  constexpr int U = row_batch<Real>();
  double acc = 0.0;
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int, int, int) {
    Real v[2][U];
    load_row_cells<U>(n, batch, v, {x, y});
    for_live_cells<U>(n, batch, [&](int u, long) { acc += static_cast<double>(v[0][u]) * static_cast<double>(v[1][u]); });
  });
  block_reduce_store<false>(acc, partials);
}

template <class Real>
__global__ void __launch_bounds__(kThreads, cuda_ops::kRowBlocksPerSm)
    maxabs_kernel(const Real* __restrict__ x, OwnedRows m, double* partials) {
  constexpr int U = row_batch<Real>();
  double acc = 0.0;
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int, int, int) {
    Real v[1][U];
    load_row_cells<U>(n, batch, v, {x});
    for_live_cells<U>(n, batch, [&](int u, long) { acc = nan_max(acc, fabs(static_cast<double>(v[0][u]))); });
  });
  block_reduce_store<true>(acc, partials);
}

// Second stage: one block sums (or maxes) the partials in a fixed order.
template <bool MAX>
__global__ void __launch_bounds__(kThreads) finish_kernel(const double* partials, int count, double* result) {
  pdl_enter();
  double acc = 0.0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) acc = MAX ? nan_max(acc, partials[i]) : acc + partials[i];
  block_reduce_store<MAX>(acc, result);
}

// ---- pack / unpack: all boxes in one launch ---------------------------------------------------------
constexpr int kBoxesPerLaunch = 32;
struct BoxBatch {
  int count;
  long base[kBoxesPerLaunch + 1];  // prefix positions in the packed buffer (relative to batch start)
  int begin[kBoxesPerLaunch][3];
  int extent[kBoxesPerLaunch][2];  // nx, ny of the box
  int end[kBoxesPerLaunch][3];
};

template <class Real, bool PACK>
__global__ void pack_kernel(Real* __restrict__ field, Real* __restrict__ buf, const BoxBatch bb, FieldLayout l) {
  pdl_enter();
  const long total = bb.base[bb.count];
  for (long p = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; p < total; p += static_cast<long>(gridDim.x) * blockDim.x) {
    int b = 0;
    while (p >= bb.base[b + 1]) ++b;
    const long q = p - bb.base[b];
    const int nx = bb.extent[b][0], ny = bb.extent[b][1];
    const long row = q / nx;
    const int i = static_cast<int>(q - row * nx) + bb.begin[b][0];
    const long kk = row / ny;
    const int j = static_cast<int>(row - kk * ny) + bb.begin[b][1];
    const int k = static_cast<int>(kk) + bb.begin[b][2];
    const long n = l.index(i, j, k);
    if constexpr (PACK) {
      buf[p] = field[n];
    } else {
      // Overlapping boxes: the last box listed wins, as in a sequential unpack (later batches run later).
      bool later = false;
      for (int c = b + 1; c < bb.count && !later; ++c)
        later = i >= bb.begin[c][0] && i < bb.end[c][0] && j >= bb.begin[c][1] && j < bb.end[c][1] &&
                k >= bb.begin[c][2] && k < bb.end[c][2];
      if (!later) field[n] = buf[p];
    }
  }
}

// ---- boundary ghosts (the point-wise rule of framework/backend/boundary_rule.hpp) ---------------------
// One face: its ghost slab over the padded extents of the other axes.
template <class Real>
__global__ void boundary_kernel(Real* __restrict__ f, FieldLayout l, boundary_rule::FaceRule<Real> rule, int lo0,
                                int lo1, int lo2, int e0, int e1, int e2) {
  const long total = static_cast<long>(e0) * e1 * e2;
  const int a = rule.axis;
  const int n = l.n[a];
  for (long t = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; t < total; t += static_cast<long>(gridDim.x) * blockDim.x) {
    const long row = t / e0;
    int idx[3];
    idx[0] = static_cast<int>(t - row * e0) + lo0;
    idx[1] = static_cast<int>(row % e1) + lo1;
    idx[2] = static_cast<int>(row / e1) + lo2;
    const int d = idx[a];
    idx[a] = boundary_rule::mirror_index(rule, n, d);
    const Real m = boundary_rule::ghost_is_constant(rule, d) ? Real(0) : f[l.index(idx[0], idx[1], idx[2])];
    idx[a] = boundary_rule::ghost_index(rule.low, n, d);
    f[l.index(idx[0], idx[1], idx[2])] = boundary_rule::ghost_value(rule, d, m);
  }
}

// All physical faces in one launch (the composed rule of grid_point_ops.cuh). release_early: the next kernel may start
// its blocks as soon as this one's have started (pdl_enter); otherwise only as they exit (PERKSOLVE_CUDA_PDL_FACES).
template <class Real>
__global__ void boundary_faces_kernel(Real* __restrict__ f, FieldLayout l, FaceSet<Real> fs, bool release_early) {
  pdl_wait();
  if (release_early) pdl_release_dependents();
  cuda_ops::for_each_face_ghost_in_grid(fs.total(), [&](long t) { fill_face_ghost(f, l, fs, t); });
}

template <class Real>
__global__ void __launch_bounds__(kThreads, cuda_ops::kRowBlocksPerSm)
    scale_kernel(Real a, const Real* __restrict__ x, Real* __restrict__ y, OwnedRows m) {
  constexpr int U = row_batch<Real>();
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int, int, int) {
    Real v[1][U];
    load_row_cells<U>(n, batch, v, {x});
    for_live_cells<U>(n, batch, [&](int u, long e) { y[e] = a * v[0][u]; });
  });
}

template <class Real>
const CudaField<Real>& as_cuda(const Field<Real>& f) {
  if (f.backend_name() != "cuda")
    throw std::logic_error("cuda backend was handed a field of backend '" + std::string(f.backend_name()) + "'");
  return static_cast<const CudaField<Real>&>(f);
}
template <class Real>
CudaField<Real>& as_cuda(Field<Real>& f) {
  return const_cast<CudaField<Real>&>(as_cuda(static_cast<const Field<Real>&>(f)));
}

void require_same_layout(const FieldLayout& a, const FieldLayout& b, const char* op) {
  if (!(a == b)) throw std::logic_error(std::string("cuda backend: fields of different layouts passed to ") + op);
}

void check_reach(const Stencil& s, const FieldLayout& l) {
  for (const Offset& o : s.offsets) {
    const int d[3] = {o.dx, o.dy, o.dz};
    for (int a = 0; a < 3; ++a)
      if (std::abs(d[a]) > l.ghost[a])
        throw std::logic_error("stencil '" + s.name + "' reaches " + std::to_string(std::abs(d[a])) +
                               " cells along axis " + std::to_string(a) + " but the field has ghost width " +
                               std::to_string(l.ghost[a]));
  }
}

// c(dx,dy,dz) == c(|dx|,|dy|,|dz|) for every offset (exactly): the CSE kernel gives the same operator.
bool mirror_symmetric(const Stencil& s) {
  if (static_cast<int>(s.coeffs.size()) != s.size()) return false;
  for (int p = 0; p < s.size(); ++p) {
    const Offset o = s.offsets[p];
    const Offset m{std::abs(o.dx), std::abs(o.dy), std::abs(o.dz)};
    bool found = false;
    for (int q = 0; q < s.size(); ++q)
      if (s.offsets[q] == m) {
        if (s.coeffs[q] != s.coeffs[p]) return false;
        found = true;
        break;
      }
    if (!found) return false;
  }
  return true;
}

// The shape's canonical offsets must be the stencil's (the templated kernels index coefficients by them).
bool canonical_offsets(const Stencil& s) {
  if (s.size() != shape_point_count(s.shape) || static_cast<int>(s.coeffs.size()) != s.size()) return false;
  for (int p = 0; p < s.size(); ++p)
    if (!(s.offsets[p] == shape_offset(s.shape, p))) return false;
  return true;
}

int local_rank(MPI_Comm comm) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) return 0;
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int r = 0;
  MPI_Comm_rank(node, &r);
  MPI_Comm_free(&node);
  return r;
}

}  // namespace

// ---- CudaField -----------------------------------------------------------------------------------
template <class Real>
CudaField<Real>::CudaField(const FieldLayout& layout) : Field<Real>(layout) {
  const std::size_t bytes = static_cast<std::size_t>(std::max(1L, layout.size())) * sizeof(Real) + cuda_detail::kFieldSlackBytes;
  PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes));
}

template <class Real>
CudaField<Real>::~CudaField() {
  if (data_) cudaFree(data_);
}

namespace cuda_detail {
bool pdl_enabled() {
  static const bool on = [] {
    return env_flag("PERKSOLVE_CUDA_PDL", true);
  }();
  return on;
}
// Whether the boundary-faces kernel lets the next kernel start its blocks as soon as its own have started (start) or
// only as they exit (exit).
bool pdl_faces_release_early() {
  static const bool early = env_choice("PERKSOLVE_CUDA_PDL_FACES", {"exit", "start"}, "exit") == "start";
  return early;
}
}  // namespace cuda_detail

// ---- CudaBackend ---------------------------------------------------------------------------------
namespace {
// One non-blocking stream per device for the whole process. Every CudaBackend instance (the solver's,
// and those of agglomerated multigrid levels) issues its work into it, so work that crosses instances
// (e.g. one backend's copy_boxes into another's field) is ordered without events or host syncs.
cudaStream_t shared_stream(int device) {
  static std::mutex mutex;
  static std::map<int, cudaStream_t> streams;
  std::lock_guard<std::mutex> lock(mutex);
  cudaStream_t& s = streams[device];
  if (s == nullptr) PERKSOLVE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return s;
}

// Until the kernel on `stream` has written a count >= 0 into mapped pinned memory at `slot` (set to -1 before its
// launch). Every 2^14 polls the stream is queried: a kernel that failed, or ended without writing it, is an error.
void wait_for_mapped_count(const double* slot, cudaStream_t stream) {
  const volatile double* s = slot;
  for (unsigned k = 1; *s < 0.0; ++k) {
    if (k % (1u << 14) != 0) continue;
    const cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaErrorNotReady) continue;
    PERKSOLVE_CUDA_CHECK(e);
    if (*s < 0.0) throw std::logic_error("persistent_sweeps: the kernel ended without writing its result");
  }
  std::atomic_thread_fence(std::memory_order_acquire);  // the other slots and the history after the count
}
}  // namespace

template <class Real>
CudaBackend<Real>::CudaBackend(MPI_Comm comm) : Backend<Real>(comm) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count <= 0) {
    const std::string why = e != cudaSuccess ? std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e) + ": " +
                                                   cudaGetErrorString(e)
                                             : std::string("cudaGetDeviceCount returned 0 devices");
    cudaGetLastError();  // clear the sticky-free error state
    throw BackendUnavailable("backend 'cuda': no CUDA device found (" + why + ")");
  }
  device_ = local_rank(comm) % count;
  PERKSOLVE_CUDA_CHECK(cudaSetDevice(device_));
  PERKSOLVE_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device_));
  {
    // The PERKS concurrency model's device: peak DRAM bandwidth from the memory clock (double data rate) and
    // bus width (3.35 TB/s, an H100 SXM, where the driver does not say), shared memory per SM and per block.
    int optin = 0, smem_sm = 0, mem_khz = 0, bus_bits = 0, l2 = 0;
    PERKSOLVE_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device_));
    PERKSOLVE_CUDA_CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device_));
    if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device_) != cudaSuccess) mem_khz = 0;
    if (cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device_) != cudaSuccess) bus_bits = 0;
    if (cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device_) != cudaSuccess) l2 = 0;
    (void)cudaGetLastError();
    perks_device_.sms = sm_count_;
    perks_device_.smem_per_sm = smem_sm;
    perks_device_.smem_per_block = optin;
    perks_device_.l2_bytes = l2;
    perks_device_.bandwidth = mem_khz > 0 && bus_bits > 0 ? 2.0 * mem_khz * 1e3 * bus_bits / 8.0 : 3.35e12;
  }
  // (before any allocation: a bad value throws from the constructor)
  fast_memory_ = cuda_detail::perks_fast_memory(perks_device_);
  fast_memory_ = env_choice("PERKSOLVE_CUDA_MEMORY", {"fast", "normal"}, fast_memory_ ? "fast" : "normal") == "fast";
  stream_ = shared_stream(device_);
  PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&partials_), kMaxPartials * sizeof(double)));
  PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&work_counters_), 2 * sizeof(unsigned)));
  PERKSOLVE_CUDA_CHECK(cudaMemsetAsync(work_counters_, 0, 2 * sizeof(unsigned), stream_));
  PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&result_dev_), 4 * sizeof(double)));
  PERKSOLVE_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&result_host_), 4 * sizeof(double)));
  // The finishing kernels write their sums straight into the pinned buffer (mapped), so nothing stands between the
  // last kernel and the host's wait; PERKSOLVE_CUDA_SUMS_TO_HOST=0: into result_dev_ and a copy (for comparison).
  if (env_flag("PERKSOLVE_CUDA_SUMS_TO_HOST", true))
    PERKSOLVE_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&result_mapped_), result_host_, 0));
  spmv_cells_kernel_ = env_flag("PERKSOLVE_CUDA_SPMV_CELLS", true);
  program_cluster_ =
      env_int("PERKSOLVE_PROGRAM_CLUSTER", 0, 16, program_cluster_, "a block count from 0 to 16");
  schedule_tail_ = env_int("PERKSOLVE_CUDA_STREAM_TAIL", 0, 64, schedule_tail_,
                           "0 (equal chunks) or the tail's shortening factor, 2 to 64");
  perks_chunk_lead_ = env_flag("PERKSOLVE_PERKS_CHUNK_LEAD", true);
  perks_static_balance_ = env_flag("PERKSOLVE_PERKS_STATIC_BALANCE", true);
  perks_two_blocks_ = env_flag("PERKSOLVE_PERKS_TWO_BLOCKS", true);
  result_poll_ = env_flag("PERKSOLVE_CUDA_RESULT_POLL", true);
  if (env_flag("PERKSOLVE_PERKS_NEIGHBOUR_SYNC", true)) {
    perks_flag_count_ = 4L * sm_count_;  // (the resident kernel runs one or two blocks per SM)
    const std::size_t bytes =
        static_cast<std::size_t>(perks_flag_count_ + 1) * cuda_detail::kPerksFlagStride * sizeof(unsigned long long);
    PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&perks_sweep_flags_), bytes));
    PERKSOLVE_CUDA_CHECK(cudaMemsetAsync(perks_sweep_flags_, 0, bytes, stream_));
  }
  wide_tiles_ = env_choice("PERKSOLVE_CUDA_TILES", {"wide", "two_load"}, "wide") == "wide";
  const std::string spmv = env_choice("PERKSOLVE_CUDA_SPMV", {"native", "vector", "cusparse"}, "native");
  spmv_path_ = spmv == "cusparse" ? CudaSpmvPath::cusparse
               : spmv == "vector" ? CudaSpmvPath::native_vector
                                  : CudaSpmvPath::native;
  const std::string walk = env_choice("PERKSOLVE_CUDA_CG_WALK", {"auto", "staged", "per_thread", "rows"}, "auto");
  cg_walk_ = walk == "rows"         ? CudaCgWalk::rows
             : walk == "per_thread" ? CudaCgWalk::per_thread
             : walk == "staged"     ? CudaCgWalk::staged
                                    : CudaCgWalk::automatic;
}

template <class Real>
CudaBackend<Real>::~CudaBackend() {
  if (stream_) cudaStreamSynchronize(stream_);
  if (partials_) cudaFree(partials_);
  if (work_counters_) cudaFree(work_counters_);
  if (perks_sweep_flags_) cudaFree(perks_sweep_flags_);
  if (result_dev_) cudaFree(result_dev_);
  if (result_host_) cudaFreeHost(result_host_);
  if (staging_host_) cudaFreeHost(staging_host_);
  if (scratch_dev_) cudaFree(scratch_dev_);
  for (void* p : retired_scratch_) cudaFree(p);
  // The stream is shared by every backend instance on this device (see shared_stream) and lives
  // until the process ends.
}

template <class Real>
std::string CudaBackend<Real>::device_name() const {
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, device_) != cudaSuccess) return "unknown";
  return p.name;
}

template <class Real>
void CudaBackend<Real>::fence() {
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

template <class Real>
FieldPtr<Real> CudaBackend<Real>::create_field(const FieldLayout& layout) {
  require_valid_layout(layout);
  PERKSOLVE_CUDA_CHECK(cudaSetDevice(device_));
  return std::make_unique<CudaField<Real>>(layout);
}

template <class Real>
HostBuffer<Real> CudaBackend<Real>::create_host_buffer(long size) {
  Real* p = nullptr;
  PERKSOLVE_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&p), static_cast<std::size_t>(std::max(1L, size)) * sizeof(Real)));
  return HostBuffer<Real>{std::shared_ptr<Real[]>(p, [](Real* q) { cudaFreeHost(q); }), size};
}

template <class Real>
void CudaBackend<Real>::upload(Field<Real>& f, std::span<const Real> host) {
  if (static_cast<long>(host.size()) != f.layout().size()) throw std::logic_error("upload: host size mismatch");
  PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(as_cuda(f).data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice, stream_));
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

template <class Real>
void CudaBackend<Real>::download(const Field<Real>& f, std::span<Real> host) {
  if (static_cast<long>(host.size()) != f.layout().size()) throw std::logic_error("download: host size mismatch");
  PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(host.data(), as_cuda(f).data(), host.size_bytes(), cudaMemcpyDeviceToHost, stream_));
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

template <class Real>
void CudaBackend<Real>::fill(Field<Real>& f, Real value) {
  const long n = f.layout().size();
  if (n <= 0) return;
  if (builder_) {
    ProgramOp<Real> op;
    op.kind = ProgramOpKind::fill;
    op.out = as_cuda(f).data();
    op.l = f.layout();
    op.a = value;
    builder_->ops.push_back(op);
    return;
  }
  fill_kernel<Real><<<grid_for(n, sm_count_), kThreads, 0, stream_>>>(as_cuda(f).data(), n, value);
  PERKSOLVE_CUDA_CHECK_LAUNCH("fill_kernel");
}

template <class Real>
void CudaBackend<Real>::copy(const Field<Real>& src, Field<Real>& dst) {
  require_same_layout(src.layout(), dst.layout(), "copy");
  if (&src == &dst) return;
  if (builder_) {
    ProgramOp<Real> op;
    op.kind = ProgramOpKind::copy;
    op.out = as_cuda(dst).data();
    op.in = as_cuda(src).data();
    op.l = src.layout();
    builder_->ops.push_back(op);
    return;
  }
  PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(as_cuda(dst).data(), as_cuda(src).data(),
                                       static_cast<std::size_t>(src.layout().size()) * sizeof(Real),
                                       cudaMemcpyDeviceToDevice, stream_));
}

template <class Real>
void CudaBackend<Real>::axpby(Real a, const Field<Real>& x, Real b, Field<Real>& y) {
  require_same_layout(x.layout(), y.layout(), "axpby");
  cuda_ops::launch_axpby_rows<false, false>(a, x, b, y, nullptr, nullptr, sm_count_, stream_);
}

template <class Real>
void CudaBackend<Real>::finish_into(const double* partials, int count, int k) {
  if (result_mapped_) {
    pdl_launch(finish_kernel<false>, dim3(1), dim3(kThreads), 0, stream_, partials, count, result_mapped_ + k);
    return;
  }
  pdl_launch(finish_kernel<false>, dim3(1), dim3(kThreads), 0, stream_, partials, count, result_dev_ + k);
  PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(result_host_ + k, result_dev_ + k, sizeof(double), cudaMemcpyDeviceToHost,
                                       stream_));
}

template <class Real>
double CudaBackend<Real>::finish_partials(int count) {
  if (count <= 0) *result_host_ = 0.0;
  else finish_into(partials_, count, 0);
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return *result_host_;
}

template <class Real>
std::array<double, 2> CudaBackend<Real>::finish_partials2(int count) {
  if (count <= 0) {
    result_host_[0] = result_host_[1] = 0.0;
  } else {
    finish_into(partials_, count, 0);
    finish_into(partials_ + kMaxPartials / 2, count, 1);
  }
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return {result_host_[0], result_host_[1]};
}

template <class Real>
int CudaBackend<Real>::launch_dot_partials(const Field<Real>& x, const Field<Real>& y) {
  const long total = x.layout().owned_size();
  int blocks = 0;
  if (total > 0) {
    const OwnedRows m = owned_rows(x.layout());
    blocks = std::min(rows_grid(m, sm_count_), kMaxPartials);
    pdl_launch(dot_kernel<Real>, dim3(blocks), dim3(kThreads), 0, stream_, as_cuda(x).data(), as_cuda(y).data(), m,
               partials_);
  }
  return blocks;
}

template <class Real>
double CudaBackend<Real>::dot(const Field<Real>& x, const Field<Real>& y) {
  require_same_layout(x.layout(), y.layout(), "dot");
  return this->allreduce_sum(finish_partials(launch_dot_partials(x, y)));
}

template <class Real>
void CudaBackend<Real>::axpby_norm_later(Real a, const Field<Real>& x, Real b, Field<Real>& y, int slot) {
  require_same_layout(x.layout(), y.layout(), "axpby_norm_later");
  this->check_sum_slot(slot);
  finish_partials_later(cuda_ops::launch_axpby_rows<false, true>(a, x, b, y, nullptr, partials_, sm_count_, stream_),
                        slot);
}

template <class Real>
void CudaBackend<Real>::finish_partials_later(int count, int slot) {
  static_assert(2 + Backend<Real>::kSumSlots <= 4, "result_dev_ holds two sums and the sum slots");
  // (0 partials: +0)
  finish_into(partials_, std::max(count, 0), 2 + this->check_sum_slot(slot));
}

template <class Real>
void CudaBackend<Real>::dot_later(const Field<Real>& x, const Field<Real>& y, int slot) {
  require_same_layout(x.layout(), y.layout(), "dot_later");
  finish_partials_later(launch_dot_partials(x, y), slot);
}

template <class Real>
double CudaBackend<Real>::collect_sum(int slot) {
  const int k = this->check_sum_slot(slot);
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return this->allreduce_sum(result_host_[2 + k]);
}

template <class Real>
double CudaBackend<Real>::norm2(const Field<Real>& x) {
  return std::sqrt(dot(x, x));
}

template <class Real>
double CudaBackend<Real>::norm_inf(const Field<Real>& x) {
  const long total = x.layout().owned_size();
  double local = 0.0;
  if (total > 0) {
    const OwnedRows m = owned_rows(x.layout());
    const int blocks = std::min(rows_grid(m, sm_count_), kMaxPartials);
    maxabs_kernel<Real><<<blocks, kThreads, 0, stream_>>>(as_cuda(x).data(), m, partials_);
    PERKSOLVE_CUDA_CHECK_LAUNCH("maxabs_kernel");
    pdl_launch(finish_kernel<true>, dim3(1), dim3(kThreads), 0, stream_, partials_, blocks, result_dev_);
    PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(result_host_, result_dev_, sizeof(double), cudaMemcpyDeviceToHost, stream_));
    PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    local = *result_host_;
  }
  return this->allreduce_max(local);
}

template <class Real>
StencilRequest<Real> CudaBackend<Real>::stencil_request(const Stencil& A, const FieldLayout& l, const Real* x,
                                                       const Real* b, Real* out) const {
  StencilRequest<Real> r;
  r.stencil = &A;
  r.layout = l;
  r.x = x;
  r.b = b;
  r.out = out;
  r.partials = partials_;
  r.work_counters = work_counters_;
  r.sm_count = sm_count_;
  r.stream = stream_;
  r.wide_tiles = wide_tiles_;
  r.fast_memory = fast_memory_;
  r.schedule_tail = schedule_tail_;
  return r;
}

template <class Real>
int CudaBackend<Real>::launch_templated(const Stencil& A, StencilRequest<Real>& r, StencilMode m) {
  const FieldLayout& l = r.layout;
  if (force_generic_ || !canonical_offsets(A) || l.owned_size() <= 0) return -1;
  int n = -1;
  if (A.shape.dim == 3) {
    r.symmetric = mirror_symmetric(A);
    bool sym = false;
    n = cuda_detail::launch_templated_stencil_3d<Real>(r, m, &sym);
    if (n >= 0) last_path_ = sym ? CudaStencilPath::templated_symmetric : CudaStencilPath::templated;
  } else if (A.shape.dim == 2) {
    n = cuda_detail::launch_templated_stencil_2d<Real>(r, m);
    if (n >= 0) last_path_ = CudaStencilPath::templated;
  }
  return n;
}

template <class Real>
double CudaBackend<Real>::run_stencil(Mode mode, const Stencil& A, Real scale, const Field<Real>* b, const Field<Real>& x,
                                      Field<Real>& out, bool want_norm) {
  const FieldLayout& l = x.layout();
  check_reach(A, l);
  StencilRequest<Real> r = stencil_request(A, l, as_cuda(x).data(), b ? as_cuda(*b).data() : nullptr, as_cuda(out).data());
  r.scale = scale;
  const StencilMode m = mode == Mode::apply ? StencilMode::apply
                        : mode == Mode::residual ? StencilMode::residual
                                                 : StencilMode::jacobi;
  if (builder_ && (mode != Mode::jacobi || !want_norm) && A.size() <= cuda_ops::kProgramMaxPoints &&
      static_cast<int>(A.coeffs.size()) == A.size()) {
    ProgramOp<Real> op;
    op.kind = ProgramOpKind::stencil;
    op.mode = static_cast<int>(m);
    op.out = r.out;
    op.in = r.x;
    op.b = r.b;
    op.l = l;
    op.map = owned_map(l);
    op.a = scale;
    op.np = A.size();
    for (int p = 0; p < op.np; ++p) {
      const long off = A.offsets[p].dx + A.offsets[p].dy * l.stride_y() + A.offsets[p].dz * l.stride_z();
      if (off != static_cast<int>(off)) throw std::runtime_error("persistent program: stencil offset beyond 32 bits");
      op.off[p] = static_cast<int>(off);
      op.c[p] = static_cast<Real>(A.coeffs[p]);
    }
    builder_->ops.push_back(op);
    return 0.0;
  }
  int n = launch_templated(A, r, m);
  if (n < 0) {
    n = cuda_detail::launch_generic_stencil<Real>(r, m);
    last_path_ = CudaStencilPath::generic;
  }
  if (mode != Mode::jacobi || !want_norm) return 0.0;
  return this->allreduce_sum(finish_partials(n));
}

template <class Real>
void CudaBackend<Real>::apply_stencil(const Stencil& s, const Field<Real>& in, Field<Real>& out) {
  require_same_layout(in.layout(), out.layout(), "apply_stencil");
  run_stencil(Mode::apply, s, Real(0), nullptr, in, out);
}

template <class Real>
double CudaBackend<Real>::apply_stencil_dot(const Stencil& s, const Field<Real>& in, Field<Real>& out) {
  require_same_layout(in.layout(), out.layout(), "apply_stencil_dot");
  const FieldLayout& l = in.layout();
  check_reach(s, l);
  if (!builder_) {  // (a recording cannot return the product: apply, then dot, which refuses to record)
    StencilRequest<Real> r = stencil_request(s, l, as_cuda(in).data(), nullptr, as_cuda(out).data());
    const int n = launch_templated(s, r, StencilMode::apply_dot);
    if (n >= 0) return this->allreduce_sum(finish_partials(n));
  }
  apply_stencil(s, in, out);
  return dot(in, out);
}

template <class Real>
void CudaBackend<Real>::residual(const Stencil& A, const Field<Real>& b, const Field<Real>& x, Field<Real>& r) {
  require_same_layout(b.layout(), x.layout(), "residual");
  require_same_layout(x.layout(), r.layout(), "residual");
  run_stencil(Mode::residual, A, Real(0), &b, x, r);
}

template <class Real>
double CudaBackend<Real>::jacobi_sweep(const Stencil& A, Real omega, const Field<Real>& b, const Field<Real>& x,
                                       Field<Real>& x_new) {
  require_same_layout(b.layout(), x.layout(), "jacobi_sweep");
  require_same_layout(x.layout(), x_new.layout(), "jacobi_sweep");
  const Real scale = omega / static_cast<Real>(A.center_coeff());
  return run_stencil(Mode::jacobi, A, scale, &b, x, x_new);
}

template <class Real>
void CudaBackend<Real>::jacobi_update(const Stencil& A, Real omega, const Field<Real>& b, const Field<Real>& x,
                                      Field<Real>& x_new) {
  require_same_layout(b.layout(), x.layout(), "jacobi_update");
  require_same_layout(x.layout(), x_new.layout(), "jacobi_update");
  const Real scale = omega / static_cast<Real>(A.center_coeff());
  run_stencil(Mode::jacobi, A, scale, &b, x, x_new, /*want_norm=*/false);
}

template <class Real>
bool CudaBackend<Real>::jacobi_pair_supported(const Stencil& A, const FieldLayout& l) const {
  return !builder_ && !force_generic_ && canonical_offsets(A) && cuda_detail::jacobi_pair_available<Real>(A.shape, l);
}

template <class Real>
void CudaBackend<Real>::jacobi_update_pair(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b,
                                           const Field<Real>* x, Field<Real>& out) {
  this->check_jacobi_pair_call(A, b, x, out);
  run_pair(A, omega1, omega2, b, x, out, nullptr);
}

template <class Real>
void CudaBackend<Real>::jacobi_pair_residual(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b,
                                             Field<Real>& out, Field<Real>& r) {
  this->check_jacobi_pair_call(A, b, nullptr, out);
  require_same_layout(b.layout(), r.layout(), "jacobi_pair_residual");
  if (&r == &out || &r == &b) throw std::invalid_argument("jacobi_pair_residual: r must be distinct from b and out");
  run_pair(A, omega1, omega2, b, nullptr, out, &r);
}

template <class Real>
void CudaBackend<Real>::jacobi_update_pair_dot(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b,
                                               const Field<Real>& x, Field<Real>& out, int slot) {
  this->check_jacobi_pair_call(A, b, &x, out);
  run_pair(A, omega1, omega2, b, &x, out, nullptr, this->check_sum_slot(slot));
}

template <class Real>
void CudaBackend<Real>::run_pair(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b, const Field<Real>* x,
                                 Field<Real>& out, Field<Real>* r, int dot_slot) {
  const FieldLayout& l = b.layout();
  if (l.owned_size() <= 0) {
    if (dot_slot >= 0) finish_partials_later(0, dot_slot);
    return;
  }
  StencilRequest<Real> q = stencil_request(A, l, x ? as_cuda(*x).data() : nullptr, as_cuda(b).data(), as_cuda(out).data());
  const Real center = static_cast<Real>(A.center_coeff());
  const long blocks = cuda_detail::launch_jacobi_pair<Real>(q, omega1 / center, omega2 / center, x == nullptr,
                                                            r ? as_cuda(*r).data() : nullptr,
                                                            dot_slot >= 0 ? partials_ : nullptr);
  last_path_ = CudaStencilPath::templated;
  if (dot_slot < 0) return;
  if (blocks >= 0) {
    finish_partials_later(static_cast<int>(blocks), dot_slot);
  } else {  // more blocks than partial slots: the pair, then its own dot pass
    run_pair(A, omega1, omega2, b, x, out, r);
    dot_later(b, out, dot_slot);
  }
}

template <class Real>
void CudaBackend<Real>::ensure_staging(std::size_t bytes) {
  if (bytes <= staging_bytes_) return;
  if (staging_host_) {
    PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    cudaFreeHost(staging_host_);
    staging_host_ = nullptr;
  }
  PERKSOLVE_CUDA_CHECK(cudaMallocHost(&staging_host_, bytes));
  staging_bytes_ = bytes;
  staging_mapped_ = nullptr;
  if (result_mapped_) PERKSOLVE_CUDA_CHECK(cudaHostGetDevicePointer(&staging_mapped_, staging_host_, 0));
}

template <class Real>
void CudaBackend<Real>::ensure_device_scratch(std::size_t bytes) {
  if (bytes <= scratch_bytes_) return;
  // The old buffer may be held by recorded work (a CUDA graph of earlier copy_boxes): keep it until the
  // backend goes away. Growth happens a handful of times per run.
  if (scratch_dev_) retired_scratch_.push_back(scratch_dev_);
  scratch_dev_ = nullptr;
  PERKSOLVE_CUDA_CHECK(cudaMalloc(&scratch_dev_, bytes));
  scratch_bytes_ = bytes;
}

namespace {
template <class Real, bool PACK>
void launch_pack(Real* field, Real* buf, std::span<const IndexBox> boxes, const FieldLayout& l, int sm_count,
                 cudaStream_t s) {
  long done = 0;
  for (std::size_t first = 0; first < boxes.size(); first += kBoxesPerLaunch) {
    BoxBatch bb{};
    bb.count = 0;
    long pos = 0;
    for (std::size_t i = first; i < boxes.size() && i < first + kBoxesPerLaunch; ++i) {
      const IndexBox& b = boxes[i];
      bb.base[bb.count] = pos;
      for (int a = 0; a < 3; ++a) {
        bb.begin[bb.count][a] = b.begin[a];
        bb.end[bb.count][a] = b.end[a];
      }
      bb.extent[bb.count][0] = std::max(1, b.end[0] - b.begin[0]);
      bb.extent[bb.count][1] = std::max(1, b.end[1] - b.begin[1]);
      pos += b.count();
      ++bb.count;
    }
    bb.base[bb.count] = pos;
    if (pos > 0) {
      pdl_launch(pack_kernel<Real, PACK>, dim3(grid_for(pos, sm_count)), dim3(kThreads), 0, s, field, buf + done, bb, l);
    }
    done += pos;
  }
}
}  // namespace

template <class Real>
void CudaBackend<Real>::pack(const Field<Real>& f, std::span<const IndexBox> boxes, Real* host) {
  long total = 0;
  for (const IndexBox& b : boxes) total += b.count();
  if (total == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(total) * sizeof(Real);
  ensure_device_scratch(bytes);
  Real* dbuf = static_cast<Real*>(scratch_dev_);
  launch_pack<Real, true>(const_cast<Real*>(as_cuda(f).data()), dbuf, boxes, f.layout(), sm_count_, stream_);
  if (is_pinned(host)) {
    PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(host, dbuf, bytes, cudaMemcpyDeviceToHost, stream_));
    PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  } else {
    ensure_staging(bytes);
    PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(staging_host_, dbuf, bytes, cudaMemcpyDeviceToHost, stream_));
    PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::memcpy(host, staging_host_, bytes);
  }
}

template <class Real>
void CudaBackend<Real>::unpack(Field<Real>& f, std::span<const IndexBox> boxes, const Real* host) {
  long total = 0;
  for (const IndexBox& b : boxes) total += b.count();
  if (total == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(total) * sizeof(Real);
  ensure_device_scratch(bytes);
  Real* dbuf = static_cast<Real*>(scratch_dev_);
  const void* src = host;
  if (!is_pinned(host)) {
    ensure_staging(bytes);
    PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));  // staging no longer in use by a previous copy
    std::memcpy(staging_host_, host, bytes);
    src = staging_host_;
  }
  PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(dbuf, src, bytes, cudaMemcpyHostToDevice, stream_));
  launch_pack<Real, false>(as_cuda(f).data(), dbuf, boxes, f.layout(), sm_count_, stream_);
  // The caller may reuse its host buffer (e.g. the next MPI receive) as soon as we return.
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

// Device-side: pack the source boxes into the device scratch buffer, unpack it into the destination
// boxes (two launches, stream-ordered, no host synchronisation).
template <class Real>
void CudaBackend<Real>::copy_boxes(const Field<Real>& src, std::span<const IndexBox> src_boxes, Field<Real>& dst,
                                   std::span<const IndexBox> dst_boxes) {
  this->check_box_pairs(src_boxes, dst_boxes);
  long total = 0;
  for (const IndexBox& b : src_boxes) total += b.count();
  if (total == 0) return;
  if (builder_ && src_boxes.size() <= static_cast<std::size_t>(cuda_ops::kProgramMaxBoxes)) {
    ProgramOp<Real> op;
    op.kind = ProgramOpKind::copy_boxes;
    op.out = as_cuda(dst).data();
    op.in = as_cuda(src).data();
    op.l = dst.layout();
    op.l2 = src.layout();
    op.nbox = static_cast<int>(src_boxes.size());
    for (int b = 0; b < op.nbox; ++b) {
      for (int a = 0; a < 3; ++a) {
        op.sb[b][a] = src_boxes[b].begin[a], op.sb[b][3 + a] = std::max(src_boxes[b].end[a], src_boxes[b].begin[a] + 1);
        op.db[b][a] = dst_boxes[b].begin[a], op.db[b][3 + a] = std::max(dst_boxes[b].end[a], dst_boxes[b].begin[a] + 1);
      }
      op.base[b + 1] = op.base[b] + src_boxes[b].count();
    }
    builder_->ops.push_back(op);
    return;
  }
  ensure_device_scratch(static_cast<std::size_t>(total) * sizeof(Real));
  Real* dbuf = static_cast<Real*>(scratch_dev_);
  launch_pack<Real, true>(const_cast<Real*>(as_cuda(src).data()), dbuf, src_boxes, src.layout(), sm_count_, stream_);
  launch_pack<Real, false>(as_cuda(dst).data(), dbuf, dst_boxes, dst.layout(), sm_count_, stream_);
}

template <class Real>
void CudaBackend<Real>::fill_boundary_ghosts(Field<Real>& f, const BoundaryFace& face, bool homogeneous) {
  const FieldLayout l = f.layout();
  const int a = face.axis;
  const int g = l.ghost[a];
  if (g == 0 || face.bc.type == BoundaryType::periodic) return;
  int lo[3] = {-l.ghost[0], -l.ghost[1], -l.ghost[2]};
  int hi[3] = {l.n[0] + l.ghost[0], l.n[1] + l.ghost[1], l.n[2] + l.ghost[2]};
  lo[a] = 0;
  hi[a] = g;
  const int e0 = hi[0] - lo[0], e1 = hi[1] - lo[1], e2 = hi[2] - lo[2];
  const long total = static_cast<long>(e0) * e1 * e2;
  if (total <= 0) return;
  if (builder_) {  // one face is a face set of one
    fill_boundary_faces(f, std::span<const BoundaryFace>(&face, 1), homogeneous);
    return;
  }
  boundary_kernel<Real><<<grid_for(total, sm_count_), kThreads, 0, stream_>>>(
      as_cuda(f).data(), l, face_rule<Real>(face, homogeneous), lo[0], lo[1], lo[2], e0, e1, e2);
  PERKSOLVE_CUDA_CHECK_LAUNCH("boundary_kernel");
}

namespace {
// The faces as a FaceSet; false when one launch cannot give the sequential result (faces out of axis
// order, or an (axis, side) listed twice).
template <class Real>
bool make_face_set(const FieldLayout& l, std::span<const BoundaryFace> faces, bool homogeneous, FaceSet<Real>& fs) {
  fs = FaceSet<Real>{};
  int last_axis = -1;
  for (const BoundaryFace& face : faces) {
    if (l.ghost[face.axis] == 0 || face.bc.type == BoundaryType::periodic) continue;
    if (face.axis < last_axis || fs.has[face.axis][face.side]) return false;
    if (l.ghost[face.axis] > cuda_ops::kMaxPackedGhostWidth) return false;  // the batched fills pack distances
    last_axis = face.axis;
    fs.has[face.axis][face.side] = true;
    fs.rule[face.axis][face.side] = face_rule<Real>(face, homogeneous);
  }
  cuda_ops::face_set_slabs(l, fs);
  return true;
}
}  // namespace

template <class Real>
void CudaBackend<Real>::fill_boundary_faces(Field<Real>& f, std::span<const BoundaryFace> faces, bool homogeneous) {
  const FieldLayout l = f.layout();
  FaceSet<Real> fs;
  if (!make_face_set(l, faces, homogeneous, fs)) {
    Backend<Real>::fill_boundary_faces(f, faces, homogeneous);
    return;
  }
  const long total = fs.total();
  if (total <= 0) return;
  if (builder_) {
    ProgramOp<Real> op;
    op.kind = ProgramOpKind::faces;
    op.out = as_cuda(f).data();
    op.l = l;
    op.faces = fs;
    builder_->ops.push_back(op);
    return;
  }
  pdl_launch(boundary_faces_kernel<Real>, dim3(grid_for(total, sm_count_)), dim3(kThreads), 0, stream_,
             as_cuda(f).data(), l, fs, cuda_detail::pdl_faces_release_early());
}

template <class Real>
PersistentSweeps CudaBackend<Real>::persistent_sweeps(const Stencil& A, const PersistentSweepsRequest& q,
                                                      const Field<Real>* b, Field<Real>& x, Field<Real>& y,
                                                      std::span<const BoundaryFace> faces, bool homogeneous) {
  PersistentSweeps res;
  const FieldLayout& l = x.layout();
  require_same_layout(l, y.layout(), "persistent_sweeps");
  if (b) require_same_layout(l, b->layout(), "persistent_sweeps");
  if ((q.kind == SweepKind::jacobi) != (b != nullptr))
    throw std::logic_error("persistent_sweeps: Jacobi sweeps need b, apply sweeps take none");
  check_reach(A, l);
  if (force_generic_ || !canonical_offsets(A) || l.owned_size() <= 0 || q.sweeps <= 0 || A.shape.dim < 2) return res;
  if (has_periodic_face(faces)) return res;
  cuda_detail::PerksRequest<Real> pr;
  StencilRequest<Real>& r = pr.base;
  r = stencil_request(A, l, as_cuda(x).data(), b ? as_cuda(*b).data() : nullptr, nullptr);
  r.scale = q.kind == SweepKind::jacobi ? static_cast<Real>(q.omega) / static_cast<Real>(A.center_coeff()) : Real(0);
  r.symmetric = A.shape.dim == 3 && mirror_symmetric(A);
  pr.y = as_cuda(y).data();
  // (The pipelined kernel's face phase numbers the cells of a slab with 32 bits.)
  if (!make_face_set(l, faces, homogeneous, pr.faces) || !cuda_ops::face_slabs_fit_32_bits(pr.faces.slab)) return res;
  pr.sweeps = q.sweeps;
  pr.first = q.first;
  pr.stop = cuda_detail::loop_stop_of(q);
  // The kernel's block 0 writes its result (3 doubles, once, at its end) straight into the pinned buffer where it is
  // mapped (PERKSOLVE_CUDA_SUMS_TO_HOST), as the finishing kernels of the sums do; else into result_dev_ and a copy.
  // H200, perks_bench with the switch 0 / 1 (benchmarks/results/gpu-h200-2026-11-29-static-balance/run9): 0.1-0.3 us
  // less per sweep at 20 sweeps per call on the small domains (Jacobi small 1.356 / 1.375 -> 1.377 / 1.382, apply
  // 1.499 -> 1.528).
  pr.result_dev = result_mapped_ ? result_mapped_ : result_dev_;
  // The Jacobi residual history: written by the kernel straight into the pinned staging buffer where it is mapped
  // (with the result, PERKSOLVE_CUDA_SUMS_TO_HOST), else into device scratch and copied there behind the result.
  if (q.kind == SweepKind::jacobi) {
    const std::size_t history_bytes = static_cast<std::size_t>(q.sweeps) * sizeof(double);
    ensure_staging(history_bytes);
    if (staging_mapped_) {
      pr.history_dev = static_cast<double*>(staging_mapped_);
    } else {
      ensure_device_scratch(history_bytes);
      pr.history_dev = static_cast<double*>(scratch_dev_);
    }
  }
  pr.cache_bytes = q.cache_bytes;
  pr.device = perks_device_;
  pr.max_blocks = q.max_blocks;
  pr.kernel = q.kernel;
  pr.rhs_on_chip = q.rhs_on_chip;
  pr.chunk_lead = perks_chunk_lead_;
  pr.resident_two_blocks = perks_two_blocks_;
  pr.static_balance = perks_static_balance_;
  if (perks_sweep_flags_ != nullptr && q.sweeps < (1L << 31)) {  // (a launch's flag values stay below the next's)
    pr.sweep_flags.flag = perks_sweep_flags_;
    pr.sweep_flags.epoch =
        reinterpret_cast<unsigned*>(perks_sweep_flags_ + perks_flag_count_ * cuda_detail::kPerksFlagStride);
    pr.sweep_flag_count = perks_flag_count_;
  }
  // PERKSOLVE_PERKS_TRACE=file: the blocks stamp their sweeps (perks_trace.hpp); a buffer for the most blocks a
  // launch can have (32 per SM).
  static const std::string trace_path = [] {
    const char* t = std::getenv("PERKSOLVE_PERKS_TRACE");
    return std::string(t != nullptr ? t : "");
  }();
  std::unique_ptr<unsigned long long, decltype(&cudaFree)> trace(nullptr, &cudaFree);
  if (!trace_path.empty()) {
#if PERKSOLVE_PERKS_TRACE_BUILD
    const std::size_t bytes = cuda_detail::perks_trace_slots(32 * sm_count_) * sizeof(unsigned long long);
    unsigned long long* p = nullptr;
    PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), bytes));
    trace.reset(p);
    PERKSOLVE_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, stream_));
    pr.timing_dev = p;
#else
    throw std::runtime_error("PERKSOLVE_PERKS_TRACE is set, but this libperksolve_cuda was built without the PERKS "
                             "sweep stamps: configure with -DPERKSOLVE_PERKS_TRACE=ON (a diagnostic build)");
#endif
  }
  // Where the kernel writes its result into mapped pinned memory, the host polls the sweep count (written last, behind
  // a system-scope fence: perks_store_result) instead of synchronising the stream, and returns as soon as it is there:
  // not after the kernel's teardown and the driver's completion signal. Later work on the stream still waits for the
  // kernel. PERKSOLVE_CUDA_RESULT_POLL=0 synchronises; so does a traced launch (its stamps are copied after).
  const bool poll = result_poll_ && result_mapped_ != nullptr && !trace;
  if (poll) *reinterpret_cast<volatile double*>(result_host_) = -1.0;  // (no GPU write to it is pending here)
  const StencilMode mode = q.kind == SweepKind::jacobi ? StencilMode::jacobi : StencilMode::apply;
  const cuda_detail::PerksLaunch launch = A.shape.dim == 3 ? cuda_detail::launch_templated_perks_3d<Real>(pr, mode)
                                                           : cuda_detail::launch_templated_perks_2d<Real>(pr, mode);
  if (!launch.launched) return res;
  PERKSOLVE_CUDA_CHECK_LAUNCH(launch.kernel == PerksKernel::resident    ? "perks_resident_kernel"
                              : launch.kernel == PerksKernel::pipelined ? "perks_pipelined_kernel"
                                                                        : "perks_stencil_kernel");
  // The result and (Jacobi) the residual history come back behind one synchronisation: mapped, the kernel wrote them
  // into pinned memory; else their copies (all `sweeps` slots of the history) are queued here, before anyone knows how
  // many sweeps ran. (A second, synchronous copy of the history from device to pageable memory had cost 9-12 us per
  // Jacobi call on the H200: benchmarks/results/gpu-h200-2026-11-29-static-balance/run7.)
  if (!result_mapped_)
    PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(result_host_, result_dev_, 3 * sizeof(double), cudaMemcpyDeviceToHost, stream_));
  if (pr.history_dev && !staging_mapped_)
    PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(staging_host_, pr.history_dev,
                                         static_cast<std::size_t>(q.sweeps) * sizeof(double), cudaMemcpyDeviceToHost,
                                         stream_));
  if (poll) wait_for_mapped_count(result_host_, stream_);
  else PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  res.ran = true;
  res.sweeps = static_cast<long>(result_host_[0]);
  res.last_rr = result_host_[1];
  res.kernel = launch.kernel;
  res.blocks = launch.blocks;
  res.threads = launch.threads;
  res.cache_planes = launch.cache_planes;
  res.cached_fraction = launch.cached_fraction;
  res.rhs_on_chip = launch.rhs_on_chip;
  res.face_planes_on_chip = launch.face_planes_on_chip;
  res.neighbour_sync = launch.neighbour_sync;
  res.tile_x = launch.tile_x;
  res.plane_sync_steps = launch.plane_sync_steps;
  res.chunk_lead = launch.chunk_lead;
  res.inflight_bytes_per_sm = launch.inflight_bytes_per_sm;
  res.needed_bytes_per_sm = launch.needed_bytes_per_sm;
  res.model_speedup = launch.model_speedup;
  res.stopped = result_host_[2] != 0.0;
  if (trace) {
    std::vector<unsigned long long> stamps(cuda_detail::perks_trace_slots(launch.blocks));
    PERKSOLVE_CUDA_CHECK(cudaMemcpy(stamps.data(), trace.get(), stamps.size() * sizeof(unsigned long long),
                                    cudaMemcpyDeviceToHost));
    const std::string shape = A.name + (sizeof(Real) == 8 ? " fp64" : " fp32") +
                              (q.kind == SweepKind::jacobi ? " jacobi" : " apply");
    if (!cuda_detail::append_perks_trace(trace_path, perks_kernel_name(launch.kernel), shape.c_str(), launch.blocks,
                                         res.sweeps, stamps))
      throw std::runtime_error("PERKSOLVE_PERKS_TRACE: cannot append to '" + trace_path + "'");
  }
  if (pr.history_dev && res.sweeps > 0) {
    const double* h = static_cast<const double*>(staging_host_);
    res.rr_history.assign(h, h + res.sweeps);
    // Defined where the residual is needed (the resident kernel computes it only there). A launch that stopped
    // early stopped at a check, so its last sweep done counts as the last one.
    for (long t = 0; t < res.sweeps; ++t)
      if (!pr.stop.residual_needed(q.first, t, res.sweeps))
        res.rr_history[static_cast<std::size_t>(t)] = std::numeric_limits<double>::quiet_NaN();
  }
  return res;
}

template <class Real>
PersistentCg CudaBackend<Real>::read_persistent_cg_result(const double* result_dev, const double* history_dev) {
  PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(result_host_, result_dev, 4 * sizeof(double), cudaMemcpyDeviceToHost, stream_));
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  PersistentCg res;
  res.ran = true;
  res.iterations = static_cast<long>(result_host_[0]);
  res.stop = result_host_[1] == 2.0 ? PersistentCgStop::breakdown
             : result_host_[1] == 1.0 ? PersistentCgStop::threshold
                                      : PersistentCgStop::budget;
  res.rr = result_host_[2];
  res.pq = result_host_[3];
  res.rr_history.resize(static_cast<std::size_t>(res.iterations));
  if (res.iterations > 0)
    PERKSOLVE_CUDA_CHECK(cudaMemcpy(res.rr_history.data(), history_dev, res.rr_history.size() * sizeof(double),
                                    cudaMemcpyDeviceToHost));
  return res;
}

template <class Real>
PersistentCg CudaBackend<Real>::persistent_stencil_cg(const Stencil& A, std::span<const BoundaryFace> faces,
                                                      Field<Real>& x, Field<Real>& r, Field<Real>& p, Field<Real>& q,
                                                      const PersistentCgRequest& req) {
  PersistentCg res;
  const FieldLayout& l = p.layout();
  for (const Field<Real>* f : {&x, &r, &q}) require_same_layout(l, f->layout(), "persistent_stencil_cg");
  check_reach(A, l);
  if (builder_ || force_generic_ || !canonical_offsets(A) || l.owned_size() <= 0 || req.iterations <= 0 ||
      A.shape.dim < 2 || l.size() > 0x7fffffffL)
    return res;
  if (has_periodic_face(faces)) return res;
  cuda_detail::StencilCgRequest<Real> c;
  c.base = stencil_request(A, l, as_cuda(p).data(), nullptr, as_cuda(q).data());
  if (!make_face_set(l, faces, /*homogeneous=*/true, c.faces)) return res;
  c.x = as_cuda(x).data();
  c.r = as_cuda(r).data();
  c.iterations = req.iterations;
  c.first = req.first;
  c.rr = req.rr;
  c.stop = cuda_detail::loop_stop_of(req);
  c.cache_bytes = req.cache_bytes;
  c.max_blocks = req.max_blocks;
  c.device = perks_device_;
  ensure_device_scratch(static_cast<std::size_t>(req.iterations) * sizeof(double));
  c.history_dev = static_cast<double*>(scratch_dev_);
  c.result_dev = result_dev_;
  const cuda_detail::StencilCgLaunch launch = cuda_detail::launch_templated_stencil_cg<Real>(c);
  if (!launch.launched) return res;
  PERKSOLVE_CUDA_CHECK_LAUNCH("stencil_cg_kernel");
  res = read_persistent_cg_result(result_dev_, c.history_dev);
  res.blocks = launch.blocks;
  res.threads = launch.threads;
  res.cached_r = launch.cached_r;
  res.cached_x = launch.cached_x;
  return res;
}

template <class Real>
void CudaBackend<Real>::scale(Real a, const Field<Real>& x, Field<Real>& y) {
  require_same_layout(x.layout(), y.layout(), "scale");
  const long total = x.layout().owned_size();
  if (total <= 0) return;
  if (builder_) {
    ProgramOp<Real> op;
    op.kind = ProgramOpKind::scale;
    op.out = as_cuda(y).data();
    op.in = as_cuda(x).data();
    op.l = x.layout();
    op.map = owned_map(x.layout());
    op.a = a;
    builder_->ops.push_back(op);
    return;
  }
  const OwnedRows m = owned_rows(x.layout());
  scale_kernel<Real><<<rows_grid(m, sm_count_), kThreads, 0, stream_>>>(a, as_cuda(x).data(), as_cuda(y).data(), m);
  PERKSOLVE_CUDA_CHECK_LAUNCH("scale_kernel");
}

// ---- recorded work: CUDA graphs ---------------------------------------------------------------------
namespace {
class CudaGraphReplay final : public RecordedWork {
 public:
  CudaGraphReplay(cudaGraphExec_t exec, cudaStream_t stream) : exec_(exec), stream_(stream) {}
  ~CudaGraphReplay() override {
    cudaStreamSynchronize(stream_);  // a replay in flight still uses the executable graph
    cudaGraphExecDestroy(exec_);
  }
  void replay() override {
    PERKSOLVE_CUDA_CHECK(cudaGraphLaunch(exec_, stream_));
  }

 private:
  cudaGraphExec_t exec_;
  cudaStream_t stream_;
};
}  // namespace

template <class Real>
std::unique_ptr<RecordedWork> CudaBackend<Real>::record(std::function<void()> work) {
  // Relaxed mode: first-use set-up calls inside `work` (occupancy queries, function attributes) are
  // allowed; anything that would synchronise (a reduction, a host copy) fails the capture instead.
  PERKSOLVE_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeRelaxed));
  bool failed = false;
  try {
    work();
  } catch (...) {
    failed = true;
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(stream_, &graph);
  failed |= end != cudaSuccess || graph == nullptr;
  cudaGraphExec_t exec = nullptr;
  if (!failed) failed = cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess;
  if (graph) cudaGraphDestroy(graph);
  if (failed) {
    cudaGetLastError();  // the capture errors are not sticky: clear them and let the caller run eagerly
    return nullptr;
  }
  return std::make_unique<CudaGraphReplay>(exec, stream_);
}

template class CudaField<float>;
template class CudaField<double>;
template class CudaBackend<float>;
template class CudaBackend<double>;

namespace {
template <class Real>
std::unique_ptr<Backend<Real>> make_cuda(MPI_Comm comm) {
  return std::make_unique<CudaBackend<Real>>(comm);
}
}  // namespace

void register_cuda_backend() { register_backend("cuda", &make_cuda<float>, &make_cuda<double>); }

}  // namespace perksolve
