#include "framework/backend/backend.hpp"

#include <map>
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
