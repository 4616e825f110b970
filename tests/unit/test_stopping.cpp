#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "solvers/common/stopping.hpp"

using namespace perksolve;

TEST(Stopping, CriteriaComposeInOrder) {
  AnyOf any;
  any.add(std::make_unique<Divergence>(1e5));
  any.add(std::make_unique<RelativeResidual>(1e-6));
  any.add(std::make_unique<AbsoluteResidual>(1e-12));
  any.add(std::make_unique<MaxIterations>(100));
  any.add(std::make_unique<WallTime>(10.0));
  IterationState s{0, 1.0, 1.0, 0.0};
  EXPECT_EQ(any.check(s), StopReason::none);
  s.residual = 1e-7;
  EXPECT_EQ(any.check(s), StopReason::converged_rtol);
  s = {100, 0.5, 1.0, 0.0};
  EXPECT_EQ(any.check(s), StopReason::max_iterations);
  s = {5, 0.5, 1.0, 11.0};
  EXPECT_EQ(any.check(s), StopReason::walltime);
  s = {5, std::numeric_limits<double>::quiet_NaN(), 1.0, 0.0};
  EXPECT_EQ(any.check(s), StopReason::diverged_nan);
  s = {5, 1e6, 1.0, 0.0};
  EXPECT_EQ(any.check(s), StopReason::diverged_dtol);
  EXPECT_EQ(any.max_iterations(), 100);
}

TEST(Stopping, ConvergedReasonsMapToExitCodes) {
  EXPECT_TRUE(is_converged(StopReason::converged_rtol));
  EXPECT_TRUE(is_converged(StopReason::converged_atol));
  EXPECT_TRUE(is_converged(StopReason::completed_steps));
  EXPECT_FALSE(is_converged(StopReason::max_iterations));
  EXPECT_FALSE(is_converged(StopReason::walltime));
  EXPECT_FALSE(is_converged(StopReason::breakdown));
  EXPECT_EQ(to_string(StopReason::converged_rtol), "CONVERGED_RTOL");
}
