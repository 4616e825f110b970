// Deck parsing and validation: the only translation unit that includes toml++.
//
// Pipeline: read the file -> toml::parse (syntax errors stop here) -> merge the command-line
// overrides into the TOML tree (remembering which nodes they set) -> validate the merged tree
// against the SchemaRegistry, collecting every error with its position -> fill in defaults.
// Errors are reported together, one per line, sorted: deck-file errors in file order, then
// errors of command-line overrides in command-line order, then missing tables.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "framework/config/deck.hpp"
#include "framework/config/detail.hpp"
#include "framework/config/schema.hpp"

namespace perksolve::config {

namespace {

using detail::join;

constexpr std::size_t kMaxReportedErrors = 25;

std::string quoted(const std::string& s) { return format_value(Value(s)); }

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto dot = s.find('.', start);
    out.push_back(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

bool is_bare_key(const std::string& k) {
  if (k.empty()) return false;
  return std::all_of(k.begin(), k.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

std::string parent_of(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

std::string dotted(const std::string& table, const std::string& key) {
  return table.empty() ? key : table + "." + key;
}

// "string \"abc\"", "integer 3", "real 2.5", "boolean true", "array", "table", ...
std::string describe_node(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "string " + quoted(n.as_string()->get());
    case toml::node_type::integer: return "integer " + std::to_string(n.as_integer()->get());
    case toml::node_type::floating_point: return "real " + format_value(Value(n.as_floating_point()->get()));
    case toml::node_type::boolean: return std::string("boolean ") + (n.as_boolean()->get() ? "true" : "false");
    case toml::node_type::array:
      return n.as_array()->is_array_of_tables() && !n.as_array()->empty() ? "array of tables" : "array";
    case toml::node_type::table: return "table";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    default: return "nothing";
  }
}

// The canonical hint wording used everywhere.
std::string hint_text(const std::string& suggestion) {
  return suggestion.empty() ? std::string() : "; did you mean '" + suggestion + "'?";
}

struct Diagnostic {
  int bucket;        // 0: deck file, 1: command-line override, 2: whole deck
  long line, column;  // bucket 0; override index in `line` for bucket 1
  std::size_t seq;
  std::string text;  // full line
};

class Loader {
 public:
  Loader(std::string origin, const std::vector<std::string>& overrides)
      : origin_(std::move(origin)), overrides_(overrides), registry_(SchemaRegistry::instance()) {
    deck_.set_file(origin_);
  }

  Deck run(toml::table root) {
    root_ = &root;
    apply_overrides(root);
    walk_root(root);
    absent_tables();
    throw_if_errors();
    return std::move(deck_);
  }

 private:
  // ---- locations & errors --------------------------------------------------------------------

  SourceLocation file_loc(const toml::source_region& r) const {
    SourceLocation loc;
    loc.kind = SourceLocation::Kind::file;
    loc.file = origin_;
    loc.line = static_cast<int>(r.begin.line);
    loc.column = static_cast<int>(r.begin.column);
    return loc;
  }

  SourceLocation override_loc(std::size_t index) const {
    SourceLocation loc;
    loc.kind = SourceLocation::Kind::command_line;
    loc.text = overrides_[index];
    return loc;
  }

  // Nodes set by an override carry no useful position: find the override that set `path` (or an
  // enclosing table it created).
  std::optional<std::size_t> set_by_override(const std::string& path) const {
    std::string p = path;
    while (true) {
      const auto it = override_of_.find(p);
      if (it != override_of_.end()) return it->second;
      if (p.find('.') == std::string::npos) return std::nullopt;
      p = parent_of(p);
    }
  }

  SourceLocation loc_for(const std::string& path, const toml::source_region& r) const {
    if (const auto o = set_by_override(path)) return override_loc(*o);
    return file_loc(r);
  }

  void error(const SourceLocation& loc, const std::string& text, int bucket = -1) {
    Diagnostic d;
    d.seq = diagnostics_.size();
    d.text = loc.describe() + ": error: " + text;
    if (bucket == 2) {
      d.bucket = 2;
      d.line = d.column = 0;
    } else if (loc.kind == SourceLocation::Kind::command_line) {
      d.bucket = 1;
      d.line = static_cast<long>(std::find(overrides_.begin(), overrides_.end(), loc.text) - overrides_.begin());
      d.column = 0;
    } else {
      d.bucket = 0;
      d.line = loc.line;
      d.column = loc.column;
    }
    diagnostics_.push_back(std::move(d));
  }

  void throw_if_errors() {
    if (diagnostics_.empty()) return;
    std::stable_sort(diagnostics_.begin(), diagnostics_.end(), [](const Diagnostic& a, const Diagnostic& b) {
      if (a.bucket != b.bucket) return a.bucket < b.bucket;
      if (a.line != b.line) return a.line < b.line;
      if (a.column != b.column) return a.column < b.column;
      return a.seq < b.seq;
    });
    std::string message;
    std::set<std::string> seen;
    std::size_t shown = 0, dropped = 0;
    for (const auto& d : diagnostics_) {
      if (!seen.insert(d.text).second) continue;
      if (shown == kMaxReportedErrors) {
        ++dropped;
        continue;
      }
      if (shown) message += "\n";
      message += d.text;
      ++shown;
    }
    if (dropped) message += "\n" + origin_ + ": note: " + std::to_string(dropped) + " more error(s) not shown";
    throw DeckError(message);
  }

  // ---- schema queries --------------------------------------------------------------------------

  bool is_container(const std::string& path) const {  // a path prefix of registered tables
    const std::string prefix = path + ".";
    for (const auto& t : registry_.tables()) {
      if (t.path.compare(0, prefix.size(), prefix) == 0) return true;
    }
    return false;
  }

  std::vector<std::string> child_tables(const std::string& parent) const {
    std::vector<std::string> out;
    for (const auto& t : registry_.tables()) {
      if (parent_of(t.path) == parent) out.push_back(t.path);
    }
    return out;
  }

  // Any spec named `name` in `table`, looking through all its variants (for override typing).
  std::optional<KeySpec> any_spec(const std::string& table, const std::string& name) const {
    const TableSchema* t = registry_.find(table);
    if (!t) return std::nullopt;
    for (const auto& k : keys_of(*t, "")) {
      if (k.name == name) return k;
    }
    for (const auto& v : t->variants) {
      for (const auto& k : v.keys) {
        if (k.name == name) return k;
      }
    }
    return std::nullopt;
  }

  // Dotted keys elsewhere in the schema with exactly this key name (e.g. 'rtol' written in [solver]).
  std::vector<std::string> keys_named(const std::string& name, const std::string& except_table) const {
    std::vector<std::string> out;
    for (const auto& t : registry_.tables()) {
      if (t.path == except_table) continue;
      bool found = t.has_variants && name == "type";
      for (const auto& k : t.keys) found = found || k.name == name;
      for (const auto& v : t.variants) {
        for (const auto& k : v.keys) found = found || k.name == name;
      }
      if (found) out.push_back(t.path + "." + name);
    }
    return out;
  }

  // Of keys_named(), the one `value` fits best: a string value picks the table whose key allows it
  // (type = "jacobi" written outside [solver] -> solver.type).
  std::string best_home(const std::string& name, const std::string& except_table, const toml::node& value) const {
    const auto homes = keys_named(name, except_table);
    if (homes.empty()) return "";
    if (value.is_string()) {
      const std::string v = value.as_string()->get();
      for (const auto& home : homes) {
        const auto spec = any_spec(parent_of(home), name);
        if (spec && std::find(spec->allowed.begin(), spec->allowed.end(), v) != spec->allowed.end()) return home;
      }
    }
    return homes.front();
  }

  // The value a condition refers to, as text (strings unquoted), from the merged tree or the default.
  std::optional<std::string> condition_value(const std::string& key) const {
    const toml::node* n = root_->at_path(key).node();
    if (n) {
      if (n->is_string()) return n->as_string()->get();
      if (n->is_integer()) return std::to_string(n->as_integer()->get());
      if (n->is_boolean()) return n->as_boolean()->get() ? "true" : "false";
      if (n->is_floating_point()) return format_value(Value(n->as_floating_point()->get()));
      return std::nullopt;
    }
    if (const auto spec = any_spec(parent_of(key), key.substr(key.rfind('.') + 1))) {
      if (spec->default_value) {
        if (const auto* s = std::get_if<std::string>(&*spec->default_value)) return *s;
        return format_value(*spec->default_value);
      }
    }
    return std::nullopt;
  }

  bool condition_holds(const TableSchema& t) const {
    if (t.condition_key.empty()) return true;
    const auto v = condition_value(t.condition_key);
    return v && std::find(t.condition_values.begin(), t.condition_values.end(), *v) != t.condition_values.end();
  }

  std::string condition_text(const TableSchema& t) const {
    std::string values;
    for (std::size_t i = 0; i < t.condition_values.size(); ++i) {
      values += (i ? ", " : "") + quoted(t.condition_values[i]);
    }
    return t.condition_key + (t.condition_values.size() == 1 ? " = " + values : " is one of: " + values);
  }

  // ---- overrides --------------------------------------------------------------------------------

  void apply_overrides(toml::table& root) {
    for (std::size_t i = 0; i < overrides_.size(); ++i) apply_override(root, i);
  }

  void apply_override(toml::table& root, std::size_t index) {
    const std::string& text = overrides_[index];
    const SourceLocation loc = override_loc(index);
    const auto eq = text.find('=');
    if (eq == std::string::npos) {
      error(loc, "expected dotted.key=value, e.g. solver.stop.rtol=1e-6");
      return;
    }
    const std::string key = trim(text.substr(0, eq));
    const std::string raw = trim(text.substr(eq + 1));
    const auto parts = split_dots(key);
    if (!std::all_of(parts.begin(), parts.end(), is_bare_key)) {
      error(loc, "invalid key '" + key + "': expected dotted.key=value, e.g. solver.stop.rtol=1e-6");
      return;
    }
    if (parts.size() < 2) {
      std::string msg = "'" + key + "' is not a key inside a table: expected table.key=value";
      if (registry_.find(key)) {
        msg += ", e.g. " + key + "." + (keys_of(*registry_.find(key), "").empty()
                                              ? std::string("key")
                                              : keys_of(*registry_.find(key), "").front().name) +
               "=...";
      } else {
        const auto elsewhere = keys_named(key, "");
        if (!elsewhere.empty()) msg += hint_text(elsewhere.front() + "=" + raw);
      }
      error(loc, msg);
      return;
    }
    const std::string table_path = parent_of(key);
    const std::string name = parts.back();
    const auto spec = any_spec(table_path, name);

    // The value, read as TOML ("v = <raw>"); strings may be written without quotes.
    std::optional<toml::table> parsed;
    try {
      auto t = toml::parse("v = " + raw, std::string_view("command line"));
      if (t.size() == 1 && t.contains("v")) parsed = std::move(t);
    } catch (const toml::parse_error&) {
    }
    const bool want_string = spec && spec->type == ValueType::string;
    if (!parsed && spec && spec->type == ValueType::real) {
      // Also accept what strtod reads and TOML does not (.5, 5.).
      char* end = nullptr;
      const double x = std::strtod(raw.c_str(), &end);
      if (!raw.empty() && end == raw.c_str() + raw.size() && std::isfinite(x)) {
        parsed = toml::table{};
        parsed->insert("v", x);
      }
    }
    const bool use_raw = want_string ? !(parsed && parsed->get("v")->is_string()) : !parsed;
    if (use_raw && spec && !want_string) {
      std::string msg = "invalid value '" + raw + "' for '" + key + "': expected " + to_string(spec->type);
      if (spec->type == ValueType::string_array) msg += " (quote each string: [\"a\", \"b\"])";
      error(loc, msg);
      return;
    }

    // Walk to (and create) the table.
    toml::table* table = &root;
    std::string path;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      path = dotted(path, parts[i]);
      toml::node* n = table->get(parts[i]);
      if (!n) {
        table = table->insert(parts[i], toml::table{}).first->second.as_table();
        override_of_.emplace(path, index);
      } else if (n->is_table()) {
        table = n->as_table();
      } else {
        error(loc, "cannot set '" + key + "': '" + path + "' is " + describe_node(*n) + ", not a table");
        return;
      }
    }
    if (use_raw) {
      table->insert_or_assign(name, raw);
    } else {
      parsed->get("v")->visit([&](auto& node) { table->insert_or_assign(name, std::move(node)); });
    }
    override_of_[key] = index;
  }

  // ---- validation ---------------------------------------------------------------------------------

  void walk_root(const toml::table& root) {
    for (auto&& [k, node] : root) {
      const std::string name(k.str());
      if (node.is_table()) {
        visit_table(name, *node.as_table(), loc_for(name, node.source()));
        continue;
      }
      const SourceLocation loc = loc_for(name, k.source());
      if (registry_.find(name) || is_container(name)) {
        error(loc_for(name, node.source()),
              "wrong type for '" + name + "': expected a table [" + name + "], got " + describe_node(node));
        present_.insert(name);  // reported; not "missing" too
        continue;
      }
      const std::string home = best_home(name, "", node);
      if (!home.empty()) {
        error(loc, "key '" + name + "' is outside of any table" + hint_text(home));
      } else {
        std::vector<std::string> top = child_tables("");
        error(loc, "unknown key '" + name + "' outside of any table; keys belong in one of the tables: " +
                       join(top) + hint_text(did_you_mean(name, registry_.table_paths())));
      }
    }
  }

  void unknown_table(const std::string& path, const SourceLocation& loc) {
    const std::string parent = parent_of(path);
    const std::string name = path.substr(parent.empty() ? 0 : parent.size() + 1);
    if (const TableSchema* p = registry_.find(parent)) {
      for (const auto& k : keys_of(*p, "")) {
        if (k.name == name) {
          error(loc, "'" + path + "' is a key, not a table: write " + name + " = ... inside [" + parent + "]");
          return;
        }
      }
    }
    const auto siblings = child_tables(parent);
    std::string msg = "unknown table [" + path + "]";
    if (parent.empty()) {
      msg += "; expected one of: " + join(siblings);
    } else if (siblings.empty()) {
      msg += "; [" + parent + "] has no sub-tables";
    } else {
      msg += "; sub-tables of [" + parent + "]: " + join(siblings);
    }
    std::vector<std::string> candidates;  // every table but the enclosing ones
    for (const auto& t : registry_.table_paths()) {
      if (path.compare(0, t.size() + 1, t + ".") != 0) candidates.push_back(t);
    }
    const std::string suggestion = did_you_mean(path, candidates);
    // A misspelt required table is reported once, here, not also as missing.
    if (!suggestion.empty()) suggested_.insert(suggestion);
    error(loc, msg + hint_text(suggestion));
  }

  void visit_table(const std::string& path, const toml::table& tbl, const SourceLocation& loc) {
    const TableSchema* schema = registry_.find(path);
    if (!schema) {
      if (!is_container(path)) {
        unknown_table(path, loc);
        return;
      }
      // Only a prefix of registered tables, e.g. [output] when only [output.vtk] exists.
      for (auto&& [k, node] : tbl) {
        const std::string child = dotted(path, std::string(k.str()));
        if (node.is_table()) {
          visit_table(child, *node.as_table(), loc_for(child, node.source()));
        } else {
          error(loc_for(child, k.source()), "unknown key '" + child + "'; [" + path +
                                                "] has no keys of its own, only the tables " +
                                                join(child_tables(path)));
        }
      }
      return;
    }
    present_.insert(path);
    deck_.mark_table(path, loc);

    if (!condition_holds(*schema)) {
      const auto actual = condition_value(schema->condition_key);
      error(loc, "table [" + path + "] is only allowed when " + condition_text(*schema) + " (here " +
                     schema->condition_key + (actual ? " = " + quoted(*actual) : std::string(" is not set")) + ")");
      return;
    }

    // Variant selection.
    std::string variant;
    bool keys_known = true;  // false when the variant is unknown: its keys cannot be judged
    std::optional<SourceLocation> type_loc;
    if (schema->has_variants) {
      keys_known = false;
      const std::string type_key = path + ".type";
      const auto names = registry_.variant_names(path);
      const toml::node* type = tbl.get("type");
      const std::string kind = detail::variant_kind(*schema);
      if (!type) {
        error(loc, "missing required key '" + type_key + "' in table [" + path + "]; expected one of: " +
                       (names.empty() ? "(no " + kind + "s registered)" : join(names)));
      } else if (!type->is_string()) {
        error(loc_for(type_key, type->source()), "wrong type for '" + type_key + "': expected string (one of: " +
                                                     join(names) + "), got " + describe_node(*type));
      } else {
        const std::string value = type->as_string()->get();
        type_loc = loc_for(type_key, type->source());
        if (find_variant(*schema, value)) {
          variant = value;
          keys_known = true;
          deck_.set(type_key, Value(value), *type_loc);
        } else {
          error(*type_loc, "unknown " + kind + " " + quoted(value) + " for '" + type_key + "'; expected one of: " +
                               (names.empty() ? "(no " + kind + "s registered)" : join(names)) +
                               hint_text(did_you_mean(value, names)));
        }
      }
    }

    const std::vector<KeySpec> specs = keys_of(*schema, variant);
    auto find_spec = [&](const std::string& name) -> const KeySpec* {
      for (const auto& k : specs) {
        if (k.name == name) return &k;
      }
      return nullptr;
    };

    for (auto&& [k, node] : tbl) {
      const std::string name(k.str());
      const std::string key = dotted(path, name);
      if (schema->has_variants && name == "type") continue;  // handled above
      if (const KeySpec* spec = find_spec(name)) {
        if (node.is_table() && !node.as_table()->is_inline()) {  // [grid.extents]
          error(loc_for(key, node.source()),
                "'" + key + "' is a key, not a table: write " + name + " = ... inside [" + path + "]");
          suggested_.insert(key);  // not "missing" as well
          continue;
        }
        if (auto value = convert(*spec, node, key)) deck_.set(key, std::move(*value), loc_for(key, k.source()));
        continue;
      }
      if (registry_.find(key) || is_container(key)) {
        if (node.is_table()) {
          visit_table(key, *node.as_table(), loc_for(key, node.source()));
        } else {
          error(loc_for(key, node.source()),
                "wrong type for '" + key + "': expected a table [" + key + "], got " + describe_node(node));
          present_.insert(key);
        }
        continue;
      }
      if (node.is_table()) {
        unknown_table(key, loc_for(key, node.source()));
        continue;
      }
      if (!keys_known) continue;  // unknown variant: already reported
      unknown_key(*schema, variant, type_loc, specs, key, name, node, loc_for(key, k.source()));
    }

    // Missing required keys, defaults.
    for (const auto& spec : specs) {
      if (schema->has_variants && spec.name == "type") continue;
      const std::string key = dotted(path, spec.name);
      if (tbl.contains(spec.name)) continue;
      if (spec.default_value) {
        deck_.set(key, *spec.default_value, SourceLocation{});
      } else if (spec.required && !suggested_.count(key)) {  // a misspelling of it was reported
        std::string msg = "missing required key '" + key + "' (" + to_string(spec.type);
        if (!spec.allowed.empty()) msg += ", one of: " + join(spec.allowed);
        msg += ") in table [" + path + "]";
        if (schema->has_variants && find_variant(*schema, variant)) {
          for (const auto& vk : find_variant(*schema, variant)->keys) {
            if (vk.name == spec.name) msg += " for " + detail::variant_kind(*schema) + " " + quoted(variant);
          }
        }
        if (!spec.help.empty()) msg += ": " + spec.help;
        error(loc, msg);
      }
    }
  }

  void unknown_key(const TableSchema& schema, const std::string& variant, const std::optional<SourceLocation>& type_loc,
                   const std::vector<KeySpec>& specs, const std::string& key, const std::string& name,
                   const toml::node& value, const SourceLocation& loc) {
    std::vector<std::string> names;
    for (const auto& s : specs) names.push_back(s.name);
    std::string msg = "unknown key '" + key + "'";
    const std::string kind = detail::variant_kind(schema);
    if (schema.has_variants) {
      msg += " for " + kind + " " + quoted(variant);
      if (type_loc && type_loc->kind == SourceLocation::Kind::command_line) {
        msg += " (set by " + type_loc->describe() + ")";
      }
      std::vector<std::string> owners;
      for (const auto& v : schema.variants) {
        for (const auto& k : v.keys) {
          if (k.name == name && v.name != variant) owners.push_back(quoted(v.name));
        }
      }
      if (!owners.empty()) msg += " (it is a key of " + kind + " " + join(owners, " and ") + ")";
    }
    msg += names.empty() ? "; [" + schema.path + "] takes no keys" : "; expected one of: " + join(names);
    std::string suggestion = did_you_mean(name, names);
    if (!suggestion.empty()) {
      suggestion = dotted(schema.path, suggestion);
    } else {
      suggestion = best_home(name, schema.path, value);
    }
    if (!suggestion.empty()) suggested_.insert(suggestion);
    error(loc, msg + hint_text(suggestion));
  }

  // ---- values -----------------------------------------------------------------------------------

  // Checks one scalar against the element type / allowed values / range; `what` names it in messages.
  template <class T>
  std::optional<T> scalar(const KeySpec& spec, ValueType type, const toml::node& n, const std::string& key,
                          const std::string& what, const std::string& array_note) {
    const SourceLocation loc = loc_for(key, n.source());
    auto type_error = [&](const std::string& extra) {
      error(loc, "wrong type for " + what + ": expected " + to_string(type) + ", got " + describe_node(n) + extra +
                     array_note);
      return std::nullopt;
    };
    if constexpr (std::is_same_v<T, bool>) {
      if (!n.is_boolean()) return type_error(n.is_string() ? " (write true or false without quotes)" : "");
      return n.as_boolean()->get();
    } else if constexpr (std::is_same_v<T, long>) {
      if (!n.is_integer()) {
        return type_error(n.is_floating_point() ? " (write integers without a decimal point or exponent)" : "");
      }
      const long v = n.as_integer()->get();
      if (!detail::in_range(spec, static_cast<double>(v))) {
        error(loc, what + " = " + std::to_string(v) + " is out of range: expected " + detail::range_text(spec));
        return std::nullopt;
      }
      return v;
    } else if constexpr (std::is_same_v<T, double>) {
      double v;
      if (n.is_floating_point()) {
        v = n.as_floating_point()->get();
      } else if (n.is_integer()) {
        v = static_cast<double>(n.as_integer()->get());
      } else {
        return type_error("");
      }
      if (!detail::in_range(spec, v)) {
        error(loc, what + " = " + format_value(Value(v)) + " is out of range: expected " + detail::range_text(spec));
        return std::nullopt;
      }
      return v;
    } else {
      if (!n.is_string()) return type_error("");
      std::string v = n.as_string()->get();
      if (!spec.allowed.empty() && std::find(spec.allowed.begin(), spec.allowed.end(), v) == spec.allowed.end()) {
        error(loc, "invalid value " + quoted(v) + " for " + what + ": expected one of: " + join(spec.allowed) +
                       hint_text(did_you_mean(v, spec.allowed)));
        return std::nullopt;
      }
      return v;
    }
  }

  template <class T>
  std::optional<Value> array(const KeySpec& spec, const toml::node& n, const std::string& key) {
    const SourceLocation loc = loc_for(key, n.source());
    if (!n.is_array()) {
      error(loc, "wrong type for '" + key + "': expected " + to_string(spec.type) + ", got " + describe_node(n));
      return std::nullopt;
    }
    const toml::array& a = *n.as_array();
    const ValueType et = detail::element_type(spec.type);
    const std::string note = " (all entries must be " + to_string(et) + (et == ValueType::real ? " or integer" : "") + "s)";
    std::vector<T> out;
    bool ok = true;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string what = "element " + std::to_string(i + 1) + " of '" + key + "'";
      if (auto v = scalar<T>(spec, et, a[i], key, what, note)) {
        out.push_back(std::move(*v));
      } else {
        ok = false;
        break;  // one message per array
      }
    }
    if (!ok) return std::nullopt;
    const long len = static_cast<long>(a.size());
    if (len < spec.min_length || (spec.max_length >= 0 && len > spec.max_length)) {
      error(loc, "'" + key + "' has " + std::to_string(len) + (len == 1 ? " entry" : " entries") + "; expected " +
                     detail::length_text(spec));
      return std::nullopt;
    }
    return Value(std::move(out));
  }

  std::optional<Value> convert(const KeySpec& spec, const toml::node& n, const std::string& key) {
    const std::string what = "'" + key + "'";
    switch (spec.type) {
      case ValueType::boolean:
        if (auto v = scalar<bool>(spec, spec.type, n, key, what, "")) return Value(*v);
        return std::nullopt;
      case ValueType::integer:
        if (auto v = scalar<long>(spec, spec.type, n, key, what, "")) return Value(*v);
        return std::nullopt;
      case ValueType::real:
        if (auto v = scalar<double>(spec, spec.type, n, key, what, "")) return Value(*v);
        return std::nullopt;
      case ValueType::string:
        if (auto v = scalar<std::string>(spec, spec.type, n, key, what, "")) return Value(std::move(*v));
        return std::nullopt;
      case ValueType::integer_array: return array<long>(spec, n, key);
      case ValueType::real_array: return array<double>(spec, n, key);
      case ValueType::string_array: return array<std::string>(spec, n, key);
    }
    return std::nullopt;
  }

  // ---- tables not in the deck -------------------------------------------------------------------

  void absent_tables() {
    SourceLocation whole;
    whole.kind = SourceLocation::Kind::file;
    whole.file = origin_;
    whole.line = 1;
    whole.column = 1;
    for (const auto& t : registry_.tables()) {
      if (present_.count(t.path) || !condition_holds(t)) continue;
      if (t.required && suggested_.count(t.path)) continue;  // misspelt: reported as an unknown table
      // A table under a table with errors or an unknown variant is not looked at.
      if (t.required) {
        std::string msg = "missing required table [" + t.path + "]";
        if (t.has_variants) {
          const auto names = registry_.variant_names(t.path);
          msg += "; add it with type = one of: " +
                 (names.empty() ? "(no " + detail::variant_kind(t) + "s registered)" : join(names));
        } else {
          std::vector<std::string> required;
          for (const auto& k : t.keys) {
            if (k.required) required.push_back(k.name);
          }
          if (!required.empty()) msg += " (required keys: " + join(required) + ")";
        }
        error(whole, msg, 2);
        continue;
      }
      if (t.has_variants) continue;
      if (std::any_of(t.keys.begin(), t.keys.end(), [](const KeySpec& k) { return k.required; })) continue;
      deck_.mark_table(t.path, SourceLocation{});
      for (const auto& k : t.keys) {
        if (k.default_value) deck_.set(t.path + "." + k.name, *k.default_value, SourceLocation{});
      }
    }
  }

  std::string origin_;
  const std::vector<std::string>& overrides_;
  const SchemaRegistry& registry_;
  const toml::table* root_ = nullptr;
  std::map<std::string, std::size_t> override_of_;  // dotted path -> index of the override that set it
  std::set<std::string> present_;
  std::set<std::string> suggested_;  // dotted keys / tables offered as "did you mean"
  std::vector<Diagnostic> diagnostics_;
  Deck deck_;
};

}  // namespace

Deck load_deck_from_string(const std::string& toml_text, const std::string& origin,
                           const std::vector<std::string>& overrides) {
  const std::string name = origin.empty() ? std::string("<deck>") : origin;
  toml::table root;
  try {
    root = toml::parse(toml_text, std::string_view(name));
  } catch (const toml::parse_error& e) {
    SourceLocation loc;
    loc.kind = SourceLocation::Kind::file;
    loc.file = name;
    loc.line = static_cast<int>(e.source().begin.line);
    loc.column = static_cast<int>(e.source().begin.column);
    throw DeckError(loc.describe() + ": error: invalid TOML: " + std::string(e.description()));
  }
  return Loader(name, overrides).run(std::move(root));
}

Deck load_deck(const std::string& path, const std::vector<std::string>& overrides) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw DeckError("error: cannot open deck file '" + path + "': " + std::strerror(errno));
  std::string text;
  char buffer[65536];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  const int err = errno;
  std::fclose(f);
  if (failed) throw DeckError("error: cannot open deck file '" + path + "': " + std::strerror(err));
  return load_deck_from_string(text, path, overrides);
}

}  // namespace perksolve::config
