#include "driver/run_control.hpp"

#include <csignal>

namespace ax {

namespace {
volatile std::sig_atomic_t g_stop_signal = 0;
void note_stop_signal(int sig) { g_stop_signal = sig; }
}  // namespace

void install_stop_signal_handlers() {
  for (int sig : {SIGTERM, SIGINT, SIGUSR1}) std::signal(sig, note_stop_signal);
  std::signal(SIGXFSZ, SIG_IGN);
}

int pending_stop_signal() { return int(g_stop_signal); }

const char* signal_name(int sig) {
  switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGUSR1: return "SIGUSR1";
    default: return "a signal";
  }
}

}  // namespace ax
