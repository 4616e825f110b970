// Persistent programs (persistent_program.cuh): the cooperative kernel that runs a recorded operation
// sequence, and CudaBackend::record_persistent. Design and measurements: docs/perf/perks.md.
#include <cooperative_groups.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/backends/cuda/persistent_program.cuh"

namespace perksolve {

using namespace cuda_ops;
namespace cg = cooperative_groups;

namespace {

// One block of 512 threads per SM: as many threads as two blocks of 256, half the blocks to gather at
// every device-wide barrier (the kernel needs ~100 registers per thread, so 512 is the most per SM).
constexpr int kProgramThreads = 512;

// Cells tid, tid + nthreads, ... of an operation, U per thread at a time: the U values are computed before
// any is stored, so a thread has the loads of U cells in flight instead of one (a store in the loop would
// otherwise order the next cell's loads after it: on the 31^3-63^3 levels each thread has a few cells, and
// each cell cost one memory latency). value(e, at) returns the value of cell e and sets where it goes; a
// cell past the end computes the first cell of the batch again (a valid read) and is not stored.
// Thread tid handles exactly the cells e = tid (mod nthreads) (fill_faces_of_written_cells relies on it).
template <int U, class Real, class Value>
__device__ __forceinline__ void batched_cells(Real* out, long total, long tid, long nthreads, const Value& value) {
  for (long e0 = tid; e0 < total; e0 += U * nthreads) {
    Real v[U];
    long at[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const long e = e0 + u * nthreads;
      v[u] = value(e < total ? e : e0, at[u]);
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (e0 + u * nthreads < total) out[at[u]] = v[u];
  }
}

// A stencil operation at cell n with at most MaxP points: the loads of Chunk points at a time first, then
// those points summed in order with fused multiply-adds (the streaming kernels' order and rounding).
template <int MaxP, int Chunk, class Real>
__device__ __forceinline__ Real stencil_value(const ProgramOp<Real>& op, long n) {
  const Real* __restrict__ x = op.in;
  Real acc = 0;
#pragma unroll
  for (int p0 = 0; p0 < MaxP; p0 += Chunk) {
    Real v[Chunk];
#pragma unroll
    for (int q = 0; q < Chunk; ++q)
      if (p0 + q < op.np) v[q] = x[n + op.off[p0 + q]];
#pragma unroll
    for (int q = 0; q < Chunk; ++q)
      if (p0 + q < op.np) acc = fma(op.c[p0 + q], v[q], acc);
  }
  if (op.mode == 0) return acc;
  const Real r = op.b[n] - acc;
  return op.mode == 1 ? r : x[n] + op.a * r;
}

template <int MaxP, int Chunk, int U, class Real>
__device__ __forceinline__ void stencil_cells(const ProgramOp<Real>& op, long tid, long nthreads) {
  batched_cells<U>(
      op.out, op.l.owned_size(), tid, nthreads,
      [&](long e, long& at) {
        at = op.map(e);
        return stencil_value<MaxP, Chunk>(op, at);
      });
}

// Point counts of the PERKS shapes: 5/7 (star R = 1), 9/13 (2D box, star R = 2-3 in 2D), up to 27. Fewer
// points leave registers for more cells per thread.
template <class Real>
__device__ __forceinline__ void stencil_op(const ProgramOp<Real>& op, long tid, long nthreads) {
  if (op.np <= 7) stencil_cells<7, 7, 4>(op, tid, nthreads);
  else if (op.np <= 13) stencil_cells<13, 13, 2>(op, tid, nthreads);
  else stencil_cells<kProgramMaxPoints, 7, 1>(op, tid, nthreads);
}

// A 3D cell has 27 (full weighting) or 64 fine loads of its own: one cell per thread at a time.
template <class Real, bool Three>
__device__ __forceinline__ void restrict_op(const ProgramOp<Real>& op, long tid, long nthreads) {
  const bool fw = op.kind == ProgramOpKind::restrict_fw;
  batched_cells<Three ? 1 : 2>(op.out, op.t.lc.owned_size(), tid, nthreads, [&](long e, long& at) {
    int i, j, k;
    op.map.ijk(e, i, j, k);
    at = op.t.lc.index(i, j, k);
    return fw ? restrict_fw_point_dim<Real, Three>(op.in, op.t, i, j, k)
              : restrict_cc_point_dim<Real, Three>(op.in, op.t, i, j, k);
  });
}

template <class Real>
__device__ __forceinline__ void copy_boxes_op(const ProgramOp<Real>& op, long gtid, long gsize) {
  const long total = op.base[op.nbox];
  for (long p = gtid; p < total; p += gsize) {
    int b = 0;
    while (p >= op.base[b + 1]) ++b;
    const long q = p - op.base[b];
    auto cell = [q](const int* box, int& i, int& j, int& k) {
      const long nx = box[3] - box[0], ny = box[4] - box[1];
      const long row = q / nx;
      i = static_cast<int>(q - row * nx) + box[0];
      j = static_cast<int>(row % ny) + box[1];
      k = static_cast<int>(row / ny) + box[2];
    };
    int si, sj, sk, di, dj, dk;
    cell(op.sb[b], si, sj, sk);
    cell(op.db[b], di, dj, dk);
    bool later = false;  // a later destination box covering the same cell wins
    for (int c = b + 1; c < op.nbox && !later; ++c)
      later = di >= op.db[c][0] && di < op.db[c][3] && dj >= op.db[c][1] && dj < op.db[c][4] && dk >= op.db[c][2] &&
              dk < op.db[c][5];
    if (!later) op.out[op.l.index(di, dj, dk)] = op.in[op.l2.index(si, sj, sk)];
  }
}

// One warp per row (rows strided over the grid's warps), lanes over the row's entries, then a shuffle sum.
template <class Real>
__device__ __forceinline__ void spmv_op(const ProgramOp<Real>& op, long gtid, long gsize) {
  const long warp = gtid >> 5, warps = gsize >> 5;
  const int lane = static_cast<int>(gtid & 31);
  for (long r = warp; r < op.rows; r += warps) {
    Real acc = 0;
    for (int e = op.row_ptr[r] + lane; e < op.row_ptr[r + 1]; e += 32) acc = fma(op.val[e], op.in[op.col[e]], acc);
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0) op.out[r] = acc;
  }
}

// The face fill folded into an operation (ProgramOp::faces_after): each thread fills the ghosts whose sources are
// the cells it has just written (batched_cells: cells tid, tid + nthreads, ...; their values read back from its
// own stores; skipped where every ghost is a constant), and its share of the constant ghosts. No barrier: no thread
// reads another's cells.
template <class Real>
__device__ __forceinline__ void fill_faces_of_written_cells(const ProgramOp<Real>& op, long tid, long nthreads) {
  const long cells = op.faces_from_cells ? op.l.owned_size() : 0;
  for (long e = tid; e < cells; e += nthreads) {
    int i, j, k;
    op.map.ijk(e, i, j, k);
    fill_cell_face_ghosts(op.out, op.l, op.faces, i, j, k, [&] { return op.out[op.l.index(i, j, k)]; });
  }
  const long ghosts = op.faces.total();
  for (long t = tid; t < ghosts; t += nthreads) fill_constant_face_ghost(op.out, op.l, op.faces, t);
}

template <class Real>
__device__ __forceinline__ void run_op(const ProgramOp<Real>& op, long tid, long nthreads) {
  switch (op.kind) {
    case ProgramOpKind::fill: {
      const long n = op.l.size();
      for (long e = tid; e < n; e += nthreads) op.out[e] = op.a;
      break;
    }
    case ProgramOpKind::copy: {
      batched_cells<4>(op.out, op.l.size(), tid, nthreads, [&](long e, long& at) {
        at = e;
        return op.in[e];
      });
      break;
    }
    case ProgramOpKind::scale: {
      batched_cells<4>(
          op.out, op.l.owned_size(), tid, nthreads,
          [&](long e, long& at) {
            at = op.map(e);
            return op.a * op.in[at];
          });
      break;
    }
    case ProgramOpKind::stencil:
      stencil_op(op, tid, nthreads);
      break;
    case ProgramOpKind::faces: {
      const long total = op.faces.total();
      for (long t = tid; t < total; t += nthreads) fill_face_ghost(op.out, op.l, op.faces, t);
      break;
    }
    case ProgramOpKind::restrict_fw:
    case ProgramOpKind::restrict_cc: {
      if (op.t.rz) restrict_op<Real, true>(op, tid, nthreads);
      else restrict_op<Real, false>(op, tid, nthreads);
      break;
    }
    case ProgramOpKind::prolongate: {
      batched_cells<2>(op.out, op.t.lf.owned_size(), tid, nthreads, [&](long e, long& at) {
        int i, j, k;
        op.map.ijk(e, i, j, k);
        at = op.t.lf.index(i, j, k);
        return op.out[at] + prolongate_point(op.in, op.t, op.vertex, i, j, k);
      });
      break;
    }
    case ProgramOpKind::copy_boxes:
      copy_boxes_op(op, tid, nthreads);
      break;
    case ProgramOpKind::spmv:
      spmv_op(op, tid, nthreads);
      break;
  }
  if (op.faces_after) fill_faces_of_written_cells(op, tid, nthreads);
}

// Starts copying descriptor `src` into shared memory `dst` (cp.async: the copy proceeds while the block
// works on the current operation and waits at its barrier); wait_descriptor completes it.
template <class Real>
__device__ __forceinline__ void prefetch_descriptor(ProgramOp<Real>* dst, const ProgramOp<Real>* src) {
  static_assert(sizeof(ProgramOp<Real>) % 8 == 0 && alignof(ProgramOp<Real>) >= 8);
  constexpr int words = sizeof(ProgramOp<Real>) / 8;
  auto* d = reinterpret_cast<unsigned long long*>(dst);
  const auto* s = reinterpret_cast<const unsigned long long*>(src);
  for (int w = threadIdx.x; w < words; w += blockDim.x) __pipeline_memcpy_async(d + w, s + w, 8);
  __pipeline_commit();
}
__device__ __forceinline__ void wait_descriptor() {
  __pipeline_wait_prior(0);
  __syncthreads();
}

// Device-wide barrier of a cooperative grid, or the hardware barrier of one thread-block cluster (the program
// then runs on that cluster alone; ProgramShape). Both order every block's global-memory writes before every
// block's reads after it.
template <bool kCluster>
__device__ __forceinline__ void program_barrier() {
  if constexpr (kCluster) cg::this_cluster().sync();
  else cg::this_grid().sync();
}

using cuda_detail::global_ns;

// Operations run in order by the whole grid (grid-stride loops), or, when small, by block 0 alone
// (block-stride loops) while the other blocks go on to the next barrier. Each block reads an
// operation's descriptor from shared memory, where it was copied while the block ran the previous
// operation: the descriptor's global-memory latency is off the chain of dependent latencies an
// operation costs (program_bench --breakdown: a point-wise operation on a 31^3 level took 1.7 us beyond
// the barrier, a Jacobi sweep 4 us).
// trace (PERKSOLVE_PROGRAM_TRACE, null otherwise): per operation, block 0 adds up where its time went
// (ProgramTraceSlot); the extra block barrier and atomics of a traced run cost a little time themselves.
template <class Real, bool kCluster>
__global__ void __launch_bounds__(kProgramThreads, 1)
    program_kernel(const ProgramOp<Real>* __restrict__ ops, int nops, ProgramTraceSlot* trace) {
  const long gtid = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  const long gsize = static_cast<long>(gridDim.x) * blockDim.x;
  const bool timer = trace != nullptr && blockIdx.x == 0 && threadIdx.x == 0;
  __shared__ __align__(16) ProgramOp<Real> s_ops[2];
  prefetch_descriptor(&s_ops[0], &ops[0]);
  wait_descriptor();
  unsigned long long t_start = timer ? global_ns() : 0;
  for (int o = 0; o < nops; ++o) {
    const ProgramOp<Real>& op = s_ops[o & 1];
    // The other buffer held operation o - 1, which every thread of the block finished before the
    // wait_descriptor() that ended the previous iteration.
    if (o + 1 < nops) prefetch_descriptor(&s_ops[(o + 1) & 1], &ops[o + 1]);
    if (!op.small) {
      run_op(op, gtid, gsize);
    } else if (blockIdx.x == 0) {
      run_op(op, threadIdx.x, blockDim.x);
    }
    if (trace != nullptr) {
      __syncthreads();
      if (threadIdx.x == 0 && (!op.small || blockIdx.x == 0)) atomicMax(&trace[o].work_end, global_ns());
    }
    if (op.small && blockIdx.x == 0) __syncthreads();  // the next small operation reads what this one wrote
    if (op.sync_after) program_barrier<kCluster>();  // the next operation may read anything this one wrote
    const unsigned long long t_barrier = timer ? global_ns() : 0;
    wait_descriptor();
    if (timer) {
      const unsigned long long t_end = global_ns();
      volatile unsigned long long* work_end = &trace[o].work_end;
      const unsigned long long w = *work_end;
      trace[o].work_ns += w - t_start;
      trace[o].barrier_ns += t_barrier - w;
      trace[o].descriptor_ns += t_end - t_barrier;
      trace[o].count += 1;
      *work_end = 0;
      t_start = global_ns();  // the bookkeeping above is no operation's time
    }
  }
}

const char* program_op_name(ProgramOpKind k) {
  switch (k) {
    case ProgramOpKind::fill: return "fill";
    case ProgramOpKind::copy: return "copy";
    case ProgramOpKind::scale: return "scale";
    case ProgramOpKind::stencil: return "stencil";
    case ProgramOpKind::faces: return "faces";
    case ProgramOpKind::restrict_fw: return "restrict_fw";
    case ProgramOpKind::restrict_cc: return "restrict_cc";
    case ProgramOpKind::prolongate: return "prolongate";
    case ProgramOpKind::copy_boxes: return "copy_boxes";
    case ProgramOpKind::spmv: return "spmv";
  }
  return "?";
}

// Appends the per-operation means of a traced program to `path` (one table per program).
template <class Real>
void write_program_trace(const std::string& path, const ProgramShape& shape, const std::vector<ProgramOp<Real>>& ops,
                         const std::vector<ProgramTraceSlot>& slots) {
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) {
    std::fprintf(stderr, "perksolve: PERKSOLVE_PROGRAM_TRACE: cannot open '%s' for appending\n", path.c_str());
    return;
  }
  const unsigned long long runs = slots.empty() ? 0 : slots[0].count;
  std::fprintf(f, "# persistent program: %zu operations, %s of %d blocks, %llu replays; us per replay\n", ops.size(),
               shape.cluster > 0 ? "cluster" : "grid", shape.blocks, runs);
  std::fprintf(f, "%4s %-11s %4s %5s %4s %5s %9s %8s %8s %8s %8s\n", "op", "kind", "mode", "small", "sync", "faces",
               "work", "work_us", "barr_us", "desc_us", "total_us");
  double sum[3] = {0, 0, 0};
  for (std::size_t o = 0; o < ops.size(); ++o) {
    const double n = slots[o].count > 0 ? static_cast<double>(slots[o].count) : 1.0;
    const double w = slots[o].work_ns / n * 1e-3, b = slots[o].barrier_ns / n * 1e-3,
                 d = slots[o].descriptor_ns / n * 1e-3;
    sum[0] += w;
    sum[1] += b;
    sum[2] += d;
    std::fprintf(f, "%4zu %-11s %4d %5d %4d %5d %9ld %8.2f %8.2f %8.2f %8.2f\n", o, program_op_name(ops[o].kind),
                 ops[o].mode, ops[o].small ? 1 : 0, ops[o].sync_after ? 1 : 0, ops[o].faces_after ? 1 : 0,
                 program_op_work(ops[o]),
                 w, b, d, w + b + d);
  }
  std::fprintf(f, "%4s %-11s %4s %5s %4s %5s %9s %8.2f %8.2f %8.2f %8.2f\n\n", "sum", "", "", "", "", "", "", sum[0],
               sum[1], sum[2], sum[0] + sum[1] + sum[2]);
  std::fclose(f);
}

template <class Real>
class ProgramReplay final : public RecordedWork {
 public:
  ProgramReplay(ProgramOp<Real>* ops, int nops, ProgramShape shape, cudaStream_t stream, std::vector<ProgramOp<Real>> traced,
                std::string trace_path)
      : ops_(ops), nops_(nops), shape_(shape), stream_(stream), traced_(std::move(traced)),
        trace_path_(std::move(trace_path)) {
    if (!trace_path_.empty()) {
      PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&trace_), nops_ * sizeof(ProgramTraceSlot)));
      PERKSOLVE_CUDA_CHECK(cudaMemsetAsync(trace_, 0, nops_ * sizeof(ProgramTraceSlot), stream_));
    }
  }
  ~ProgramReplay() override {
    cudaStreamSynchronize(stream_);
    if (trace_) {
      std::vector<ProgramTraceSlot> slots(static_cast<std::size_t>(nops_));
      if (cudaMemcpy(slots.data(), trace_, slots.size() * sizeof(ProgramTraceSlot), cudaMemcpyDeviceToHost) ==
          cudaSuccess)
        write_program_trace(trace_path_, shape_, traced_, slots);
      cudaFree(trace_);
    }
    cudaFree(ops_);
  }
  void replay() override {
    if (shape_.cluster == 0) {
      void* args[] = {&ops_, &nops_, &trace_};
      PERKSOLVE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&program_kernel<Real, false>),
                                                       dim3(static_cast<unsigned>(shape_.blocks)), dim3(kProgramThreads),
                                                       args, 0, stream_));
      return;
    }
    cudaLaunchConfig_t cfg{};
    cudaLaunchAttribute attr[1];
    cluster_launch_config(shape_.cluster, stream_, cfg, attr);
    PERKSOLVE_CUDA_CHECK(cudaLaunchKernelEx(&cfg, program_kernel<Real, true>, static_cast<const ProgramOp<Real>*>(ops_),
                                            nops_, trace_));
  }

  // One cluster of `cluster` blocks (the whole grid).
  static void cluster_launch_config(int cluster, cudaStream_t stream, cudaLaunchConfig_t& cfg, cudaLaunchAttribute* attr) {
    cfg = cudaLaunchConfig_t{};
    cfg.gridDim = dim3(static_cast<unsigned>(cluster));
    cfg.blockDim = dim3(kProgramThreads);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = stream;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = static_cast<unsigned>(cluster);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }

 private:
  ProgramOp<Real>* ops_;
  int nops_;
  ProgramShape shape_;
  cudaStream_t stream_;
  std::vector<ProgramOp<Real>> traced_;  // the host copy of the operations, kept only when traced
  std::string trace_path_;
  ProgramTraceSlot* trace_ = nullptr;
};

// The largest cluster of at most `wanted` blocks (16 needs the non-portable size; 8 is portable) that the device
// can launch with the program kernel; 0 where it can launch none (no clusters before sm_90).
template <class Real>
int largest_program_cluster(int wanted, cudaStream_t stream) {
  const void* kernel = reinterpret_cast<const void*>(&program_kernel<Real, true>);
  if (wanted > 8 && cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
    cudaGetLastError();
    wanted = 8;
  }
  for (int c = wanted; c >= 1; c /= 2) {
    cudaLaunchConfig_t cfg{};
    cudaLaunchAttribute attr[1];
    ProgramReplay<Real>::cluster_launch_config(c, stream, cfg, attr);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg) == cudaSuccess && clusters >= 1) return c;
    cudaGetLastError();
  }
  return 0;
}

}  // namespace

template <class Real>
std::unique_ptr<RecordedWork> CudaBackend<Real>::record_persistent(std::function<void()> work) {
  ProgramBuilder<Real> builder;
  builder_ = &builder;
  // Anything that still reaches the stream while the builder is attached (an operation without a program
  // form) lands in this throwaway capture; a synchronisation fails it.
  PERKSOLVE_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeRelaxed));
  bool failed = false;
  try {
    work();
  } catch (...) {
    failed = true;
  }
  builder_ = nullptr;
  cudaGraph_t graph = nullptr;
  failed |= cudaStreamEndCapture(stream_, &graph) != cudaSuccess;
  if (graph) {
    std::size_t nodes = 0;
    failed |= cudaGraphGetNodes(graph, nullptr, &nodes) != cudaSuccess || nodes > 0;
    cudaGraphDestroy(graph);
  }
  if (failed || builder.ops.empty()) {
    cudaGetLastError();
    return nullptr;
  }
  finalise_program(builder.ops, program_small_work_);
  ProgramShape shape;
  if (program_cluster_ > 0) {
    shape.cluster = largest_program_cluster<Real>(program_cluster_, stream_);
    if (shape.cluster == 0)
      throw std::runtime_error("persistent program: this device cannot launch a thread-block cluster of the program "
                               "kernel (PERKSOLVE_PROGRAM_CLUSTER needs sm_90 or newer)");
    shape.blocks = shape.cluster;
  } else {
    // Co-resident grid (a cooperative launch never over-subscribes): one block per SM.
    int per_sm = 0;
    PERKSOLVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, program_kernel<Real, false>,
                                                                       kProgramThreads, 0));
    if (per_sm <= 0) throw std::runtime_error("persistent program kernel cannot be resident on this device");
    shape.blocks = sm_count_;
  }
  std::vector<ProgramOp<Real>> traced;
  std::string trace_path;
  if (const char* t = std::getenv("PERKSOLVE_PROGRAM_TRACE"); t != nullptr && *t != '\0') {
    trace_path = t;
    traced = builder.ops;
  }
  ProgramOp<Real>* dev = nullptr;
  const std::size_t bytes = builder.ops.size() * sizeof(ProgramOp<Real>);
  PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&dev), bytes));
  PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(dev, builder.ops.data(), bytes, cudaMemcpyHostToDevice, stream_));
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return std::make_unique<ProgramReplay<Real>>(dev, static_cast<int>(builder.ops.size()), shape, stream_,
                                               std::move(traced), std::move(trace_path));
}

template std::unique_ptr<RecordedWork> CudaBackend<float>::record_persistent(std::function<void()>);
template std::unique_ptr<RecordedWork> CudaBackend<double>::record_persistent(std::function<void()>);

}  // namespace perksolve
