#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "framework/config/value.hpp"

using namespace perksolve::config;

namespace {

TEST(Value, TypeNames) {
  EXPECT_EQ(to_string(ValueType::boolean), "boolean");
  EXPECT_EQ(to_string(ValueType::integer), "integer");
  EXPECT_EQ(to_string(ValueType::real), "real (floating point)");
  EXPECT_EQ(to_string(ValueType::string), "string");
  EXPECT_EQ(to_string(ValueType::integer_array), "array of integers");
  EXPECT_EQ(to_string(ValueType::real_array), "array of reals");
  EXPECT_EQ(to_string(ValueType::string_array), "array of strings");
}

TEST(Value, TypeOf) {
  EXPECT_EQ(type_of(Value(true)), ValueType::boolean);
  EXPECT_EQ(type_of(Value(3L)), ValueType::integer);
  EXPECT_EQ(type_of(Value(3.0)), ValueType::real);
  EXPECT_EQ(type_of(Value(std::string("a"))), ValueType::string);
  EXPECT_EQ(type_of(Value(std::vector<long>{1})), ValueType::integer_array);
  EXPECT_EQ(type_of(Value(std::vector<double>{1})), ValueType::real_array);
  EXPECT_EQ(type_of(Value(std::vector<std::string>{"a"})), ValueType::string_array);
}

TEST(Value, FormatScalars) {
  EXPECT_EQ(format_value(Value(true)), "true");
  EXPECT_EQ(format_value(Value(false)), "false");
  EXPECT_EQ(format_value(Value(-42L)), "-42");
  EXPECT_EQ(format_value(Value(std::string("vertex"))), "\"vertex\"");
}

TEST(Value, FormatRealsAsTomlFloats) {
  EXPECT_EQ(format_value(Value(1.0)), "1.0");  // never an integer literal
  EXPECT_EQ(format_value(Value(0.0)), "0.0");
  EXPECT_EQ(format_value(Value(0.8)), "0.8");
  EXPECT_EQ(format_value(Value(1e-8)), "1e-8");
  EXPECT_EQ(format_value(Value(-2.5e-10)), "-2.5e-10");
  EXPECT_EQ(format_value(Value(1e20)), "1e20");
  EXPECT_EQ(format_value(Value(std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(format_value(Value(-std::numeric_limits<double>::infinity())), "-inf");
  EXPECT_EQ(format_value(Value(std::nan(""))), "nan");
}

TEST(Value, RealsRoundTripExactly) {
  for (double x : {0.1 + 0.2, 1.0 / 3.0, 6.02214076e23, 5e-324, 123456.789, -1e-300}) {
    const std::string text = format_value(Value(x));
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), x) << text;
  }
}

TEST(Value, FormatStringsEscaped) {
  EXPECT_EQ(format_value(Value(std::string("a\"b\\c"))), R"("a\"b\\c")");
  EXPECT_EQ(format_value(Value(std::string("tab\there\nnl"))), R"("tab\there\nnl")");
  EXPECT_EQ(format_value(Value(std::string("\x01"))), R"("\u0001")");
}

TEST(Value, FormatArrays) {
  EXPECT_EQ(format_value(Value(std::vector<long>{16, 16, 8})), "[16, 16, 8]");
  EXPECT_EQ(format_value(Value(std::vector<double>{0, 0.5, 1})), "[0.0, 0.5, 1.0]");
  EXPECT_EQ(format_value(Value(std::vector<std::string>{"x", "y"})), R"(["x", "y"])");
  EXPECT_EQ(format_value(Value(std::vector<long>{})), "[]");
}

TEST(SourceLocation, Describe) {
  SourceLocation file;
  file.kind = SourceLocation::Kind::file;
  file.file = "deck.toml";
  file.line = 12;
  file.column = 5;
  EXPECT_EQ(file.describe(), "deck.toml:12:5");
  file.column = 0;
  EXPECT_EQ(file.describe(), "deck.toml:12");
  file.line = 0;
  EXPECT_EQ(file.describe(), "deck.toml");

  SourceLocation cl;
  cl.kind = SourceLocation::Kind::command_line;
  cl.text = "a.b=3";
  EXPECT_EQ(cl.describe(), "command-line override 'a.b=3'");

  EXPECT_EQ(SourceLocation{}.describe(), "default");
}

}  // namespace
