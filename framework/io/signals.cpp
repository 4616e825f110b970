#include "framework/io/signals.hpp"

#include <csignal>

namespace perksolve::io {

namespace {

volatile std::sig_atomic_t g_pending = 0;
struct sigaction g_old_term, g_old_usr1;
bool g_installed = false;

extern "C" void on_signal(int signo) { g_pending = signo; }  // async-signal-safe: one store

}  // namespace

SignalGuard::SignalGuard() {
  if (g_installed) return;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // interrupted system calls (MPI progress, file I/O) are restarted
  sigaction(SIGTERM, &sa, &g_old_term);
  sigaction(SIGUSR1, &sa, &g_old_usr1);
  g_installed = true;
}

SignalGuard::~SignalGuard() {
  if (!g_installed) return;
  sigaction(SIGTERM, &g_old_term, nullptr);
  sigaction(SIGUSR1, &g_old_usr1, nullptr);
  g_installed = false;
}

int pending_signal() { return static_cast<int>(g_pending); }
void clear_pending_signal() { g_pending = 0; }
const char* signal_name(int signo) {
  switch (signo) {
    case SIGTERM: return "SIGTERM";
    case SIGUSR1: return "SIGUSR1";
    default: return "signal";
  }
}

}  // namespace perksolve::io
