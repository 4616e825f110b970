// Environment switches (framework/util/env.hpp): defaults when unset, the accepted values, and an error naming the
// variable, the value and what was expected for anything else.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <stdexcept>
#include <string>

#include "framework/util/env.hpp"

namespace {

constexpr const char* kVar = "PERKSOLVE_TEST_ENV_SWITCH";

// Sets kVar for one test and unsets it afterwards.
struct EnvVar {
  explicit EnvVar(const char* value) { setenv(kVar, value, 1); }
  ~EnvVar() { unsetenv(kVar); }
};

std::string error_of(void (*f)()) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(EnvSwitches, UnsetTakesTheDefault) {
  unsetenv(kVar);
  EXPECT_TRUE(perksolve::env_flag(kVar, true));
  EXPECT_FALSE(perksolve::env_flag(kVar, false));
  EXPECT_EQ(perksolve::env_choice(kVar, {"native", "cusparse"}, "native"), "native");
  EXPECT_EQ(perksolve::env_int(kVar, 0, 16, 7, "0 to 16"), 7);
}

TEST(EnvSwitches, AcceptedValues) {
  {
    EnvVar v("0");
    EXPECT_FALSE(perksolve::env_flag(kVar, true));
    EXPECT_EQ(perksolve::env_int(kVar, 0, 16, 7, "0 to 16"), 0);
  }
  {
    EnvVar v("1");
    EXPECT_TRUE(perksolve::env_flag(kVar, false));
  }
  {
    EnvVar v("cusparse");
    EXPECT_EQ(perksolve::env_choice(kVar, {"native", "cusparse"}, "native"), "cusparse");
  }
  {
    EnvVar v("16");
    EXPECT_EQ(perksolve::env_int(kVar, 0, 16, 7, "0 to 16"), 16);
  }
}

TEST(EnvSwitches, OtherValuesAreErrorsNamingVariableValueAndExpectation) {
  {
    EnvVar v("off");  // once silently read as the default
    const std::string e = error_of([] { (void)perksolve::env_flag(kVar, true); });
    EXPECT_NE(e.find(kVar), std::string::npos) << e;
    EXPECT_NE(e.find("'off'"), std::string::npos) << e;
    EXPECT_NE(e.find("'0' or '1'"), std::string::npos) << e;
  }
  {
    EnvVar v("cusparce");
    const std::string e = error_of([] { (void)perksolve::env_choice(kVar, {"native", "vector", "cusparse"}, "native"); });
    EXPECT_NE(e.find("'cusparce'"), std::string::npos) << e;
    EXPECT_NE(e.find("'native' or 'vector' or 'cusparse'"), std::string::npos) << e;
  }
  {
    EnvVar v("");  // set but empty: not the same as unset
    EXPECT_THROW((void)perksolve::env_flag(kVar, true), std::invalid_argument);
  }
  for (const char* bad : {"17", "-1", "3x", ""}) {
    EnvVar v(bad);
    EXPECT_THROW((void)perksolve::env_int(kVar, 0, 16, 7, "0 to 16"), std::invalid_argument) << "'" << bad << "'";
  }
}
