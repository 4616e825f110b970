// Internal helpers shared by the config translation units (not part of the public API).
#pragma once

#include <string>
#include <vector>

#include "framework/config/schema.hpp"

namespace perksolve::config::detail {

// "a, b, c"
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");
// Number as written in messages: integers without a decimal point, reals in shortest form.
std::string format_number(double x, bool integer);
// "2 <= value <= 3", "value >= 0", "0 < value <= 2"; "" when the key has no range.
std::string range_text(const KeySpec& k);
// "length 2 to 3", "at least 2 entries", ...; "" when unconstrained.
std::string length_text(const KeySpec& k);
// true when x lies in the key's range.
bool in_range(const KeySpec& k, double x);
// Element type of an array type (the type itself for scalars).
ValueType element_type(ValueType t);
bool is_array(ValueType t);
// The implicit `type` key of a variant table.
KeySpec variant_type_key(const TableSchema& t);
// "problem" -> "problem type", "solver.preconditioner" -> "solver.preconditioner type"
std::string variant_kind(const TableSchema& t);

}  // namespace perksolve::config::detail
