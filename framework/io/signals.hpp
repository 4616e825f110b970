// SIGTERM / SIGUSR1 -> "checkpoint and stop at the next iteration boundary". The handler only sets a
// flag (async-signal-safe); the output layer polls it between iterations and all ranks agree on it.
#pragma once

namespace perksolve::io {

// Installs the handlers for SIGTERM and SIGUSR1 while alive; the previous handlers come back on
// destruction. Not nestable.
class SignalGuard {
 public:
  SignalGuard();
  ~SignalGuard();
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;
};

// The last signal caught (SIGTERM or SIGUSR1), or 0.
int pending_signal();
void clear_pending_signal();
const char* signal_name(int signo);

}  // namespace perksolve::io
