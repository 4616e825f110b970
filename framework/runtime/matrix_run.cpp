#include "framework/runtime/matrix_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "framework/operators/csr_operator.hpp"
#include "framework/runtime/phase_timers.hpp"
#include "framework/util/log.hpp"

namespace perksolve {

template <class Real>
double true_relative_residual(LinearOperator<Real>& A, const Field<Real>& b, Field<Real>& x) {
  FieldPtr<Real> r = A.create_vector();
  A.residual(b, x, *r);
  Backend<Real>& be = A.backend();
  const double rn = be.norm2(*r), bn = be.norm2(b);
  return bn > 0 ? rn / bn : rn;
}

template <class Real>
RunOutcome solve_matrix_deck(const config::Deck& deck, MPI_Comm comm, const ProblemSetup& setup, Solver& solver,
                             bool gather_solution) {
  const CsrMatrix& M = *setup.matrix;
  int size = 1;
  MPI_Comm_size(comm, &size);
  Timers timers;
  Stopwatch setup_clock;
  // Row blocks: a 1 x N "grid" of rows split over the ranks like a grid axis, no ghosts.
  GridSpec rows;
  rows.dim = 2;
  rows.centering = Centering::cell;
  rows.extents = {M.n, 1, 1};
  rows.hi = {static_cast<double>(M.n), 1.0, 1.0};
  if (M.n < size)
    throw config::DeckError(fmt::format("{}: error: matrix of {} rows cannot be distributed over {} ranks", M.source,
                                        M.n, size));
  Decomposition decomp(rows, comm, {size, 1, 1}, 0);
  std::unique_ptr<Backend<Real>> backend = create_backend<Real>(deck.get_string("backend.type"), decomp.comm());
  configure_phase_timers(timers, *backend, deck);
  CsrOperator<Real> A(*backend, decomp.comm(), M);
  const FieldLayout layout = A.layout();
  FieldPtr<Real> x = backend->create_field(layout), b = backend->create_field(layout);
  const long r0 = A.row_begin(), n = layout.n[0];
  std::vector<Real> host(n);
  for (long i = 0; i < n; ++i) host[i] = static_cast<Real>(M.rhs[r0 + i]);
  backend->upload(*b, host);
  backend->fill(*x, Real(0));
  HaloExchange<Real> halo(decomp, decomp.grid_layout(0, sizeof(Real)), false, *backend);

  const bool quiet = deck.get_bool("monitor.quiet");
  if (!quiet) {
    log::info(fmt::format("matrix: {}", M.source));
    log::info(fmt::format("operator: {}; {} ranks; backend {} ({}); {} halo values on rank 0", A.describe(), size,
                          backend->name(), sizeof(Real) == 8 ? "double" : "float", A.halo_values()));
    if (!M.declared_symmetric)
      log::info("note: the file is declared 'general'; CG assumes the matrix is symmetric positive definite");
  }
  timers.add("setup", setup_clock.seconds());
  auto stop = stopping_from_deck(deck);
  Monitor monitor(deck.get_string("solver.type"), deck.get_int("monitor.every"), deck.get_real("monitor.progress_s"),
                  quiet, stop->max_iterations());
  System<Real> sys{*backend, decomp, halo, setup.op, setup, *x, *b, *stop, monitor, timers};
  sys.A = &A;
  RunOutcome out;
  out.result = solver.solve(sys);
  backend->fence();
  const double rel = true_relative_residual(A, *b, *x);
  if (!quiet) log::info(fmt::format("true relative residual ||b - A x|| / ||b|| = {:.6e}", rel));

  std::vector<Real> xs(n);
  backend->download(*x, xs);
  if (!M.exact.empty()) {
    double local[3] = {0, 0, 0};
    for (long i = 0; i < n; ++i) {
      const double e = std::abs(static_cast<double>(xs[i]) - M.exact[r0 + i]);
      local[0] = std::max(local[0], e);
      local[1] += e * e;
      local[2] = std::max(local[2], std::abs(M.exact[r0 + i]));
    }
    double mx[2] = {local[0], local[2]}, gmx[2], sq = 0;
    MPI_Allreduce(mx, gmx, 2, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(&local[1], &sq, 1, MPI_DOUBLE, MPI_SUM, comm);
    out.error = ErrorNorms{gmx[0], std::sqrt(sq / static_cast<double>(M.n)), gmx[1]};
    if (!quiet)
      log::info(fmt::format("error vs exact solution: max {:.6e}  rms {:.6e}  (relative max {:.6e})", gmx[0],
                            out.error->rms, gmx[1] > 0 ? gmx[0] / gmx[1] : 0.0));
  }
  if (gather_solution) {
    std::vector<double> mine(xs.begin(), xs.end());
    std::vector<int> counts(size), displs(size, 0);
    const int nn = static_cast<int>(n);
    MPI_Gather(&nn, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
      for (int q = 1; q < size; ++q) displs[q] = displs[q - 1] + counts[q - 1];
      out.global_solution.resize(M.n);
    }
    MPI_Gatherv(mine.data(), nn, MPI_DOUBLE, out.global_solution.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
                comm);
  }
  const std::string table = timers.table(decomp.comm(), "timers (max over ranks; bytes by the traffic model):");
  if (!quiet) log::info(table);
  return out;
}

template double true_relative_residual(LinearOperator<float>&, const Field<float>&, Field<float>&);
template double true_relative_residual(LinearOperator<double>&, const Field<double>&, Field<double>&);
template RunOutcome solve_matrix_deck<float>(const config::Deck&, MPI_Comm, const ProblemSetup&, Solver&, bool);
template RunOutcome solve_matrix_deck<double>(const config::Deck&, MPI_Comm, const ProblemSetup&, Solver&, bool);

}  // namespace perksolve
