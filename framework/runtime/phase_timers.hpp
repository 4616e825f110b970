// Phase timers of a run (the timer table): fenced per phase, or off (monitor.phase_timers).
#pragma once

#include <string>

#include "framework/backend/backend.hpp"
#include "framework/config/deck.hpp"
#include "framework/util/timers.hpp"

namespace perksolve {

// "on": every phase is fenced and timed; "off": only set-up, output and the solve totals are timed;
// "auto": on for synchronous (host) backends, where a fence costs nothing, off for asynchronous ones,
// where every fence drains the device queue (a multigrid V-cycle has ~50 phase boundaries).
template <class Real>
void configure_phase_timers(Timers& timers, Backend<Real>& backend, const config::Deck& deck) {
  const std::string mode = deck.get_string("monitor.phase_timers");
  timers.set_phases_enabled(mode == "on" || (mode == "auto" && !backend.asynchronous()));
  timers.set_fence([be = &backend] { be->fence(); });
}

}  // namespace perksolve
