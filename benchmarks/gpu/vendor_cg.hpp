// Vendor baseline for the persistent-CG benchmark: unpreconditioned conjugate gradients built only from
// cuSPARSE and cuBLAS calls (plus two one-thread kernels for the scalar divisions), with every iteration
// scalar kept on the device, so that an iteration needs no host synchronisation. Implemented in
// vendor_cg.cu (explicitly instantiated for float and double); this header is plain C++ so that a .cpp
// driver can use it (link cuSPARSE, cuBLAS and the CUDA runtime).
//
// One iteration (n rows, nnz entries, s = sizeof(Real), int32 indices):
//   call                                   launches           bytes (ideal, no cache reuse)
//   q = A p       cusparseSpMV CSR_ALG2      1                  nnz (s + 4) + (n + 1) 4 + 2 n s
//   pq = p.q      cublas<t>dot -> device     1 (+ cuBLAS stages) 2 n s
//   alpha = rr/pq, -alpha   custom kernel    1 (one thread)
//   x += alpha p  cublas<t>axpy              1                  3 n s
//   r -= alpha q  cublas<t>axpy (-alpha)     1                  3 n s
//   rr_new = r.r  cublas<t>dot -> device     1 (+ cuBLAS stages) n s
//   beta = rr_new/rr, rr = rr_new  kernel    1 (one thread)
//   p *= beta     cublas<t>scal              1                  2 n s
//   p += 1 r      cublas<t>axpy (device 1)   1                  3 n s
// = 9 launches per iteration as issued (7 library calls + 2 one-thread kernels; a library call may launch
// more than one kernel internally, e.g. a two-stage reduction) and nnz (s + 4) + 4 (n + 1) + 16 n s bytes.
#pragma once

#include <memory>
#include <vector>

struct CUstream_st;  // cudaStream_t is CUstream_st*

namespace perksolve {
struct CsrMatrix;  // framework/operators/csr_operator.hpp
}

namespace perksolve::bench {

struct VendorCgSolve {
  long iterations = 0;
  double initial_residual = 0, final_residual = 0;  // ||b||, ||r|| of the recursively updated residual
  bool converged = false;
};

template <class Real>
class VendorCg {
 public:
  // Device copies of A (int32 row_ptr / col, Real values; throws if A has more than 2^31 - 1 rows or
  // entries), the vectors x, r, p, q, b, the device scalars, cuSPARSE / cuBLAS handles bound to `stream`
  // and the SpMV work buffer (allocated once). All work is issued on `stream`.
  VendorCg(const CsrMatrix& A, CUstream_st* stream);
  ~VendorCg();
  VendorCg(const VendorCg&) = delete;
  VendorCg& operator=(const VendorCg&) = delete;

  long rows() const;

  // x0 = 0, r = b, p = r. At the top of iteration k, when k % check_every == 0 or k == max_iterations,
  // rr is copied to the host (the only synchronisation): stop when sqrt(rr) <= rtol * sqrt(rr0)
  // (converged) or k == max_iterations. x is resized to rows() and receives the solution.
  VendorCgSolve solve(const std::vector<Real>& b, std::vector<Real>& x, double rtol, long max_iterations,
                      int check_every);

  // Uploads b, runs an untimed warm-up (x = 0, r = p = b, a few iterations), then restarts from x = 0,
  // r = p = b and runs `iterations` CG iterations back to back with no host synchronisation, timed with
  // cudaEvents on the stream (the restart is outside the timed region). Returns seconds per iteration.
  double seconds_per_iteration(const std::vector<Real>& b, long iterations);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class VendorCg<float>;
extern template class VendorCg<double>;

}  // namespace perksolve::bench
