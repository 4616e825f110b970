// Multigrid as CG's preconditioner: z = B r, one cycle from a zero guess per application, either in the
// run's precision or, with [solver.preconditioner] precision = "float" in a double run, in single precision.
// The single-precision cycle runs on a float backend of the same kind as the run's (on a GPU it shares the
// stream, so nothing waits between the two), with the fine operator rediscretised in float; r is rounded to
// float on the way in and z widened on the way out. CG's vectors, inner products and stopping test stay in
// the run's precision. Half the cycle's memory traffic; the cycle is a slightly perturbed (by float
// rounding) version of the double one, which CG tolerates as a preconditioner.
#pragma once

#include <memory>
#include <string>

#include "framework/operators/grid_operator.hpp"
#include "framework/util/timers.hpp"
#include "solvers/multigrid/mg_config.hpp"
#include "solvers/multigrid/multigrid.hpp"

namespace perksolve {

template <class Real>
class MultigridPreconditioner {
 public:
  // `fine` is the problem's operator (borrowed). Throws std::invalid_argument as Multigrid does, or when
  // the run's backend has no float variant.
  MultigridPreconditioner(const MultigridConfig& cfg, GridOperator<Real>& fine, const ProblemSetup& setup,
                          Timers& timers);
  ~MultigridPreconditioner();

  // z = B r; slot >= 0 (the cycle in the run's precision only): the global r . z also left in that sum slot, from
  // the cycle's last pass where the backend fuses it (Multigrid::precondition).
  void apply(const Field<Real>& r, Field<Real>& z, int slot = -1);
  std::string describe() const;
  // The global sum in sum slot `slot` of the cycle's backend (Backend::collect_sum): r . z of apply(r, z, slot) or
  // apply_rounded(slot).
  double collect_sum(int slot);

  // The cycle in the other precision (precision = "float" in a double run). CG can then skip both conversion
  // passes of apply(): it writes r already rounded into rounded_input() (Backend::axpby_mixed), runs the cycle with
  // apply_rounded() and uses z in the cycle's precision (cg_advance_mixed). The values are those of apply(). With a
  // sum slot, apply_rounded also leaves the global r . z of the rounded r and z (both in the cycle's precision, the
  // products summed in double) in that slot of the cycle's backend (collect_sum), from the cycle's last pass where the
  // backend fuses it. The four members below are for mixed() only (std::logic_error otherwise).
  bool mixed() const { return single_ != nullptr; }
  Field<OtherReal<Real>>& rounded_input();
  void round_input(const Field<Real>& r);          // rounded_input() = r rounded (a pass: CG's first residual)
  // z = B r from rounded_input(), in the cycle's precision (slot >= 0: and r . z into that sum slot).
  const Field<OtherReal<Real>>& apply_rounded(int slot = -1);
  const Field<OtherReal<Real>>& rounded_output() const;  // the z of the last apply_rounded()

 private:
  [[noreturn]] static void not_mixed(const char* member);  // the logic_error of the mixed-only members
  Backend<Real>& be_;
  std::unique_ptr<Multigrid<Real>> same_;  // the cycle in the run's precision
  // precision = "float" in a double run: the float backend, fine operator, cycle and r / z in float.
  std::unique_ptr<Backend<float>> be32_;
  std::unique_ptr<GridOperator<float>> fine32_;
  std::unique_ptr<Multigrid<float>> single_;
  FieldPtr<float> r32_, z32_;
};

}  // namespace perksolve
