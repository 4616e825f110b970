// The malformed decks of tests/decks/bad: every one fails to load with the message that
// tests/decks/bad/EXPECTED.txt promises (the application's ctest driver checks the same regexes).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "test_support.hpp"

using namespace perksolve::config;
using perksolve::config::test::ConfigTest;
using perksolve::config::test::decks_dir;
using perksolve::config::test::lines_of;

namespace fs = std::filesystem;

namespace {

std::map<std::string, std::string> expected_messages() {
  std::map<std::string, std::string> out;
  std::ifstream in(decks_dir() + "/bad/EXPECTED.txt");
  EXPECT_TRUE(in) << "cannot read " << decks_dir() << "/bad/EXPECTED.txt";
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    EXPECT_NE(tab, std::string::npos) << "EXPECTED.txt line without a TAB: " << line;
    if (tab == std::string::npos) continue;
    EXPECT_EQ(out.count(line.substr(0, tab)), 0u) << "duplicate entry " << line;
    out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

std::vector<std::string> bad_deck_files() {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(decks_dir() + "/bad")) {
    if (entry.path().extension() == ".toml") out.push_back(entry.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

using BadDecks = ConfigTest;

TEST_F(BadDecks, EveryDeckHasAnExpectation) {
  const auto expected = expected_messages();
  const auto files = bad_deck_files();
  EXPECT_GE(files.size(), 24u);
  for (const auto& f : files) EXPECT_EQ(expected.count(f), 1u) << f << " has no line in EXPECTED.txt";
  for (const auto& [f, regex] : expected) {
    EXPECT_TRUE(std::find(files.begin(), files.end(), f) != files.end()) << "EXPECTED.txt names missing " << f;
    EXPECT_NO_THROW(std::regex{regex}) << f << ": " << regex;
  }
}

TEST_F(BadDecks, EachFailsWithTheExpectedMessage) {
  const auto expected = expected_messages();
  int checked = 0;
  for (const auto& [file, regex] : expected) {
    if (file == "rank_grid_mismatch.toml") continue;  // semantic: see below
    const std::string path = decks_dir() + "/bad/" + file;
    SCOPED_TRACE(file);
    try {
      load_deck(path, {});
      ADD_FAILURE() << file << " loaded without error";
    } catch (const DeckError& e) {
      const std::string message = e.what();
      EXPECT_MATCHES(message, regex);
      // Each deck has exactly one mistake: one line, and it starts with the file's position.
      EXPECT_EQ(lines_of(message).size(), 1u) << message;
      EXPECT_EQ(message.rfind(path + ":", 0), 0u) << message;
      ++checked;
    }
  }
  EXPECT_GE(checked, 24);
}

TEST_F(BadDecks, RankGridMismatchParsesAndIsReportedThroughErrorAt) {
  const std::string path = decks_dir() + "/bad/rank_grid_mismatch.toml";
  const Deck d = load_deck(path, {});
  EXPECT_EQ(d.get_int_array("decomposition.ranks"), (std::vector<long>{3, 1, 1}));
  // What the application reports for a run on 1 rank.
  const DeckError e = d.error_at("decomposition.ranks", "3 x 1 x 1 = 3 ranks requested but the run has 1");
  EXPECT_MATCHES(std::string(e.what()), expected_messages().at("rank_grid_mismatch.toml"));
  EXPECT_EQ(std::string(e.what()), path + ":8:1: error: 'decomposition.ranks' = [3, 1, 1]: 3 x 1 x 1 = 3 ranks "
                                          "requested but the run has 1");
}

TEST_F(BadDecks, GoodDecksLoad) {
  int loaded = 0;
  for (const auto& entry : fs::directory_iterator(decks_dir() + "/good")) {
    if (entry.path().extension() != ".toml") continue;
    SCOPED_TRACE(entry.path().string());
    const Deck d = load_deck(entry.path().string(), {});
    // The resolved deck reads back to the same values.
    const Deck again = load_deck_from_string(d.to_toml(true), "resolved", {});
    EXPECT_EQ(d.keys(), again.keys());
    for (const auto& k : d.keys()) EXPECT_EQ(d.get(k), again.get(k)) << k;
    ++loaded;
  }
  EXPECT_GE(loaded, 2);
}

TEST_F(BadDecks, MissingDeckFile) {
  const std::string path = decks_dir() + "/bad/does_not_exist.toml";
  try {
    load_deck(path, {});
    FAIL() << "no exception";
  } catch (const DeckError& e) {
    EXPECT_EQ(std::string(e.what()), "error: cannot open deck file '" + path + "': No such file or directory");
  }
}

}  // namespace
