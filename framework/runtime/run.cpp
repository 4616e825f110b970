#include "framework/runtime/run.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "framework/backends/kokkos/kokkos_backend.hpp"
#include "framework/config/command_line.hpp"
#include "framework/config/schema.hpp"
#include "framework/runtime/phase_timers.hpp"
#include "framework/halo/halo_exchange.hpp"
#include "framework/operators/grid_operator.hpp"
#include "framework/runtime/matrix_run.hpp"
#include "solvers/multigrid/mg_config.hpp"
#include "framework/io/checkpoint.hpp"
#include "framework/io/io_options.hpp"
#include "framework/io/run_output.hpp"
#include "framework/runtime/plugins.hpp"
#include "framework/runtime/sampling.hpp"
#include "framework/solver/solver.hpp"
#include "framework/util/build_info.hpp"
#include "framework/util/log.hpp"

namespace perksolve {

namespace {

BoundaryType boundary_type(const std::string& s) {
  if (s == "dirichlet") return BoundaryType::dirichlet;
  if (s == "neumann") return BoundaryType::neumann;
  return BoundaryType::periodic;
}

}  // namespace

template <class Real>
RunOutcome solve_deck(const config::Deck& deck, MPI_Comm comm, bool gather_solution, const std::string& restart_file) {
  const ProblemInfo* pinfo = find_problem(deck.get_string("problem.type"));
  const SolverInfo* sinfo = find_solver(deck.get_string("solver.type"));
  if (!pinfo) throw deck.error_at("problem.type", "unknown problem '" + deck.get_string("problem.type") + "'");
  if (!sinfo) throw deck.error_at("solver.type", "unknown solver '" + deck.get_string("solver.type") + "'");
  std::unique_ptr<Problem> problem = pinfo->factory(deck);
  std::unique_ptr<Solver> solver = sinfo->factory(deck);

  Timers timers;
  Stopwatch setup_clock;
  const GridSpec grid = grid_from_deck(deck);
  ProblemSetup setup = problem->setup(grid, deck);
  if (setup.matrix) return solve_matrix_deck<Real>(deck, comm, setup, *solver, gather_solution);  // assembled A
  const int ghost = std::max(1, setup.op.radius());
  std::unique_ptr<Decomposition> decomp;
  try {
    decomp = std::make_unique<Decomposition>(grid, comm, rank_grid_from_deck(deck), ghost);
  } catch (const std::invalid_argument& e) {
    const bool extents = std::string(e.what()).find("grid.extents") != std::string::npos;
    throw deck.error_at(extents ? "grid.extents" : "decomposition.ranks", e.what());
  }
  std::unique_ptr<Backend<Real>> backend = create_backend<Real>(deck.get_string("backend.type"), decomp->comm());
  configure_phase_timers(timers, *backend, deck);
  const FieldLayout layout = decomp->grid_layout(ghost, sizeof(Real), solver->grid_rows_on_lines());
  FieldPtr<Real> x = backend->create_field(layout);
  FieldPtr<Real> b = backend->create_field(layout);
  sample(*backend, *decomp, *b, setup.rhs);
  if (setup.random_initial) sample_random(*backend, *decomp, *x, setup.seed);
  else sample(*backend, *decomp, *x, setup.initial);
  HaloExchange<Real> halo(*decomp, layout, setup.op.needs_corners(), *backend);

  const bool quiet = deck.get_bool("monitor.quiet");
  const auto& d = decomp->dims();
  if (!quiet) {
    log::info(fmt::format("problem {}; solver {}", pinfo->name, sinfo->name));
    log::info(fmt::format("grid: {}D {}-centred {} x {} x {} on [{}, {}] x [{}, {}] x [{}, {}]; h = {:.4e}", grid.dim,
                          to_string(grid.centering), grid.extents[0], grid.extents[1], grid.extents[2], grid.lo[0],
                          grid.hi[0], grid.lo[1], grid.hi[1], grid.lo[2], grid.hi[2], grid.spacing(0)));
    log::info(fmt::format("ranks: {} as {} x {} x {}; backend {} ({}); operator {} ({} points, radius {}); ghost {}; "
                          "rows of {} elements",
                          decomp->size(), d[0], d[1], d[2], backend->name(), sizeof(Real) == 8 ? "double" : "float",
                          setup.op.name, setup.op.size(), setup.op.radius(), ghost, layout.stride_y()));
  }
  timers.add("setup", setup_clock.seconds());

  auto stop = stopping_from_deck(deck);
  Monitor monitor(deck.get_string("solver.type"), deck.get_int("monitor.every"), deck.get_real("monitor.progress_s"),
                  quiet, stop->max_iterations());
  System<Real> sys{*backend, *decomp, halo, setup.op, setup, *x, *b, *stop, monitor, timers};
  sys.x_is_zero = !setup.random_initial && !setup.initial && restart_file.empty();
  std::unique_ptr<GridOperator<Real>> op;  // A of A x = b (constant or variable-coefficient stencil)
  if (solver->solves_linear_system()) {
    op = make_grid_operator<Real>(*backend, *decomp, layout, setup, /*fine=*/true);
    sys.A = op.get();
  }
  // Output layer (framework/io): field output, checkpoints, restart, histories.
  auto io = io::create_run_output<Real>(io::OutputContext<Real>{deck, *backend, *decomp, halo, setup, *x, *b, timers,
                                                                sinfo->name, pinfo->name,
                                                                solver->solves_linear_system(), restart_file,
                                                                sys.A});
  sys.observer = io->observer();
  RunOutcome out;
  out.result = solver->solve(sys);
  backend->fence();
  if (op && !quiet)
    log::info(fmt::format("true relative residual ||b - A x|| / ||b|| = {:.6e}", true_relative_residual(*op, *b, *x)));

  if (setup.exact) {
    const double t = solver->solves_linear_system() ? 0.0 : out.result.iterations * setup.time_step;
    const ErrorNorms e = error_norms(*backend, *decomp, *x, setup.exact, t);
    out.error = e;
    if (!quiet)
      log::info(fmt::format("error vs exact solution: max {:.6e}  rms {:.6e}  (relative max {:.6e})", e.max_abs, e.rms,
                            e.max_exact > 0 ? e.max_abs / e.max_exact : 0.0));
  }
  io->finish(out.result, out.error);
  if (gather_solution) out.global_solution = gather_global(*backend, *decomp, *x);
  const std::string table = timers.table(decomp->comm(), "timers (max over ranks; bytes by the traffic model):");
  if (!quiet) log::info(table);
  return out;
}

template RunOutcome solve_deck<float>(const config::Deck&, MPI_Comm, bool, const std::string&);
template RunOutcome solve_deck<double>(const config::Deck&, MPI_Comm, bool, const std::string&);

GridSpec grid_from_deck(const config::Deck& deck) {
  GridSpec g;
  g.dim = static_cast<int>(deck.get_int("grid.dimension"));
  const auto ext = deck.get_int_array("grid.extents");
  if (static_cast<int>(ext.size()) != g.dim)
    throw deck.error_at("grid.extents", fmt::format("expected {} entries for a {}D grid, got {}", g.dim, g.dim, ext.size()));
  for (int a = 0; a < 3; ++a) g.extents[a] = a < g.dim ? ext[a] : 1;
  const auto lo = deck.get_real_array("grid.box_lo");
  const auto hi = deck.get_real_array("grid.box_hi");
  if (static_cast<int>(lo.size()) < g.dim)
    throw deck.error_at("grid.box_lo", fmt::format("expected at least {} coordinates", g.dim));
  if (static_cast<int>(hi.size()) < g.dim)
    throw deck.error_at("grid.box_hi", fmt::format("expected at least {} coordinates", g.dim));
  for (int a = 0; a < g.dim; ++a) {
    g.lo[a] = lo[a];
    g.hi[a] = hi[a];
    if (!(g.hi[a] > g.lo[a]))
      throw deck.error_at("grid.box_hi", fmt::format("box_hi[{}] = {} must be greater than box_lo[{}] = {}", a, hi[a], a, lo[a]));
  }
  g.centering = deck.get_string("grid.centering") == "cell" ? Centering::cell : Centering::vertex;
  const char* names[3][2] = {{"x_lo", "x_hi"}, {"y_lo", "y_hi"}, {"z_lo", "z_hi"}};
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      const std::string key = std::string("boundary.") + names[a][s];
      FaceBoundary f;
      f.type = boundary_type(deck.has(key) ? deck.get_string(key) : deck.get_string("boundary.type"));
      f.value = deck.has(key + "_value") ? deck.get_real(key + "_value") : deck.get_real("boundary.value");
      g.boundary[a][s] = f;
    }
  for (int a = 0; a < g.dim; ++a)
    if ((g.boundary[a][0].type == BoundaryType::periodic) != (g.boundary[a][1].type == BoundaryType::periodic)) {
      const std::string key = std::string("boundary.") + names[a][deck.has(std::string("boundary.") + names[a][1]) ? 1 : 0];
      throw deck.error_at(deck.has(key) ? key : "boundary.type",
                          fmt::format("axis {} is periodic on one face only; periodic must be set on both faces", "xyz"[a]));
    }
  try {
    g.validate();
  } catch (const std::invalid_argument& e) {
    throw deck.error_at("grid.extents", e.what());
  }
  return g;
}

std::array<int, 3> rank_grid_from_deck(const config::Deck& deck) {
  const auto r = deck.get_int_array("decomposition.ranks");
  std::array<int, 3> out{0, 0, 0};
  for (size_t a = 0; a < r.size() && a < 3; ++a) out[a] = static_cast<int>(r[a]);
  return out;
}

int perksolve_main(int argc, char** argv) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  log::set_rank(rank);

  std::optional<config::CommandLine> cl;
  try {
    cl = config::parse_command_line(argc, argv);
  } catch (const std::exception& e) {
    log::error(e.what());
    return exit_error;
  }
  if (!cl) return exit_converged;  // --help
  if (cl->show_version) {
    log::info(build_info());
    return exit_converged;
  }

  // Kokkos gets the arguments after "--".
  std::vector<std::string> kargs_s{"perksolve"};
  for (const auto& a : cl->passthrough) kargs_s.push_back(a);
  std::vector<char*> kargv;
  for (auto& a : kargs_s) kargv.push_back(a.data());
  int kargc = static_cast<int>(kargv.size());
  Kokkos::ScopeGuard kokkos(kargc, kargv.data());

  int code = exit_converged;
  try {
    config::register_core_schema();
    register_multigrid_tables();  // [solver.preconditioner*], [solver.smoother], [solver.coarse]
    io::register_io_schema();
    register_kokkos_backend();  // further backends are registered by the executable before this
    for (const auto& p : cl->plugins) load_plugin(p);

    if (!cl->list_what.empty()) {
      std::vector<std::string> names;
      if (cl->list_what == "problems") names = problem_names();
      else if (cl->list_what == "solvers") names = solver_names();
      else if (cl->list_what == "backends") names = registered_backends();
      else if (cl->list_what == "stencils") names = perks_shape_names();
      else throw std::invalid_argument("--list expects problems, solvers, backends or stencils, got '" + cl->list_what + "'");
      std::string out;
      for (const auto& n : names) {
        std::string help;
        if (cl->list_what == "problems") help = find_problem(n)->help;
        if (cl->list_what == "solvers") help = find_solver(n)->help;
        out += fmt::format("  {:<20} {}\n", n, help);
      }
      log::info(out);
      return exit_converged;
    }
    if (!cl->describe_table.empty()) {
      log::info(config::describe_table(cl->describe_table));
      return exit_converged;
    }
    if (cl->deck_path.empty()) throw std::invalid_argument("no input deck given (usage: perksolve DECK [key=value ...])");

    const config::Deck deck = config::load_deck(cl->deck_path, cl->overrides);
    if (cl->dry_run) {
      log::info(deck.to_toml(true));
      return exit_converged;
    }
    if (!deck.get_bool("monitor.quiet")) log::info(build_info() + "\ndeck: " + cl->deck_path);
    // --restart FILE|DIR: the checkpoint's embedded deck must match (io::restart_may_change).
    const std::string restart =
        cl->restart_file.empty() ? std::string() : io::prepare_restart(deck, cl->restart_file, MPI_COMM_WORLD);
    const RunOutcome out = deck.get_string("backend.precision") == "float"
                               ? solve_deck<float>(deck, MPI_COMM_WORLD, false, restart)
                               : solve_deck<double>(deck, MPI_COMM_WORLD, false, restart);
    code = out.result.converged() ? exit_converged : exit_not_converged;
  } catch (const config::DeckError& e) {
    log::error(e.what());
    code = exit_error;
  } catch (const BackendUnavailable& e) {
    log::error(e.what());
    code = exit_error;
  } catch (const io::IoError& e) {  // raised identically on every rank (unreadable checkpoint, ...)
    log::error(e.what());
    code = exit_error;
  } catch (const std::exception& e) {
    // Deck-driven set-up errors are raised identically on every rank; anything else may not be.
    log::error(e.what());
    if (size > 1) {
      log::error_any_rank(e.what());
      MPI_Abort(MPI_COMM_WORLD, exit_error);
    }
    code = exit_error;
  }
  return code;
}

}  // namespace perksolve
