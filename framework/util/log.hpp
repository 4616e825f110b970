// Rank-0 console output. Everything user-facing goes through here so MPI runs print once.
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <string>

namespace perksolve::log {

void set_rank(int rank);
int rank();
// Prints on rank 0 only (stdout), flushed.
void info(const std::string& text);
// Prints on rank 0 only (stderr), prefixed "perksolve: error: " unless the text already carries a
// "file:line:" location.
void error(const std::string& text);
// Prints on any rank (stderr), prefixed with the rank.
void error_any_rank(const std::string& text);

template <class... Args>
void infof(fmt::format_string<Args...> f, Args&&... args) {
  info(fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace perksolve::log
