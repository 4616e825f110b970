// Typed values of an input deck and where they came from.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace perksolve::config {

enum class ValueType { boolean, integer, real, string, integer_array, real_array, string_array };
std::string to_string(ValueType t);  // "boolean", "integer", "real (floating point)", "array of integers", ...

using Value = std::variant<bool, long, double, std::string, std::vector<long>, std::vector<double>, std::vector<std::string>>;
ValueType type_of(const Value& v);
std::string format_value(const Value& v);  // TOML syntax: 3, 1e-8, "text", [1, 2, 3]

// Where a value was set: a deck file position, a command-line override, or the schema default.
struct SourceLocation {
  enum class Kind { file, command_line, default_value } kind = Kind::default_value;
  std::string file;  // deck path for Kind::file
  int line = 0, column = 0;
  std::string text;  // the override text for Kind::command_line
  std::string describe() const;  // "deck.toml:12:5", "command-line override 'a.b=3'", "default"
};

}  // namespace perksolve::config
