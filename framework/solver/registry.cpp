#include <map>

#include "framework/solver/solver.hpp"

namespace perksolve {
namespace {
std::map<std::string, SolverInfo>& registry() {
  static std::map<std::string, SolverInfo> r;
  return r;
}
}  // namespace

void register_solver(SolverInfo info) {
  config::SchemaRegistry::instance().add_variant("solver", config::Variant{info.name, info.help, info.keys});
  registry()[info.name] = std::move(info);
}

const SolverInfo* find_solver(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<std::string> solver_names() {
  std::vector<std::string> v;
  for (const auto& [name, info] : registry()) v.push_back(name);
  return v;
}

}  // namespace perksolve
