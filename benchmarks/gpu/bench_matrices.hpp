// Test matrices for the GPU benchmarks, generated in memory as perksolve::CsrMatrix (0-based, columns
// sorted within a row, no duplicates; declared_symmetric = true; rhs and exact left empty):
//   laplace27(n)   3D 27-point box Laplacian on an n^3 grid: diagonal 26, the 26 neighbours -1, Dirichlet
//                  truncation at the boundary, rows x fastest          name "laplace27_<n>"
//   laplace7(n)    3D 7-point Laplacian on an n^3 grid: diagonal 6, the 6 face neighbours -1, Dirichlet
//                  truncation at the boundary, rows x fastest          name "laplace7_<n>"
//   test_matrices() the small matrix families tests/solvers/check_solvers.py writes as Matrix Market files
//                  (same construction): laplace2d_12, laplace3d_7, graph_laplacian_150, anisotropic2d_16,
//                  laplace3d_24 (in this order)
// The two large generators fill rows in parallel on the host's cores (std::thread).
// Header-only, plain host C++.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "framework/operators/csr_operator.hpp"

namespace perksolve::bench {

// Runs f(begin, end) over [0, n) on the host's cores.
template <class F>
void parallel_for(long n, F f) {
  const long nt = std::max(1L, std::min<long>(std::thread::hardware_concurrency(), n / 100000 + 1));
  if (nt == 1) {
    f(0L, n);
    return;
  }
  std::vector<std::thread> ts;
  for (long t = 0; t < nt; ++t) ts.emplace_back([=] { f(n * t / nt, n * (t + 1) / nt); });
  for (auto& t : ts) t.join();
}

// tests/solvers/check_solvers.py splitmix(seed, i): a double in [0, 1).
inline double splitmix(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t x = seed * 0x100000001B3ull + i + 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}

// CSR from (row, col, value) triplets: sorted by row then column, duplicates summed.
inline CsrMatrix from_triplets(long n, std::vector<std::tuple<long, long, double>> t, std::string source) {
  std::sort(t.begin(), t.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b) : std::get<1>(a) < std::get<1>(b);
  });
  CsrMatrix A;
  A.source = std::move(source);
  A.n = n;
  A.declared_symmetric = true;
  A.row_ptr.assign(n + 1, 0);
  for (std::size_t e = 0; e < t.size(); ++e) {
    const auto [r, c, v] = t[e];
    if (e > 0 && std::get<0>(t[e - 1]) == r && std::get<1>(t[e - 1]) == c) {
      A.val.back() += v;
      continue;
    }
    A.col.push_back(c);
    A.val.push_back(v);
    ++A.row_ptr[r + 1];
  }
  for (long r = 0; r < n; ++r) A.row_ptr[r + 1] += A.row_ptr[r];
  return A;
}

// check_solvers.py laplace(dims, scale): the 5-/7-point Laplacian with scale per axis (an axis of extent 1
// contributes nothing).
inline CsrMatrix laplace(int nx, int ny, int nz, double sx = 1, double sy = 1, double sz = 1) {
  const int n[3] = {nx, ny, nz};
  const double sc[3] = {sx, sy, sz};
  auto idx = [&](long i, long j, long k) { return i + nx * (j + static_cast<long>(ny) * k); };
  std::vector<std::tuple<long, long, double>> t;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const long r = idx(i, j, k);
        double d = 0;
        for (int a = 0; a < 3; ++a) {
          if (n[a] == 1) continue;
          d += 2 * sc[a];
          for (int s : {-1, 1}) {
            const int ii = i + (a == 0) * s, jj = j + (a == 1) * s, kk = k + (a == 2) * s;
            if (ii >= 0 && ii < nx && jj >= 0 && jj < ny && kk >= 0 && kk < nz) t.emplace_back(r, idx(ii, jj, kk), -sc[a]);
          }
        }
        t.emplace_back(r, r, d);
      }
  return from_triplets(static_cast<long>(nx) * ny * nz, std::move(t), "generated (check_solvers.py laplace)");
}

// check_solvers.py graph_laplacian(n, seed).
inline CsrMatrix graph_laplacian(long n, std::uint64_t seed) {
  std::vector<std::tuple<long, long, double>> t;
  std::vector<double> deg(n, 0.0);
  std::uint64_t s = seed;
  for (long i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      ++s;
      const long j = static_cast<long>(splitmix(99, s) * static_cast<double>(n));
      if (j == i) continue;
      const double w = 0.5 + splitmix(98, s);
      t.emplace_back(i, j, -w);
      t.emplace_back(j, i, -w);
      deg[i] += w;
      deg[j] += w;
    }
  for (long i = 0; i < n; ++i) t.emplace_back(i, i, deg[i] + 0.1 + splitmix(97, static_cast<std::uint64_t>(i)));
  return from_triplets(n, std::move(t), "generated (check_solvers.py graph_laplacian)");
}

namespace detail {
// Box stencil of half-width 1 on an n^3 grid (x fastest), rows filled in parallel, columns ascending. `box`:
// all 26 neighbours (27-point) or only the 6 face neighbours (7-point); `diag` on the diagonal, -1 elsewhere.
inline CsrMatrix box_laplacian(int n, bool box, double diag, std::string source) {
  CsrMatrix A;
  A.source = std::move(source);
  A.declared_symmetric = true;
  const long N = n, rows = N * N * N;
  A.n = rows;
  A.row_ptr.assign(rows + 1, 0);
  auto span = [n](int i) { return 3 - (i == 0) - (i == n - 1); };  // neighbours along one axis, self included
  parallel_for(rows, [&](long r0, long r1) {
    for (long r = r0; r < r1; ++r) {
      const int i = static_cast<int>(r % N), j = static_cast<int>((r / N) % N), k = static_cast<int>(r / (N * N));
      A.row_ptr[r + 1] = box ? span(i) * span(j) * span(k) : span(i) + span(j) + span(k) - 2;
    }
  });
  for (long r = 0; r < rows; ++r) A.row_ptr[r + 1] += A.row_ptr[r];
  const long nnz = A.row_ptr[rows];
  A.col.resize(nnz);
  A.val.resize(nnz);
  parallel_for(rows, [&](long r0, long r1) {
    for (long r = r0; r < r1; ++r) {
      const int i = static_cast<int>(r % N), j = static_cast<int>((r / N) % N), k = static_cast<int>(r / (N * N));
      long e = A.row_ptr[r];
      for (int dk = -1; dk <= 1; ++dk) {
        if (k + dk < 0 || k + dk >= n) continue;
        for (int dj = -1; dj <= 1; ++dj) {
          if (j + dj < 0 || j + dj >= n) continue;
          for (int di = -1; di <= 1; ++di) {
            if (i + di < 0 || i + di >= n) continue;
            if (!box && (di != 0) + (dj != 0) + (dk != 0) > 1) continue;  // 7-point: faces only
            A.col[e] = r + di + dj * N + dk * N * N;
            A.val[e] = (di | dj | dk) == 0 ? diag : -1.0;
            ++e;
          }
        }
      }
    }
  });
  return A;
}
}  // namespace detail

inline std::string laplace27_name(int n) { return "laplace27_" + std::to_string(n); }
inline std::string laplace7_name(int n) { return "laplace7_" + std::to_string(n); }

// 27-point box Laplacian on an n^3 grid (nnz = (3n - 2)^3).
inline CsrMatrix laplace27(int n) {
  return detail::box_laplacian(n, true, 26.0, "generated: 27-point box, diagonal 26, off-diagonals -1, Dirichlet truncation");
}

// 7-point Laplacian on an n^3 grid (nnz = 7 n^3 - 6 n^2).
inline CsrMatrix laplace7(int n) {
  return detail::box_laplacian(n, false, 6.0, "generated: 7-point, diagonal 6, face neighbours -1, Dirichlet truncation");
}

// The backend's one-rank CSR block of `A` (int32 columns, converted in parallel); `A` is consumed. Throws when
// A has more than 2^31 - 1 rows or entries.
inline CsrBlock to_csr_block(CsrMatrix&& A) {
  if (A.nnz() > INT_MAX || A.n > INT_MAX) throw std::runtime_error(A.source + ": more than 2^31 - 1 rows or entries");
  CsrBlock b;
  b.rows = A.n;
  b.row_ptr = std::move(A.row_ptr);
  b.col.resize(A.col.size());
  parallel_for(static_cast<long>(A.col.size()), [&](long e0, long e1) {
    for (long e = e0; e < e1; ++e) b.col[e] = static_cast<int>(A.col[e]);
  });
  std::vector<long>().swap(A.col);
  b.val = std::move(A.val);
  return b;
}

// The small test matrices, (name, matrix), in the order spmv_bench runs them.
inline std::vector<std::pair<std::string, CsrMatrix>> test_matrices() {
  std::vector<std::pair<std::string, CsrMatrix>> m;
  m.emplace_back("laplace2d_12", laplace(12, 12, 1));
  m.emplace_back("laplace3d_7", laplace(7, 7, 7));
  m.emplace_back("graph_laplacian_150", graph_laplacian(150, 5));
  m.emplace_back("anisotropic2d_16", laplace(16, 16, 1, 0.01, 1.0, 1.0));
  m.emplace_back("laplace3d_24", laplace(24, 24, 24));
  return m;
}

}  // namespace perksolve::bench
