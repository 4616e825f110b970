// A resolved input deck: every key of every table present, typed, defaults filled in, each value
// knowing where it came from. Parsing (toml++) lives in one translation unit, deck_parser.cpp.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "framework/config/value.hpp"

namespace perksolve::config {

// A user-facing deck error. what() is the full message, e.g.
//   inputs/bad.toml:7:1: error: unknown key 'grid.extnts'; expected one of: dimension, extents, ...; did you mean 'grid.extents'?
// When a deck has several errors, what() holds one per line, in file order (then command-line
// overrides, then missing tables); the first line is the first error.
struct DeckError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Deck {
 public:
  const std::string& file() const { return file_; }
  bool has(const std::string& dotted_key) const { return values_.count(dotted_key) != 0; }
  // True when the table was in the deck, created by an override, or filled with defaults (or when
  // any key below it is set).
  bool has_table(const std::string& table_path) const;
  // Tables of the resolved deck (dotted paths), sorted.
  std::vector<std::string> tables() const;

  // Typed access; a missing key or wrong type is a programming error (std::logic_error).
  bool get_bool(const std::string& key) const;
  long get_int(const std::string& key) const;
  double get_real(const std::string& key) const;  // integers are accepted and converted
  const std::string& get_string(const std::string& key) const;
  std::vector<long> get_int_array(const std::string& key) const;
  std::vector<double> get_real_array(const std::string& key) const;
  std::vector<std::string> get_string_array(const std::string& key) const;
  const Value& get(const std::string& key) const;
  const SourceLocation& where(const std::string& key) const;

  // A DeckError located at the key (file:line when it came from the deck), for semantic checks
  // done by the consumers, e.g. deck.error_at("grid.extents", "needs 3 entries for a 3D grid") gives
  //   deck.toml:3:1: error: 'grid.extents' = [16, 16]: needs 3 entries for a 3D grid
  // (a default value reads "deck.toml: error: 'x.y' = 0 (default): ...", an override
  // "command-line override 'x.y=0': error: 'x.y' = 0: ..."). `key` may also name a table.
  DeckError error_at(const std::string& key, const std::string& message) const;

  // The resolved deck as TOML (tables in schema order, defaults included, provenance comments
  // optional). Used by --dry-run and embedded in output/checkpoint files.
  std::string to_toml(bool with_provenance = false) const;
  // All keys (dotted), sorted.
  std::vector<std::string> keys() const;

  // Used by the parser and by tests that build decks in code.
  void set(const std::string& key, Value v, SourceLocation where);
  void set_file(std::string f) { file_ = std::move(f); }
  // Records a table (also one without keys) and where it was opened; to_toml prints it even if empty.
  void mark_table(const std::string& table_path, SourceLocation where);

 private:
  std::string file_;
  std::map<std::string, Value> values_;
  std::map<std::string, SourceLocation> where_;
  std::map<std::string, SourceLocation> tables_;
};

// Parse a TOML file, apply `dotted.key=value` overrides (typed through the schema) and validate
// against the SchemaRegistry. Throws DeckError naming file, line, dotted key, what was expected and
// a "did you mean" suggestion. A missing or unreadable file is a DeckError too.
Deck load_deck(const std::string& path, const std::vector<std::string>& overrides);
// Same, from TOML text (the `origin` names it in messages).
Deck load_deck_from_string(const std::string& toml_text, const std::string& origin,
                           const std::vector<std::string>& overrides);

// Closest candidate by edit distance, or "" when nothing is reasonably close.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace perksolve::config
