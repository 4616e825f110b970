#include "solvers/common/iteration_chunks.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "solvers/common/stopping.hpp"

namespace perksolve {

IterationChunks::IterationChunks(long check_every, long max_iterations, long first_chunk, double target_s)
    : check_every_(check_every), max_iterations_(max_iterations), chunk_(std::max(first_chunk, check_every)),
      target_s_(target_s) {
  if (check_every < 1 || first_chunk < 1)
    throw std::invalid_argument("IterationChunks: check_every and first_chunk must be >= 1");
}

IterationChunks IterationChunks::for_criterion(const StoppingCriterion& stop, long check_every) {
  return IterationChunks(check_every, iteration_limit(stop));
}

long IterationChunks::iterations(long k, long want) const {
  long n = std::min(chunk_, want - k);
  if (max_iterations_ >= 0) n = std::min(n, max_iterations_ - k);
  return std::max(1L, n);
}

long IterationChunks::sweeps(long k, long want) const {
  long n = std::max(1L, std::min(chunk_, want - k));
  if (max_iterations_ >= 0) {
    // The check that stops on the limit: the first check iteration at or after max(k, limit).
    const long from = std::max(k, max_iterations_);
    const long stop_check = (from + check_every_ - 1) / check_every_ * check_every_;
    n = std::min(n, stop_check - k + 1);
  }
  const long aligned = n - (k + n - 1) % check_every_;  // the largest n' <= n whose last input is a check
  return aligned >= 1 ? aligned : n;
}

void IterationChunks::took(double seconds) {
  if (seconds < target_s_) chunk_ = std::min<long>(chunk_ * 2, 1L << 24);
}

}  // namespace perksolve
