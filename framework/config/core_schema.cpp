// The framework's own deck tables. Problems and solvers add the variants of [problem] / [solver].
#include "framework/config/schema.hpp"

namespace perksolve::config {

namespace {

const std::vector<std::string> kBoundaryTypes = {"dirichlet", "neumann", "periodic"};

TableSchema grid_table() {
  TableSchema t;
  t.path = "grid";
  t.help = "The structured grid: number of points per direction and the physical box it covers.";
  t.required = true;
  t.keys = {
      with_range(key_int("dimension", 3, "Number of spatial dimensions."), 2, 3),
      with_range(with_length(key_int_array("extents", std::nullopt,
                                           "Number of grid points (vertex centering) or cells (cell "
                                           "centering) per direction, x first; one entry per dimension."),
                             2, 3),
                 1, std::nullopt),
      with_length(key_real_array("box_lo", std::vector<double>{0.0, 0.0, 0.0},
                                 "Lower corner of the physical box (entries beyond `dimension` are ignored)."),
                  2, 3),
      with_length(key_real_array("box_hi", std::vector<double>{1.0, 1.0, 1.0},
                                 "Upper corner of the physical box (entries beyond `dimension` are ignored)."),
                  2, 3),
      key_string("centering", std::string("vertex"), {"vertex", "cell"},
                 "Where the unknowns live: on the grid vertices or at the cell centres."),
  };
  return t;
}

TableSchema boundary_table() {
  TableSchema t;
  t.path = "boundary";
  t.help = "Boundary conditions. `type` and `value` apply to every face; the per-face keys override them.";
  t.keys = {
      key_string("type", std::string("dirichlet"), kBoundaryTypes, "Boundary condition on all faces."),
      key_real("value", 0.0,
               "Dirichlet value, or outward normal derivative for Neumann faces (ignored for periodic)."),
  };
  for (const char* face : {"x_lo", "x_hi", "y_lo", "y_hi", "z_lo", "z_hi"}) {
    t.keys.push_back(optional_key(
        key_string(face, std::nullopt, kBoundaryTypes, std::string("Boundary condition on the ") + face +
                                                           " face (overrides boundary.type).")));
  }
  for (const char* face : {"x_lo", "x_hi", "y_lo", "y_hi", "z_lo", "z_hi"}) {
    t.keys.push_back(optional_key(key_real(std::string(face) + "_value", std::nullopt,
                                           std::string("Boundary value on the ") + face +
                                               " face (overrides boundary.value).")));
  }
  return t;
}

TableSchema decomposition_table() {
  TableSchema t;
  t.path = "decomposition";
  t.help = "Distribution of the grid over MPI ranks.";
  t.keys = {
      with_range(with_length(key_int_array("ranks", std::vector<long>{0, 0, 0},
                                           "MPI ranks per direction; 0 lets MPI choose (MPI_Dims_create). "
                                           "The product must equal the number of ranks of the run."),
                             2, 3),
                 0, std::nullopt),
  };
  return t;
}

TableSchema backend_table() {
  TableSchema t;
  t.path = "backend";
  t.help = "Compute backend and floating-point precision.";
  t.keys = {
      key_string("type", std::string("kokkos"), {"kokkos", "cuda"},
                 "Kokkos (any execution space it was built with) or the native CUDA backend."),
      key_string("precision", std::string("double"), {"double", "float"}, "Floating-point type of the fields."),
  };
  return t;
}

TableSchema problem_table() {
  TableSchema t;
  t.path = "problem";
  t.help = "The problem to solve (right-hand side, initial condition, exact solution); `type` selects it.";
  t.required = true;
  t.has_variants = true;
  return t;
}

TableSchema solver_table() {
  TableSchema t;
  t.path = "solver";
  t.help = "The iterative solver; `type` selects it.";
  t.required = true;
  t.has_variants = true;
  return t;
}

TableSchema solver_stop_table() {
  TableSchema t;
  t.path = "solver.stop";
  t.help = "Stopping criteria: the solver stops at the first one met.";
  t.keys = {
      with_range(key_int("max_iterations", 10000, "Maximum number of iterations."), 0, std::nullopt),
      with_range(key_real("rtol", 1e-8, "Stop when the residual norm <= rtol * initial residual norm."), 0,
                 std::nullopt),
      with_range(key_real("atol", 0.0, "Stop when the residual norm <= atol (0 = not used)."), 0, std::nullopt),
      with_unit(with_range(key_real("walltime_s", 0.0, "Stop after this wall-clock time (0 = unlimited)."), 0,
                           std::nullopt),
                "s"),
      with_range(key_int("check_every", 1, "Compute the residual norm every N iterations."), 1, std::nullopt),
  };
  return t;
}

TableSchema monitor_table() {
  TableSchema t;
  t.path = "monitor";
  t.help = "Progress output.";
  t.keys = {
      with_range(key_int("every", 0, "Print a monitor line every N iterations (0 = none)."), 0, std::nullopt),
      with_unit(with_range(key_real("progress_s", 2.0, "Interval of the progress line for long runs (0 = off)."),
                           0, std::nullopt),
                "s"),
      key_bool("quiet", false, "Suppress everything but warnings, errors and the final summary."),
      key_string("phase_timers", std::string("auto"), {"auto", "on", "off"},
                 "Per-phase timer table (each phase fenced for honest times on GPUs). auto: on for host "
                 "backends, off for asynchronous ones (cuda), where every fence drains the device queue."),
  };
  return t;
}

}  // namespace

void register_core_schema() {
  // add_table replaces a table of the same path and keeps variants registered earlier, so calling
  // this again is harmless.
  auto& registry = SchemaRegistry::instance();
  registry.add_table(grid_table());
  registry.add_table(boundary_table());
  registry.add_table(decomposition_table());
  registry.add_table(backend_table());
  registry.add_table(problem_table());
  registry.add_table(solver_table());
  registry.add_table(solver_stop_table());
  registry.add_table(monitor_table());
}

}  // namespace perksolve::config
