// The perksolve command line (CLI11):
//   perksolve DECK [dotted.key=value ...] [--dry-run] [--describe TABLE]
//             [--list problems|solvers|backends|stencils] [--restart FILE] [--plugin LIB.so ...]
//             [--version] [-- kokkos-args...]
// The first positional argument is the deck; later ones must be dotted.key=value overrides.
// --plugin takes one library per occurrence (repeat it). --describe, --list and --version need no deck.
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

// Parses argv. Returns std::nullopt after printing --help (exit 0). --version only sets show_version
// (the caller prints the version and build information). Throws std::invalid_argument with a clear
// message on bad usage (the caller prints it and exits with 1).
std::optional<CommandLine> parse_command_line(int argc, char** argv);

}  // namespace perksolve::config
