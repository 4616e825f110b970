// Shared set-up of the config unit tests: the core schema plus fake problem / solver variants
// named like the real ones (the real ones register themselves in the full application).
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "framework/config/deck.hpp"
#include "framework/config/schema.hpp"

namespace perksolve::config::test {

inline void register_fake_schema() {
  register_core_schema();
  auto& r = SchemaRegistry::instance();
  r.add_variant("problem", Variant{"poisson_sine", "-laplace(u) = f with a sine solution", {}});
  r.add_variant("problem",
                Variant{"heat_gaussian",
                        "heat equation with a Gaussian initial pulse",
                        {with_range(key_real("width", 0.1, "Width of the pulse."), 0.0, std::nullopt),
                         with_unit(key_real("diffusivity", 1.0, "Diffusion coefficient."), "m^2/s"),
                         optional_key(key_real_array("center", std::nullopt, "Centre of the pulse."))}});
  r.add_variant("problem", Variant{"stencil_benchmark",
                                   "applies a stencil repeatedly",
                                   {key_string("stencil", std::string("7pt"), {"7pt", "27pt"}, "Stencil shape."),
                                    key_int("repeat", 100, "Number of applications.")}});
  r.add_variant("solver", Variant{"jacobi",
                                  "weighted Jacobi iteration",
                                  {exclusive_min(with_range(key_real("omega", 1.0, "Relaxation factor."), 0.0, 2.0))}});
  r.add_variant("solver", Variant{"stencil_iteration",
                                  "fixed number of stencil sweeps",
                                  {with_range(key_int("sweeps", 1, "Sweeps per iteration."), 1, std::nullopt)}});
  // A variant with a required key.
  r.add_variant("problem", Variant{"manufactured",
                                   "user-given exact solution",
                                   {key_string("solution", std::nullopt, {}, "Exact solution u(x, y, z).")}});
  // A table allowed only for one solver type (filled with defaults when that type is chosen).
  TableSchema sweep;
  sweep.path = "solver.sweep_order";
  sweep.help = "Order of the sweeps of stencil_iteration.";
  sweep.condition_key = "solver.type";
  sweep.condition_values = {"stencil_iteration"};
  sweep.keys = {key_string("order", std::string("lexicographic"), {"lexicographic", "red_black"}, "Sweep order.")};
  r.add_table(sweep);
  // A table with a required key (never filled in when absent), string and string-array keys.
  TableSchema extras;
  extras.path = "extras";
  extras.help = "Test-only table.";
  extras.keys = {key_string("label", std::nullopt, {}, "Free text."),
                 key_string_array("tags", std::vector<std::string>{"a", "b"}, "Tags."),
                 with_length(key_string_array("modes", std::vector<std::string>{"x"}, "Modes."), 1, 2),
                 optional_key(key_int("seed", std::nullopt, "Random seed."))};
  extras.keys[2].allowed = {"x", "y", "z"};
  r.add_table(extras);
}

// A fresh schema for every test.
class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override { register_fake_schema(); }
};

inline const char* kSmallDeck = R"([grid]
dimension = 3
extents = [16, 16, 16]
[problem]
type = "poisson_sine"
[solver]
type = "jacobi"
omega = 0.8
[solver.stop]
max_iterations = 5000
rtol = 1e-10
)";

inline std::string decks_dir() { return PERKSOLVE_TEST_DECKS_DIR; }

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto nl = text.find('\n', start);
    out.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

// The DeckError message of loading `text` (fails the test if it loads).
inline std::string deck_error(const std::string& text, const std::vector<std::string>& overrides = {},
                              const std::string& origin = "deck.toml") {
  try {
    load_deck_from_string(text, origin, overrides);
  } catch (const DeckError& e) {
    return e.what();
  }
  ADD_FAILURE() << "deck loaded without error:\n" << text;
  return "";
}

// The first line of the DeckError.
inline std::string first_error(const std::string& text, const std::vector<std::string>& overrides = {},
                               const std::string& origin = "deck.toml") {
  return lines_of(deck_error(text, overrides, origin)).front();
}

inline bool matches(const std::string& text, const std::string& regex) {
  return std::regex_search(text, std::regex(regex));
}

inline ::testing::AssertionResult contains(const std::string& haystack, const std::string& needle) {
  if (haystack.find(needle) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected to find\n  " << needle << "\nin\n  " << haystack;
}

}  // namespace perksolve::config::test

#define EXPECT_CONTAINS(haystack, needle) EXPECT_TRUE(::perksolve::config::test::contains((haystack), (needle)))
#define EXPECT_MATCHES(text, regex)                                                        \
  EXPECT_TRUE(::perksolve::config::test::matches((text), (regex)))                         \
      << "text:  " << (text) << "\nregex: " << (regex)
