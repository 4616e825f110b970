// The deck keys of solvers that can run their loop inside the backend (PERKS): [solver] persistent and
// persistent_cache_kib, declared once for every such solver.
#pragma once

#include <fmt/format.h>

#include <string>

#include "framework/backend/backend.hpp"
#include "framework/config/deck.hpp"
#include "framework/config/schema.hpp"

namespace perksolve {

struct PersistentOptions {
  std::string mode = "auto";  // auto | on | off
  long cache_bytes = -1;      // on-chip cache per block; -1: the backend's concurrency model decides

  static PersistentOptions from_deck(const config::Deck& deck) {
    PersistentOptions o;
    o.mode = deck.get_string("solver.persistent");
    const long kib = deck.get_int("solver.persistent_cache_kib");
    o.cache_bytes = kib < 0 ? -1 : kib * 1024;
    return o;
  }
};

// The log line of a solver's first persistent stencil launch.
inline std::string describe_launch(const std::string& solver, const PersistentSweeps& run) {
  return fmt::format("{}: persistent kernel, {} blocks x {} threads, {} cached planes per block ({:.1f} % of the domain "
                     "on chip; model speed-up {:.2f} over per-sweep kernels)",
                     solver, run.blocks, run.threads, run.cache_planes, 100.0 * run.cached_fraction, run.model_speedup);
}

// `what`: the loop the kernel runs and where it is available, for the key's help text; `def`: the default
// ("auto" where the persistent loop measured faster, docs/perf/perks.md), `why` explains another default.
inline config::KeySpec persistent_mode_key(const std::string& what, const std::string& def = "auto",
                                           const std::string& why = "") {
  return config::key_string("persistent", def, {"auto", "on", "off"},
                            "run " + what + " as one persistent kernel per chunk of iterations (PERKS): auto = where "
                            "possible, on = required (an error otherwise), off = one backend operation at a time" +
                                (why.empty() ? std::string() : "; " + why));
}
inline config::KeySpec persistent_cache_key() {
  return config::with_range(
      config::key_int("persistent_cache_kib", -1,
                      "on-chip cache per thread block of a persistent stencil kernel, KiB: -1 = all that fits (the "
                      "resident kernel keeps the whole domain on chip where it fits, else the pipelined kernel "
                      "streams it), 0 = nothing cached (always the pipelined kernel), > 0 = at most this much "
                      "(docs/perf/perks.md)"),
      -1, std::nullopt);
}

}  // namespace perksolve
