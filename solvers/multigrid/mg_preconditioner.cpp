#include "solvers/multigrid/mg_preconditioner.hpp"

#include <stdexcept>
#include <type_traits>

namespace perksolve {

template <class Real>
MultigridPreconditioner<Real>::MultigridPreconditioner(const MultigridConfig& cfg, GridOperator<Real>& fine,
                                                       const ProblemSetup& setup, Timers& timers)
    : be_(fine.backend()) {
  if constexpr (std::is_same_v<Real, double>) {
    if (cfg.precision == "float") {
      be32_ = create_backend<float>(be_.name(), be_.comm());
      fine32_ = make_grid_operator<float>(*be32_, fine.decomposition(), fine.layout(), setup, /*fine=*/true);
      single_ = std::make_unique<Multigrid<float>>(cfg, *fine32_, setup, timers);
      r32_ = fine32_->create_vector();
      z32_ = fine32_->create_vector();
      be32_->fill(*r32_, 0.0f);  // ghosts included: the cycle refreshes them, but never reads garbage
      be32_->fill(*z32_, 0.0f);
      return;
    }
  }
  same_ = std::make_unique<Multigrid<Real>>(cfg, fine, setup, timers);
}

template <class Real>
MultigridPreconditioner<Real>::~MultigridPreconditioner() {
  // The cycle borrows the float operator and backend: it goes first.
  single_.reset();
  fine32_.reset();
}

template <class Real>
void MultigridPreconditioner<Real>::apply(const Field<Real>& r, Field<Real>& z, int slot) {
  if (same_) {
    same_->precondition(r, z, slot);
    return;
  }
  if (slot >= 0)
    throw std::logic_error("MultigridPreconditioner::apply: r . z in a sum slot needs the cycle in the run's precision");
  if constexpr (std::is_same_v<Real, double>) {
    round_input(r);
    be_.convert(apply_rounded(), z);
  }
}

template <class Real>
void MultigridPreconditioner<Real>::not_mixed(const char* member) {
  throw std::logic_error(std::string("MultigridPreconditioner::") + member + ": the cycle runs in the run's precision");
}

template <class Real>
Field<OtherReal<Real>>& MultigridPreconditioner<Real>::rounded_input() {
  if constexpr (std::is_same_v<Real, double>) {
    if (single_) return *r32_;
  }
  not_mixed("rounded_input");
}

template <class Real>
void MultigridPreconditioner<Real>::round_input(const Field<Real>& r) {
  if constexpr (std::is_same_v<Real, double>) {
    if (single_) {
      be32_->convert(r, *r32_);
      return;
    }
  }
  not_mixed("round_input");
}

template <class Real>
const Field<OtherReal<Real>>& MultigridPreconditioner<Real>::apply_rounded(int slot) {
  if constexpr (std::is_same_v<Real, double>) {
    if (single_) {
      single_->precondition(*r32_, *z32_, slot);
      return *z32_;
    }
  }
  not_mixed("apply_rounded");
}

template <class Real>
const Field<OtherReal<Real>>& MultigridPreconditioner<Real>::rounded_output() const {
  if constexpr (std::is_same_v<Real, double>) {
    if (single_) return *z32_;
  }
  not_mixed("rounded_output");
}

template <class Real>
double MultigridPreconditioner<Real>::collect_sum(int slot) {
  if constexpr (std::is_same_v<Real, double>) {
    if (single_) return be32_->collect_sum(slot);
  }
  return be_.collect_sum(slot);
}

template <class Real>
std::string MultigridPreconditioner<Real>::describe() const {
  if (same_) return same_->describe();
  return single_->describe() + "\n  (the cycle runs in float; CG in double)";
}

template class MultigridPreconditioner<float>;
template class MultigridPreconditioner<double>;

}  // namespace perksolve
