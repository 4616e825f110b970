#include <gtest/gtest.h>

#include <stdexcept>

#include "framework/config/command_line.hpp"

using perksolve::config::CommandLine;
using perksolve::config::parse_command_line;

namespace {

std::optional<CommandLine> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "perksolve");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return parse_command_line(static_cast<int>(args.size()), argv.data());
}

std::string usage_error(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no usage error";
  return "";
}

TEST(CommandLine, DeckOnly) {
  const auto cl = parse({"inputs/poisson.toml"});
  ASSERT_TRUE(cl);
  EXPECT_EQ(cl->deck_path, "inputs/poisson.toml");
  EXPECT_TRUE(cl->overrides.empty());
  EXPECT_FALSE(cl->dry_run);
  EXPECT_FALSE(cl->show_version);
  EXPECT_TRUE(cl->describe_table.empty());
  EXPECT_TRUE(cl->list_what.empty());
  EXPECT_TRUE(cl->restart_file.empty());
  EXPECT_TRUE(cl->plugins.empty());
  EXPECT_TRUE(cl->passthrough.empty());
}

TEST(CommandLine, Overrides) {
  const auto cl = parse({"deck.toml", "solver.stop.rtol=1e-10", "grid.extents=[64,64,64]", "extras.label=a=b"});
  ASSERT_TRUE(cl);
  EXPECT_EQ(cl->overrides,
            (std::vector<std::string>{"solver.stop.rtol=1e-10", "grid.extents=[64,64,64]", "extras.label=a=b"}));
}

TEST(CommandLine, OptionsAnywhere) {
  const auto cl = parse({"--dry-run", "deck.toml", "--plugin", "libA.so", "a.b=1", "--restart", "chk.h5",
                         "--plugin=libB.so", "c.d=-2"});
  ASSERT_TRUE(cl);
  EXPECT_TRUE(cl->dry_run);
  EXPECT_EQ(cl->deck_path, "deck.toml");
  EXPECT_EQ(cl->overrides, (std::vector<std::string>{"a.b=1", "c.d=-2"}));
  EXPECT_EQ(cl->plugins, (std::vector<std::string>{"libA.so", "libB.so"}));
  EXPECT_EQ(cl->restart_file, "chk.h5");
}

TEST(CommandLine, PluginTakesOneValue) {
  // The deck after --plugin LIB is not swallowed as a second plugin.
  const auto cl = parse({"--plugin", "libA.so", "deck.toml"});
  ASSERT_TRUE(cl);
  EXPECT_EQ(cl->plugins, (std::vector<std::string>{"libA.so"}));
  EXPECT_EQ(cl->deck_path, "deck.toml");
}

TEST(CommandLine, Passthrough) {
  const auto cl = parse({"deck.toml", "a.b=1", "--", "--kokkos-num-threads=4", "--kokkos-device-id", "1", "x=y", "--"});
  ASSERT_TRUE(cl);
  EXPECT_EQ(cl->overrides, (std::vector<std::string>{"a.b=1"}));
  EXPECT_EQ(cl->passthrough,
            (std::vector<std::string>{"--kokkos-num-threads=4", "--kokkos-device-id", "1", "x=y", "--"}));
}

TEST(CommandLine, DescribeListVersionNeedNoDeck) {
  auto cl = parse({"--describe", "solver.stop"});
  ASSERT_TRUE(cl);
  EXPECT_EQ(cl->describe_table, "solver.stop");
  EXPECT_TRUE(cl->deck_path.empty());
  for (const char* what : {"problems", "solvers", "backends", "stencils"}) {
    cl = parse({"--list", what});
    ASSERT_TRUE(cl);
    EXPECT_EQ(cl->list_what, what);
  }
  cl = parse({"--version"});
  ASSERT_TRUE(cl);
  EXPECT_TRUE(cl->show_version);
  cl = parse({"deck.toml", "--describe", "grid"});
  ASSERT_TRUE(cl);
  EXPECT_EQ(cl->deck_path, "deck.toml");
  EXPECT_EQ(cl->describe_table, "grid");
}

TEST(CommandLine, HelpReturnsNullopt) {
  testing::internal::CaptureStdout();
  const auto cl = parse({"--help"});
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_FALSE(cl);
  EXPECT_NE(out.find("perksolve DECK [dotted.key=value ...]"), std::string::npos) << out;
  EXPECT_NE(out.find("--dry-run"), std::string::npos) << out;
  EXPECT_NE(out.find("--describe"), std::string::npos) << out;
  testing::internal::CaptureStdout();
  EXPECT_FALSE(parse({"deck.toml", "-h"}));
  testing::internal::GetCapturedStdout();
}

TEST(CommandLine, MissingDeck) {
  EXPECT_EQ(usage_error({}),
            "missing the deck file (usage: perksolve DECK [dotted.key=value ...] [OPTIONS]; run 'perksolve --help' "
            "for details)");
  EXPECT_NE(usage_error({"--dry-run"}).find("missing the deck file"), std::string::npos);
  EXPECT_NE(usage_error({"--", "--kokkos-num-threads=2"}).find("missing the deck file"), std::string::npos);
}

TEST(CommandLine, OverrideBeforeDeck) {
  EXPECT_EQ(usage_error({"solver.type=jacobi", "deck.toml"}),
            "expected the deck file before the override 'solver.type=jacobi' (usage: perksolve DECK "
            "[dotted.key=value ...] [OPTIONS])");
}

TEST(CommandLine, DeckNameWithEqualsSign) {
  const auto cl = parse({"runs/a=1.toml", "x.y=2"});
  ASSERT_TRUE(cl);
  EXPECT_EQ(cl->deck_path, "runs/a=1.toml");
}

TEST(CommandLine, ExtraPositional) {
  EXPECT_EQ(usage_error({"deck.toml", "other.toml"}),
            "unexpected argument 'other.toml' after the deck 'deck.toml': overrides are written dotted.key=value, "
            "options start with --");
}

TEST(CommandLine, BadOptions) {
  EXPECT_NE(usage_error({"deck.toml", "--frobnicate"}).find("--frobnicate"), std::string::npos);
  EXPECT_NE(usage_error({"--list", "grids"}).find("grids"), std::string::npos);
  EXPECT_NE(usage_error({"--describe"}).find("--describe"), std::string::npos);
  EXPECT_NE(usage_error({"deck.toml", "--restart"}).find("--restart"), std::string::npos);
  const std::string e = usage_error({"deck.toml", "--frobnicate"});
  EXPECT_NE(e.find("run 'perksolve --help' for usage"), std::string::npos) << e;
}

}  // namespace
