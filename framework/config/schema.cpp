#include "framework/config/schema.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "framework/config/deck.hpp"
#include "framework/config/detail.hpp"

namespace perksolve::config {

// ---------------------------------------------------------------------------------------------
// Builders

namespace {
KeySpec make_key(std::string name, ValueType type, std::optional<Value> def, std::string help) {
  KeySpec k;
  k.name = std::move(name);
  k.type = type;
  k.required = !def.has_value();
  k.default_value = std::move(def);
  k.help = std::move(help);
  return k;
}
template <class T>
std::optional<Value> to_value(std::optional<T> v) {
  if (!v) return std::nullopt;
  return Value(std::move(*v));
}
}  // namespace

KeySpec key_int(std::string name, std::optional<long> def, std::string help) {
  return make_key(std::move(name), ValueType::integer, to_value(def), std::move(help));
}
KeySpec key_real(std::string name, std::optional<double> def, std::string help) {
  return make_key(std::move(name), ValueType::real, to_value(def), std::move(help));
}
KeySpec key_bool(std::string name, std::optional<bool> def, std::string help) {
  return make_key(std::move(name), ValueType::boolean, to_value(def), std::move(help));
}
KeySpec key_string(std::string name, std::optional<std::string> def, std::vector<std::string> allowed,
                   std::string help) {
  KeySpec k = make_key(std::move(name), ValueType::string, to_value(std::move(def)), std::move(help));
  k.allowed = std::move(allowed);
  return k;
}
KeySpec key_int_array(std::string name, std::optional<std::vector<long>> def, std::string help) {
  return make_key(std::move(name), ValueType::integer_array, to_value(std::move(def)), std::move(help));
}
KeySpec key_real_array(std::string name, std::optional<std::vector<double>> def, std::string help) {
  return make_key(std::move(name), ValueType::real_array, to_value(std::move(def)), std::move(help));
}
KeySpec key_string_array(std::string name, std::optional<std::vector<std::string>> def, std::string help) {
  return make_key(std::move(name), ValueType::string_array, to_value(std::move(def)), std::move(help));
}

KeySpec with_range(KeySpec k, std::optional<double> min, std::optional<double> max) {
  k.min = min;
  k.max = max;
  return k;
}
KeySpec with_length(KeySpec k, int min_length, int max_length) {
  k.min_length = min_length;
  k.max_length = max_length;
  return k;
}
KeySpec with_unit(KeySpec k, std::string unit) {
  k.unit = std::move(unit);
  return k;
}
KeySpec optional_key(KeySpec k) {
  k.default_value.reset();
  k.required = false;
  return k;
}
KeySpec exclusive_min(KeySpec k) {
  k.min_exclusive = true;
  return k;
}
KeySpec exclusive_max(KeySpec k) {
  k.max_exclusive = true;
  return k;
}

// ---------------------------------------------------------------------------------------------
// Registry

SchemaRegistry& SchemaRegistry::instance() {
  static SchemaRegistry registry;
  return registry;
}

void SchemaRegistry::add_table(TableSchema t) {
  if (!t.variants.empty()) t.has_variants = true;
  for (auto it = tables_.begin(); it != tables_.end(); ++it) {
    if (it->path != t.path) continue;
    // Variants may have been registered (by problems / solvers) before the table itself: keep them.
    if (t.variants.empty() && it->has_variants) {
      t.variants = std::move(it->variants);
      t.has_variants = true;
    }
    const auto placeholder = std::find(placeholders_.begin(), placeholders_.end(), t.path);
    if (placeholder != placeholders_.end()) {
      placeholders_.erase(placeholder);
      tables_.erase(it);
      tables_.push_back(std::move(t));
    } else {
      *it = std::move(t);
    }
    return;
  }
  tables_.push_back(std::move(t));
}

void SchemaRegistry::add_variant(const std::string& table_path, Variant v) {
  TableSchema* table = nullptr;
  for (auto& t : tables_) {
    if (t.path == table_path) table = &t;
  }
  if (!table) {
    TableSchema t;
    t.path = table_path;
    tables_.push_back(std::move(t));
    placeholders_.push_back(table_path);
    table = &tables_.back();
  }
  table->has_variants = true;
  for (auto& existing : table->variants) {
    if (existing.name == v.name) {
      existing = std::move(v);
      return;
    }
  }
  table->variants.push_back(std::move(v));
}

const TableSchema* SchemaRegistry::find(const std::string& path) const {
  for (const auto& t : tables_) {
    if (t.path == path) return &t;
  }
  return nullptr;
}

std::vector<std::string> SchemaRegistry::table_paths() const {
  std::vector<std::string> out;
  for (const auto& t : tables_) out.push_back(t.path);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> SchemaRegistry::variant_names(const std::string& table_path) const {
  std::vector<std::string> out;
  if (const TableSchema* t = find(table_path)) {
    for (const auto& v : t->variants) out.push_back(v.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

const Variant* find_variant(const TableSchema& table, const std::string& name) {
  for (const auto& v : table.variants) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

std::vector<KeySpec> keys_of(const TableSchema& table, const std::string& variant) {
  std::vector<KeySpec> out;
  if (table.has_variants) out.push_back(detail::variant_type_key(table));
  out.insert(out.end(), table.keys.begin(), table.keys.end());
  if (table.has_variants) {
    if (const Variant* v = find_variant(table, variant)) out.insert(out.end(), v->keys.begin(), v->keys.end());
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

namespace detail {

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string format_number(double x, bool integer) {
  // Integral bounds read best without a decimal point, for real keys too ("value >= 0").
  if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < (integer ? 9.2e18 : 1e15)) {
    return std::to_string(static_cast<long>(x));
  }
  return format_value(Value(x));
}

std::string range_text(const KeySpec& k) {
  const bool integer = element_type(k.type) == ValueType::integer;
  const std::string lo_op = k.min_exclusive ? " < " : " <= ";
  const std::string hi_op = k.max_exclusive ? " < " : " <= ";
  if (k.min && k.max) {
    return format_number(*k.min, integer) + lo_op + "value" + hi_op + format_number(*k.max, integer);
  }
  if (k.min) return std::string("value") + (k.min_exclusive ? " > " : " >= ") + format_number(*k.min, integer);
  if (k.max) return std::string("value") + hi_op + format_number(*k.max, integer);
  return "";
}

std::string length_text(const KeySpec& k) {
  const int lo = k.min_length, hi = k.max_length;
  if (lo > 0 && hi >= 0) {
    if (lo == hi) return "exactly " + std::to_string(lo) + (lo == 1 ? " entry" : " entries");
    return std::to_string(lo) + " to " + std::to_string(hi) + " entries";
  }
  if (lo > 0) return "at least " + std::to_string(lo) + (lo == 1 ? " entry" : " entries");
  if (hi >= 0) return "at most " + std::to_string(hi) + (hi == 1 ? " entry" : " entries");
  return "";
}

bool in_range(const KeySpec& k, double x) {
  if (k.min && !(k.min_exclusive ? x > *k.min : x >= *k.min)) return false;
  if (k.max && !(k.max_exclusive ? x < *k.max : x <= *k.max)) return false;
  return true;
}

ValueType element_type(ValueType t) {
  switch (t) {
    case ValueType::integer_array: return ValueType::integer;
    case ValueType::real_array: return ValueType::real;
    case ValueType::string_array: return ValueType::string;
    default: return t;
  }
}

bool is_array(ValueType t) {
  return t == ValueType::integer_array || t == ValueType::real_array || t == ValueType::string_array;
}

KeySpec variant_type_key(const TableSchema& t) {
  std::vector<std::string> names;
  for (const auto& v : t.variants) names.push_back(v.name);
  std::sort(names.begin(), names.end());
  return key_string("type", std::nullopt, std::move(names),
                    "Selects the " + variant_kind(t) + "; the keys of the chosen variant are listed below.");
}

std::string variant_kind(const TableSchema& t) { return t.path + " type"; }

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// describe_table

namespace {

std::string key_summary(const KeySpec& k) {
  std::vector<std::string> parts;
  parts.push_back(to_string(k.type));
  if (k.default_value) {
    parts.push_back("default " + format_value(*k.default_value));
  } else {
    parts.push_back(k.required ? "required" : "optional");
  }
  if (!k.allowed.empty()) parts.push_back("one of: " + detail::join(k.allowed));
  if (detail::is_array(k.type)) {
    const std::string len = detail::length_text(k);
    if (!len.empty()) parts.push_back(len);
  }
  const std::string range = detail::range_text(k);
  if (!range.empty()) parts.push_back(detail::is_array(k.type) ? "each " + range : range);
  if (!k.unit.empty()) parts.push_back("unit: " + k.unit);
  return detail::join(parts, "; ");
}

void describe_keys(std::ostringstream& out, const std::vector<KeySpec>& keys, const std::string& indent) {
  std::size_t width = 12;
  for (const auto& k : keys) width = std::max(width, k.name.size() + 2);
  for (const auto& k : keys) {
    out << indent << k.name << std::string(width - k.name.size(), ' ') << key_summary(k) << "\n";
    if (!k.help.empty()) out << indent << std::string(width, ' ') << k.help << "\n";
  }
}

}  // namespace

std::string describe_table(const std::string& path) {
  const auto& registry = SchemaRegistry::instance();
  const TableSchema* t = registry.find(path);
  if (!t) {
    const auto paths = registry.table_paths();
    std::string msg = "error: unknown table '" + path + "'; valid tables: " + detail::join(paths);
    const std::string hint = did_you_mean(path, paths);
    if (!hint.empty()) msg += "; did you mean '" + hint + "'?";
    throw DeckError(msg);
  }
  std::ostringstream out;
  out << "[" << t->path << "]";
  std::vector<std::string> notes;
  if (t->required) notes.push_back("required table");
  if (!t->condition_key.empty()) {
    notes.push_back("only allowed when " + t->condition_key + " is " +
                    (t->condition_values.size() == 1 ? "\"" + t->condition_values[0] + "\""
                                                     : "one of: " + detail::join(t->condition_values)));
  }
  if (!notes.empty()) out << "  (" << detail::join(notes, "; ") << ")";
  out << "\n";
  if (!t->help.empty()) out << "  " << t->help << "\n";

  const auto common = keys_of(*t, "");
  out << "\n";
  if (common.empty()) {
    out << "  (no keys)\n";
  } else {
    out << "  Keys:\n";
    describe_keys(out, common, "    ");
  }
  if (t->has_variants) {
    if (t->variants.empty()) out << "\n  (no " << detail::variant_kind(*t) << "s registered)\n";
    auto variants = t->variants;
    std::sort(variants.begin(), variants.end(),
              [](const Variant& a, const Variant& b) { return a.name < b.name; });
    for (const auto& v : variants) {
      out << "\n  type = \"" << v.name << "\"";
      if (!v.help.empty()) out << ": " << v.help;
      out << "\n";
      if (v.keys.empty()) {
        out << "    (no additional keys)\n";
      } else {
        describe_keys(out, v.keys, "    ");
      }
    }
  }
  std::vector<std::string> children;
  for (const auto& other : registry.tables()) {
    if (other.path.size() > t->path.size() + 1 && other.path.compare(0, t->path.size() + 1, t->path + ".") == 0 &&
        other.path.find('.', t->path.size() + 1) == std::string::npos) {
      children.push_back("[" + other.path + "]");
    }
  }
  if (!children.empty()) out << "\n  Sub-tables: " << detail::join(children) << "\n";
  return out.str();
}

}  // namespace perksolve::config
