// The perksolve command line (CLI11):
//   perksolve DECK [dotted.key=value ...] [--dry-run] [--describe TABLE] [--list problems|solvers]
//             [--restart FILE] [--plugin LIB.so ...] [-- kokkos-args...]
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace perksolve::config {

struct CommandLine {
  std::string deck_path;                 // empty with --describe / --list alone
  std::vector<std::string> overrides;    // "a.b=value"
  bool dry_run = false;
  std::string describe_table;            // empty = not asked
  std::string list_what;                 // "", "problems", "solvers", "backends", "stencils"
  std::string restart_file;
  std::vector<std::string> plugins;      // shared libraries to dlopen before reading the deck
  std::vector<std::string> passthrough;  // after "--", handed to Kokkos::initialize
  bool show_version = false;
};

// Parses argv. Returns std::nullopt after printing help/version (exit 0). Throws
// std::invalid_argument with a clear message on bad usage (the caller exits with 1).
std::optional<CommandLine> parse_command_line(int argc, char** argv);

}  // namespace perksolve::config
