// Every class of deck error, with the exact message: position, dotted key, expectation, hint.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "test_support.hpp"

using namespace perksolve::config;
using perksolve::config::test::ConfigTest;
using perksolve::config::test::deck_error;
using perksolve::config::test::first_error;
using perksolve::config::test::lines_of;

namespace {

// Lines 1-7; whatever is appended starts on line 8.
const std::string kBase =
    "[grid]\n"
    "dimension = 3\n"
    "extents = [16, 16, 16]\n"
    "[problem]\n"
    "type = \"poisson_sine\"\n"
    "[solver]\n"
    "type = \"jacobi\"\n";

std::string with(const std::string& extra) { return kBase + extra; }

using DeckErrors = ConfigTest;

TEST_F(DeckErrors, SyntaxError) {
  EXPECT_EQ(first_error(with("[monitor]\nevery = = 3\n")),
            "deck.toml:9:9: error: invalid TOML: Error while parsing value: could not determine value type");
  EXPECT_EQ(first_error("[grid\n"),
            "deck.toml:1:6: error: invalid TOML: Error while parsing table header: expected ']', saw '\\n'");
  const std::string e = deck_error("[grid]\nextents = [1, 2\n", {}, "inputs/x.toml");
  EXPECT_MATCHES(e, "^inputs/x\\.toml:[0-9]+:[0-9]+: error: invalid TOML: ");
}

TEST_F(DeckErrors, DuplicateKeyIsSyntaxError) {
  EXPECT_EQ(first_error("[grid]\ndimension = 3\ndimension = 3\n"),
            "deck.toml:3:13: error: invalid TOML: Error while parsing key-value pair: cannot redefine existing "
            "integer 'dimension'");
  EXPECT_MATCHES(first_error(with("[grid]\n")), "^deck\\.toml:8:1: error: invalid TOML: .*redefine.*'grid'");
}

TEST_F(DeckErrors, UnknownKeyWithSuggestion) {
  EXPECT_EQ(first_error("[grid]\ndimension = 3\nextnts = [16, 16, 16]\n[problem]\ntype = \"poisson_sine\"\n"
                        "[solver]\ntype = \"jacobi\"\n"),
            "deck.toml:3:1: error: unknown key 'grid.extnts'; expected one of: dimension, extents, box_lo, box_hi, "
            "centering; did you mean 'grid.extents'?");
}

TEST_F(DeckErrors, MisspeltRequiredKeyIsNotAlsoReportedMissing) {
  const std::string e = deck_error("[grid]\nextnts = [16, 16, 16]\n[problem]\ntype = \"poisson_sine\"\n"
                                   "[solver]\ntype = \"jacobi\"\n");
  EXPECT_EQ(lines_of(e).size(), 1u) << e;
}

TEST_F(DeckErrors, UnknownKeyWithoutSuggestion) {
  EXPECT_EQ(first_error(with("[monitor]\nresolution = 3\n")),
            "deck.toml:9:1: error: unknown key 'monitor.resolution'; expected one of: every, progress_s, quiet, phase_timers");
}

TEST_F(DeckErrors, UnknownKeyOfVariant) {
  EXPECT_EQ(first_error(with("omgea = 0.8\n")),
            "deck.toml:8:1: error: unknown key 'solver.omgea' for solver type \"jacobi\"; expected one of: type, "
            "omega; did you mean 'solver.omega'?");
}

TEST_F(DeckErrors, KeyOfAnotherVariant) {
  EXPECT_EQ(first_error(with("sweeps = 3\n")),
            "deck.toml:8:1: error: unknown key 'solver.sweeps' for solver type \"jacobi\" (it is a key of solver type "
            "\"stencil_iteration\"); expected one of: type, omega");
}

TEST_F(DeckErrors, KeyBelongingToAnotherTable) {
  EXPECT_EQ(first_error(with("rtol = 1e-6\n")),
            "deck.toml:8:1: error: unknown key 'solver.rtol' for solver type \"jacobi\"; expected one of: type, omega; "
            "did you mean 'solver.stop.rtol'?");
}

TEST_F(DeckErrors, KeyOutsideAnyTable) {
  EXPECT_EQ(first_error("dimension = 3\n" + kBase),
            "deck.toml:1:1: error: key 'dimension' is outside of any table; did you mean 'grid.dimension'?");
  EXPECT_MATCHES(first_error("gird = 3\n" + kBase),
                 "^deck\\.toml:1:1: error: unknown key 'gird' outside of any table; keys belong in one of the "
                 "tables: grid, .*; did you mean 'grid'\\?$");
}

TEST_F(DeckErrors, MisplacedKeyHintFollowsTheValue) {
  EXPECT_EQ(first_error("type = \"jacobi\"\n" + kBase),
            "deck.toml:1:1: error: key 'type' is outside of any table; did you mean 'solver.type'?");
  EXPECT_EQ(first_error("type = \"neumann\"\n" + kBase),
            "deck.toml:1:1: error: key 'type' is outside of any table; did you mean 'boundary.type'?");
  EXPECT_EQ(first_error(with("[monitor]\nprecision = \"float\"\n")),
            "deck.toml:9:1: error: unknown key 'monitor.precision'; expected one of: every, progress_s, quiet, phase_timers; did "
            "you mean 'backend.precision'?");
}

TEST_F(DeckErrors, UnknownTable) {
  EXPECT_EQ(first_error(with("[monitr]\nevery = 3\n")),
            "deck.toml:8:1: error: unknown table [monitr]; expected one of: grid, boundary, decomposition, backend, "
            "problem, solver, monitor, extras; did you mean 'monitor'?");
  EXPECT_EQ(first_error(with("[output]\n")),
            "deck.toml:8:1: error: unknown table [output]; expected one of: grid, boundary, decomposition, backend, "
            "problem, solver, monitor, extras");
}

TEST_F(DeckErrors, UnknownSubTable) {
  EXPECT_EQ(first_error(with("[solver.stp]\nrtol = 1\n")),
            "deck.toml:8:1: error: unknown table [solver.stp]; sub-tables of [solver]: solver.stop, "
            "solver.sweep_order; did you mean 'solver.stop'?");
  EXPECT_EQ(first_error(with("[monitor.x]\n")),
            "deck.toml:8:1: error: unknown table [monitor.x]; [monitor] has no sub-tables");
}

TEST_F(DeckErrors, MisspeltRequiredTableIsNotAlsoReportedMissing) {
  const std::string e = deck_error("[gird]\nextents = [16, 16]\n[problem]\ntype = \"poisson_sine\"\n"
                                   "[solver]\ntype = \"jacobi\"\n");
  EXPECT_EQ(e, "deck.toml:1:1: error: unknown table [gird]; expected one of: grid, boundary, decomposition, backend, "
               "problem, solver, monitor, extras; did you mean 'grid'?");
}

TEST_F(DeckErrors, KeyUsedAsTable) {
  EXPECT_EQ(first_error(with("[monitor.every]\n")),
            "deck.toml:8:1: error: 'monitor.every' is a key, not a table: write every = ... inside [monitor]");
  // Not also reported as missing.
  EXPECT_EQ(deck_error("[grid.extents]\n[problem]\ntype = \"poisson_sine\"\n[solver]\ntype = \"jacobi\"\n"),
            "deck.toml:1:1: error: 'grid.extents' is a key, not a table: write extents = ... inside [grid]");
  // An inline table is a value of the wrong type.
  EXPECT_EQ(first_error(with("[monitor]\nevery = { n = 1 }\n")),
            "deck.toml:9:9: error: wrong type for 'monitor.every': expected integer, got table");
}

TEST_F(DeckErrors, TableUsedAsKey) {
  EXPECT_EQ(first_error(with("stop = 3\n")),
            "deck.toml:8:8: error: wrong type for 'solver.stop': expected a table [solver.stop], got integer 3");
  EXPECT_EQ(first_error(with("[[monitor]]\nevery = 1\n")),
            "deck.toml:8:1: error: wrong type for 'monitor': expected a table [monitor], got array of tables");
}

TEST_F(DeckErrors, StringForInteger) {
  EXPECT_EQ(first_error(with("[solver.stop]\nmax_iterations = \"100\"\n")),
            "deck.toml:9:18: error: wrong type for 'solver.stop.max_iterations': expected integer, got string \"100\"");
}

TEST_F(DeckErrors, RealForInteger) {
  EXPECT_EQ(first_error(with("[solver.stop]\nmax_iterations = 100.0\n")),
            "deck.toml:9:18: error: wrong type for 'solver.stop.max_iterations': expected integer, got real 100.0 "
            "(write integers without a decimal point or exponent)");
}

TEST_F(DeckErrors, IntegerForStringAndBool) {
  EXPECT_EQ(first_error(with("[backend]\nprecision = 64\n")),
            "deck.toml:9:13: error: wrong type for 'backend.precision': expected string, got integer 64");
  EXPECT_EQ(first_error(with("[monitor]\nquiet = 1\n")),
            "deck.toml:9:9: error: wrong type for 'monitor.quiet': expected boolean, got integer 1");
}

TEST_F(DeckErrors, StringForBool) {
  EXPECT_EQ(first_error(with("[monitor]\nquiet = \"true\"\n")),
            "deck.toml:9:9: error: wrong type for 'monitor.quiet': expected boolean, got string \"true\" (write true "
            "or false without quotes)");
}

TEST_F(DeckErrors, StringForReal) {
  EXPECT_EQ(first_error(with("omega = \"0.8\"\n")),
            "deck.toml:8:9: error: wrong type for 'solver.omega': expected real (floating point), got string \"0.8\"");
}

TEST_F(DeckErrors, BoolForReal) {
  EXPECT_EQ(first_error(with("[boundary]\nvalue = false\n")),
            "deck.toml:9:9: error: wrong type for 'boundary.value': expected real (floating point), got boolean false");
}

TEST_F(DeckErrors, DateAndTableValues) {
  EXPECT_EQ(first_error(with("[boundary]\nvalue = 1979-05-27\n")),
            "deck.toml:9:9: error: wrong type for 'boundary.value': expected real (floating point), got date");
  EXPECT_EQ(first_error(with("[boundary]\nvalue = { a = 1 }\n")),
            "deck.toml:9:9: error: wrong type for 'boundary.value': expected real (floating point), got table");
}

TEST_F(DeckErrors, ScalarForArrayAndArrayForScalar) {
  EXPECT_EQ(first_error("[grid]\nextents = 16\n"),
            "deck.toml:2:11: error: wrong type for 'grid.extents': expected array of integers, got integer 16");
  EXPECT_EQ(first_error(with("[boundary]\nvalue = [1.0]\n")),
            "deck.toml:9:9: error: wrong type for 'boundary.value': expected real (floating point), got array");
}

TEST_F(DeckErrors, NonHomogeneousArrays) {
  EXPECT_EQ(first_error("[grid]\nextents = [16, \"16\", 16]\n"),
            "deck.toml:2:16: error: wrong type for element 2 of 'grid.extents': expected integer, got string \"16\" "
            "(all entries must be integers)");
  EXPECT_EQ(first_error("[grid]\nextents = [16, 16.0]\n"),
            "deck.toml:2:16: error: wrong type for element 2 of 'grid.extents': expected integer, got real 16.0 "
            "(write integers without a decimal point or exponent) (all entries must be integers)");
  EXPECT_EQ(first_error(with("[extras]\nlabel = \"x\"\nmodes = [\"x\", 1]\n")),
            "deck.toml:10:15: error: wrong type for element 2 of 'extras.modes': expected string, got integer 1 (all "
            "entries must be strings)");
  EXPECT_EQ(first_error("[grid]\nbox_lo = [0, \"a\", 1]\nextents = [2, 2]\n"),
            "deck.toml:2:14: error: wrong type for element 2 of 'grid.box_lo': expected real (floating point), got "
            "string \"a\" (all entries must be real (floating point) or integers)");
  EXPECT_EQ(first_error("[grid]\nextents = [[1, 2], [3]]\n"),
            "deck.toml:2:12: error: wrong type for element 1 of 'grid.extents': expected integer, got array (all "
            "entries must be integers)");
}

TEST_F(DeckErrors, OutOfRange) {
  EXPECT_EQ(first_error("[grid]\ndimension = 4\nextents = [4, 4]\n"),
            "deck.toml:2:13: error: 'grid.dimension' = 4 is out of range: expected 2 <= value <= 3");
  EXPECT_EQ(first_error(with("[solver.stop]\nrtol = -1e-8\n")),
            "deck.toml:9:8: error: 'solver.stop.rtol' = -1e-8 is out of range: expected value >= 0");
  EXPECT_EQ(first_error(with("[solver.stop]\ncheck_every = 0\n")),
            "deck.toml:9:15: error: 'solver.stop.check_every' = 0 is out of range: expected value >= 1");
}

TEST_F(DeckErrors, ExclusiveRange) {
  EXPECT_EQ(first_error(with("omega = 0\n")),
            "deck.toml:8:9: error: 'solver.omega' = 0.0 is out of range: expected 0 < value <= 2");
  EXPECT_EQ(first_error(with("omega = 2.000001\n")),
            "deck.toml:8:9: error: 'solver.omega' = 2.000001 is out of range: expected 0 < value <= 2");
  EXPECT_EQ(first_error(with("omega = nan\n")),
            "deck.toml:8:9: error: 'solver.omega' = nan is out of range: expected 0 < value <= 2");
  EXPECT_NO_THROW(load_deck_from_string(with("omega = 2\n"), "d", {}));
}

TEST_F(DeckErrors, ArrayElementOutOfRange) {
  EXPECT_EQ(first_error("[grid]\nextents = [16, 0, 16]\n"),
            "deck.toml:2:16: error: element 2 of 'grid.extents' = 0 is out of range: expected value >= 1");
  EXPECT_EQ(first_error(with("[decomposition]\nranks = [1, -1]\n")),
            "deck.toml:9:13: error: element 2 of 'decomposition.ranks' = -1 is out of range: expected value >= 0");
}

TEST_F(DeckErrors, NotAllowedValue) {
  EXPECT_EQ(first_error(with("[boundary]\ntype = \"Periodic\"\n")),
            "deck.toml:9:8: error: invalid value \"Periodic\" for 'boundary.type': expected one of: dirichlet, "
            "neumann, periodic; did you mean 'periodic'?");
  EXPECT_EQ(first_error(with("[backend]\nprecision = \"half\"\n")),
            "deck.toml:9:13: error: invalid value \"half\" for 'backend.precision': expected one of: double, float");
  EXPECT_EQ(first_error(with("[extras]\nlabel = \"x\"\nmodes = [\"x\", \"w\"]\n")),
            "deck.toml:10:15: error: invalid value \"w\" for element 2 of 'extras.modes': expected one of: x, y, z");
}

TEST_F(DeckErrors, ArrayLength) {
  EXPECT_EQ(first_error("[grid]\nextents = [16, 16, 16, 16]\n"),
            "deck.toml:2:11: error: 'grid.extents' has 4 entries; expected 2 to 3 entries");
  EXPECT_EQ(first_error("[grid]\nextents = []\n"),
            "deck.toml:2:11: error: 'grid.extents' has 0 entries; expected 2 to 3 entries");
  EXPECT_EQ(first_error(with("[extras]\nlabel = \"x\"\nmodes = [\"x\", \"y\", \"z\"]\n")),
            "deck.toml:10:9: error: 'extras.modes' has 3 entries; expected 1 to 2 entries");
}

TEST_F(DeckErrors, MissingRequiredKey) {
  EXPECT_EQ(first_error("[grid]\ndimension = 2\n[problem]\ntype = \"poisson_sine\"\n[solver]\ntype = \"jacobi\"\n"),
            "deck.toml:1:1: error: missing required key 'grid.extents' (array of integers) in table [grid]: Number of "
            "grid points (vertex centering) or cells (cell centering) per direction, x first; one entry per "
            "dimension.");
  EXPECT_EQ(first_error(with("[extras]\ntags = [\"a\"]\n")),
            "deck.toml:8:1: error: missing required key 'extras.label' (string) in table [extras]: Free text.");
}

TEST_F(DeckErrors, MissingRequiredVariantKey) {
  EXPECT_EQ(first_error("[grid]\nextents = [4, 4, 4]\n[problem]\ntype = \"manufactured\"\n[solver]\ntype = \"jacobi\"\n"),
            "deck.toml:3:1: error: missing required key 'problem.solution' (string) in table [problem] for problem "
            "type \"manufactured\": Exact solution u(x, y, z).");
}

TEST_F(DeckErrors, MissingType) {
  EXPECT_EQ(first_error("[grid]\nextents = [4, 4, 4]\n[problem]\ntype = \"poisson_sine\"\n[solver]\nomega = 0.5\n"),
            "deck.toml:5:1: error: missing required key 'solver.type' in table [solver]; expected one of: jacobi, "
            "stencil_iteration");
}

TEST_F(DeckErrors, ImplicitParentTableNeedsItsType) {
  // [solver.stop] alone creates [solver] implicitly, but [solver] needs a type.
  EXPECT_EQ(first_error("[grid]\nextents = [4, 4, 4]\n[problem]\ntype = \"poisson_sine\"\n[solver.stop]\nrtol = 1\n"),
            "deck.toml:5:1: error: missing required key 'solver.type' in table [solver]; expected one of: jacobi, "
            "stencil_iteration");
}

TEST_F(DeckErrors, MissingRequiredTables) {
  EXPECT_EQ(deck_error("[grid]\nextents = [4, 4, 4]\n"),
            "deck.toml:1:1: error: missing required table [problem]; add it with type = one of: heat_gaussian, "
            "manufactured, poisson_sine, stencil_benchmark\n"
            "deck.toml:1:1: error: missing required table [solver]; add it with type = one of: jacobi, "
            "stencil_iteration");
  EXPECT_EQ(first_error("[problem]\ntype = \"poisson_sine\"\n[solver]\ntype = \"jacobi\"\n"),
            "deck.toml:1:1: error: missing required table [grid] (required keys: extents)");
}

TEST_F(DeckErrors, EmptyDeck) {
  const auto lines = lines_of(deck_error("", {}, "empty.toml"));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "empty.toml:1:1: error: missing required table [grid] (required keys: extents)");
  EXPECT_MATCHES(lines[1], "missing required table \\[problem\\]");
  EXPECT_MATCHES(lines[2], "missing required table \\[solver\\]");
}

TEST_F(DeckErrors, UnknownVariant) {
  EXPECT_EQ(first_error("[grid]\nextents = [4, 4, 4]\n[problem]\ntype = \"poisson_sin\"\n[solver]\ntype = \"jacobi\"\n"),
            "deck.toml:4:8: error: unknown problem type \"poisson_sin\" for 'problem.type'; expected one of: "
            "heat_gaussian, manufactured, poisson_sine, stencil_benchmark; did you mean 'poisson_sine'?");
  EXPECT_EQ(first_error(with("").replace(kBase.find("\"jacobi\""), 8, "\"cg\"")),
            "deck.toml:7:8: error: unknown solver type \"cg\" for 'solver.type'; expected one of: jacobi, "
            "stencil_iteration");
}

TEST_F(DeckErrors, UnknownVariantDoesNotCascadeIntoItsKeys) {
  const std::string e = deck_error(
      "[grid]\nextents = [4, 4, 4]\n[problem]\ntype = \"poisson_sine\"\n[solver]\ntype = \"jacobii\"\nomega = 0.8\n");
  EXPECT_EQ(lines_of(e).size(), 1u) << e;
  EXPECT_MATCHES(e, "did you mean 'jacobi'\\?$");
}

TEST_F(DeckErrors, TypeOfWrongType) {
  EXPECT_EQ(first_error("[grid]\nextents = [4, 4, 4]\n[problem]\ntype = 3\n[solver]\ntype = \"jacobi\"\n"),
            "deck.toml:4:8: error: wrong type for 'problem.type': expected string (one of: heat_gaussian, "
            "manufactured, poisson_sine, stencil_benchmark), got integer 3");
}

TEST_F(DeckErrors, ConditionalTableNotAllowed) {
  EXPECT_EQ(first_error(with("[solver.sweep_order]\norder = \"red_black\"\n")),
            "deck.toml:8:1: error: table [solver.sweep_order] is only allowed when solver.type = \"stencil_iteration\" "
            "(here solver.type = \"jacobi\")");
}

TEST_F(DeckErrors, AllErrorsOnePerLineInFileOrder) {
  const std::string e = deck_error(
      "[grid]\n"                  // 1
      "dimension = 5\n"           // 2
      "extents = [4, 4, 4]\n"     // 3
      "[monitor]\n"               // 4
      "quiet = 1\n"               // 5
      "every = -1\n"              // 6
      "[problem]\n"               // 7
      "type = \"poisson_sine\"\n" // 8
      "[backend]\n"               // 9
      "type = \"opencl\"\n",      // 10
      {"grid.extents=[0,1]"});
  const auto lines = lines_of(e);
  ASSERT_EQ(lines.size(), 6u) << e;
  EXPECT_MATCHES(lines[0], "^deck\\.toml:2:13: error: 'grid\\.dimension' = 5 is out of range");
  EXPECT_MATCHES(lines[1], "^deck\\.toml:5:9: error: wrong type for 'monitor\\.quiet'");
  EXPECT_MATCHES(lines[2], "^deck\\.toml:6:9: error: 'monitor\\.every' = -1 is out of range");
  EXPECT_MATCHES(lines[3], "^deck\\.toml:10:8: error: invalid value \"opencl\" for 'backend\\.type'");
  EXPECT_MATCHES(lines[4], "^command-line override 'grid\\.extents=\\[0,1\\]': error: element 1 of 'grid\\.extents' = 0");
  EXPECT_MATCHES(lines[5], "^deck\\.toml:1:1: error: missing required table \\[solver\\]");
}

TEST_F(DeckErrors, ManyErrorsAreCapped) {
  std::string deck = kBase + "[monitor]\n";
  for (int i = 0; i < 40; ++i) deck += "bad" + std::to_string(i) + " = 1\n";
  const auto lines = lines_of(deck_error(deck));
  ASSERT_EQ(lines.size(), 26u);
  EXPECT_EQ(lines.back(), "deck.toml: note: 15 more error(s) not shown");
}

TEST_F(DeckErrors, OriginNamesTheFile) {
  EXPECT_MATCHES(first_error("[grid]\ndimension = 9\nextents = [2, 2]\n", {}, "inputs/case 1.toml"),
                 "^inputs/case 1\\.toml:2:13: error: ");
  EXPECT_MATCHES(first_error("[grid]\ndimension = 9\nextents = [2, 2]\n", {}, ""), "^<deck>:2:13: error: ");
}

TEST_F(DeckErrors, MissingFile) {
  try {
    load_deck("/nonexistent/dir/deck.toml", {});
    FAIL() << "no exception";
  } catch (const DeckError& e) {
    EXPECT_STREQ(e.what(), "error: cannot open deck file '/nonexistent/dir/deck.toml': No such file or directory");
  }
}

TEST_F(DeckErrors, DirectoryIsNotADeck) {
  const auto dir = std::filesystem::temp_directory_path();
  try {
    load_deck(dir.string(), {});
    FAIL() << "no exception";
  } catch (const DeckError& e) {
    EXPECT_EQ(std::string(e.what()), "error: cannot open deck file '" + dir.string() + "': Is a directory");
  }
}

TEST_F(DeckErrors, LoadDeckFromFile) {
  const auto path = std::filesystem::temp_directory_path() / "perksolve_test_config_deck.toml";
  {
    std::ofstream out(path);
    out << perksolve::config::test::kSmallDeck << "[monitor]\nevery = 2\nevry = 3\n";
  }
  try {
    load_deck(path.string(), {});
    ADD_FAILURE() << "no exception";
  } catch (const DeckError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ":14:1: error: unknown key 'monitor.evry'; expected one of: every, "
                                                     "progress_s, quiet, phase_timers; did you mean 'monitor.every'?");
  }
  std::filesystem::remove(path);
}

}  // namespace
