// Host-side helpers shared by field output and checkpoints: a rank's owned cells as a contiguous
// x-fastest block of the global array, and an order-independent checksum of a global array.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "framework/field/field_layout.hpp"
#include "framework/grid/decomposition.hpp"
#include "framework/io/h5file.hpp"

namespace perksolve::io {

inline Block owned_block(const Decomposition& d) {
  Block b;
  for (int a = 0; a < 3; ++a) {
    b.offset[a] = d.offset()[a];
    b.count[a] = d.local_extents()[a];
  }
  return b;
}

// Owned cells of a downloaded field (ghosts included in `host`) -> x-fastest block of type T in
// `out` (resized; its memory is reused across calls).
template <class T, class Real>
void pack_owned_into(const FieldLayout& l, const std::vector<Real>& host, std::vector<T>& out) {
  out.resize(static_cast<size_t>(l.owned_size()));
  T* o = out.data();
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      const Real* row = &host[l.index(0, j, k)];
      if constexpr (std::is_same_v<T, Real>) {
        std::memcpy(o, row, sizeof(T) * l.n[0]);
        o += l.n[0];
      } else {
        for (int i = 0; i < l.n[0]; ++i) *o++ = static_cast<T>(row[i]);
      }
    }
}
template <class T, class Real>
std::vector<T> pack_owned(const FieldLayout& l, const std::vector<Real>& host) {
  std::vector<T> out;
  pack_owned_into(l, host, out);
  return out;
}

// Block -> owned cells of a host field image (ghosts left as they are).
template <class Real>
void unpack_owned(const FieldLayout& l, const std::vector<Real>& block, std::vector<Real>& host) {
  size_t p = 0;
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j) {
      Real* row = &host[l.index(0, j, k)];
      for (int i = 0; i < l.n[0]; ++i) row[i] = block[p++];
    }
}

inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Sum over the global array of mix(global index, value bits), reduced over the communicator: the same
// for any decomposition, and any flipped bit changes it.
template <class T>
std::uint64_t global_checksum(MPI_Comm comm, const Block& b, const std::array<long, 3>& global, const std::vector<T>& v) {
  std::uint64_t local = 0;
  size_t p = 0;
  for (long k = 0; k < b.count[2]; ++k)
    for (long j = 0; j < b.count[1]; ++j)
      for (long i = 0; i < b.count[0]; ++i) {
        const std::uint64_t g = static_cast<std::uint64_t>((b.offset[0] + i) +
                                                           global[0] * ((b.offset[1] + j) + global[1] * (b.offset[2] + k)));
        std::uint64_t bits = 0;
        std::memcpy(&bits, &v[p++], sizeof(T));
        local += mix64(mix64(g) ^ bits);
      }
  unsigned long long in = local, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  return out;
}

// FNV-1a over bytes, chainable.
inline std::uint64_t fnv1a(const void* data, size_t n, std::uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace perksolve::io
