// Vendor CG baseline (see vendor_cg.hpp for the per-iteration call, launch and byte count).
//
// SpMV algorithm: CUSPARSE_SPMV_CSR_ALG2, the algorithm the CUDA backend's cuSPARSE path and spmv_bench's
// cusparse_direct path use: its results are bit-wise deterministic from run to run (ALG1 is not
// guaranteed to be), so iteration counts and residual histories are reproducible and comparable with the
// other CG variants; it also load-balances over nonzeros, which suits rows of uneven length. The work
// buffer is sized and allocated once, and cusparseSpMV_preprocess is called once at construction (the
// descriptors for A, p and q never change).
//
// Scalars: cuBLAS runs in CUBLAS_POINTER_MODE_DEVICE, so dot results are written to device memory and the
// axpy / scal coefficients (alpha, -alpha, beta, 1) are read from device memory; the divisions are done
// by one-thread kernels. cuSPARSE keeps host pointer mode for its constant alpha = 1, beta = 0 (values
// read at call time, no synchronisation). Nothing in an iteration waits for the host.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "benchmarks/gpu/vendor_cg.hpp"
#include "framework/operators/csr_operator.hpp"

namespace perksolve::bench {
namespace {

void check(cudaError_t e, const char* call) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("vendor_cg: ") + call + ": " + cudaGetErrorString(e));
}
void check(cusparseStatus_t s, const char* call) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("vendor_cg: ") + call + ": " + cusparseGetErrorString(s));
}
void check(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("vendor_cg: ") + call + ": " + cublasGetStatusString(s));
}
#define VCG_CHECK(call) check((call), #call)

// cuBLAS by precision.
cublasStatus_t dot(cublasHandle_t h, int n, const float* x, const float* y, float* r) { return cublasSdot(h, n, x, 1, y, 1, r); }
cublasStatus_t dot(cublasHandle_t h, int n, const double* x, const double* y, double* r) { return cublasDdot(h, n, x, 1, y, 1, r); }
cublasStatus_t axpy(cublasHandle_t h, int n, const float* a, const float* x, float* y) { return cublasSaxpy(h, n, a, x, 1, y, 1); }
cublasStatus_t axpy(cublasHandle_t h, int n, const double* a, const double* x, double* y) { return cublasDaxpy(h, n, a, x, 1, y, 1); }
cublasStatus_t scal(cublasHandle_t h, int n, const float* a, float* x) { return cublasSscal(h, n, a, x, 1); }
cublasStatus_t scal(cublasHandle_t h, int n, const double* a, double* x) { return cublasDscal(h, n, a, x, 1); }

// Device scalar slots.
enum Slot { kRr, kRrNew, kPq, kAlpha, kNegAlpha, kBeta, kOne, kSlots };

// alpha = rr / pq, -alpha (0 on a zero denominator: after exact convergence the iteration stalls instead of
// producing NaN).
template <class Real>
__global__ void alpha_kernel(Real* s) {
  const Real a = s[kPq] != Real(0) ? s[kRr] / s[kPq] : Real(0);
  s[kAlpha] = a;
  s[kNegAlpha] = -a;
}

// beta = rr_new / rr, rr = rr_new.
template <class Real>
__global__ void beta_kernel(Real* s) {
  s[kBeta] = s[kRr] != Real(0) ? s[kRrNew] / s[kRr] : Real(0);
  s[kRr] = s[kRrNew];
}

}  // namespace

template <class Real>
struct VendorCg<Real>::Impl {
  static constexpr cudaDataType_t T = std::is_same_v<Real, double> ? CUDA_R_64F : CUDA_R_32F;
  cudaStream_t st = nullptr;
  int n = 0;
  long nnz = 0;
  int *rp = nullptr, *ci = nullptr;
  Real *val = nullptr, *x = nullptr, *r = nullptr, *p = nullptr, *q = nullptr, *b = nullptr, *s = nullptr;
  void* work = nullptr;
  cusparseHandle_t sp = nullptr;
  cublasHandle_t bl = nullptr;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseDnVecDescr_t vp = nullptr, vq = nullptr;

  ~Impl() {  // no throwing here: statuses ignored
    if (vq) cusparseDestroyDnVec(vq);
    if (vp) cusparseDestroyDnVec(vp);
    if (mat) cusparseDestroySpMat(mat);
    if (sp) cusparseDestroy(sp);
    if (bl) cublasDestroy(bl);
    for (void* ptr : {static_cast<void*>(rp), static_cast<void*>(ci), static_cast<void*>(val), static_cast<void*>(x),
                      static_cast<void*>(r), static_cast<void*>(p), static_cast<void*>(q), static_cast<void*>(b),
                      static_cast<void*>(s), work})
      if (ptr) cudaFree(ptr);
  }

  void upload_b(const std::vector<Real>& hb) {
    if (static_cast<long>(hb.size()) != n) throw std::invalid_argument("vendor_cg: b has the wrong length");
    VCG_CHECK(cudaMemcpyAsync(b, hb.data(), sizeof(Real) * n, cudaMemcpyHostToDevice, st));
  }

  // x = 0, r = p = b, rr = r.r
  void restart() {
    VCG_CHECK(cudaMemsetAsync(x, 0, sizeof(Real) * n, st));
    VCG_CHECK(cudaMemcpyAsync(r, b, sizeof(Real) * n, cudaMemcpyDeviceToDevice, st));
    VCG_CHECK(cudaMemcpyAsync(p, b, sizeof(Real) * n, cudaMemcpyDeviceToDevice, st));
    VCG_CHECK(dot(bl, n, r, r, s + kRr));
  }

  // One CG iteration: 9 calls, no host synchronisation.
  void iterate() {
    const Real one = 1, zero = 0;
    VCG_CHECK(cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vp, &zero, vq, T, CUSPARSE_SPMV_CSR_ALG2,
                           work));                         // q = A p
    VCG_CHECK(dot(bl, n, p, q, s + kPq));                  // pq = p.q
    alpha_kernel<Real><<<1, 1, 0, st>>>(s);                // alpha = rr / pq, -alpha
    VCG_CHECK(cudaGetLastError());
    VCG_CHECK(axpy(bl, n, s + kAlpha, p, x));              // x += alpha p
    VCG_CHECK(axpy(bl, n, s + kNegAlpha, q, r));           // r -= alpha q
    VCG_CHECK(dot(bl, n, r, r, s + kRrNew));               // rr_new = r.r
    beta_kernel<Real><<<1, 1, 0, st>>>(s);                 // beta = rr_new / rr, rr = rr_new
    VCG_CHECK(cudaGetLastError());
    VCG_CHECK(scal(bl, n, s + kBeta, p));                  // p = beta p
    VCG_CHECK(axpy(bl, n, s + kOne, r, p));                // p += r
  }

  double read_rr() {
    Real h = 0;
    VCG_CHECK(cudaMemcpyAsync(&h, s + kRr, sizeof(Real), cudaMemcpyDeviceToHost, st));
    VCG_CHECK(cudaStreamSynchronize(st));
    return static_cast<double>(h);
  }
};

template <class Real>
VendorCg<Real>::VendorCg(const CsrMatrix& A, CUstream_st* stream) : impl_(std::make_unique<Impl>()) {
  // impl_ exists before the first allocation, so a throw below frees what was made so far.
  Impl& m = *impl_;
  if (A.n > INT_MAX || A.nnz() > INT_MAX) throw std::runtime_error("vendor_cg: more than 2^31 - 1 rows or entries");
  if (static_cast<long>(A.row_ptr.size()) != A.n + 1 || A.col.size() != A.val.size())
    throw std::invalid_argument("vendor_cg: inconsistent CSR matrix");
  m.st = stream;
  m.n = static_cast<int>(A.n);
  m.nnz = A.nnz();
  const std::size_t n = static_cast<std::size_t>(m.n), nz = static_cast<std::size_t>(std::max(1L, m.nnz));
  {
    std::vector<int> hrp(A.row_ptr.begin(), A.row_ptr.end()), hci(A.col.begin(), A.col.end());
    std::vector<Real> hv(A.val.begin(), A.val.end());
    VCG_CHECK(cudaMalloc(reinterpret_cast<void**>(&m.rp), sizeof(int) * (n + 1)));
    VCG_CHECK(cudaMalloc(reinterpret_cast<void**>(&m.ci), sizeof(int) * nz));
    VCG_CHECK(cudaMalloc(reinterpret_cast<void**>(&m.val), sizeof(Real) * nz));
    VCG_CHECK(cudaMemcpy(m.rp, hrp.data(), sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    VCG_CHECK(cudaMemcpy(m.ci, hci.data(), sizeof(int) * hci.size(), cudaMemcpyHostToDevice));
    VCG_CHECK(cudaMemcpy(m.val, hv.data(), sizeof(Real) * hv.size(), cudaMemcpyHostToDevice));
  }
  for (Real** v : {&m.x, &m.r, &m.p, &m.q, &m.b}) {
    VCG_CHECK(cudaMalloc(reinterpret_cast<void**>(v), sizeof(Real) * std::max<std::size_t>(1, n)));
    VCG_CHECK(cudaMemset(*v, 0, sizeof(Real) * std::max<std::size_t>(1, n)));
  }
  VCG_CHECK(cudaMalloc(reinterpret_cast<void**>(&m.s), sizeof(Real) * kSlots));
  const Real hs[kSlots] = {0, 0, 0, 0, 0, 0, 1};
  VCG_CHECK(cudaMemcpy(m.s, hs, sizeof hs, cudaMemcpyHostToDevice));

  VCG_CHECK(cublasCreate(&m.bl));
  VCG_CHECK(cublasSetStream(m.bl, m.st));
  VCG_CHECK(cublasSetPointerMode(m.bl, CUBLAS_POINTER_MODE_DEVICE));
  VCG_CHECK(cusparseCreate(&m.sp));
  VCG_CHECK(cusparseSetStream(m.sp, m.st));
  VCG_CHECK(cusparseCreateCsr(&m.mat, A.n, A.n, m.nnz, m.rp, m.ci, m.val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                              CUSPARSE_INDEX_BASE_ZERO, Impl::T));
  VCG_CHECK(cusparseCreateDnVec(&m.vp, A.n, m.p, Impl::T));
  VCG_CHECK(cusparseCreateDnVec(&m.vq, A.n, m.q, Impl::T));
  const Real one = 1, zero = 0;
  std::size_t bytes = 0;
  VCG_CHECK(cusparseSpMV_bufferSize(m.sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.mat, m.vp, &zero, m.vq, Impl::T,
                                    CUSPARSE_SPMV_CSR_ALG2, &bytes));
  VCG_CHECK(cudaMalloc(&m.work, std::max<std::size_t>(bytes, 16)));
  VCG_CHECK(cusparseSpMV_preprocess(m.sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.mat, m.vp, &zero, m.vq, Impl::T,
                                    CUSPARSE_SPMV_CSR_ALG2, m.work));
  VCG_CHECK(cudaStreamSynchronize(m.st));
}

template <class Real>
VendorCg<Real>::~VendorCg() {
  if (impl_ && impl_->st) cudaStreamSynchronize(impl_->st);  // pending work may still use the buffers
}

template <class Real>
long VendorCg<Real>::rows() const {
  return impl_->n;
}

template <class Real>
VendorCgSolve VendorCg<Real>::solve(const std::vector<Real>& b, std::vector<Real>& x, double rtol,
                                    long max_iterations, int check_every) {
  if (check_every < 1) throw std::invalid_argument("vendor_cg: check_every must be >= 1");
  Impl& m = *impl_;
  m.upload_b(b);
  m.restart();
  VendorCgSolve out;
  const double rr0 = m.read_rr();
  out.initial_residual = out.final_residual = std::sqrt(rr0);
  const double target = rtol * out.initial_residual;
  long k = 0;
  for (;; ++k) {
    const bool last = k >= max_iterations;
    if (k % check_every == 0 || last) {
      out.final_residual = std::sqrt(k == 0 ? rr0 : m.read_rr());
      if (out.final_residual <= target) {
        out.converged = true;
        break;
      }
    }
    if (last) break;
    m.iterate();
  }
  out.iterations = k;
  x.resize(static_cast<std::size_t>(m.n));
  VCG_CHECK(cudaMemcpyAsync(x.data(), m.x, sizeof(Real) * m.n, cudaMemcpyDeviceToHost, m.st));
  VCG_CHECK(cudaStreamSynchronize(m.st));
  return out;
}

template <class Real>
double VendorCg<Real>::seconds_per_iteration(const std::vector<Real>& b, long iterations) {
  if (iterations < 1) throw std::invalid_argument("vendor_cg: iterations must be >= 1");
  Impl& m = *impl_;
  m.upload_b(b);
  m.restart();  // warm-up: library set-up (cuBLAS workspace), clocks, caches
  for (int k = 0; k < 10; ++k) m.iterate();
  VCG_CHECK(cudaStreamSynchronize(m.st));

  struct Events {  // destroyed on every exit
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    ~Events() {
      if (e0) cudaEventDestroy(e0);
      if (e1) cudaEventDestroy(e1);
    }
  } ev;
  VCG_CHECK(cudaEventCreate(&ev.e0));
  VCG_CHECK(cudaEventCreate(&ev.e1));
  m.restart();
  VCG_CHECK(cudaEventRecord(ev.e0, m.st));
  for (long k = 0; k < iterations; ++k) m.iterate();
  VCG_CHECK(cudaEventRecord(ev.e1, m.st));
  VCG_CHECK(cudaEventSynchronize(ev.e1));
  float ms = 0;
  VCG_CHECK(cudaEventElapsedTime(&ms, ev.e0, ev.e1));
  return static_cast<double>(ms) * 1e-3 / static_cast<double>(iterations);
}

template class VendorCg<float>;
template class VendorCg<double>;

}  // namespace perksolve::bench
