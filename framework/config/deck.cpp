#include "framework/config/deck.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "framework/config/detail.hpp"
#include "framework/config/schema.hpp"

namespace perksolve::config {

namespace {

std::string table_of(const std::string& key) {
  const auto dot = key.rfind('.');
  return dot == std::string::npos ? std::string() : key.substr(0, dot);
}

std::string name_of(const std::string& key) {
  const auto dot = key.rfind('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

bool is_bare_key(const std::string& k) {
  if (k.empty()) return false;
  return std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

std::string toml_key(const std::string& k) { return is_bare_key(k) ? k : format_value(Value(k)); }

std::string toml_table_header(const std::string& path) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    if (!out.empty()) out += '.';
    out += toml_key(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return "[" + out + "]";
}

std::string provenance(const SourceLocation& where) {
  switch (where.kind) {
    case SourceLocation::Kind::file:
      return (where.file.empty() ? std::string("<deck>") : where.file) +
             (where.line > 0 ? std::string(":") + std::to_string(where.line) : std::string());
    case SourceLocation::Kind::command_line: return "command line";
    case SourceLocation::Kind::default_value: return "default";
  }
  return "default";
}

[[noreturn]] void missing(const std::string& key) {
  throw std::logic_error("deck has no key '" + key + "'");
}

[[noreturn]] void wrong_type(const std::string& key, const Value& v, const char* wanted) {
  throw std::logic_error("deck key '" + key + "' is " + to_string(type_of(v)) + ", not " + wanted);
}

}  // namespace

bool Deck::has_table(const std::string& table_path) const {
  if (tables_.count(table_path)) return true;
  const std::string prefix = table_path + ".";
  const auto it = values_.lower_bound(prefix);
  return it != values_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
}

std::vector<std::string> Deck::tables() const {
  std::set<std::string> out;
  for (const auto& [path, where] : tables_) out.insert(path);
  for (const auto& [key, value] : values_) {
    const std::string t = table_of(key);
    if (!t.empty()) out.insert(t);
  }
  return {out.begin(), out.end()};
}

const Value& Deck::get(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) missing(key);
  return it->second;
}

const SourceLocation& Deck::where(const std::string& key) const {
  const auto it = where_.find(key);
  if (it == where_.end()) missing(key);
  return it->second;
}

bool Deck::get_bool(const std::string& key) const {
  const Value& v = get(key);
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  wrong_type(key, v, "a boolean");
}

long Deck::get_int(const std::string& key) const {
  const Value& v = get(key);
  if (const auto* i = std::get_if<long>(&v)) return *i;
  wrong_type(key, v, "an integer");
}

double Deck::get_real(const std::string& key) const {
  const Value& v = get(key);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<long>(&v)) return static_cast<double>(*i);
  wrong_type(key, v, "a real");
}

const std::string& Deck::get_string(const std::string& key) const {
  const Value& v = get(key);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  wrong_type(key, v, "a string");
}

std::vector<long> Deck::get_int_array(const std::string& key) const {
  const Value& v = get(key);
  if (const auto* a = std::get_if<std::vector<long>>(&v)) return *a;
  wrong_type(key, v, "an array of integers");
}

std::vector<double> Deck::get_real_array(const std::string& key) const {
  const Value& v = get(key);
  if (const auto* a = std::get_if<std::vector<double>>(&v)) return *a;
  if (const auto* a = std::get_if<std::vector<long>>(&v)) return {a->begin(), a->end()};
  wrong_type(key, v, "an array of reals");
}

std::vector<std::string> Deck::get_string_array(const std::string& key) const {
  const Value& v = get(key);
  if (const auto* a = std::get_if<std::vector<std::string>>(&v)) return *a;
  wrong_type(key, v, "an array of strings");
}

DeckError Deck::error_at(const std::string& key, const std::string& message) const {
  const std::string file = file_.empty() ? std::string("<deck>") : file_;
  const auto value = values_.find(key);
  if (value != values_.end()) {
    const SourceLocation& loc = where(key);
    const std::string shown = "'" + key + "' = " + format_value(value->second);
    if (loc.kind == SourceLocation::Kind::default_value) {
      // Point at the table when it was written in the deck (or created by an override).
      const auto table = tables_.find(table_of(key));
      if (table != tables_.end() && table->second.kind != SourceLocation::Kind::default_value) {
        return DeckError(table->second.describe() + ": error: " + shown + " (default): " + message);
      }
      return DeckError(file + ": error: " + shown + " (default): " + message);
    }
    return DeckError(loc.describe() + ": error: " + shown + ": " + message);
  }
  const auto table = tables_.find(key);
  if (table != tables_.end() && table->second.kind != SourceLocation::Kind::default_value) {
    return DeckError(table->second.describe() + ": error: table [" + key + "]: " + message);
  }
  return DeckError(file + ": error: '" + key + "': " + message);
}

std::vector<std::string> Deck::keys() const {
  std::vector<std::string> out;
  out.reserve(values_.size());
  for (const auto& [key, value] : values_) out.push_back(key);
  return out;  // std::map: already sorted
}

void Deck::set(const std::string& key, Value v, SourceLocation where) {
  values_[key] = std::move(v);
  where_[key] = std::move(where);
}

void Deck::mark_table(const std::string& table_path, SourceLocation where) {
  tables_[table_path] = std::move(where);
}

std::string Deck::to_toml(bool with_provenance) const {
  const auto& registry = SchemaRegistry::instance();

  // Tables in registration order, then any others (decks built in code) sorted.
  std::vector<std::string> order;
  const auto present = tables();
  for (const auto& t : registry.tables()) {
    if (std::find(present.begin(), present.end(), t.path) != present.end()) order.push_back(t.path);
  }
  for (const auto& t : present) {
    if (std::find(order.begin(), order.end(), t) == order.end()) order.push_back(t);
  }

  std::string out;
  auto emit_table = [&](const std::string& path) {
    std::vector<std::string> names;  // keys of this table, schema order first
    if (const TableSchema* schema = registry.find(path)) {
      std::string variant;
      const auto type = values_.find(path.empty() ? "type" : path + ".type");
      if (type != values_.end()) {
        if (const auto* s = std::get_if<std::string>(&type->second)) variant = *s;
      }
      for (const auto& k : keys_of(*schema, variant)) {
        if (values_.count(path + "." + k.name)) names.push_back(k.name);
      }
    }
    for (const auto& [key, value] : values_) {
      if (table_of(key) != path) continue;
      const std::string name = name_of(key);
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    std::vector<std::string> lines;
    std::size_t width = 0;
    for (const auto& name : names) {
      lines.push_back(toml_key(name) + " = " + format_value(values_.at(path.empty() ? name : path + "." + name)));
      width = std::max(width, lines.back().size());
    }
    width = std::min<std::size_t>(width, 40);
    for (std::size_t i = 0; i < names.size(); ++i) {
      out += lines[i];
      if (with_provenance) {
        const std::string key = path.empty() ? names[i] : path + "." + names[i];
        if (lines[i].size() < width) out += std::string(width - lines[i].size(), ' ');
        out += "  # ";
        out += provenance(where_.at(key));
      }
      out += "\n";
    }
  };

  // Keys outside any table (only possible for decks built in code) must come first.
  emit_table("");
  for (const auto& path : order) {
    if (!out.empty()) out += "\n";
    out += toml_table_header(path) + "\n";
    emit_table(path);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

namespace {

// Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), ignoring case.
std::size_t edit_distance(const std::string& a_in, const std::string& b_in) {
  std::string a = a_in, b = b_in;
  for (auto& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (auto& c : b) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

}  // namespace

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.empty()) return "";
  // Up to one edit per three characters (at least one), and never a complete rewrite.
  const std::size_t threshold = std::max<std::size_t>(1, word.size() / 3);
  std::string best;
  std::size_t best_distance = threshold + 1;
  for (const auto& c : candidates) {
    if (c.empty()) continue;
    const std::size_t dist = edit_distance(word, c);
    if (dist >= std::max(word.size(), c.size())) continue;
    if (dist < best_distance) {
      best = c;
      best_distance = dist;
    }
  }
  return best;
}

}  // namespace perksolve::config
