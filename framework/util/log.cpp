#include "framework/util/log.hpp"

#include <regex>

namespace perksolve::log {
namespace {
int g_rank = 0;
}

void set_rank(int r) { g_rank = r; }
int rank() { return g_rank; }

void info(const std::string& text) {
  if (g_rank != 0) return;
  std::fputs(text.c_str(), stdout);
  if (text.empty() || text.back() != '\n') std::fputc('\n', stdout);
  std::fflush(stdout);
}

void error(const std::string& text) {
  if (g_rank != 0) return;
  static const std::regex located(R"(^[^\s:]+:\d+(:\d+)?: error:|^command-line override)");
  const std::string msg = std::regex_search(text, located) ? text : "perksolve: error: " + text;
  std::fputs(msg.c_str(), stderr);
  if (msg.back() != '\n') std::fputc('\n', stderr);
  std::fflush(stderr);
}

void error_any_rank(const std::string& text) {
  std::fprintf(stderr, "perksolve: error [rank %d]: %s\n", g_rank, text.c_str());
  std::fflush(stderr);
}

}  // namespace perksolve::log
