#include <map>

#include "framework/problem/problem.hpp"

namespace perksolve {
namespace {
std::map<std::string, ProblemInfo>& registry() {
  static std::map<std::string, ProblemInfo> r;
  return r;
}
}  // namespace

void register_problem(ProblemInfo info) {
  config::SchemaRegistry::instance().add_variant("problem", config::Variant{info.name, info.help, info.keys});
  registry()[info.name] = std::move(info);
}

const ProblemInfo* find_problem(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<std::string> problem_names() {
  std::vector<std::string> v;
  for (const auto& [name, info] : registry()) v.push_back(name);
  return v;
}

}  // namespace perksolve
