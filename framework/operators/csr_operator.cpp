#include "framework/operators/csr_operator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <type_traits>

#include "framework/config/deck.hpp"
#include "framework/grid/decomposition.hpp"

namespace perksolve {

// ---- Matrix Market ---------------------------------------------------------------------------

namespace {

[[noreturn]] void mm_error(const std::string& path, long line, const std::string& what) {
  throw config::DeckError(line > 0 ? fmt::format("{}:{}: error: {}", path, line, what)
                                   : fmt::format("{}: error: {}", path, what));
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

CsrMatrix read_matrix_market(const std::string& path) {
  std::ifstream in(path);
  if (!in) mm_error(path, 0, "cannot open Matrix Market file");
  std::string text;
  long line_no = 0;
  if (!std::getline(in, text)) mm_error(path, 1, "empty file (expected a '%%MatrixMarket matrix coordinate ...' header)");
  ++line_no;
  std::istringstream hs(text);
  std::string banner, object, format, field, symmetry, extra;
  hs >> banner >> object >> format >> field >> symmetry;
  if (banner != "%%MatrixMarket")
    mm_error(path, line_no, "bad header '" + text + "': expected '%%MatrixMarket matrix coordinate real general|symmetric'");
  object = lower(object), format = lower(format), field = lower(field), symmetry = lower(symmetry);
  if (object != "matrix") mm_error(path, line_no, "bad header: object '" + object + "' is not 'matrix'");
  if (format != "coordinate")
    mm_error(path, line_no, "bad header: format '" + format + "' is not supported (only 'coordinate')");
  if (field != "real" && field != "integer" && field != "double")
    mm_error(path, line_no, "bad header: field '" + field + "' is not supported (real or integer)");
  if (symmetry != "general" && symmetry != "symmetric")
    mm_error(path, line_no, "bad header: symmetry '" + symmetry + "' is not supported (general or symmetric)");
  if (hs >> extra) mm_error(path, line_no, "bad header: unexpected '" + extra + "' after the symmetry");
  const bool symmetric = symmetry == "symmetric";

  // Comments, then the size line.
  long rows = -1, cols = -1, entries = -1;
  while (std::getline(in, text)) {
    ++line_no;
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos || text[first] == '%') continue;
    std::istringstream ss(text);
    if (!(ss >> rows >> cols >> entries) || (ss >> extra))
      mm_error(path, line_no, "bad size line '" + text + "': expected 'rows columns entries'");
    break;
  }
  if (rows < 0) mm_error(path, line_no, "truncated file: no size line");
  if (rows == 0 || cols == 0) mm_error(path, line_no, "empty matrix (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
  if (rows != cols)
    mm_error(path, line_no, fmt::format("matrix is not square ({} x {}): a linear system needs a square matrix", rows, cols));
  if (entries < 0) mm_error(path, line_no, "negative number of entries");

  std::vector<std::map<long, double>> row_entries(rows);
  long seen = 0;
  while (seen < entries && std::getline(in, text)) {
    ++line_no;
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos || text[first] == '%') continue;
    std::istringstream ss(text);
    long i = 0, j = 0;
    double v = 0.0;
    if (!(ss >> i >> j >> v) || (ss >> extra))
      mm_error(path, line_no, "bad entry '" + text + "': expected 'row column value'");
    if (i < 1 || i > rows || j < 1 || j > cols)
      mm_error(path, line_no, fmt::format("index ({}, {}) out of range 1..{}", i, j, rows));
    if (!std::isfinite(v)) mm_error(path, line_no, "value is not finite");
    if (symmetric && j > i)
      mm_error(path, line_no, fmt::format("entry ({}, {}) above the diagonal in a file declared symmetric (only the lower "
                                          "triangle may be stored; the matrix is not symmetric as declared)", i, j));
    row_entries[i - 1][j - 1] += v;
    if (symmetric && i != j) row_entries[j - 1][i - 1] += v;
    ++seen;
  }
  if (seen < entries)
    mm_error(path, line_no, fmt::format("truncated file: {} entries declared, {} found", entries, seen));
  while (std::getline(in, text)) {
    ++line_no;
    const auto first = text.find_first_not_of(" \t\r");
    if (first != std::string::npos && text[first] != '%')
      mm_error(path, line_no, fmt::format("more entries than the {} declared", entries));
  }

  CsrMatrix A;
  A.source = path;
  A.n = rows;
  A.declared_symmetric = symmetric;
  A.row_ptr.assign(rows + 1, 0);
  for (long r = 0; r < rows; ++r) {
    for (const auto& [c, v] : row_entries[r]) {
      A.col.push_back(c);
      A.val.push_back(v);
    }
    A.row_ptr[r + 1] = static_cast<long>(A.col.size());
  }
  return A;
}

void write_matrix_market(const std::string& path, const CsrMatrix& A, bool symmetric) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  long count = 0;
  for (long r = 0; r < A.n; ++r)
    for (long e = A.row_ptr[r]; e < A.row_ptr[r + 1]; ++e)
      if (!symmetric || A.col[e] <= r) ++count;
  out << "%%MatrixMarket matrix coordinate real " << (symmetric ? "symmetric" : "general") << "\n";
  out << "% written by perksolve\n";
  out << A.n << " " << A.n << " " << count << "\n";
  out.precision(17);
  for (long r = 0; r < A.n; ++r)
    for (long e = A.row_ptr[r]; e < A.row_ptr[r + 1]; ++e)
      if (!symmetric || A.col[e] <= r) out << r + 1 << " " << A.col[e] + 1 << " " << A.val[e] << "\n";
}

// ---- distributed operator ----------------------------------------------------------------------

namespace {
template <class Real>
MPI_Datatype mpi_real() {
  return std::is_same_v<Real, float> ? MPI_FLOAT : MPI_DOUBLE;
}
}  // namespace

template <class Real>
CsrOperator<Real>::CsrOperator(Backend<Real>& be, MPI_Comm comm, const CsrMatrix& A) : be_(be), comm_(comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  global_n_ = A.n;
  global_nnz_ = A.nnz();
  if (A.n < size)
    throw config::DeckError(fmt::format("{}: error: matrix of {} rows cannot be distributed over {} ranks", A.source, A.n, size));
  int rows = 0;
  Decomposition::split(A.n, size, rank, row_begin_, rows);
  const long row_end = row_begin_ + rows;
  std::vector<long> starts(size + 1);
  for (int q = 0; q < size; ++q) {
    int c = 0;
    Decomposition::split(A.n, size, q, starts[q], c);
  }
  starts[size] = A.n;
  auto owner = [&](long g) {
    return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), g) - starts.begin() - 1);
  };

  // Inspector: the off-block columns this rank's rows touch, sorted (hence grouped by owner).
  std::vector<long> ghosts;
  for (long r = row_begin_; r < row_end; ++r)
    for (long e = A.row_ptr[r]; e < A.row_ptr[r + 1]; ++e)
      if (A.col[e] < row_begin_ || A.col[e] >= row_end) ghosts.push_back(A.col[e]);
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());

  CsrBlock block;
  block.rows = rows;
  block.ghost_cols = static_cast<long>(ghosts.size());
  block.row_ptr.assign(rows + 1, 0);
  for (long r = row_begin_; r < row_end; ++r) {
    for (long e = A.row_ptr[r]; e < A.row_ptr[r + 1]; ++e) {
      const long c = A.col[e];
      const long local = (c >= row_begin_ && c < row_end)
                             ? c - row_begin_
                             : rows + (std::lower_bound(ghosts.begin(), ghosts.end(), c) - ghosts.begin());
      block.col.push_back(static_cast<int>(local));
      block.val.push_back(A.val[e]);
    }
    block.row_ptr[r - row_begin_ + 1] = static_cast<long>(block.col.size());
  }

  // Tell every owner which of its rows we need (counts, then the global indices).
  std::vector<int> need_count(size, 0), give_count(size, 0);
  for (long g : ghosts) ++need_count[owner(g)];
  MPI_Alltoall(need_count.data(), 1, MPI_INT, give_count.data(), 1, MPI_INT, comm);
  std::vector<int> need_disp(size + 1, 0), give_disp(size + 1, 0);
  for (int q = 0; q < size; ++q) {
    need_disp[q + 1] = need_disp[q] + need_count[q];
    give_disp[q + 1] = give_disp[q] + give_count[q];
  }
  std::vector<long> wanted(give_disp[size]);
  MPI_Alltoallv(ghosts.data(), need_count.data(), need_disp.data(), MPI_LONG, wanted.data(), give_count.data(),
                give_disp.data(), MPI_LONG, comm);
  for (long g : wanted) block.send_index.push_back(g - row_begin_);
  for (int q = 0; q < size; ++q) {
    if (give_count[q] > 0) send_peers_.push_back(Peer{q, give_disp[q], give_count[q]});
    if (need_count[q] > 0) recv_peers_.push_back(Peer{q, need_disp[q], need_count[q]});
  }
  send_.resize(wanted.size());
  recv_.resize(ghosts.size());

  layout_ = vector_layout(rows);
  A_ = be.create_sparse_matrix(block);
  nnz_per_row_ = static_cast<double>(A.nnz()) / static_cast<double>(A.n);
}

template <class Real>
CsrOperator<Real>::~CsrOperator() = default;

template <class Real>
void CsrOperator<Real>::apply(Field<Real>& x, Field<Real>& y) {
  // Executor: pack the values others need, exchange, multiply.
  std::vector<MPI_Request> req;
  req.reserve(send_peers_.size() + recv_peers_.size());
  for (const Peer& p : recv_peers_) {
    req.emplace_back();
    MPI_Irecv(recv_.data() + p.offset, static_cast<int>(p.count), mpi_real<Real>(), p.rank, 71, comm_, &req.back());
  }
  if (!send_.empty()) be_.sparse_gather(*A_, x, send_.data());
  for (const Peer& p : send_peers_) {
    req.emplace_back();
    MPI_Isend(send_.data() + p.offset, static_cast<int>(p.count), mpi_real<Real>(), p.rank, 71, comm_, &req.back());
  }
  MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
  be_.spmv(*A_, x, recv_.data(), y);
}

template <class Real>
void CsrOperator<Real>::residual(const Field<Real>& b, Field<Real>& x, Field<Real>& r) {
  apply(x, r);
  be_.axpby(Real(1), b, Real(-1), r);
}

template <class Real>
void CsrOperator<Real>::diagonal(Field<Real>& d) {
  be_.sparse_diagonal(*A_, d);
}

template <class Real>
std::string CsrOperator<Real>::persistent_cg_obstacle() const {
  return distributed() ? "it runs on one rank only" : std::string();
}

template <class Real>
PersistentCg CsrOperator<Real>::persistent_cg(Field<Real>& x, Field<Real>& r, Field<Real>& p, Field<Real>& q,
                                              const PersistentCgRequest& req) {
  if (distributed()) return {};
  return be_.persistent_cg(*A_, x, r, p, q, req);
}

template <class Real>
bool CsrOperator<Real>::distributed() const {
  int size = 1;
  MPI_Comm_size(comm_, &size);
  return size > 1;
}

template <class Real>
std::string CsrOperator<Real>::describe() const {
  return fmt::format("sparse matrix {} x {}, {} non-zeros (KokkosSparse CRS, row blocks)", global_n_, global_n_,
                     global_nnz_);
}

template class CsrOperator<float>;
template class CsrOperator<double>;

}  // namespace perksolve
