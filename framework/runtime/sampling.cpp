#include "framework/runtime/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace perksolve {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <class Real, class F>
void for_owned(const Decomposition& d, const FieldLayout& l, std::vector<Real>& host, F&& f) {
  const auto& off = d.offset();
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i) host[l.index(i, j, k)] = static_cast<Real>(f(off[0] + i, off[1] + j, off[2] + k));
}

}  // namespace

template <class Real>
void sample(Backend<Real>& be, const Decomposition& d, Field<Real>& field, const PointFunction& f) {
  const FieldLayout& l = field.layout();
  std::vector<Real> host(l.size(), Real(0));
  if (f) {
    const GridSpec& g = d.grid();
    for_owned(d, l, host, [&](long gi, long gj, long gk) {
      return f(g.coordinate(0, gi), g.coordinate(1, gj), g.coordinate(2, gk));
    });
  }
  be.upload(field, host);
}

template <class Real>
void sample_random(Backend<Real>& be, const Decomposition& d, Field<Real>& field, std::uint64_t seed) {
  const FieldLayout& l = field.layout();
  std::vector<Real> host(l.size(), Real(0));
  const auto& e = d.grid().extents;
  for_owned(d, l, host, [&](long gi, long gj, long gk) {
    const std::uint64_t global = static_cast<std::uint64_t>(gi + e[0] * (gj + e[1] * gk));
    return static_cast<double>(splitmix64(seed * 0x100000001B3ull + global) >> 11) * 0x1.0p-53;
  });
  be.upload(field, host);
}

template <class Real>
ErrorNorms error_norms(Backend<Real>& be, const Decomposition& d, const Field<Real>& field,
                       const SpaceTimeFunction& exact, double t) {
  const FieldLayout& l = field.layout();
  std::vector<Real> host(l.size());
  be.download(field, host);
  const GridSpec& g = d.grid();
  const auto& off = d.offset();
  double local[3] = {0.0, 0.0, 0.0};  // max err, sum sq, max |exact|
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i) {
        const double ue = exact(g.coordinate(0, off[0] + i), g.coordinate(1, off[1] + j), g.coordinate(2, off[2] + k), t);
        const double e = std::abs(static_cast<double>(host[l.index(i, j, k)]) - ue);
        local[0] = std::max(local[0], e);
        local[1] += e * e;
        local[2] = std::max(local[2], std::abs(ue));
      }
  double maxes[2] = {local[0], local[2]}, gmax[2], sumsq = 0.0;
  MPI_Allreduce(maxes, gmax, 2, MPI_DOUBLE, MPI_MAX, d.comm());
  MPI_Allreduce(&local[1], &sumsq, 1, MPI_DOUBLE, MPI_SUM, d.comm());
  return ErrorNorms{gmax[0], std::sqrt(sumsq / static_cast<double>(g.total_unknowns())), gmax[1]};
}

template <class Real>
std::vector<double> gather_global(Backend<Real>& be, const Decomposition& d, const Field<Real>& field) {
  const FieldLayout& l = field.layout();
  std::vector<Real> host(l.size());
  be.download(field, host);
  // Each rank sends (offset, extents, values); rank 0 scatters into the global array.
  std::vector<double> mine;
  mine.reserve(l.owned_size());
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i) mine.push_back(static_cast<double>(host[l.index(i, j, k)]));
  long meta[6] = {d.offset()[0], d.offset()[1], d.offset()[2], l.n[0], l.n[1], l.n[2]};
  const int size = d.size();
  std::vector<long> all_meta(6 * size);
  MPI_Gather(meta, 6, MPI_LONG, all_meta.data(), 6, MPI_LONG, 0, d.comm());
  std::vector<int> counts(size), displs(size);
  int count = static_cast<int>(mine.size());
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, d.comm());
  long total = 0;
  for (int r = 0; r < size; ++r) {
    displs[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<double> packed(d.rank() == 0 ? total : 0);
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, packed.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, d.comm());
  if (d.rank() != 0) return {};
  const auto& e = d.grid().extents;
  std::vector<double> global(static_cast<size_t>(e[0] * e[1] * e[2]));
  for (int r = 0; r < size; ++r) {
    const long* m = &all_meta[6 * r];
    long p = displs[r];
    for (long k = 0; k < m[5]; ++k)
      for (long j = 0; j < m[4]; ++j)
        for (long i = 0; i < m[3]; ++i) global[(m[0] + i) + e[0] * ((m[1] + j) + e[1] * (m[2] + k))] = packed[p++];
  }
  return global;
}

#define PERKSOLVE_INSTANTIATE(Real)                                                                         \
  template void sample<Real>(Backend<Real>&, const Decomposition&, Field<Real>&, const PointFunction&);  \
  template void sample_random<Real>(Backend<Real>&, const Decomposition&, Field<Real>&, std::uint64_t);  \
  template ErrorNorms error_norms<Real>(Backend<Real>&, const Decomposition&, const Field<Real>&,         \
                                        const SpaceTimeFunction&, double);                               \
  template std::vector<double> gather_global<Real>(Backend<Real>&, const Decomposition&, const Field<Real>&);
PERKSOLVE_INSTANTIATE(float)
PERKSOLVE_INSTANTIATE(double)

}  // namespace perksolve
