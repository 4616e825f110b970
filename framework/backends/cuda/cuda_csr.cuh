// The CUDA backend's CSR matrix (one rank's row block in device memory), shared by the SpMV paths
// (cuda_sparse.cu) and the persistent CG (persistent_cg.cu). Not installed; include only from .cu files.
#pragma once

#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "framework/backend/backend.hpp"
#include "framework/backends/cuda/cuda_common.cuh"

namespace perksolve::cuda_ops {

// Entries per block of the stream kernel (shared memory: 16 KB in fp64).
constexpr int kStreamNnz = 2048;

template <class T>
inline T* device_copy(const std::vector<T>& h, cudaStream_t s) {
  T* d = nullptr;
  PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d), std::max<std::size_t>(1, h.size()) * sizeof(T)));
  if (!h.empty()) PERKSOLVE_CUDA_CHECK(cudaMemcpyAsync(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, s));
  return d;
}

template <class Real>
class CudaCsr final : public SparseMatrix<Real> {
 public:
  CudaCsr(const CsrBlock& b, cudaStream_t s)
      : SparseMatrix<Real>(b.rows, b.ghost_cols, static_cast<long>(b.send_index.size()), static_cast<long>(b.val.size())) {
    std::vector<int> rp(b.row_ptr.size());
    for (std::size_t r = 0; r < rp.size(); ++r) rp[r] = static_cast<int>(b.row_ptr[r]);
    std::vector<Real> v(b.val.size());
    for (std::size_t e = 0; e < v.size(); ++e) v[e] = static_cast<Real>(b.val[e]);
    row_ptr = device_copy(rp, s);
    col = device_copy(b.col, s);
    val = device_copy(v, s);
    send = device_copy(b.send_index, s);
    PERKSOLVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&sendbuf), std::max(1L, this->send_count()) * sizeof(Real)));
    PERKSOLVE_CUDA_CHECK(
        cudaMalloc(reinterpret_cast<void**>(&xext), std::max(1L, b.rows + b.ghost_cols) * sizeof(Real)));
    // Vector kernel: lanes per row = the power of two at or above the mean row length, 2..32.
    const double mean = b.rows > 0 ? static_cast<double>(b.val.size()) / static_cast<double>(b.rows) : 0.0;
    group = 2;
    while (group < 32 && group < mean) group *= 2;
    // Stream kernel (CSR-adaptive): consecutive rows packed into blocks of at most kStreamNnz entries;
    // a row longer than that gets a block of its own, reduced by the whole block.
    std::vector<int> rb{0};
    for (long r = 0; r < b.rows;) {
      long r1 = r + 1;
      while (r1 < b.rows && b.row_ptr[r1 + 1] - b.row_ptr[r] <= kStreamNnz) ++r1;
      rb.push_back(static_cast<int>(r1));
      r = r1;
    }
    row_blocks = static_cast<int>(rb.size()) - 1;
    row_block = device_copy(rb, s);
    host_row_ptr = std::move(rp);
    PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(s));  // host vectors above go out of scope
  }
  ~CudaCsr() override {
    if (vec_y) cusparseDestroyDnVec(vec_y);
    if (vec_x) cusparseDestroyDnVec(vec_x);
    if (mat) cusparseDestroySpMat(mat);
    if (handle) cusparseDestroy(handle);
    for (void* p : {static_cast<void*>(row_ptr), static_cast<void*>(row_block), static_cast<void*>(col), static_cast<void*>(val),
                    static_cast<void*>(send), static_cast<void*>(sendbuf), static_cast<void*>(xext), work})
      if (p) cudaFree(p);
    for (int* p : {cg_block_row, cg_tile_first, cg_tile_row})
      if (p) cudaFree(p);
  }
  std::string_view backend_name() const override { return "cuda"; }

  int* row_ptr = nullptr;
  int* row_block = nullptr;  // stream kernel: first row of each block, row_blocks + 1 entries
  int row_blocks = 0;
  int* col = nullptr;
  Real* val = nullptr;
  long* send = nullptr;
  Real* sendbuf = nullptr;
  Real* xext = nullptr;  // [x; ghosts]: ghosts only (native) or both (cuSPARSE)
  int group = 32;
  // cuSPARSE state (lazily created).
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseDnVecDescr_t vec_x = nullptr, vec_y = nullptr;
  void* work = nullptr;
  // Host copy of the row pointers (partitions computed once, e.g. the persistent CG's merge-path blocks).
  std::vector<int> host_row_ptr;
  // Persistent CG: block b owns rows [cg_block_row[b], cg_block_row[b + 1]) (device), for as many blocks as
  // the host copy cg_block_start has entries less one.
  int* cg_block_row = nullptr;
  std::vector<int> cg_block_start;
  // Persistent CG, staged walk: block b's tiles of merge items start at the (block-local) rows
  // cg_tile_row[cg_tile_first[b] + k], k = 0 .. its tile count (the last entry is the block's row count).
  int* cg_tile_first = nullptr;
  int* cg_tile_row = nullptr;
};

// Bytes of the matrix as the SpMV reads it: values, int columns and int row pointers.
template <class Real>
double csr_matrix_bytes(const CudaCsr<Real>& A) {
  return static_cast<double>(A.nnz()) * static_cast<double>(sizeof(Real) + sizeof(int)) +
         static_cast<double>(A.rows() + 1) * sizeof(int);
}

template <class Real>
const CudaCsr<Real>& as_csr(const SparseMatrix<Real>& m) {
  if (m.backend_name() != "cuda") throw std::logic_error("cuda backend was handed a sparse matrix of another backend");
  return static_cast<const CudaCsr<Real>&>(m);
}

inline void require_vector(const FieldLayout& l, long rows, const char* op) {
  if (l.size() != l.owned_size() || l.owned_size() != rows)
    throw std::logic_error(std::string("cuda backend: ") + op + ": vector layout does not match the matrix rows");
}

}  // namespace perksolve::cuda_ops
