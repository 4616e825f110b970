#include "framework/config/command_line.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <stdexcept>

#include <CLI/CLI.hpp>

namespace perksolve::config {

namespace {

// CLI11's generated usage line cannot express "DECK [dotted.key=value ...]"; write our own.
class Formatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App*, std::string) const override {
    return "Usage: perksolve DECK [dotted.key=value ...] [OPTIONS] [-- kokkos-args ...]\n";
  }
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::optional<CommandLine> parse_command_line(int argc, char** argv) {
  CommandLine cl;

  // Everything after a literal "--" belongs to Kokkos; CLI11 sees only what comes before.
  std::vector<std::string> args;
  bool passthrough = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i] ? argv[i] : "";
    if (!passthrough && a == "--") {
      passthrough = true;
    } else if (passthrough) {
      cl.passthrough.push_back(a);
    } else {
      args.push_back(a);
    }
  }

  CLI::App app{"perksolve: iterative PDE solvers on structured grids.\n"
               "Settings come from the TOML deck; dotted.key=value arguments override it.",
               "perksolve"};
  app.formatter(std::make_shared<Formatter>());
  app.footer(
      "Examples:\n"
      "  perksolve inputs/poisson.toml solver.stop.rtol=1e-10 grid.extents=[64,64,64]\n"
      "  perksolve inputs/poisson.toml --dry-run\n"
      "  perksolve --describe solver.stop\n"
      "  perksolve --list problems\n"
      "  perksolve inputs/poisson.toml -- --kokkos-num-threads=4\n");

  std::vector<std::string> positionals;
  app.add_option("DECK", positionals, "The TOML input deck, then any number of dotted.key=value overrides")
      ->option_text("[dotted.key=value ...]");
  app.add_flag("--dry-run", cl.dry_run, "Read and check the deck, print the resolved deck and exit");
  app.add_option("--describe", cl.describe_table, "Describe the keys of a deck table (e.g. grid, solver.stop)")
      ->option_text("TABLE");
  app.add_option("--list", cl.list_what, "List the registered problems, solvers, backends or stencils")
      ->check(CLI::IsMember({"problems", "solvers", "backends", "stencils"}))
      ->option_text("problems|solvers|backends|stencils");
  app.add_option("--restart", cl.restart_file, "Restart from a checkpoint file")->option_text("FILE");
  app.add_option("--plugin", cl.plugins, "Load a plug-in shared library before reading the deck (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->option_text("LIB");
  app.add_flag("--version", cl.show_version, "Print the version and build configuration and exit");

  try {
    std::reverse(args.begin(), args.end());  // CLI11 consumes the vector from the back
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return std::nullopt;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument(std::string(e.what()) + " (run 'perksolve --help' for usage)");
  }

  for (const auto& p : positionals) {
    if (cl.deck_path.empty() && cl.overrides.empty()) {
      if (p.find('=') != std::string::npos && !ends_with(p, ".toml")) {
        throw std::invalid_argument("expected the deck file before the override '" + p +
                                    "' (usage: perksolve DECK [dotted.key=value ...] [OPTIONS])");
      }
      cl.deck_path = p;
    } else if (p.find('=') != std::string::npos) {
      cl.overrides.push_back(p);
    } else {
      throw std::invalid_argument("unexpected argument '" + p + "' after the deck '" + cl.deck_path +
                                  "': overrides are written dotted.key=value, options start with --");
    }
  }
  for (const auto& p : cl.plugins) {
    if (p.empty()) throw std::invalid_argument("--plugin needs a shared library path");
  }

  const bool standalone = !cl.describe_table.empty() || !cl.list_what.empty() || cl.show_version;
  if (cl.deck_path.empty() && !standalone) {
    throw std::invalid_argument(
        "missing the deck file (usage: perksolve DECK [dotted.key=value ...] [OPTIONS]; "
        "run 'perksolve --help' for details)");
  }
  if (cl.deck_path.empty() && !cl.overrides.empty()) {
    throw std::invalid_argument("overrides need a deck file");
  }
  if (cl.deck_path.empty() && (cl.dry_run || !cl.restart_file.empty())) {
    throw std::invalid_argument(std::string(cl.dry_run ? "--dry-run" : "--restart") + " needs a deck file");
  }
  return cl;
}

}  // namespace perksolve::config
