#include "solvers/multigrid/mg_config.hpp"

#include <fmt/format.h>

namespace perksolve {

using namespace config;

namespace {

std::vector<Variant> smoother_variants() {
  return {
      Variant{"jacobi",
              "weighted (damped) Jacobi: x <- x + omega D^-1 (b - A x)",
              {with_range(key_real("omega", 0.0,
                                   "damping factor; 0 = the optimal smoothing weight of the Laplacian "
                                   "(4/5 in 2D, 6/7 in 3D)"),
                          0.0, 2.0)}},
      Variant{"chebyshev",
              "Chebyshev polynomial in D^-1 A of degree pre_smooth / post_smooth; lambda_max(D^-1 A) is "
              "estimated by power iterations on every level",
              {with_range(key_int("eig_iterations", 30, "power iterations of the lambda_max estimate"), 1, 1000),
               exclusive_min(with_range(key_real("lower", 0.16, "lower end of the damped interval, as a fraction of "
                                                                 "lambda_max"), 0.0, 1.0)),
               with_range(key_real("upper", 1.08, "upper end of the damped interval, as a multiple of the "
                                                 "lambda_max estimate (safety factor)"),
                          1.0, 3.0)}},
      Variant{"rbgs",
              "red-black Gauss-Seidel (5-/7-point operators only)",
              {key_bool("symmetric", true,
                        "post-smoothing sweeps black-then-red (the reverse of pre-smoothing), which makes the "
                        "cycle symmetric; false = red-then-black always (not allowed as a CG preconditioner)")}},
  };
}

std::vector<Variant> coarse_variants() {
  return {
      Variant{"cg",
              "conjugate gradients on the coarsest level (gathered onto fewer ranks when it is small)",
              // Not named rtol / max_iterations: those belong to [solver.stop] and "did you mean" must find them.
              {exclusive_min(with_range(key_real("tolerance", 1e-10, "relative residual reduction of the coarse solve"),
                                        0.0, 1.0)),
               with_range(key_int("iterations", 1000, "iteration limit of the coarse solve"), 1, std::nullopt)}},
      Variant{"smoother",
              "a fixed number of smoothing sweeps on the coarsest level",
              {with_range(key_int("sweeps", 20, "smoothing sweeps on the coarsest level"), 1, std::nullopt)}},
      Variant{"direct",
              "exact solve with the inverse of the coarsest-level operator, assembled and inverted once at set-up "
              "(the coarsest level must be on one rank; no reductions or host round trips during the solve)",
              {with_range(key_int("max_unknowns", 4096,
                                  "largest coarsest level accepted (set-up is O(n^3) on the host, storage n^2)"),
                          1, 16384)}},
  };
}

TableSchema variant_table(std::string path, std::string help, std::vector<Variant> variants, std::string cond_key,
                          std::string cond_value) {
  TableSchema t;
  t.path = std::move(path);
  t.help = std::move(help);
  t.variants = std::move(variants);
  t.has_variants = true;
  t.condition_key = std::move(cond_key);
  t.condition_values = {std::move(cond_value)};
  return t;
}

// The deck's value, or the schema default of the key in `variant` of `table`.
Value value_or_default(const Deck& deck, const std::string& table, const std::string& variant, const std::string& name) {
  const std::string key = table + "." + name;
  if (deck.has(key)) return deck.get(key);
  const TableSchema* t = SchemaRegistry::instance().find(table);
  if (t)
    for (const auto& k : keys_of(*t, variant))
      if (k.name == name && k.default_value) return *k.default_value;
  throw std::logic_error("multigrid configuration: no value or default for " + key);
}

double real_of(const Value& v) {
  if (const auto* d = std::get_if<double>(&v)) return *d;
  return static_cast<double>(std::get<long>(v));
}

}  // namespace

std::vector<KeySpec> multigrid_keys(bool with_fmg) {
  std::vector<KeySpec> k = {
      key_string("cycle", std::string("V"), {"V", "W", "F"}, "multigrid cycle"),
      with_range(key_int("levels", 0, "number of levels including the finest; 0 = automatic: coarsen by 2 while every axis keeps >= 7 "
                                   "unknowns (an explicit count may coarsen further, down to 1 unknown per axis)"),
                 0, 30),
      with_range(key_int("pre_smooth", 2, "smoothing sweeps (Chebyshev: polynomial degree) before the coarse-grid "
                                          "correction"),
                 0, 100),
      with_range(key_int("post_smooth", 2, "smoothing sweeps (Chebyshev: polynomial degree) after the coarse-grid "
                                           "correction"),
                 0, 100),
      key_string("replay", std::string("auto"), {"auto", "on", "off"},
                 "record the cycle's operations once and replay the recording on later cycles (the cuda backend: "
                 "a CUDA graph, one launch instead of ~10 per level and sweep). Only cycles without host "
                 "synchronisation are recorded: one rank, coarse type not \"cg\", phase timers off on a GPU. "
                 "auto: on GPU backends; on: also on host backends (where it changes nothing but is tested); off: "
                 "never"),
      with_range(key_int("persistent_cells", 0,
                         "V-cycles only: the levels with at most this many cells (per rank) run their part of the "
                         "cycle as ONE persistent kernel (PERKS; Backend::record_persistent) on backends that have "
                         "persistent programs (cuda), where device-wide barriers replace kernel boundaries and runs "
                         "of small operations share one SM. 0 (the default): never. Since the smoother's sweeps run "
                         "in pairs with the residual fused (which programs do not have), the recorded cycle is "
                         "faster without programs at 63^3-255^3 on an H200 (docs/perf/perks.md); 32768 (levels up "
                         "to 31^3) was the default before. "
                         "Needs rank-local levels on one backend instance and phase timers off"),
                 0, std::nullopt),
  };
  if (!with_fmg)
    k.push_back(key_string("precision", std::string("run"), {"run", "float"},
                           "floating-point type of the cycle: run = the run's ([backend] precision); float = single "
                           "precision for a double CG (half the cycle's memory traffic; CG's vectors, products and "
                           "stopping test stay double, r and z are converted on the way in and out)"));
  if (with_fmg)
    k.push_back(key_bool("fmg", false,
                         "start with full multigrid (nested iteration, one cycle per level); later iterations are "
                         "`cycle` cycles"));
  return k;
}

MultigridConfig multigrid_config_from_deck(const Deck& deck, const std::string& table) {
  MultigridConfig c;
  c.cycle = deck.get_string(table + ".cycle");
  c.levels = deck.get_int(table + ".levels");
  c.pre = deck.get_int(table + ".pre_smooth");
  c.post = deck.get_int(table + ".post_smooth");
  if (deck.has(table + ".fmg")) c.fmg = deck.get_bool(table + ".fmg");
  c.replay = deck.get_string(table + ".replay");
  c.persistent_cells = deck.get_int(table + ".persistent_cells");
  if (table == "solver.preconditioner") c.precision = deck.get_string(table + ".precision");
  const std::string st = table + ".smoother";
  c.smoother.type = deck.has(st + ".type") ? deck.get_string(st + ".type") : std::string("jacobi");
  const std::string& sv = c.smoother.type;
  if (sv == "jacobi") c.smoother.omega = real_of(value_or_default(deck, st, sv, "omega"));
  if (sv == "chebyshev") {
    c.smoother.eig_iterations = std::get<long>(value_or_default(deck, st, sv, "eig_iterations"));
    c.smoother.lower = real_of(value_or_default(deck, st, sv, "lower"));
    c.smoother.upper = real_of(value_or_default(deck, st, sv, "upper"));
  }
  if (sv == "rbgs") c.smoother.symmetric = std::get<bool>(value_or_default(deck, st, sv, "symmetric"));
  const std::string ct = table + ".coarse";
  c.coarse.type = deck.has(ct + ".type") ? deck.get_string(ct + ".type") : std::string("cg");
  if (c.coarse.type == "cg") {
    c.coarse.rtol = real_of(value_or_default(deck, ct, "cg", "tolerance"));
    c.coarse.max_iterations = std::get<long>(value_or_default(deck, ct, "cg", "iterations"));
  } else if (c.coarse.type == "direct") {
    c.coarse.max_unknowns = std::get<long>(value_or_default(deck, ct, "direct", "max_unknowns"));
  } else {
    c.coarse.sweeps = std::get<long>(value_or_default(deck, ct, "smoother", "sweeps"));
  }
  return c;
}

std::pair<std::string, std::string> multigrid_symmetry_problem(const MultigridConfig& c) {
  if (c.cycle == "F")
    return {"cycle", "the F-cycle is not a symmetric operator; use cycle = \"V\" or \"W\" for a CG preconditioner"};
  if (c.pre != c.post)
    return {"post_smooth", fmt::format("pre_smooth = {} differs from post_smooth = {}, so the cycle is not symmetric; CG needs a "
                       "symmetric preconditioner (use equal counts)",
                       c.pre, c.post)};
  if (c.smoother.type == "rbgs" && !c.smoother.symmetric)
    return {"smoother.symmetric", "red-black Gauss-Seidel with symmetric = false smooths red-then-black before and after the coarse "
           "correction, which is not symmetric; set symmetric = true for a CG preconditioner"};
  if (c.pre + c.post == 0) return {"pre_smooth", "a cycle without smoothing is singular as a preconditioner"};
  return {"", ""};
}

void register_multigrid_tables() {
  auto& r = SchemaRegistry::instance();
  TableSchema pc;
  pc.path = "solver.preconditioner";
  pc.help = "Preconditioner of the CG solver; `type` selects it (absent = none).";
  pc.has_variants = true;
  pc.condition_key = "solver.type";
  pc.condition_values = {"cg"};
  pc.variants = {Variant{"none", "no preconditioning (plain CG)", {}},
                 Variant{"jacobi", "diagonal (Jacobi) scaling z = D^-1 r", {}},
                 Variant{"multigrid", "one geometric multigrid cycle from a zero guess per application (must be "
                                      "symmetric: V or W cycle, pre_smooth = post_smooth)",
                         multigrid_keys(false)}};
  r.add_table(pc);
  r.add_table(variant_table("solver.preconditioner.smoother",
                            "Smoother of the multigrid preconditioner; `type` selects it (absent = jacobi).",
                            smoother_variants(), "solver.preconditioner.type", "multigrid"));
  r.add_table(variant_table("solver.preconditioner.coarse",
                            "Coarsest-level solve of the multigrid preconditioner (absent = cg).", coarse_variants(),
                            "solver.preconditioner.type", "multigrid"));
  r.add_table(variant_table("solver.smoother", "Smoother of the multigrid solver; `type` selects it (absent = jacobi).",
                            smoother_variants(), "solver.type", "multigrid"));
  r.add_table(variant_table("solver.coarse", "Coarsest-level solve of the multigrid solver (absent = cg).",
                            coarse_variants(), "solver.type", "multigrid"));
}

}  // namespace perksolve
