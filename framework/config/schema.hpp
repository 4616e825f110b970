// Schemas of deck tables. Every key a deck may contain is declared here (type, default, allowed
// values, range, unit, help). Tables with a `type` key can have *variants*: the keys of the variant
// named by `type` are added (this is how problems and solvers bring their own keys).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "framework/config/value.hpp"

namespace perksolve::config {

struct KeySpec {
  std::string name;  // key inside its table, no dots
  ValueType type = ValueType::real;
  std::optional<Value> default_value;  // empty + required => must be given
  bool required = false;               // if false and no default: may be absent
  std::vector<std::string> allowed;    // allowed strings (string / string_array)
  std::optional<double> min, max;      // inclusive numeric range, applied to every element
  int min_length = 0, max_length = -1;  // arrays
  std::string unit;
  std::string help;
  // Make min / max exclusive bounds (e.g. omega in (0, 2]); see exclusive_min / exclusive_max.
  bool min_exclusive = false, max_exclusive = false;
};

// Builder helpers so declarations read as one line each.
KeySpec key_int(std::string name, std::optional<long> def, std::string help);
KeySpec key_real(std::string name, std::optional<double> def, std::string help);
KeySpec key_bool(std::string name, std::optional<bool> def, std::string help);
KeySpec key_string(std::string name, std::optional<std::string> def, std::vector<std::string> allowed, std::string help);
KeySpec key_int_array(std::string name, std::optional<std::vector<long>> def, std::string help);
KeySpec key_real_array(std::string name, std::optional<std::vector<double>> def, std::string help);
KeySpec key_string_array(std::string name, std::optional<std::vector<std::string>> def, std::string help);
// Chainable refinements.
KeySpec with_range(KeySpec k, std::optional<double> min, std::optional<double> max);
KeySpec with_length(KeySpec k, int min_length, int max_length);
KeySpec with_unit(KeySpec k, std::string unit);
KeySpec optional_key(KeySpec k);  // no default, not required: absent unless given
KeySpec exclusive_min(KeySpec k);  // the lower bound of with_range is exclusive: value > min
KeySpec exclusive_max(KeySpec k);  // the upper bound of with_range is exclusive: value < max

struct Variant {
  std::string name;  // value of the table's `type` key
  std::string help;
  std::vector<KeySpec> keys;
};

struct TableSchema {
  std::string path;  // dotted table path: "grid", "solver.stop", "solver.preconditioner"
  std::string help;
  std::vector<KeySpec> keys;
  // Non-empty => the table has a required string key `type` whose allowed values are the variant names.
  std::vector<Variant> variants;
  bool has_variants = false;
  // The table may only appear when this predicate on the (already parsed) parent values holds;
  // empty => always allowed. `condition_help` explains it in errors ("only with solver.type = \"cg\"").
  std::string condition_key;                 // e.g. "solver.type"
  std::vector<std::string> condition_values; // e.g. {"cg"}
  bool required = false;                     // the table must appear in the deck
};

// Process-wide registry. Framework components register core tables at start-up; problems, solvers
// and backends add variants through their registries.
class SchemaRegistry {
 public:
  static SchemaRegistry& instance();
  // Replaces a table of the same path (in place; variants registered earlier are kept when `t` has
  // none). A table that add_variant created as a placeholder moves to the end instead, so that the
  // registration order (used by Deck::to_toml) is the order of the add_table calls.
  void add_table(TableSchema t);
  void add_variant(const std::string& table_path, Variant v);  // creates the table if needed
  const TableSchema* find(const std::string& path) const;
  std::vector<std::string> table_paths() const;       // sorted
  std::vector<std::string> variant_names(const std::string& table_path) const;  // sorted
  const std::vector<TableSchema>& tables() const { return tables_; }  // registration order

 private:
  std::vector<TableSchema> tables_;
  std::vector<std::string> placeholders_;  // tables created by add_variant, not yet by add_table
};

// The keys a table accepts when its `type` is `variant` (ignored for tables without variants; an
// unknown or empty variant name gives the common keys only): the implicit required string key
// `type` (variant tables), then the table's own keys, then the variant's keys.
std::vector<KeySpec> keys_of(const TableSchema& table, const std::string& variant);
const Variant* find_variant(const TableSchema& table, const std::string& name);  // nullptr if unknown

// Registers grid, boundary, decomposition, backend, problem, solver, solver.stop, monitor (idempotent).
void register_core_schema();

// Human-readable schema of one table (keys, types, defaults, allowed values, units, help; variants).
std::string describe_table(const std::string& path);

}  // namespace perksolve::config
