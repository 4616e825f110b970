// Loading valid decks: values, types, defaults, provenance, to_toml.
#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace perksolve::config;
using perksolve::config::test::ConfigTest;
using perksolve::config::test::kSmallDeck;

namespace {

Deck small() { return load_deck_from_string(kSmallDeck, "deck.toml", {}); }

TEST_F(ConfigTest, SmallDeckValues) {
  const Deck d = small();
  EXPECT_EQ(d.file(), "deck.toml");
  EXPECT_EQ(d.get_int("grid.dimension"), 3);
  EXPECT_EQ(d.get_int_array("grid.extents"), (std::vector<long>{16, 16, 16}));
  EXPECT_EQ(d.get_string("problem.type"), "poisson_sine");
  EXPECT_EQ(d.get_string("solver.type"), "jacobi");
  EXPECT_DOUBLE_EQ(d.get_real("solver.omega"), 0.8);
  EXPECT_EQ(d.get_int("solver.stop.max_iterations"), 5000);
  EXPECT_EQ(d.get_real("solver.stop.rtol"), 1e-10);
}

TEST_F(ConfigTest, ProvenanceOfDeckValues) {
  const Deck d = small();
  const SourceLocation& w = d.where("grid.extents");
  EXPECT_EQ(w.kind, SourceLocation::Kind::file);
  EXPECT_EQ(w.file, "deck.toml");
  EXPECT_EQ(w.line, 3);
  EXPECT_EQ(w.column, 1);
  EXPECT_EQ(w.describe(), "deck.toml:3:1");
  EXPECT_EQ(d.where("solver.omega").line, 8);
  EXPECT_EQ(d.where("grid.box_lo").kind, SourceLocation::Kind::default_value);
}

TEST_F(ConfigTest, DefaultsFilledInPresentTables) {
  const Deck d = small();
  EXPECT_EQ(d.get_real_array("grid.box_lo"), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(d.get_real_array("grid.box_hi"), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(d.get_string("grid.centering"), "vertex");
  EXPECT_EQ(d.get_real("solver.stop.atol"), 0.0);
  EXPECT_EQ(d.get_real("solver.stop.walltime_s"), 0.0);
  EXPECT_EQ(d.get_int("solver.stop.check_every"), 1);
}

TEST_F(ConfigTest, DefaultsFilledInAbsentTables) {
  const Deck d = load_deck_from_string("[grid]\nextents = [8, 8]\ndimension = 2\n[problem]\ntype = \"poisson_sine\"\n"
                                       "[solver]\ntype = \"jacobi\"\n",
                                       "d.toml", {});
  EXPECT_TRUE(d.has_table("boundary"));
  EXPECT_EQ(d.get_string("boundary.type"), "dirichlet");
  EXPECT_EQ(d.get_real("boundary.value"), 0.0);
  EXPECT_FALSE(d.has("boundary.x_lo"));  // optional keys stay absent
  EXPECT_FALSE(d.has("boundary.x_lo_value"));
  EXPECT_EQ(d.get_int_array("decomposition.ranks"), (std::vector<long>{0, 0, 0}));
  EXPECT_EQ(d.get_string("backend.type"), "kokkos");
  EXPECT_EQ(d.get_string("backend.precision"), "double");
  EXPECT_EQ(d.get_int("solver.stop.max_iterations"), 10000);
  EXPECT_EQ(d.get_real("solver.stop.rtol"), 1e-8);
  EXPECT_EQ(d.get_int("monitor.every"), 0);
  EXPECT_EQ(d.get_real("monitor.progress_s"), 2.0);
  EXPECT_FALSE(d.get_bool("monitor.quiet"));
  EXPECT_EQ(d.where("monitor.quiet").kind, SourceLocation::Kind::default_value);
  // A table with a required key is not invented.
  EXPECT_FALSE(d.has_table("extras"));
  // A conditional table whose condition does not hold is not filled in.
  EXPECT_FALSE(d.has_table("solver.sweep_order"));
}

TEST_F(ConfigTest, VariantDefaults) {
  const Deck j = load_deck_from_string(
      "[grid]\nextents = [8, 8, 8]\n[problem]\ntype = \"heat_gaussian\"\nwidth = 0.2\n[solver]\ntype = \"jacobi\"\n",
      "d.toml", {});
  EXPECT_EQ(j.get_real("solver.omega"), 1.0);
  EXPECT_EQ(j.where("solver.omega").kind, SourceLocation::Kind::default_value);
  EXPECT_EQ(j.get_real("problem.width"), 0.2);
  EXPECT_EQ(j.get_real("problem.diffusivity"), 1.0);
  EXPECT_FALSE(j.has("problem.center"));
  EXPECT_FALSE(j.has("solver.sweeps"));  // keys of other variants do not appear

  const Deck s = load_deck_from_string(
      "[grid]\nextents = [8, 8, 8]\n[problem]\ntype = \"stencil_benchmark\"\n[solver]\ntype = \"stencil_iteration\"\n",
      "d.toml", {});
  EXPECT_EQ(s.get_string("problem.stencil"), "7pt");
  EXPECT_EQ(s.get_int("solver.sweeps"), 1);
  EXPECT_FALSE(s.has("solver.omega"));
  // The conditional table is filled in when its condition holds.
  EXPECT_TRUE(s.has_table("solver.sweep_order"));
  EXPECT_EQ(s.get_string("solver.sweep_order.order"), "lexicographic");
}

TEST_F(ConfigTest, ConditionalTableAllowedWhenConditionHolds) {
  const Deck d = load_deck_from_string(
      "[grid]\nextents = [8, 8, 8]\n[problem]\ntype = \"poisson_sine\"\n[solver]\ntype = \"stencil_iteration\"\n"
      "[solver.sweep_order]\norder = \"red_black\"\n",
      "d.toml", {});
  EXPECT_EQ(d.get_string("solver.sweep_order.order"), "red_black");
}

TEST_F(ConfigTest, IntegerPromotedToReal) {
  const Deck d = load_deck_from_string(
      "[grid]\nextents = [8, 8, 8]\nbox_lo = [0, -1, 0.5]\nbox_hi = [2, 2, 2]\n[problem]\ntype = \"poisson_sine\"\n"
      "[solver]\ntype = \"jacobi\"\nomega = 1\n[solver.stop]\nrtol = 0\n",
      "d.toml", {});
  EXPECT_TRUE(std::holds_alternative<double>(d.get("solver.omega")));
  EXPECT_EQ(d.get_real("solver.omega"), 1.0);
  EXPECT_TRUE(std::holds_alternative<double>(d.get("solver.stop.rtol")));
  EXPECT_TRUE(std::holds_alternative<std::vector<double>>(d.get("grid.box_lo")));
  EXPECT_EQ(d.get_real_array("grid.box_lo"), (std::vector<double>{0, -1, 0.5}));
  EXPECT_EQ(d.get_real_array("grid.box_hi"), (std::vector<double>{2, 2, 2}));
}

TEST_F(ConfigTest, InlineAndDottedTables) {
  const Deck d = load_deck_from_string(
      "grid = { extents = [4, 4], dimension = 2 }\nproblem.type = \"poisson_sine\"\n[solver]\ntype = \"jacobi\"\n"
      "stop = { rtol = 1e-3 }\n",
      "d.toml", {});
  EXPECT_EQ(d.get_int("grid.dimension"), 2);
  EXPECT_EQ(d.get_string("problem.type"), "poisson_sine");
  EXPECT_EQ(d.get_real("solver.stop.rtol"), 1e-3);
  EXPECT_EQ(d.where("solver.stop.rtol").line, 5);
  EXPECT_EQ(d.where("grid.extents").line, 1);
}

TEST_F(ConfigTest, DottedKeysInsideTable) {
  const Deck d = load_deck_from_string(
      "[grid]\nextents = [4, 4]\ndimension = 2\n[problem]\ntype = \"poisson_sine\"\n[solver]\ntype = \"jacobi\"\n"
      "stop.rtol = 1e-3\n",
      "d.toml", {});
  EXPECT_EQ(d.get_real("solver.stop.rtol"), 1e-3);
  EXPECT_EQ(d.where("solver.stop.rtol").line, 8);
}

TEST_F(ConfigTest, StringArraysAndEscapes) {
  const Deck d = load_deck_from_string(std::string(kSmallDeck) +
                                           "[extras]\nlabel = \"say \\\"hi\\\"\\tnow\"\ntags = []\nmodes = [\"y\", \"z\"]\n",
                                       "d.toml", {});
  EXPECT_EQ(d.get_string("extras.label"), "say \"hi\"\tnow");
  EXPECT_TRUE(d.get_string_array("extras.tags").empty());
  EXPECT_EQ(d.get_string_array("extras.modes"), (std::vector<std::string>{"y", "z"}));
  EXPECT_FALSE(d.has("extras.seed"));
}

TEST_F(ConfigTest, GettersRejectMissingKeysAndWrongTypes) {
  const Deck d = small();
  EXPECT_THROW(d.get_int("grid.nope"), std::logic_error);
  EXPECT_THROW(d.get("grid.nope"), std::logic_error);
  EXPECT_THROW(d.where("grid.nope"), std::logic_error);
  EXPECT_THROW(d.get_string("grid.dimension"), std::logic_error);
  EXPECT_THROW(d.get_int("solver.omega"), std::logic_error);
  EXPECT_THROW(d.get_bool("grid.dimension"), std::logic_error);
  EXPECT_THROW(d.get_int_array("grid.box_lo"), std::logic_error);
  EXPECT_THROW(d.get_string_array("grid.extents"), std::logic_error);
  EXPECT_EQ(d.get_real("grid.dimension"), 3.0);  // integers convert to real
  EXPECT_EQ(d.get_real_array("grid.extents"), (std::vector<double>{16, 16, 16}));
}

TEST_F(ConfigTest, KeysAndTables) {
  const Deck d = small();
  const auto keys = d.keys();
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_NE(std::find(keys.begin(), keys.end(), "solver.stop.rtol"), keys.end());
  EXPECT_TRUE(d.has_table("solver"));
  EXPECT_TRUE(d.has_table("solver.stop"));
  EXPECT_TRUE(d.has_table("monitor"));
  EXPECT_FALSE(d.has_table("extras"));
  EXPECT_FALSE(d.has_table("solv"));
  const auto tables = d.tables();
  EXPECT_EQ(tables, (std::vector<std::string>{"backend", "boundary", "decomposition", "grid", "monitor", "problem",
                                              "solver", "solver.stop"}));
}

TEST_F(ConfigTest, EmptyTablePresent) {
  const Deck d = load_deck_from_string(std::string(kSmallDeck) + "[monitor]\n", "d.toml", {});
  EXPECT_TRUE(d.has_table("monitor"));
  EXPECT_EQ(d.get_int("monitor.every"), 0);
}

TEST_F(ConfigTest, DeckBuiltInCode) {
  Deck d;
  d.set_file("code");
  SourceLocation w;
  d.set("a.b", Value(3L), w);
  d.set("top", Value(true), w);
  d.mark_table("empty.table", w);
  EXPECT_TRUE(d.has("a.b"));
  EXPECT_TRUE(d.has_table("a"));
  EXPECT_TRUE(d.has_table("empty.table"));
  EXPECT_EQ(d.to_toml(), "top = true\n\n[a]\nb = 3\n\n[empty.table]\n");
}

TEST_F(ConfigTest, ToTomlOrderAndFormat) {
  const std::string t = small().to_toml();
  // Tables in registration order, keys in schema order (type first).
  const std::vector<std::string> order = {"[grid]\n",    "[boundary]\n", "[decomposition]\n", "[backend]\n",
                                          "[problem]\n", "[solver]\n",   "[solver.stop]\n",   "[monitor]\n"};
  std::size_t last = 0;
  for (const auto& header : order) {
    const auto pos = t.find(header);
    ASSERT_NE(pos, std::string::npos) << header << "\n" << t;
    EXPECT_GE(pos, last) << header;
    last = pos;
  }
  EXPECT_CONTAINS(t,
                  "[grid]\ndimension = 3\nextents = [16, 16, 16]\nbox_lo = [0.0, 0.0, 0.0]\n"
                  "box_hi = [1.0, 1.0, 1.0]\ncentering = \"vertex\"\n\n");
  EXPECT_CONTAINS(t, "[solver]\ntype = \"jacobi\"\nomega = 0.8\n\n");
  EXPECT_CONTAINS(t, "rtol = 1e-10\n");
  EXPECT_EQ(t.find('#'), std::string::npos);
}

TEST_F(ConfigTest, ToTomlProvenance) {
  const Deck d = load_deck_from_string(kSmallDeck, "deck.toml", {"monitor.every=10"});
  const std::string t = d.to_toml(true);
  EXPECT_CONTAINS(t, "dimension = 3             # deck.toml:2\n");
  EXPECT_CONTAINS(t, "extents = [16, 16, 16]    # deck.toml:3\n");
  EXPECT_CONTAINS(t, "centering = \"vertex\"      # default\n");
  EXPECT_CONTAINS(t, "every = 10             # command line\n");
  EXPECT_CONTAINS(t, "quiet = false          # default\n");
}

void expect_same_values(const Deck& a, const Deck& b) {
  ASSERT_EQ(a.keys(), b.keys());
  for (const auto& k : a.keys()) EXPECT_EQ(a.get(k), b.get(k)) << k;
}

TEST_F(ConfigTest, ToTomlRoundTrip) {
  const Deck d = load_deck_from_string(std::string(kSmallDeck) +
                                           "[boundary]\ntype = \"neumann\"\nx_lo = \"periodic\"\nx_lo_value = -0.25\n"
                                           "[extras]\nlabel = \"quote \\\" back \\\\ tab \\t nl \\n end\"\n"
                                           "modes = [\"z\"]\nseed = -7\n",
                                       "deck.toml", {"solver.stop.rtol=3.3e-7", "monitor.quiet=true"});
  for (const bool provenance : {false, true}) {
    const std::string text = d.to_toml(provenance);
    const Deck again = load_deck_from_string(text, "resolved.toml", {});
    expect_same_values(d, again);
    // And the round trip is a fixed point.
    EXPECT_EQ(again.to_toml(false), d.to_toml(false));
  }
}

TEST_F(ConfigTest, ToTomlRoundTripAwkwardReals) {
  const Deck d = load_deck_from_string(std::string(kSmallDeck) +
                                           "[monitor]\nprogress_s = 0.30000000000000004\n"
                                           "[boundary]\nvalue = -1e300\ny_hi_value = 1e-320\nz_lo_value = inf\n",
                                       "deck.toml", {"grid.box_hi=[1e16, 3, 0.1]"});
  const Deck again = load_deck_from_string(d.to_toml(true), "resolved.toml", {});
  expect_same_values(d, again);
}

TEST_F(ConfigTest, ErrorAtFormats) {
  const Deck d = load_deck_from_string(kSmallDeck, "deck.toml", {"monitor.every=10"});
  EXPECT_STREQ(d.error_at("grid.extents", "needs 2 entries for a 2D grid").what(),
               "deck.toml:3:1: error: 'grid.extents' = [16, 16, 16]: needs 2 entries for a 2D grid");
  EXPECT_STREQ(d.error_at("decomposition.ranks", "product 0 != 4 ranks").what(),
               "deck.toml: error: 'decomposition.ranks' = [0, 0, 0] (default): product 0 != 4 ranks");
  EXPECT_STREQ(d.error_at("monitor.every", "too often").what(),
               "command-line override 'monitor.every=10': error: 'monitor.every' = 10: too often");
  EXPECT_STREQ(d.error_at("solver.stop", "inconsistent").what(), "deck.toml:9:1: error: table [solver.stop]: inconsistent");
  // A default in a table written in the deck points at the table.
  EXPECT_STREQ(d.error_at("solver.stop.atol", "too small").what(),
               "deck.toml:9:1: error: 'solver.stop.atol' = 0.0 (default): too small");
  // A default in a table created by an override points at the override.
  EXPECT_STREQ(d.error_at("monitor.quiet", "why").what(),
               "command-line override 'monitor.every=10': error: 'monitor.quiet' = false (default): why");
  EXPECT_STREQ(d.error_at("nothing.here", "odd").what(), "deck.toml: error: 'nothing.here': odd");
}

}  // namespace
