// A x = b with A read from a Matrix Market file (coordinate; real or integer; general or symmetric),
// the format of the SuiteSparse collection. The right-hand side is all ones, uniform random in
// [0, 1) from a seed, or A x* for a known x* (then the error against x* is reported).
// The [grid] table is required by the deck format but unused: the rows are distributed in blocks.
#include <cstdint>
#include <filesystem>
#include <memory>

#include "framework/operators/csr_operator.hpp"
#include "framework/problem/problem.hpp"

namespace perksolve {
namespace {

double hash01(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t x = seed * 0x100000001B3ull + i + 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

class MatrixMarket final : public Problem {
 public:
  MatrixMarket(std::string file, std::string rhs, long seed) : file_(std::move(file)), rhs_(std::move(rhs)), seed_(seed) {}

  ProblemSetup setup(const GridSpec&, const config::Deck& deck) const override {
    // Relative paths: from the working directory, else from the deck's directory.
    std::filesystem::path path(file_);
    if (path.is_relative() && !std::filesystem::exists(path) && !deck.file().empty()) {
      const auto alt = std::filesystem::path(deck.file()).parent_path() / path;
      if (std::filesystem::exists(alt)) path = alt;
    }
    if (!std::filesystem::exists(path))
      throw deck.error_at("problem.file", "Matrix Market file '" + file_ + "' not found (relative paths are tried from "
                                          "the working directory and from the deck's directory)");
    auto A = std::make_shared<CsrMatrix>(read_matrix_market(path.string()));
    const long n = A->n;
    A->rhs.assign(n, 1.0);
    if (rhs_ == "random") {
      for (long i = 0; i < n; ++i) A->rhs[i] = hash01(seed_, i);
    } else if (rhs_ == "ax") {
      A->exact.resize(n);
      for (long i = 0; i < n; ++i) A->exact[i] = hash01(seed_, i) - 0.5;
      for (long i = 0; i < n; ++i) {
        double s = 0.0;
        for (long e = A->row_ptr[i]; e < A->row_ptr[i + 1]; ++e) s += A->val[e] * A->exact[A->col[e]];
        A->rhs[i] = s;
      }
    }
    ProblemSetup p;
    p.matrix = std::move(A);
    return p;
  }

 private:
  std::string file_, rhs_;
  long seed_;
};

PERKSOLVE_REGISTER_PROBLEM(ProblemInfo{
    "matrix_market",
    "A x = b with A from a Matrix Market (.mtx) file; b = ones, random, or A x* for a known x*",
    {config::key_string("file", std::nullopt, {}, "path of the .mtx file (relative: to the working directory, else to "
                                                  "the deck's directory)"),
     config::key_string("rhs", std::string("ones"), {"ones", "random", "ax"},
                        "right-hand side: all ones, uniform random in [0, 1) from `seed`, or A x* with x* random in "
                        "[-0.5, 0.5) from `seed` (the error against x* is reported)"),
     config::with_range(config::key_int("seed", 1, "seed of the random right-hand side / known solution"), 0,
                        std::nullopt)},
    [](const config::Deck& d) -> std::unique_ptr<Problem> {
      return std::make_unique<MatrixMarket>(d.get_string("problem.file"), d.get_string("problem.rhs"),
                                            d.get_int("problem.seed"));
    }});

}  // namespace
}  // namespace perksolve
