#include "framework/config/value.hpp"

#include <cmath>
#include <string_view>

#include <fmt/format.h>

namespace perksolve::config {

std::string to_string(ValueType t) {
  switch (t) {
    case ValueType::boolean: return "boolean";
    case ValueType::integer: return "integer";
    case ValueType::real: return "real (floating point)";
    case ValueType::string: return "string";
    case ValueType::integer_array: return "array of integers";
    case ValueType::real_array: return "array of reals";
    case ValueType::string_array: return "array of strings";
  }
  return "unknown";
}

ValueType type_of(const Value& v) {
  switch (v.index()) {
    case 0: return ValueType::boolean;
    case 1: return ValueType::integer;
    case 2: return ValueType::real;
    case 3: return ValueType::string;
    case 4: return ValueType::integer_array;
    case 5: return ValueType::real_array;
    default: return ValueType::string_array;
  }
}

namespace {

// Shortest representation that reads back to the same double, always recognisable as a TOML float.
std::string format_real(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", d);
  const auto e = s.find_first_of("eE");
  if (e != std::string::npos) {
    // fmt writes 1e-08; TOML allows it but 1e-8 reads better.
    std::size_t digits = e + 1;
    if (digits < s.size() && (s[digits] == '+' || s[digits] == '-')) ++digits;
    std::size_t first_nonzero = digits;
    while (first_nonzero + 1 < s.size() && s[first_nonzero] == '0') ++first_nonzero;
    s.erase(digits, first_nonzero - digits);
    if (s[e + 1] == '+') s.erase(e + 1, 1);
    return s;
  }
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += fmt::format("\\u{:04X}", static_cast<unsigned>(c));
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

template <class T, class F>
std::string format_array(const std::vector<T>& items, F&& one) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += one(items[i]);
  }
  out += "]";
  return out;
}

}  // namespace

std::string format_value(const Value& v) {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(long i) const { return std::to_string(i); }
    std::string operator()(double d) const { return format_real(d); }
    std::string operator()(const std::string& s) const { return quote(s); }
    std::string operator()(const std::vector<long>& a) const {
      return format_array(a, [](long i) { return std::to_string(i); });
    }
    std::string operator()(const std::vector<double>& a) const { return format_array(a, format_real); }
    std::string operator()(const std::vector<std::string>& a) const {
      return format_array(a, [](const std::string& s) { return quote(s); });
    }
  };
  return std::visit(Visitor{}, v);
}

std::string SourceLocation::describe() const {
  switch (kind) {
    case Kind::file: {
      std::string out = file.empty() ? std::string("<deck>") : file;
      if (line > 0) {
        // (appended piece by piece: g++ 12 warns -Wrestrict, falsely, on `":" + std::to_string(...)`)
        out += ':';
        out += std::to_string(line);
        if (column > 0) {
          out += ':';
          out += std::to_string(column);
        }
      }
      return out;
    }
    case Kind::command_line: return "command-line override '" + text + "'";
    case Kind::default_value: return "default";
  }
  return "default";
}

}  // namespace perksolve::config
