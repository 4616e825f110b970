#include <gtest/gtest.h>

#include "framework/config/deck.hpp"

using perksolve::config::did_you_mean;

namespace {

const std::vector<std::string> kGridKeys = {"dimension", "extents", "box_lo", "box_hi", "centering"};

TEST(DidYouMean, OneMissingLetter) { EXPECT_EQ(did_you_mean("extnts", kGridKeys), "extents"); }

TEST(DidYouMean, OneExtraLetter) { EXPECT_EQ(did_you_mean("dimensions", kGridKeys), "dimension"); }

TEST(DidYouMean, OneWrongLetter) { EXPECT_EQ(did_you_mean("box_li", kGridKeys), "box_lo"); }

TEST(DidYouMean, TranspositionCountsAsOneEdit) {
  EXPECT_EQ(did_you_mean("omgea", {"omega", "sweeps"}), "omega");
  EXPECT_EQ(did_you_mean("jcaobi", {"jacobi", "stencil_iteration"}), "jacobi");
}

TEST(DidYouMean, IgnoresCase) { EXPECT_EQ(did_you_mean("Jacobi", {"jacobi", "stencil_iteration"}), "jacobi"); }

TEST(DidYouMean, ExactMatchIsReturned) { EXPECT_EQ(did_you_mean("extents", kGridKeys), "extents"); }

TEST(DidYouMean, NothingCloseGivesEmpty) {
  EXPECT_EQ(did_you_mean("resolution", kGridKeys), "");
  EXPECT_EQ(did_you_mean("xyz", kGridKeys), "");
}

TEST(DidYouMean, EmptyInputs) {
  EXPECT_EQ(did_you_mean("", kGridKeys), "");
  EXPECT_EQ(did_you_mean("extents", {}), "");
  EXPECT_EQ(did_you_mean("a", {""}), "");
}

TEST(DidYouMean, ThresholdGrowsWithLength) {
  // Short words: one edit at most, and never a complete rewrite.
  EXPECT_EQ(did_you_mean("x", {"y"}), "");
  EXPECT_EQ(did_you_mean("tpe", {"type"}), "type");
  EXPECT_EQ(did_you_mean("tp", {"type"}), "");
  // Long words: up to one edit per three characters.
  EXPECT_EQ(did_you_mean("stencl_benchmrk", {"poisson_sine", "stencil_benchmark"}), "stencil_benchmark");
  EXPECT_EQ(did_you_mean("rtl", {"rtol", "atol"}), "rtol");
}

TEST(DidYouMean, PicksTheClosestThenTheFirst) {
  EXPECT_EQ(did_you_mean("atoll", {"rtol", "atol"}), "atol");
  EXPECT_EQ(did_you_mean("xtol", {"rtol", "atol"}), "rtol");  // tie: first candidate
}

TEST(DidYouMean, WorksOnDottedPaths) {
  EXPECT_EQ(did_you_mean("solver.stp", {"grid", "solver", "solver.stop"}), "solver.stop");
  EXPECT_EQ(did_you_mean("monitr", {"grid", "solver", "solver.stop", "monitor"}), "monitor");
}

}  // namespace
