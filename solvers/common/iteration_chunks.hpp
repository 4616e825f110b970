// Chunks of iterations that a solver hands to a backend loop (a persistent kernel, PERKS: persistent CG,
// persistent Jacobi and stencil sweeps). A chunk
//  * ends where the output layer wants a state (IterationObserver::next_wanted_iteration),
//  * never runs past the check at which the iteration limit stops the solve,
//  * starts at `first_chunk` iterations and doubles while a chunk takes less than `target_s`, so that
//    progress lines, signals and wall-time limits stay responsive.
#pragma once

namespace perksolve {

class StoppingCriterion;

class IterationChunks {
 public:
  // max_iterations < 0: no limit. check_every >= 1.
  IterationChunks(long check_every, long max_iterations, long first_chunk = 64, double target_s = 0.1);
  // The iteration limit of `stop` (its MaxIterations member, when it is an AnyOf with one).
  static IterationChunks for_criterion(const StoppingCriterion& stop, long check_every);

  // Iterations of a chunk that starts at the top of iteration k and whose end state is checked by the solver
  // itself (CG: the loop tests the state at k + n): 1 <= n <= want - k, and n <= max_iterations - k.
  long iterations(long k, long want) const;

  // Sweeps of a chunk from x_k whose LAST sweep's input is the state a check sees (Jacobi: the sweep that
  // computes ||b - A x_j|| also computes x_{j+1}, and a stop keeps x_j). The end state x_{k+n} is not past
  // `want`; the last input k + n - 1 is never after the check at which the iteration limit stops, and is a
  // check iteration where the other bounds allow it (so a wall-time limit is tested at chunk ends).
  long sweeps(long k, long want) const;

  // After a chunk that took `seconds`: the next chunk doubles while chunks are short.
  void took(double seconds);
  long size() const { return chunk_; }

 private:
  long check_every_;
  long max_iterations_;
  long chunk_;
  double target_s_;
};

}  // namespace perksolve
