// Native CUDA sparse matrices (issue 5): the rank's CSR row block in device memory, the inspector's
// send list, and two SpMV implementations selectable at run time (CudaBackend::set_spmv_path or
// PERKSOLVE_CUDA_SPMV=native|vector|cusparse):
//   native   - stream CSR (the default; CSR-adaptive: blocks of consecutive rows with <= kStreamNnz
//              entries, products streamed through shared memory, then summed per row);
//   vector   - vector CSR: a group of G lanes (G = 2..32, the power of two at or above the mean row
//              length) per row, lane-strided partial sums, shuffle reduction.
//   Both read x entries < rows from the vector and halo columns from the ghost buffer (no copy of x).
//   cusparse - cusparseSpMV (CUSPARSE_SPMV_CSR_ALG2, deterministic) on x itself (no halo columns) or
//              on [x; ghosts] staged in one device vector; handle, descriptors and work buffer created
//              on first use per matrix.
// Semantics follow framework/backends/kokkos/kokkos_sparse.cpp.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "framework/backends/cuda/cuda_csr.cuh"
#include "framework/backends/cuda/cuda_ops.cuh"
#include "framework/backends/cuda/csr_stream_rows.cuh"
#include "framework/backends/cuda/persistent_program.cuh"

namespace perksolve {

using namespace cuda_ops;

namespace {

void cusparse_check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuSPARSE error in ") + what + ": " + cusparseGetErrorString(s));
}
#define PERKSOLVE_CUSPARSE_CHECK(expr) cusparse_check((expr), #expr)



template <class Real>
__global__ void gather_kernel(const Real* __restrict__ x, const long* __restrict__ idx, Real* __restrict__ buf, long n) {
  for (long s = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; s < n; s += static_cast<long>(gridDim.x) * blockDim.x)
    buf[s] = x[idx[s]];
}

// Vector CSR: G lanes per row (G divides 32), rows strided over the grid.
template <class Real, int G>
__global__ void __launch_bounds__(kThreads)
    csr_vector_kernel(const int* __restrict__ rp, const int* __restrict__ ci, const Real* __restrict__ v,
                      const Real* __restrict__ x, const Real* __restrict__ xext, Real* __restrict__ y, int rows) {
  cuda_detail::pdl_enter();
  const int lane = threadIdx.x & (G - 1);
  const long groups = static_cast<long>(gridDim.x) * (blockDim.x / G);
  const long gid = (blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x) / G;
  const long warp_first = gid - (threadIdx.x & 31) / G;  // the loop condition is warp-uniform (full-mask shuffles)
  for (long w = warp_first; w < rows; w += groups) {
    const long r = w + (gid - warp_first);
    Real acc = 0;
    if (r < rows) {
      const int end = rp[r + 1];
      // Matrix entries are used once: streaming (evict-first) loads keep L2 for the reused x.
      for (int e = rp[r] + lane; e < end; e += G) {
        const int c = __ldcs(ci + e);
        acc += __ldcs(v + e) * (c < rows ? __ldg(x + c) : __ldg(xext + c));
      }
    }
    for (int o = G / 2; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o, G);
    if (lane == 0 && r < rows) y[r] = acc;
  }
}

// Stream CSR (CSR-adaptive): block b owns rows [rb[b], rb[b+1]) whose entries are contiguous; the body is
// csr_stream_rows (csr_stream_rows.cuh), which the persistent CG's row-block walk shares. The matrix is read
// with evict-first loads (used once), x through the read-only path.
template <class Real>
__global__ void __launch_bounds__(kThreads)
    csr_stream_kernel(const int* __restrict__ rb, const int* __restrict__ rp, const int* __restrict__ ci,
                      const Real* __restrict__ v, const Real* __restrict__ x, const Real* __restrict__ xext,
                      Real* __restrict__ y, int rows) {
  cuda_detail::pdl_enter();
  __shared__ Real prod[kStreamNnz];
  csr_stream_rows<kThreads>(
      rb[blockIdx.x], rb[blockIdx.x + 1], rp, prod,
      [&](int e) {
        const int c = __ldcs(ci + e);
        return __ldcs(v + e) * (c < rows ? __ldg(x + c) : __ldg(xext + c));
      },
      [&](int r, Real sum) { y[r] = sum; });
}

template <class Real>
__global__ void csr_diagonal_kernel(const int* __restrict__ rp, const int* __restrict__ ci, const Real* __restrict__ v,
                                    Real* __restrict__ d, int rows) {
  for (long r = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; r < rows; r += static_cast<long>(gridDim.x) * blockDim.x) {
    Real diag = 0;
    for (int e = rp[r]; e < rp[r + 1]; ++e)
      if (ci[e] == r) diag += v[e];
    d[r] = diag;
  }
}

template <class Real>
void launch_native_spmv(const CudaCsr<Real>& A, const Real* x, Real* y, bool vector_kernel, int sm_count,
                        cudaStream_t s) {
  const int rows = static_cast<int>(A.rows());
  if (!vector_kernel) {
    cuda_detail::pdl_launch(csr_stream_kernel<Real>, dim3(A.row_blocks), dim3(kThreads), 0, s, A.row_block, A.row_ptr,
                            A.col, A.val, x, A.xext, y, rows);
    return;
  }
  const long threads = static_cast<long>(rows) * A.group;
  const dim3 grid(grid_for(threads, sm_count)), block(kThreads);
  const auto kernel = A.group == 2    ? csr_vector_kernel<Real, 2>
                      : A.group == 4  ? csr_vector_kernel<Real, 4>
                      : A.group == 8  ? csr_vector_kernel<Real, 8>
                      : A.group == 16 ? csr_vector_kernel<Real, 16>
                                      : csr_vector_kernel<Real, 32>;
  cuda_detail::pdl_launch(kernel, grid, block, 0, s, A.row_ptr, A.col, A.val, x, A.xext, y, rows);
}

template <class Real>
void launch_cusparse_spmv(CudaCsr<Real>& A, const Real* x, Real* y, cudaStream_t s) {
  constexpr cudaDataType_t T = std::is_same_v<Real, double> ? CUDA_R_64F : CUDA_R_32F;
  const long n = A.rows(), g = A.ghost_cols();
  const Real one = 1, zero = 0;
  if (A.handle == nullptr) {
    PERKSOLVE_CUSPARSE_CHECK(cusparseCreate(&A.handle));
    PERKSOLVE_CUSPARSE_CHECK(cusparseCreateCsr(&A.mat, n, n + g, A.nnz(), A.row_ptr, A.col, A.val, CUSPARSE_INDEX_32I,
                                               CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, T));
    PERKSOLVE_CUSPARSE_CHECK(cusparseCreateDnVec(&A.vec_x, n + g, A.xext, T));
    PERKSOLVE_CUSPARSE_CHECK(cusparseCreateDnVec(&A.vec_y, n, y, T));
    std::size_t bytes = 0;
    PERKSOLVE_CUSPARSE_CHECK(cusparseSpMV_bufferSize(A.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A.mat, A.vec_x,
                                                     &zero, A.vec_y, T, CUSPARSE_SPMV_CSR_ALG2, &bytes));
    PERKSOLVE_CUDA_CHECK(cudaMalloc(&A.work, std::max<std::size_t>(bytes, 16)));
  }
  PERKSOLVE_CUSPARSE_CHECK(cusparseSetStream(A.handle, s));
  if (g == 0) {
    PERKSOLVE_CUSPARSE_CHECK(cusparseDnVecSetValues(A.vec_x, const_cast<Real*>(x)));  // no halo: x as it is
  } else {
    PERKSOLVE_CUSPARSE_CHECK(cusparseDnVecSetValues(A.vec_x, A.xext));
    PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(A.xext, x, n * sizeof(Real), cudaMemcpyDeviceToDevice, s));
  }
  PERKSOLVE_CUSPARSE_CHECK(cusparseDnVecSetValues(A.vec_y, y));
  PERKSOLVE_CUSPARSE_CHECK(cusparseSpMV(A.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A.mat, A.vec_x, &zero, A.vec_y,
                                        T, CUSPARSE_SPMV_CSR_ALG2, A.work));
}

// spmv_cells: y = A x over a layout's owned cells (x fastest). Every block stages x's owned cells in shared memory
// (compact), then each warp sums one row: lanes over the row's entries, a shuffle sum, and lane 0 stores to y's cell.
// One pass reads the field and writes the field: no flat copies (multigrid's dense coarse inverse, ~343 x 343).
constexpr int kCellsThreads = 256;
// Shared memory for x's cells: at most this many bytes (48 KB needs no opt-in), so 6144 cells in fp64.
constexpr long kCellsStageBytes = 48 * 1024;

__device__ __forceinline__ long owned_cell_offset(const FieldLayout& l, int c) {
  const int i = c % l.n[0], rest = c / l.n[0];
  return l.index(i, rest % l.n[1], rest / l.n[1]);
}

template <class Real>
__global__ void __launch_bounds__(kCellsThreads)
    csr_cells_kernel(const int* __restrict__ rp, const int* __restrict__ ci, const Real* __restrict__ v,
                     const Real* __restrict__ x, Real* __restrict__ y, FieldLayout l, int rows) {
  cuda_detail::pdl_enter();
  extern __shared__ __align__(16) unsigned char csr_cells_smem[];
  Real* const xs = reinterpret_cast<Real*>(csr_cells_smem);
  for (int c = static_cast<int>(threadIdx.x); c < rows; c += kCellsThreads) xs[c] = x[owned_cell_offset(l, c)];
  __syncthreads();
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int r = static_cast<int>(blockIdx.x) * (kCellsThreads / 32) + static_cast<int>(threadIdx.x) / 32;
  if (r >= rows) return;  // a whole warp: no shuffle below is left half-done
  Real acc = 0;
  for (int e = rp[r] + lane; e < rp[r + 1]; e += 32) acc = fma(v[e], xs[ci[e]], acc);
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0) y[owned_cell_offset(l, r)] = acc;
}

}  // namespace

template <class Real>
std::unique_ptr<SparseMatrix<Real>> CudaBackend<Real>::create_sparse_matrix(const CsrBlock& b) {
  const long nnz = static_cast<long>(b.val.size());
  if (static_cast<long>(b.row_ptr.size()) != b.rows + 1 || static_cast<long>(b.col.size()) != nnz)
    throw std::logic_error("create_sparse_matrix: inconsistent CSR block");
  if (nnz > INT_MAX || b.rows + b.ghost_cols > INT_MAX)
    throw std::logic_error("cuda backend: create_sparse_matrix: more than 2^31 - 1 entries or columns per rank");
  PERKSOLVE_CUDA_CHECK(cudaSetDevice(device_));
  return std::make_unique<CudaCsr<Real>>(b, stream_);
}

template <class Real>
void CudaBackend<Real>::sparse_gather(const SparseMatrix<Real>& Am, const Field<Real>& x, Real* host) {
  const CudaCsr<Real>& A = as_csr(Am);
  require_vector(x.layout(), A.rows(), "sparse_gather");
  const long n = A.send_count();
  if (n == 0) return;
  gather_kernel<Real><<<grid_for(n, sm_count_), kThreads, 0, stream_>>>(as_cuda(x).data(), A.send, A.sendbuf, n);
  PERKSOLVE_CUDA_CHECK_LAUNCH("gather_kernel");
  PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(host, A.sendbuf, n * sizeof(Real), cudaMemcpyDeviceToHost, stream_));
  PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

template <class Real>
void CudaBackend<Real>::spmv(const SparseMatrix<Real>& Am, const Field<Real>& x, const Real* ghosts, Field<Real>& y) {
  CudaCsr<Real>& A = const_cast<CudaCsr<Real>&>(as_csr(Am));
  require_vector(x.layout(), A.rows(), "spmv");
  require_vector(y.layout(), A.rows(), "spmv");
  const long n = A.rows(), g = A.ghost_cols();
  if (n == 0) return;
  if (builder_ && g == 0 && A.nnz() > 0 && spmv_path_ != CudaSpmvPath::cusparse) {
    ProgramOp<Real> op;
    op.kind = ProgramOpKind::spmv;
    op.out = as_cuda(y).data();
    op.in = as_cuda(x).data();
    op.row_ptr = A.row_ptr;
    op.col = A.col;
    op.val = A.val;
    op.rows = static_cast<int>(n);
    builder_->ops.push_back(op);
    return;
  }
  if (g > 0) {
    // From pageable memory the copy has consumed the host buffer when it returns; from pinned memory
    // it has not, so wait (the caller may reuse the buffer for the next receive).
    PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(A.xext + n, ghosts, g * sizeof(Real), cudaMemcpyHostToDevice, stream_));
    if (is_pinned(ghosts)) PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  if (A.nnz() == 0) {
    PERKSOLVE_CUDA_CHECK(cudaMemsetAsync(as_cuda(y).data(), 0, n * sizeof(Real), stream_));
    return;
  }
  if (spmv_path_ == CudaSpmvPath::cusparse)
    launch_cusparse_spmv(A, as_cuda(x).data(), as_cuda(y).data(), stream_);
  else
    launch_native_spmv(A, as_cuda(x).data(), as_cuda(y).data(), spmv_path_ == CudaSpmvPath::native_vector, sm_count_,
                       stream_);
}

template <class Real>
void CudaBackend<Real>::spmv_cells(const SparseMatrix<Real>& Am, const Field<Real>& x, Field<Real>& y,
                                   Field<Real>& flat_x, Field<Real>& flat_y) {
  const CudaCsr<Real>& A = as_csr(Am);
  const FieldLayout& l = x.layout();
  const long n = A.rows();
  if (!(y.layout() == l) || n != l.owned_size() || A.ghost_cols() != 0)
    throw std::logic_error("cuda backend: spmv_cells: the matrix rows, columns and both fields must be one layout's "
                           "owned cells");
  // A persistent program records the flat path (its operations); x and y one field, x's cells beyond the stage, the
  // cuSPARSE path and PERKSOLVE_CUDA_SPMV_CELLS=0 (for comparison): the flat path too.
  if (builder_ || !spmv_cells_kernel_ || &x == &y || n * static_cast<long>(sizeof(Real)) > kCellsStageBytes ||
      spmv_path_ == CudaSpmvPath::cusparse) {
    Backend<Real>::spmv_cells(Am, x, y, flat_x, flat_y);
    return;
  }
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>((n + kCellsThreads / 32 - 1) / (kCellsThreads / 32));
  cuda_detail::pdl_launch(csr_cells_kernel<Real>, dim3(blocks), dim3(kCellsThreads),
                          static_cast<std::size_t>(n * sizeof(Real)), stream_, static_cast<const int*>(A.row_ptr),
                          static_cast<const int*>(A.col), static_cast<const Real*>(A.val),
                          static_cast<const Real*>(as_cuda(x).data()), as_cuda(y).data(), l, static_cast<int>(n));
}

template <class Real>
void CudaBackend<Real>::sparse_diagonal(const SparseMatrix<Real>& Am, Field<Real>& d) {
  const CudaCsr<Real>& A = as_csr(Am);
  require_vector(d.layout(), A.rows(), "sparse_diagonal");
  const long n = A.rows();
  if (n == 0) return;
  csr_diagonal_kernel<Real><<<grid_for(n, sm_count_), kThreads, 0, stream_>>>(A.row_ptr, A.col, A.val,
                                                                               as_cuda(d).data(), static_cast<int>(n));
  PERKSOLVE_CUDA_CHECK_LAUNCH("csr_diagonal_kernel");
}

#define PERKSOLVE_CUDA_SPARSE_OPS(R)                                                                      \
  template std::unique_ptr<SparseMatrix<R>> CudaBackend<R>::create_sparse_matrix(const CsrBlock&);        \
  template void CudaBackend<R>::sparse_gather(const SparseMatrix<R>&, const Field<R>&, R*);               \
  template void CudaBackend<R>::spmv(const SparseMatrix<R>&, const Field<R>&, const R*, Field<R>&);       \
  template void CudaBackend<R>::spmv_cells(const SparseMatrix<R>&, const Field<R>&, Field<R>&, Field<R>&, Field<R>&); \
  template void CudaBackend<R>::sparse_diagonal(const SparseMatrix<R>&, Field<R>&);

PERKSOLVE_CUDA_SPARSE_OPS(float)
PERKSOLVE_CUDA_SPARSE_OPS(double)

}  // namespace perksolve
