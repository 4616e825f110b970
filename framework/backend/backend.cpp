#include "framework/backend/backend.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <mutex>

namespace perksolve {

template <class Real>
double Backend<Real>::allreduce_sum(double local) const {
  double global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return global;
}

template <class Real>
double Backend<Real>::allreduce_max(double local) const {
  double global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return global;
}

void require_valid_layout(const FieldLayout& l) {
  bool ok = l.align >= 1 && (l.align & (l.align - 1)) == 0;
  for (int a = 0; a < 3; ++a) ok &= l.n[a] >= 0 && l.ghost[a] >= 0;
  if (!ok)
    throw std::invalid_argument("field layout " + std::to_string(l.n[0]) + "x" + std::to_string(l.n[1]) + "x" +
                                std::to_string(l.n[2]) + " (ghost " + std::to_string(l.ghost[0]) + "," +
                                std::to_string(l.ghost[1]) + "," + std::to_string(l.ghost[2]) + ", row alignment " +
                                std::to_string(l.align) +
                                "): extents and ghosts must be >= 0 and the row alignment a power of two");
}

void backend_unavailable(std::string_view backend, const char* op) {
  throw BackendUnavailable("backend '" + std::string(backend) + "' does not implement " + op + " yet");
}

template class Backend<float>;
template class Backend<double>;

namespace {
struct Entry {
  BackendFactory<float> f32;
  BackendFactory<double> f64;
};
std::map<std::string, Entry>& registry() {
  static std::map<std::string, Entry> r;
  return r;
}
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

void register_backend(std::string name, BackendFactory<float> f32, BackendFactory<double> f64) {
  std::lock_guard lock(registry_mutex());
  registry()[std::move(name)] = Entry{f32, f64};
}

std::vector<std::string> registered_backends() {
  std::lock_guard lock(registry_mutex());
  std::vector<std::string> names;
  for (const auto& [name, e] : registry()) names.push_back(name);
  return names;
}

template <class Real>
std::unique_ptr<Backend<Real>> create_backend(std::string_view name, MPI_Comm comm) {
  Entry e;
  {
    std::lock_guard lock(registry_mutex());
    auto it = registry().find(std::string(name));
    if (it == registry().end()) {
      if (name == "cuda")
        throw BackendUnavailable("backend 'cuda' is not compiled into this build (configure with the 'cuda' preset, "
                                 "-DPERKSOLVE_ENABLE_CUDA=ON)");
      throw BackendUnavailable("unknown backend '" + std::string(name) + "'");
    }
    e = it->second;
  }
  if constexpr (std::is_same_v<Real, float>) return e.f32(comm);
  else return e.f64(comm);
}

template std::unique_ptr<Backend<float>> create_backend<float>(std::string_view, MPI_Comm);
template std::unique_ptr<Backend<double>> create_backend<double>(std::string_view, MPI_Comm);

}  // namespace perksolve
