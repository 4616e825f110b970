// Geometric multigrid on the structured grids (AMReX MLMG-like split: the level operators are
// GridOperators rediscretised by the problem; this class is the cycle driver). Levels keep the fine
// rank grid while every rank keeps at least two cells per axis; below that the coarse levels are
// agglomerated onto fewer ranks (a sub-communicator). Level-to-level transfers go through a
// "shadow" coarse field aligned with the fine blocks plus a box redistribution, so any coarse
// decomposition works.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "framework/grid/decomposition.hpp"
#include "framework/operators/grid_operator.hpp"
#include "framework/util/timers.hpp"
#include "solvers/multigrid/mg_config.hpp"

namespace perksolve {

template <class Real>
class Multigrid {
 public:
  // `fine` is the problem's operator on its grid (borrowed). Throws std::invalid_argument with a
  // clear message when the grid cannot be coarsened or the problem gives no rediscretisation.
  Multigrid(const MultigridConfig& cfg, GridOperator<Real>& fine, const ProblemSetup& setup, Timers& timers);
  ~Multigrid();

  // One cycle (cfg.cycle) improving x for A x = b with the problem's boundary values.
  void cycle(const Field<Real>& b, Field<Real>& x);
  // Full multigrid from the guess x: residual equation restricted to every level, solved on the
  // coarsest, then interpolated up with one cycle per level.
  void fmg(const Field<Real>& b, Field<Real>& x);
  // Preconditioner: z = B r, one cycle from z = 0 with homogeneous boundary values. dot_slot >= 0: the global r . z
  // is also left in that sum slot of the fine level's backend (Backend::collect_sum reads it), computed by the cycle's
  // last pass where it can (Backend::jacobi_update_pair_dot), else by a dot pass after it.
  void precondition(const Field<Real>& r, Field<Real>& z, int dot_slot = -1);

  int levels() const { return static_cast<int>(levels_.size()); }
  std::string describe() const;  // one line per level

  struct Level;

 private:
  // `zero`: level l's x is known to be zero on entry (its contents are not read; it is overwritten).
  // Runs the levels from persistent_level() down as a persistent program when that level is reached.
  void run_cycle(int l, const std::string& type, bool zero);
  void run_cycle_levels(int l, const std::string& type, bool zero);  // operation by operation
  // First level of the persistent part of a V-cycle (every level from it down qualifies), or -1.
  int persistent_level() const;
  // may_end_in_w: the result may be left in the level's w (Level::iterate_in_w; the pre-smoothing of a cycle).
  // want_residual: the caller needs r = b - A x next; `residual` is true when the smoothing's last pass also wrote it
  // into the level's r (a pair of sweeps from zero: Backend::jacobi_pair_residual). dot_slot >= 0: the caller needs
  // b . x of the result in that sum slot; `dot` is true when the last pass left it there (a pair of sweeps from x:
  // Backend::jacobi_update_pair_dot).
  struct SmoothExtras {
    bool residual = false, dot = false;
  };
  SmoothExtras smooth(int l, long sweeps, bool post, bool zero, bool may_end_in_w = false, bool want_residual = false,
                      int dot_slot = -1);
  bool sweep_pairs(const Level& v, bool homogeneous) const;
  bool jacobi_weights_form(long sweeps) const;  // one Jacobi sweep per weight (weighted Jacobi, Chebyshev <= 4)
  bool jacobi_product_form(long sweeps) const;  // the same, at least two sweeps
  static Field<Real>& iterate(Level& v);  // the field that holds level v's iterate (x, or w: Level::iterate_in_w)
  void settle_iterate(Level& v);          // moves the iterate into x
  void coarse_solve(int l, bool zero);
  // The first cycle with these fields runs directly; the second records it (Backend::record), and later
  // cycles replay the recording. `run` issues the cycle; `variant` tells apart different work on the same fields.
  void run_recorded(const Field<Real>& b, const Field<Real>& x, int variant, const std::function<void()>& run);
  bool replayable() const;
  void restrict_residual(int l);      // r_l -> b_{l+1}
  void prolongate_correction(int l);  // x_l += P x_{l+1}
  void restrict_field(int l, Field<Real>& fine_field);  // any level-l field -> b_{l+1}
  // Ghost refreshes of the levels' own work fields. A refresh is skipped where the field's ghosts are known to
  // hold already what it would write (Level::zero_ghosts).
  void refresh_ghosts(Level& v, Field<Real>& f, bool homogeneous);
  void fill_zeros(Level& v, Field<Real>& f);  // f = 0, ghosts included (and noted)
  static bool tracked(const Level& v, const Field<Real>& f);
  static void note_ghosts(Level& v, const Field<Real>& f, bool zero);  // after a write of f's ghosts
  static bool ghosts_current(const Level& v, const Field<Real>& f, bool homogeneous);
  void level_residual(Level& v, bool homogeneous);  // r = b - A x on level v, x's ghosts refreshed as needed
  // cycle / fmg (inhomogeneous level 0) or precondition (homogeneous): a change of mode drops the recordings.
  void enter_mode(bool homogeneous);

  MultigridConfig cfg_;
  const ProblemSetup& setup_;
  Timers& timers_;
  std::vector<std::unique_ptr<Level>> levels_;
  struct Recording {
    int runs = 0;
    std::unique_ptr<RecordedWork> work;
  };
  std::map<std::tuple<const void*, const void*, int>, Recording> recordings_;  // by the storage of (b, x), variant
  bool record_failed_ = false;
  // Persistent programs of the levels from persistent_level_ down, by (b, x storage, zero guess, homogeneous).
  int persistent_level_ = -1;
  std::map<std::tuple<const void*, const void*, bool, bool>, std::unique_ptr<RecordedWork>> programs_;
  int mode_ = -1;  // enter_mode: -1 none yet, 0 inhomogeneous, 1 homogeneous
  bool sweep_pairs_enabled_ = true;  // PERKSOLVE_MG_SWEEP_PAIRS=0 turns Backend::jacobi_update_pair off
  bool residual_pairs_enabled_ = true;  // PERKSOLVE_MG_PAIR_RESIDUAL=0 turns Backend::jacobi_pair_residual off
  // precondition() with a dot: the sum slot while the cycle is issued (-1: none), and whether the last pass filled it.
  int fine_dot_slot_ = -1;
  bool fine_dot_done_ = false;
};

}  // namespace perksolve
