#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.hpp"

using namespace perksolve::config;
using perksolve::config::test::ConfigTest;

namespace {

const KeySpec* key(const std::string& table, const std::string& name) {
  const TableSchema* t = SchemaRegistry::instance().find(table);
  if (!t) return nullptr;
  for (const auto& k : t->keys) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

TEST(SchemaBuilders, DefaultOrRequired) {
  const KeySpec a = key_int("n", 3, "help");
  EXPECT_EQ(a.type, ValueType::integer);
  EXPECT_FALSE(a.required);
  ASSERT_TRUE(a.default_value);
  EXPECT_EQ(std::get<long>(*a.default_value), 3);
  EXPECT_EQ(a.help, "help");

  const KeySpec b = key_real_array("x", std::nullopt, "");
  EXPECT_TRUE(b.required);
  EXPECT_FALSE(b.default_value);

  const KeySpec c = optional_key(key_string("s", std::string("v"), {"v", "w"}, ""));
  EXPECT_FALSE(c.required);
  EXPECT_FALSE(c.default_value);
  EXPECT_EQ(c.allowed, (std::vector<std::string>{"v", "w"}));
}

TEST(SchemaBuilders, Refinements) {
  KeySpec k = with_unit(with_length(with_range(key_int_array("e", std::nullopt, ""), 1, 9), 2, 3), "m");
  EXPECT_EQ(*k.min, 1);
  EXPECT_EQ(*k.max, 9);
  EXPECT_EQ(k.min_length, 2);
  EXPECT_EQ(k.max_length, 3);
  EXPECT_EQ(k.unit, "m");
  EXPECT_FALSE(k.min_exclusive);
  k = exclusive_max(exclusive_min(k));
  EXPECT_TRUE(k.min_exclusive);
  EXPECT_TRUE(k.max_exclusive);
}

TEST_F(ConfigTest, CoreSchemaTables) {
  const auto paths = SchemaRegistry::instance().table_paths();
  for (const char* p : {"grid", "boundary", "decomposition", "backend", "problem", "solver", "solver.stop", "monitor"}) {
    EXPECT_NE(std::find(paths.begin(), paths.end(), p), paths.end()) << p;
  }
  EXPECT_TRUE(std::is_sorted(paths.begin(), paths.end()));
  const auto& r = SchemaRegistry::instance();
  EXPECT_TRUE(r.find("grid")->required);
  EXPECT_TRUE(r.find("problem")->required);
  EXPECT_TRUE(r.find("solver")->required);
  EXPECT_FALSE(r.find("boundary")->required);
  EXPECT_TRUE(r.find("problem")->has_variants);
  EXPECT_TRUE(r.find("solver")->has_variants);
  EXPECT_FALSE(r.find("grid")->has_variants);
  EXPECT_EQ(r.find("nope"), nullptr);
}

TEST_F(ConfigTest, CoreSchemaKeys) {
  const KeySpec* dim = key("grid", "dimension");
  ASSERT_TRUE(dim);
  EXPECT_EQ(dim->type, ValueType::integer);
  EXPECT_EQ(std::get<long>(*dim->default_value), 3);
  EXPECT_EQ(*dim->min, 2);
  EXPECT_EQ(*dim->max, 3);

  const KeySpec* ext = key("grid", "extents");
  ASSERT_TRUE(ext);
  EXPECT_TRUE(ext->required);
  EXPECT_EQ(ext->type, ValueType::integer_array);
  EXPECT_EQ(ext->min_length, 2);
  EXPECT_EQ(ext->max_length, 3);
  EXPECT_EQ(*ext->min, 1);

  EXPECT_EQ(std::get<std::vector<double>>(*key("grid", "box_hi")->default_value), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(key("grid", "centering")->allowed, (std::vector<std::string>{"vertex", "cell"}));
  EXPECT_EQ(key("boundary", "type")->allowed, (std::vector<std::string>{"dirichlet", "neumann", "periodic"}));
  for (const char* face : {"x_lo", "x_hi", "y_lo", "y_hi", "z_lo", "z_hi"}) {
    const KeySpec* f = key("boundary", face);
    ASSERT_TRUE(f) << face;
    EXPECT_FALSE(f->required);
    EXPECT_FALSE(f->default_value);
    const KeySpec* v = key("boundary", std::string(face) + "_value");
    ASSERT_TRUE(v) << face;
    EXPECT_EQ(v->type, ValueType::real);
    EXPECT_FALSE(v->default_value);
  }
  EXPECT_EQ(std::get<std::vector<long>>(*key("decomposition", "ranks")->default_value), (std::vector<long>{0, 0, 0}));
  EXPECT_EQ(key("backend", "type")->allowed, (std::vector<std::string>{"kokkos", "cuda"}));
  EXPECT_EQ(key("backend", "precision")->allowed, (std::vector<std::string>{"double", "float"}));
  EXPECT_EQ(std::get<long>(*key("solver.stop", "max_iterations")->default_value), 10000);
  EXPECT_EQ(std::get<double>(*key("solver.stop", "rtol")->default_value), 1e-8);
  EXPECT_EQ(*key("solver.stop", "check_every")->min, 1);
  EXPECT_EQ(key("solver.stop", "walltime_s")->unit, "s");
  EXPECT_EQ(std::get<double>(*key("monitor", "progress_s")->default_value), 2.0);
  EXPECT_EQ(std::get<bool>(*key("monitor", "quiet")->default_value), false);
  EXPECT_EQ(std::get<std::string>(*key("monitor", "phase_timers")->default_value), "auto");
  EXPECT_EQ(key("monitor", "phase_timers")->allowed, (std::vector<std::string>{"auto", "on", "off"}));
}

TEST_F(ConfigTest, RegisterCoreSchemaIsIdempotent) {
  const auto before = SchemaRegistry::instance().table_paths();
  const auto problems = SchemaRegistry::instance().variant_names("problem");
  register_core_schema();
  register_core_schema();
  EXPECT_EQ(SchemaRegistry::instance().table_paths(), before);
  EXPECT_EQ(SchemaRegistry::instance().variant_names("problem"), problems);  // variants survive
  EXPECT_FALSE(problems.empty());
}

TEST_F(ConfigTest, VariantNamesAreSorted) {
  const auto names = SchemaRegistry::instance().variant_names("solver");
  EXPECT_EQ(names, (std::vector<std::string>{"jacobi", "stencil_iteration"}));
  EXPECT_TRUE(SchemaRegistry::instance().variant_names("grid").empty());
  EXPECT_TRUE(SchemaRegistry::instance().variant_names("nope").empty());
}

TEST(SchemaRegistry, AddVariantCreatesTableAndReplacesSameName) {
  SchemaRegistry r;  // a private registry: the process-wide one stays as the other tests expect
  r.add_variant("test_created.by_variant", Variant{"one", "first", {key_int("a", 1, "")}});
  const TableSchema* t = r.find("test_created.by_variant");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->has_variants);
  ASSERT_EQ(t->variants.size(), 1u);
  r.add_variant("test_created.by_variant", Variant{"one", "again", {key_int("b", 2, "")}});
  t = r.find("test_created.by_variant");
  ASSERT_EQ(t->variants.size(), 1u);
  EXPECT_EQ(t->variants[0].help, "again");
  EXPECT_EQ(t->variants[0].keys[0].name, "b");
}

TEST(SchemaRegistry, AddTableKeepsEarlierVariantsAndPlaceholderMovesToEnd) {
  SchemaRegistry r;
  r.add_variant("test_late", Variant{"v1", "", {}});
  TableSchema other;
  other.path = "test_late_other";
  r.add_table(other);
  TableSchema late;
  late.path = "test_late";
  late.help = "registered after its variants";
  r.add_table(late);
  const TableSchema* t = r.find("test_late");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->help, "registered after its variants");
  EXPECT_TRUE(t->has_variants);
  EXPECT_EQ(r.variant_names("test_late"), (std::vector<std::string>{"v1"}));
  // Registration order is the order of add_table: the placeholder moved behind test_late_other.
  const auto& tables = r.tables();
  const auto pos = [&](const std::string& p) {
    return std::find_if(tables.begin(), tables.end(), [&](const TableSchema& s) { return s.path == p; }) -
           tables.begin();
  };
  EXPECT_LT(pos("test_late_other"), pos("test_late"));
  // A second add_table replaces in place.
  late.help = "replaced";
  r.add_table(late);
  EXPECT_EQ(r.find("test_late")->help, "replaced");
  EXPECT_LT(pos("test_late_other"), pos("test_late"));
}

TEST_F(ConfigTest, KeysOfVariantTable) {
  const TableSchema* solver = SchemaRegistry::instance().find("solver");
  ASSERT_TRUE(solver);
  auto names = [](const std::vector<KeySpec>& ks) {
    std::vector<std::string> out;
    for (const auto& k : ks) out.push_back(k.name);
    return out;
  };
  EXPECT_EQ(names(keys_of(*solver, "jacobi")), (std::vector<std::string>{"type", "omega"}));
  EXPECT_EQ(names(keys_of(*solver, "stencil_iteration")), (std::vector<std::string>{"type", "sweeps"}));
  EXPECT_EQ(names(keys_of(*solver, "unknown")), (std::vector<std::string>{"type"}));
  const KeySpec type = keys_of(*solver, "")[0];
  EXPECT_TRUE(type.required);
  EXPECT_EQ(type.type, ValueType::string);
  EXPECT_EQ(type.allowed, (std::vector<std::string>{"jacobi", "stencil_iteration"}));
  EXPECT_EQ(names(keys_of(*SchemaRegistry::instance().find("backend"), "jacobi")),
            (std::vector<std::string>{"type", "precision"}));
  EXPECT_TRUE(find_variant(*solver, "jacobi"));
  EXPECT_FALSE(find_variant(*solver, "cg"));
}

TEST_F(ConfigTest, DescribeGrid) {
  const std::string d = describe_table("grid");
  EXPECT_EQ(d.rfind("[grid]  (required table)\n", 0), 0u) << d;
  EXPECT_CONTAINS(d, "The structured grid");
  EXPECT_CONTAINS(d, "dimension   integer; default 3; 2 <= value <= 3\n");
  EXPECT_CONTAINS(d, "extents     array of integers; required; 2 to 3 entries; each value >= 1\n");
  EXPECT_CONTAINS(d, "box_lo      array of reals; default [0.0, 0.0, 0.0]; 2 to 3 entries\n");
  EXPECT_CONTAINS(d, "centering   string; default \"vertex\"; one of: vertex, cell\n");
  EXPECT_CONTAINS(d, "Number of spatial dimensions.");
}

TEST_F(ConfigTest, DescribeOptionalKeysAndUnits) {
  const std::string b = describe_table("boundary");
  EXPECT_CONTAINS(b, "x_lo");
  EXPECT_CONTAINS(b, "string; optional; one of: dirichlet, neumann, periodic");
  EXPECT_CONTAINS(b, "z_hi_value");
  const std::string s = describe_table("solver.stop");
  EXPECT_CONTAINS(s, "walltime_s");
  EXPECT_CONTAINS(s, "real (floating point); default 0.0; value >= 0; unit: s");
  EXPECT_CONTAINS(s, "check_every");
}

TEST_F(ConfigTest, DescribeVariantTable) {
  const std::string d = describe_table("solver");
  EXPECT_CONTAINS(d, "[solver]  (required table)");
  EXPECT_CONTAINS(d, "type        string; required; one of: jacobi, stencil_iteration");
  EXPECT_CONTAINS(d, "type = \"jacobi\": weighted Jacobi iteration\n");
  EXPECT_CONTAINS(d, "omega       real (floating point); default 1.0; 0 < value <= 2\n");
  EXPECT_CONTAINS(d, "Relaxation factor.");
  EXPECT_CONTAINS(d, "type = \"stencil_iteration\": fixed number of stencil sweeps\n");
  EXPECT_CONTAINS(d, "Sub-tables: [solver.stop], [solver.sweep_order]");
  // Variants are listed alphabetically.
  EXPECT_LT(d.find("\"jacobi\""), d.find("\"stencil_iteration\""));
}

TEST_F(ConfigTest, DescribeConditionalTable) {
  const std::string d = describe_table("solver.sweep_order");
  EXPECT_CONTAINS(d, "[solver.sweep_order]  (only allowed when solver.type is \"stencil_iteration\")");
}

TEST_F(ConfigTest, DescribeUnknownTableSuggests) {
  try {
    describe_table("gird");
    FAIL() << "no exception";
  } catch (const DeckError& e) {
    EXPECT_CONTAINS(std::string(e.what()), "error: unknown table 'gird'; valid tables: ");
    EXPECT_CONTAINS(std::string(e.what()), "; did you mean 'grid'?");
  }
  try {
    describe_table("solver.stp");
    FAIL() << "no exception";
  } catch (const DeckError& e) {
    EXPECT_CONTAINS(std::string(e.what()), "did you mean 'solver.stop'?");
  }
  EXPECT_THROW(describe_table("nothing_like_it"), DeckError);
}

}  // namespace
