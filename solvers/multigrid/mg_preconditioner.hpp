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

  void apply(const Field<Real>& r, Field<Real>& z);
  std::string describe() const;

  // The cycle in the other precision (precision = "float" in a double run). CG can then skip both conversion
  // passes of apply(): it writes r already rounded into rounded_input() (Backend::axpby_mixed), runs the cycle with
  // apply_rounded() and uses z in the cycle's precision (Backend::dot2_mixed, cg_advance_mixed). The values are
  // those of apply(). The four members below are for mixed() only (std::logic_error otherwise).
  bool mixed() const { return single_ != nullptr; }
  Field<OtherReal<Real>>& rounded_input();
  void round_input(const Field<Real>& r);          // rounded_input() = r rounded (a pass: CG's first residual)
  const Field<OtherReal<Real>>& apply_rounded();  // z = B r from rounded_input(), in the cycle's precision
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
