// Assembled sparse matrices: a global CSR description (as read from a Matrix Market file) and the
// rank-distributed operator built from it (row blocks as Decomposition::split makes them; halo
// index lists built once by an inspector, then every product is pack -> MPI -> spmv).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "framework/operators/linear_operator.hpp"

namespace perksolve {

// A whole matrix in CSR form (0-based, columns sorted within a row, duplicates summed).
struct CsrMatrix {
  std::string source;  // file it came from
  long n = 0;
  std::vector<long> row_ptr;
  std::vector<long> col;
  std::vector<double> val;
  bool declared_symmetric = false;
  std::vector<double> rhs;    // b
  std::vector<double> exact;  // x with A x = b when known, else empty
  long nnz() const { return static_cast<long>(val.size()); }
};

// Reads a Matrix Market file (coordinate; real, integer; general or symmetric). Throws
// config::DeckError "FILE:LINE: error: ..." for malformed input (bad header, non-square, bad or
// out-of-range indices, truncated data, upper-triangle entries in a symmetric file, ...).
CsrMatrix read_matrix_market(const std::string& path);
// Writes `A` as a Matrix Market coordinate file (symmetric => lower triangle only).
void write_matrix_market(const std::string& path, const CsrMatrix& A, bool symmetric);

template <class Real>
class CsrOperator final : public LinearOperator<Real> {
 public:
  // Rows [row_begin, row_begin + rows) of `A` on this rank; `comm` holds all ranks of the split,
  // whose row blocks are Decomposition::split(A.n, size, rank).
  CsrOperator(Backend<Real>& be, MPI_Comm comm, const CsrMatrix& A);
  ~CsrOperator() override;

  Backend<Real>& backend() const override { return be_; }
  const FieldLayout& layout() const override { return layout_; }
  void apply(Field<Real>& x, Field<Real>& y) override;
  void residual(const Field<Real>& b, Field<Real>& x, Field<Real>& r) override;
  void diagonal(Field<Real>& d) override;
  // The CG loop on the assembled matrix: one rank only (no halo columns).
  PersistentCg persistent_cg(Field<Real>& x, Field<Real>& r, Field<Real>& p, Field<Real>& q,
                             const PersistentCgRequest& req) override;
  std::string persistent_cg_obstacle() const override;
  // The matrix once (values and int32 columns) and 8 vector values per row (docs/perf/persistent-cg.md).
  double persistent_cg_bytes_per_row() const override {
    return nnz_per_row_ * (sizeof(Real) + 4.0) + 8.0 * sizeof(Real);
  }
  std::string describe() const override;
  double nnz_per_row() const override { return nnz_per_row_; }
  long row_begin() const { return row_begin_; }
  long halo_values() const { return static_cast<long>(recv_.size()); }
  // This rank's rows (backend memory), and whether other ranks hold rows too (then reductions span ranks).
  const SparseMatrix<Real>& local_matrix() const { return *A_; }
  bool distributed() const;

 private:
  Backend<Real>& be_;
  MPI_Comm comm_;
  FieldLayout layout_;
  long row_begin_ = 0, global_n_ = 0, global_nnz_ = 0;
  double nnz_per_row_ = 0;
  std::unique_ptr<SparseMatrix<Real>> A_;
  struct Peer {
    int rank;
    long offset, count;
  };
  std::vector<Peer> send_peers_, recv_peers_;
  std::vector<Real> send_, recv_;
};

}  // namespace perksolve
