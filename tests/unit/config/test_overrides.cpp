// dotted.key=value overrides from the command line.
#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace perksolve::config;
using perksolve::config::test::ConfigTest;
using perksolve::config::test::deck_error;
using perksolve::config::test::first_error;
using perksolve::config::test::kSmallDeck;
using perksolve::config::test::lines_of;

namespace {

using Overrides = ConfigTest;

Deck load(const std::vector<std::string>& overrides, const std::string& text = kSmallDeck) {
  return load_deck_from_string(text, "deck.toml", overrides);
}

TEST_F(Overrides, Integer) {
  const Deck d = load({"grid.dimension=2", "grid.extents=[8,8]"});
  EXPECT_EQ(d.get_int("grid.dimension"), 2);
  EXPECT_EQ(d.get_int_array("grid.extents"), (std::vector<long>{8, 8}));
  const SourceLocation& w = d.where("grid.dimension");
  EXPECT_EQ(w.kind, SourceLocation::Kind::command_line);
  EXPECT_EQ(w.text, "grid.dimension=2");
  EXPECT_EQ(w.describe(), "command-line override 'grid.dimension=2'");
}

TEST_F(Overrides, RealAndIntegerPromotion) {
  const Deck d = load({"solver.stop.rtol=1e-6", "solver.omega=1"});
  EXPECT_EQ(d.get_real("solver.stop.rtol"), 1e-6);
  EXPECT_TRUE(std::holds_alternative<double>(d.get("solver.omega")));
  EXPECT_EQ(d.get_real("solver.omega"), 1.0);
}

TEST_F(Overrides, SpacesAroundKeyAndValue) {
  const Deck d = load({" grid.extents = [ 4, 5, 6 ] ", "monitor.quiet= true"});
  EXPECT_EQ(d.get_int_array("grid.extents"), (std::vector<long>{4, 5, 6}));
  EXPECT_TRUE(d.get_bool("monitor.quiet"));
}

TEST_F(Overrides, StringsWithAndWithoutQuotes) {
  const Deck d = load({"grid.centering=cell", "boundary.type=\"periodic\"", "extras.label=123",
                       "extras.tags=[\"p\", \"q\"]"});
  EXPECT_EQ(d.get_string("grid.centering"), "cell");
  EXPECT_EQ(d.get_string("boundary.type"), "periodic");
  EXPECT_EQ(d.get_string("extras.label"), "123");  // string key: the raw text
  EXPECT_EQ(d.get_string_array("extras.tags"), (std::vector<std::string>{"p", "q"}));
}

TEST_F(Overrides, LenientReals) {
  const Deck d = load({"solver.omega=.5", "solver.stop.rtol=1.", "solver.stop.atol=1E-3"});
  EXPECT_EQ(d.get_real("solver.omega"), 0.5);
  EXPECT_EQ(d.get_real("solver.stop.rtol"), 1.0);
  EXPECT_EQ(d.get_real("solver.stop.atol"), 1e-3);
  EXPECT_EQ(deck_error(kSmallDeck, {"solver.omega=1.5x"}),
            "command-line override 'solver.omega=1.5x': error: invalid value '1.5x' for 'solver.omega': expected real "
            "(floating point)");
}

TEST_F(Overrides, UnquotedStringArray) {
  EXPECT_EQ(deck_error(kSmallDeck, {"extras.tags=[a, b]"}),
            "command-line override 'extras.tags=[a, b]': error: invalid value '[a, b]' for 'extras.tags': expected "
            "array of strings (quote each string: [\"a\", \"b\"])");
}

TEST_F(Overrides, SplitAtFirstEquals) {
  const Deck d = load({"extras.label=a=b", "boundary.type=neumann"});
  EXPECT_EQ(d.get_string("extras.label"), "a=b");
}

TEST_F(Overrides, EmptyStringValue) {
  const Deck d = load({"extras.label="});
  EXPECT_EQ(d.get_string("extras.label"), "");
}

TEST_F(Overrides, LastOneWins) {
  const Deck d = load({"monitor.every=3", "monitor.every=7"});
  EXPECT_EQ(d.get_int("monitor.every"), 7);
  EXPECT_EQ(d.where("monitor.every").text, "monitor.every=7");
}

TEST_F(Overrides, ReplaceDeckValue) {
  const Deck d = load({"solver.stop.max_iterations=12"});
  EXPECT_EQ(d.get_int("solver.stop.max_iterations"), 12);
  EXPECT_EQ(d.where("solver.stop.max_iterations").kind, SourceLocation::Kind::command_line);
  EXPECT_EQ(d.get_real("solver.stop.rtol"), 1e-10);  // the rest of the table is kept
  EXPECT_EQ(d.where("solver.stop.rtol").line, 11);
}

TEST_F(Overrides, CreateAbsentTable) {
  const Deck d = load({"monitor.every=5", "boundary.x_lo=periodic", "boundary.x_lo_value=2"});
  EXPECT_EQ(d.get_int("monitor.every"), 5);
  EXPECT_EQ(d.get_real("monitor.progress_s"), 2.0);  // the rest of the created table gets defaults
  EXPECT_EQ(d.get_string("boundary.x_lo"), "periodic");
  EXPECT_EQ(d.get_real("boundary.x_lo_value"), 2.0);
  EXPECT_EQ(d.get_string("boundary.type"), "dirichlet");
}

TEST_F(Overrides, CreateNestedTable) {
  const Deck d = load({"solver.stop.atol=1e-12"},
                      "[grid]\nextents = [4, 4]\ndimension = 2\n[problem]\ntype = \"poisson_sine\"\n[solver]\n"
                      "type = \"jacobi\"\n");
  EXPECT_EQ(d.get_real("solver.stop.atol"), 1e-12);
  EXPECT_EQ(d.get_int("solver.stop.max_iterations"), 10000);
}

TEST_F(Overrides, SatisfyMissingRequiredKeysAndTables) {
  const Deck d = load({"problem.type=poisson_sine", "solver.type=jacobi", "grid.extents=[8,8,8]"}, "");
  EXPECT_EQ(d.get_string("problem.type"), "poisson_sine");
  EXPECT_EQ(d.get_string("solver.type"), "jacobi");
  EXPECT_EQ(d.get_real("solver.omega"), 1.0);
  EXPECT_EQ(d.get_int("grid.dimension"), 3);
  EXPECT_TRUE(d.has_table("problem"));
}

TEST_F(Overrides, CreatedTableStillNeedsItsType) {
  EXPECT_EQ(deck_error("", {"problem.type=poisson_sine", "grid.extents=[8,8,8]", "solver.omega=0.5"}),
            "command-line override 'solver.omega=0.5': error: missing required key 'solver.type' in table [solver]; "
            "expected one of: jacobi, stencil_iteration");
}

TEST_F(Overrides, SwitchVariant) {
  const Deck d = load({"solver.type=stencil_iteration", "solver.sweeps=4"},
                      "[grid]\nextents = [4, 4]\ndimension = 2\n[problem]\ntype = \"poisson_sine\"\n[solver]\n"
                      "type = \"jacobi\"\n");
  EXPECT_EQ(d.get_string("solver.type"), "stencil_iteration");
  EXPECT_EQ(d.get_int("solver.sweeps"), 4);
  EXPECT_FALSE(d.has("solver.omega"));
  EXPECT_EQ(d.where("solver.type").kind, SourceLocation::Kind::command_line);
}

TEST_F(Overrides, SwitchVariantLeavesStaleKeys) {
  EXPECT_EQ(deck_error(kSmallDeck, {"solver.type=stencil_iteration"}),
            "deck.toml:8:1: error: unknown key 'solver.omega' for solver type \"stencil_iteration\" (set by "
            "command-line override 'solver.type=stencil_iteration') (it is a key of solver type \"jacobi\"); expected "
            "one of: type, sweeps");
}

TEST_F(Overrides, SwitchProblemVariant) {
  const Deck d = load({"problem.type=heat_gaussian", "problem.width=0.5"});
  EXPECT_EQ(d.get_string("problem.type"), "heat_gaussian");
  EXPECT_EQ(d.get_real("problem.width"), 0.5);
}

TEST_F(Overrides, UnknownKey) {
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.extnts=[4,4]"}),
            "command-line override 'grid.extnts=[4,4]': error: unknown key 'grid.extnts'; expected one of: "
            "dimension, extents, box_lo, box_hi, centering; did you mean 'grid.extents'?");
  EXPECT_EQ(deck_error(kSmallDeck, {"solver.omgea=1"}),
            "command-line override 'solver.omgea=1': error: unknown key 'solver.omgea' for solver type \"jacobi\"; "
            "expected one of: type, omega; did you mean 'solver.omega'?");
}

TEST_F(Overrides, UnknownTable) {
  EXPECT_EQ(deck_error(kSmallDeck, {"gird.dimension=2"}),
            "command-line override 'gird.dimension=2': error: unknown table [gird]; expected one of: grid, boundary, "
            "decomposition, backend, problem, solver, monitor, extras; did you mean 'grid'?");
  EXPECT_EQ(deck_error(kSmallDeck, {"solver.stp.rtol=1"}),
            "command-line override 'solver.stp.rtol=1': error: unknown table [solver.stp]; sub-tables of [solver]: "
            "solver.stop, solver.sweep_order; did you mean 'solver.stop'?");
}

TEST_F(Overrides, WrongType) {
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.dimension=2.5"}),
            "command-line override 'grid.dimension=2.5': error: wrong type for 'grid.dimension': expected integer, "
            "got real 2.5 (write integers without a decimal point or exponent)");
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.dimension=two"}),
            "command-line override 'grid.dimension=two': error: invalid value 'two' for 'grid.dimension': expected "
            "integer");
  EXPECT_EQ(deck_error(kSmallDeck, {"monitor.quiet=yes"}),
            "command-line override 'monitor.quiet=yes': error: invalid value 'yes' for 'monitor.quiet': expected "
            "boolean");
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.extents=8"}),
            "command-line override 'grid.extents=8': error: wrong type for 'grid.extents': expected array of "
            "integers, got integer 8");
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.extents=[8,8.5]"}),
            "command-line override 'grid.extents=[8,8.5]': error: wrong type for element 2 of 'grid.extents': "
            "expected integer, got real 8.5 (write integers without a decimal point or exponent) (all entries must "
            "be integers)");
}

TEST_F(Overrides, ValueChecks) {
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.dimension=5"}),
            "command-line override 'grid.dimension=5': error: 'grid.dimension' = 5 is out of range: expected 2 <= "
            "value <= 3");
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.centering=edge"}),
            "command-line override 'grid.centering=edge': error: invalid value \"edge\" for 'grid.centering': "
            "expected one of: vertex, cell");
  EXPECT_EQ(deck_error(kSmallDeck, {"solver.type=jacobbi"}),
            "command-line override 'solver.type=jacobbi': error: unknown solver type \"jacobbi\" for 'solver.type'; "
            "expected one of: jacobi, stencil_iteration; did you mean 'jacobi'?");
}

TEST_F(Overrides, Malformed) {
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.dimension"}),
            "command-line override 'grid.dimension': error: expected dotted.key=value, e.g. solver.stop.rtol=1e-6");
  EXPECT_EQ(deck_error(kSmallDeck, {"=3"}),
            "command-line override '=3': error: invalid key '': expected dotted.key=value, e.g. "
            "solver.stop.rtol=1e-6");
  EXPECT_EQ(deck_error(kSmallDeck, {"grid..dimension=3"}),
            "command-line override 'grid..dimension=3': error: invalid key 'grid..dimension': expected "
            "dotted.key=value, e.g. solver.stop.rtol=1e-6");
  EXPECT_EQ(deck_error(kSmallDeck, {"dimension=3"}),
            "command-line override 'dimension=3': error: 'dimension' is not a key inside a table: expected "
            "table.key=value; did you mean 'grid.dimension=3'?");
  EXPECT_EQ(deck_error(kSmallDeck, {"monitor=3"}),
            "command-line override 'monitor=3': error: 'monitor' is not a key inside a table: expected "
            "table.key=value, e.g. monitor.every=...");
}

TEST_F(Overrides, ThroughANonTable) {
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.dimension.x=1"}),
            "command-line override 'grid.dimension.x=1': error: cannot set 'grid.dimension.x': 'grid.dimension' is "
            "integer 3, not a table");
}

TEST_F(Overrides, NoInjectionOfExtraKeys) {
  EXPECT_EQ(deck_error(kSmallDeck, {"grid.dimension=2\nfoo = 1"}),
            "command-line override 'grid.dimension=2\nfoo = 1': error: invalid value '2\nfoo = 1' for "
            "'grid.dimension': expected integer");
}

TEST_F(Overrides, OverrideErrorsComeAfterDeckErrors) {
  const auto lines = lines_of(deck_error(std::string(kSmallDeck) + "[monitor]\nevery = -1\n",
                                         {"grid.dimension=7", "monitor.quiet=2"}));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "deck.toml:13:9: error: 'monitor.every' = -1 is out of range: expected value >= 0");
  EXPECT_MATCHES(lines[1], "^command-line override 'grid\\.dimension=7': error: ");
  EXPECT_MATCHES(lines[2], "^command-line override 'monitor\\.quiet=2': error: ");
}

TEST_F(Overrides, FixADeckError) {
  // An override replaces a bad deck value before it is checked.
  const Deck d = load({"grid.dimension=2"}, "[grid]\ndimension = 9\nextents = [4, 4]\n[problem]\n"
                                            "type = \"poisson_sine\"\n[solver]\ntype = \"jacobi\"\n");
  EXPECT_EQ(d.get_int("grid.dimension"), 2);
}

}  // namespace
