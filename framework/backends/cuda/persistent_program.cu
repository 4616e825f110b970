// Persistent programs (persistent_program.cuh): the cooperative kernel that runs a recorded operation
// sequence, and CudaBackend::record_persistent. Design and measurements: docs/perf/perks.md.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/backends/cuda/persistent_program.cuh"

namespace perksolve {

using namespace cuda_ops;
namespace cg = cooperative_groups;

namespace {

// One block of 512 threads per SM: as many threads as two blocks of 256, half the blocks to gather at
// every device-wide barrier (the kernel needs ~100 registers per thread, so 512 is the most per SM).
constexpr int kProgramThreads = 512;
// Runs of operations with at most this many work items each run in block 0 alone, with block barriers
// instead of device-wide ones (docs/perf/perks.md: a 7^3 level's operations then take 2.2 us each instead
// of 4.8 us as graph nodes).
constexpr long kSmallWork = 4096;

template <class Real>
__device__ __forceinline__ void stencil_op(const ProgramOp<Real>& op, const long* s_off, const Real* s_c, long gtid,
                                           long gsize) {
  const long total = op.l.owned_size();
  const int np = op.np;
  const Real* __restrict__ x = op.in;
  for (long e = gtid; e < total; e += gsize) {
    const long n = op.map(e);
    Real acc = 0;
    for (int p = 0; p < np; ++p) acc = fma(s_c[p], x[n + s_off[p]], acc);
    if (op.mode == 0) {
      op.out[n] = acc;
    } else {
      const Real r = op.b[n] - acc;
      op.out[n] = op.mode == 1 ? r : x[n] + op.a * r;
    }
  }
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

template <class Real>
__device__ __forceinline__ void run_op(const ProgramOp<Real>& op, long tid, long nthreads, long* s_off, Real* s_c) {
  switch (op.kind) {
    case ProgramOpKind::fill: {
      const long n = op.l.size();
      for (long e = tid; e < n; e += nthreads) op.out[e] = op.a;
      break;
    }
    case ProgramOpKind::copy: {
      const long n = op.l.size();
      for (long e = tid; e < n; e += nthreads) op.out[e] = op.in[e];
      break;
    }
    case ProgramOpKind::scale: {
      const long total = op.l.owned_size();
      for (long e = tid; e < total; e += nthreads) {
        const long n = op.map(e);
        op.out[n] = op.a * op.in[n];
      }
      break;
    }
    case ProgramOpKind::stencil: {
      if (threadIdx.x < op.np) {
        s_off[threadIdx.x] = op.off[threadIdx.x];
        s_c[threadIdx.x] = op.c[threadIdx.x];
      }
      __syncthreads();
      stencil_op(op, s_off, s_c, tid, nthreads);
      __syncthreads();  // the next operation of a block-0 run may stage other coefficients
      break;
    }
    case ProgramOpKind::faces: {
      const long total = op.faces.total();
      for (long t = tid; t < total; t += nthreads) fill_face_ghost(op.out, op.l, op.faces, t);
      break;
    }
    case ProgramOpKind::restrict_fw:
    case ProgramOpKind::restrict_cc: {
      const long total = op.t.lc.owned_size();
      for (long e = tid; e < total; e += nthreads) {
        int i, j, k;
        op.map.ijk(e, i, j, k);
        op.out[op.t.lc.index(i, j, k)] = op.kind == ProgramOpKind::restrict_fw ? restrict_fw_point(op.in, op.t, i, j, k)
                                                                                : restrict_cc_point(op.in, op.t, i, j, k);
      }
      break;
    }
    case ProgramOpKind::prolongate: {
      const long total = op.t.lf.owned_size();
      for (long e = tid; e < total; e += nthreads) {
        int i, j, k;
        op.map.ijk(e, i, j, k);
        op.out[op.t.lf.index(i, j, k)] += prolongate_point(op.in, op.t, op.vertex, i, j, k);
      }
      break;
    }
    case ProgramOpKind::copy_boxes:
      copy_boxes_op(op, tid, nthreads);
      break;
    case ProgramOpKind::spmv:
      spmv_op(op, tid, nthreads);
      break;
  }
}

// Operations run in order by the whole grid (grid-stride loops), or, when small, by block 0 alone
// (block-stride loops) while the other blocks go on to the next device-wide barrier.
template <class Real>
__global__ void __launch_bounds__(kProgramThreads, 1) program_kernel(const ProgramOp<Real>* __restrict__ ops, int nops) {
  cg::grid_group grid = cg::this_grid();
  const long gtid = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  const long gsize = static_cast<long>(gridDim.x) * blockDim.x;
  __shared__ long s_off[kProgramMaxPoints];
  __shared__ Real s_c[kProgramMaxPoints];
  for (int o = 0; o < nops; ++o) {
    const ProgramOp<Real>& op = ops[o];
    if (!op.small) {
      run_op(op, gtid, gsize, s_off, s_c);
    } else if (blockIdx.x == 0) {
      run_op(op, threadIdx.x, blockDim.x, s_off, s_c);
      __syncthreads();  // the next small operation reads what this one wrote
    }
    if (op.sync_after) grid.sync();  // the next operation may read anything this one wrote
  }
}

template <class Real>
class ProgramReplay final : public RecordedWork {
 public:
  ProgramReplay(ProgramOp<Real>* ops, int nops, int blocks, cudaStream_t stream)
      : ops_(ops), nops_(nops), blocks_(blocks), stream_(stream) {}
  ~ProgramReplay() override {
    cudaStreamSynchronize(stream_);
    cudaFree(ops_);
  }
  void replay() override {
    void* args[] = {&ops_, &nops_};
    PERKSOLVE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&program_kernel<Real>),
                                                     dim3(static_cast<unsigned>(blocks_)), dim3(kProgramThreads), args,
                                                     0, stream_));
  }

 private:
  ProgramOp<Real>* ops_;
  int nops_;
  int blocks_;
  cudaStream_t stream_;
};

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
  finalise_program(builder.ops, kSmallWork);
  ProgramOp<Real>* dev = nullptr;
  const std::size_t bytes = builder.ops.size() * sizeof(ProgramOp<Real>);
  PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&dev), bytes));
  PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(dev, builder.ops.data(), bytes, cudaMemcpyHostToDevice, stream_));
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  // Co-resident grid (a cooperative launch never over-subscribes): one block per SM.
  int per_sm = 0;
  PERKSOLVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, program_kernel<Real>, kProgramThreads, 0));
  if (per_sm <= 0) {
    cudaFree(dev);
    throw std::runtime_error("persistent program kernel cannot be resident on this device");
  }
  const int blocks = sm_count_;
  return std::make_unique<ProgramReplay<Real>>(dev, static_cast<int>(builder.ops.size()), blocks, stream_);
}

template std::unique_ptr<RecordedWork> CudaBackend<float>::record_persistent(std::function<void()>);
template std::unique_ptr<RecordedWork> CudaBackend<double>::record_persistent(std::function<void()>);

}  // namespace perksolve
